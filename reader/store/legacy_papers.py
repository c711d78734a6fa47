"""The move from one papers.json per library to catalogue files per device.

Up to this release the catalogue was one JSON file, `papers.json`, at the top of
the library folder, rewritten whole by every import. On first open its papers
become this device's first catalogue file (see paper_files.py), stamped at the
time papers.json was last written (so any import made since, on any device,
wins). The new file is read back and checked to hold every paper unchanged; only
then is papers.json moved into `backups/<device>/`, never deleted.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from reader.core import say
from reader.core.hlc import stamp
from reader.core.models import Paper
from reader.store import paper_files
from reader.store.storage import StorageError, fsync_dir, parse_document, reason

if TYPE_CHECKING:
    from reader.store.files import LibraryFolder


def _papers(store: LibraryFolder) -> tuple[list[Paper], int]:
    """papers.json's papers, and how many of its documents are not papers."""
    path = store.papers_path
    data = store.legacy_papers
    if data is None:
        try:
            data = parse_document(path, path.read_bytes())
        except OSError as exc:
            why = say._("{path}: cannot be read ({reason})")
            raise StorageError(why.format(path=path, reason=reason(exc))) from exc
    docs: Any = data.get("papers", {})
    papers, bad = [], 0
    for pid, doc in docs.items():
        try:
            papers.append(Paper.from_document(pid, doc))
        except (TypeError, ValueError, KeyError, AttributeError):
            bad += 1
    return papers, bad


def migrate_papers_json(store: LibraryFolder) -> str | None:
    """papers.json of an earlier version moved into this device's catalogue files;
    returns what to tell the user (None: there was none). StorageError if it could
    not be done: papers.json is then left where it is, tried again next time."""
    path = store.papers_path
    if not path.exists() or store.read_only():
        return None

    def run() -> str | None:
        if not path.exists():  # (another process moved it meanwhile)
            return None
        papers, bad = _papers(store)
        written_at = stamp(os.stat(path).st_mtime_ns // 1_000_000, 0, store.device)
        name = paper_files.write_file(store.device_dir, papers, written_at) if papers else ""
        problems: list[str] = []
        back = paper_files.read_file(store.folder, name, problems) if papers else None
        if papers and (back is None or problems or back.papers != papers):
            os.unlink(store.folder / name)
            why = say._("{path}: did not read back as written")
            raise StorageError(why.format(path=store.folder / name))
        kept = store.folder / "backups" / store.device / f"papers-{written_at[:13]}.json"
        kept.parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, kept)
        fsync_dir(path.parent)
        if not papers:
            told = say._(
                "The catalogue of an earlier version, {file}, held no papers; it was kept as"
                " {kept}."
            )
        elif bad:
            told = say._(
                "The catalogue of an earlier version, {file}, now lives in {name} ({bad} entries"
                " that were not papers were left out); it was kept as {kept}."
            )
        else:
            told = say._(
                "The catalogue of an earlier version, {file}, now lives in {name}; it was kept"
                " as {kept}."
            )
        return told.format(file=path.name, name=name, bad=bad, kept=kept)

    try:
        message = store.locked(run)
    except OSError as exc:
        why = say._("{path}: could not be moved to the new catalogue ({error})")
        raise StorageError(why.format(path=path, error=exc)) from exc
    store.legacy_papers = None
    return message
