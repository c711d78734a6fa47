"""The move from one annotations.json per library to one folder per device.

Up to this release a library kept what the user wrote in `annotations.json` and
`annotations.journal` at the top of the library folder. On first open they become
the records of a device of their own, `devices/imported-<hash>/`, named after their
bytes: two computers opening the same synced files make the same folder with the
same content, which a syncer sees as one. Every value is stamped at the time the
annotation was last modified (so any edit made since, on any device, wins).

Before anything is written the two files are copied into `backups/<device>/`
and read back; the new file is read back and checked to give every annotation
and setting unchanged; only then are the old files removed.
"""

from __future__ import annotations

import datetime as dt
import os
import shutil
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from reader.core import say
from reader.core.crdt import max_stamp, view
from reader.core.hlc import stamp
from reader.core.models import Annotation
from reader.store.device import DEVICES_DIR
from reader.store.journal import JOURNAL_FILE, replayed, scan
from reader.store.storage import (
    DamagedFileError,
    StorageError,
    atomic_write,
    dump_json,
    fsync_dir,
    parse_document,
    reason,
)

if TYPE_CHECKING:
    from reader.store.files import LibraryFolder

LEGACY_FILES = ("annotations.json", JOURNAL_FILE)
_FIELDS = frozenset({"status", "rating", "tags", "highlights", "note"})


def _ms(iso: Any) -> int:
    """The time `iso` names, in ms; 0 if it names none; now if it is later (a clock
    that was ahead: a stamp in the future would beat every edit made from now on)."""
    if not isinstance(iso, str) or not iso:
        return 0
    try:
        when = dt.datetime.fromisoformat(iso.replace("Z", "+00:00"))
    except ValueError:
        return 0
    if when.tzinfo is None:
        when = when.replace(tzinfo=dt.UTC)
    try:
        ms = int(when.timestamp() * 1000)
    except (OverflowError, OSError, ValueError):
        return 0
    return min(max(ms, 0), int(time.time() * 1000))


def record_of(ann: Annotation, device: str, fields: frozenset[str] | None = None) -> dict[str, Any]:
    """A device record holding `ann` as it is, stamped at its modification time (its
    tags and highlights one counter step apart, in their order)."""
    ms = _ms(ann.modified)
    at = stamp(ms, 0, device)

    def nth(i: int) -> str:
        return stamp(ms, min(i, 9999), device)

    record: dict[str, Any] = {
        "status": {"v": ann.status.value, "at": at},
        "rating": {"v": ann.rating, "at": at},
        "tags": {
            tag.casefold(): {"v": tag, "at": at, "born": nth(i)} for i, tag in enumerate(ann.tags)
        },
        "tag_order": {"v": [tag.casefold() for tag in ann.tags], "at": at},
        "highlights": {
            h.id: {
                "v": {k: v for k, v in h.to_dict().items() if k != "id"},
                "at": at,
                "born": nth(i),
            }
            for i, h in enumerate(ann.highlights)
        },
        "note": {"v": ann.note, "at": at, "seen": {}},
        "created": ann.created,
        "modified": ann.modified,
    }
    if fields is not None:  # only what the saves held (a journal without its file)
        keep = fields | {"created", "modified"} | ({"tag_order"} if "tags" in fields else set())
        record = {name: value for name, value in record.items() if name in keep}
    return record


def _copy_verified(source: Path, target: Path) -> None:
    raw = source.read_bytes()
    shutil.copyfile(source, target)
    with open(target, "rb+") as f:
        os.fsync(f.fileno())
    if target.read_bytes() != raw:
        why = say._("{target}: the backup does not read back as {source}")
        raise StorageError(why.format(target=target, source=source))


def migrate_legacy(store: LibraryFolder) -> list[str]:
    """Move a library's annotations.json and annotations.journal of an earlier
    release into a device folder (see the module's docstring); what to tell the
    user. Nothing is done in a read-only library (its old files are not read then)."""
    folder = store.folder
    if not any((folder / name).exists() for name in LEGACY_FILES):
        return []
    if store.read_only() is not None:
        later = say._(
            "{path} is from an earlier Paper Reader; it is read when the library can be"
            " written (the folder is read-only now)."
        )
        return [later.format(path=folder / "annotations.json")]
    return store.locked(lambda: _migrate_locked(store))


def _migrate_locked(store: LibraryFolder) -> list[str]:
    from reader.store.backups import stamp_now
    from reader.store.merged import annotation_from

    folder = store.folder
    paths = [folder / name for name in LEGACY_FILES]
    raws = [p.read_bytes() if p.exists() else b"" for p in paths]
    if not any(p.exists() for p in paths):
        return []  # another program moved them meanwhile
    told: list[str] = []
    doc: dict[str, Any] = {}
    if raws[0]:
        try:
            doc = parse_document(paths[0], raws[0])
        except DamagedFileError as exc:
            kept = say._("{problem}. Its readable backup, if any, is in {folder}.")
            told.append(kept.format(problem=exc, folder=folder / "backups"))
            doc = _newest_legacy_backup(folder) or {}
    table = doc.get("annotations") if isinstance(doc.get("annotations"), dict) else {}
    changes = scan(raws[1]).changes
    table = replayed(dict(table or {}), changes)
    # a journal without its annotations.json (left by a crash or a syncer between
    # the two removals): each annotation holds only the fields its saves held
    partial: dict[str, frozenset[str]] | None = None
    if not raws[0]:
        partial = {}
        for change in changes:
            for pid, fields in change.items():
                names = frozenset(fields or ()) & _FIELDS
                partial[pid] = partial.get(pid, frozenset()) | names
    import hashlib  # (once per legacy library: OpenSSL takes ~3 ms to load)

    digest = hashlib.sha256(raws[0] + b"\0" + raws[1]).hexdigest()[:8]
    device = f"imported-{digest}"
    # 1. the verified backup, before anything is written
    backup = folder / "backups" / store.device / f"before-devices-{stamp_now()}"
    try:
        backup.mkdir(parents=True, exist_ok=True)
        for path in paths:
            if path.exists():
                _copy_verified(path, backup / path.name)
    except OSError as exc:
        why = say._("{backup}: cannot back up the annotations ({reason})")
        raise StorageError(why.format(backup=backup, reason=reason(exc))) from exc
    # 2. the device folder of the imported annotations
    problems: list[str] = []
    zero = stamp(0, 0, device)
    records = {}
    for pid, plain in table.items():
        if not isinstance(plain, dict):
            continue
        ann = annotation_from(pid, plain, problems)
        if ann.is_empty and partial is None:  # (a save may have emptied it: that counts)
            continue
        records[pid] = record_of(ann, device, None if partial is None else partial.get(pid))
    # (its clock: the latest stamp in it, so that a reader need not look at each)
    clock = max((max_stamp(r) for r in records.values()), default=zero)
    new_doc: dict[str, Any] = {
        "_meta": {"imported": {"sha256-8": digest}, "clock": {"stamp": clock}}
    }
    new_doc["annotations"] = records
    for name, docs in doc.items():
        if name in ("annotations", "_meta") or not isinstance(docs, dict):
            continue
        new_doc[name] = {
            str(k): {"v": dict(v), "at": zero} for k, v in docs.items() if isinstance(v, dict)
        }
    target = folder / DEVICES_DIR / device
    target.mkdir(parents=True, exist_ok=True)
    out = target / "annotations.json"
    atomic_write(out, dump_json(new_doc, indent=True))
    # 3. read back: every annotation as it was
    back = parse_document(out, out.read_bytes())
    for pid, record in records.items():
        if view([(device, back["annotations"].get(pid))]) != view([(device, record)]):
            why = say._("{path}: the annotation of {id} did not read back as written")
            raise StorageError(why.format(path=out, id=pid))
    if any(back.get(name) != new_doc[name] for name in new_doc):
        why = say._("{path}: the settings did not read back as written")
        raise StorageError(why.format(path=out))
    # 4. the old files go (their copies are in the backup)
    for path in paths:
        if path.exists():
            path.unlink()
    fsync_dir(folder)
    moved = say._(
        "Moved the {count} annotations of {folder} into {target}, so that the library "
        "can be shared between computers; the earlier files are kept in {backup}."
    )
    told.append(moved.format(count=len(records), folder=folder, target=target, backup=backup))
    return told


def _newest_legacy_backup(folder: Path) -> dict[str, Any] | None:
    from reader.store.backups import Backups

    found = Backups(folder).newest_good()
    if found is None:
        return None
    info, raw = found
    try:
        return parse_document(info.path, raw)
    except DamagedFileError:
        return None
