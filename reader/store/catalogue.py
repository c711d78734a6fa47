"""Documents on disk into the core's values: papers.json into Papers, annotation documents
into Annotations."""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, cast

from reader.core import collector
from reader.core.models import Annotation, Paper
from reader.store import snapshot
from reader.store.storage import load_document


def read_catalogue(path: Path) -> dict[str, Paper | None]:
    """papers.json read into Papers by id (None for a document that is not one; {}
    if there is no file). The documents become Papers piece by piece as the file
    is parsed (sharing their strings), so the file's parsed documents are never all
    in memory; StorageError (DamagedFileError) if the file cannot be used."""
    pool: dict[str, str] = {}  # values repeated from paper to paper, shared

    def to_paper(pid: str, doc: dict[str, Any]) -> Paper | None:
        try:
            return Paper.from_document(pid, doc, pool)
        except (TypeError, ValueError, KeyError):
            return None

    def to_papers(docs: dict[str, Any]) -> dict[str, Any]:
        return {pid: to_paper(pid, doc) for pid, doc in docs.items()}

    with collector.paused():  # 100k new objects would trigger many useless passes
        data = load_document(path, to_papers) or {}
    papers: dict[str, Paper | None] = data.get("papers", {})
    return papers


class Catalogue:
    """papers.json read once (from its snapshot when it has a good one) and kept
    until taken: recovery's check, is_empty() and loading parse the file once. A
    big catalogue read from papers.json leaves its snapshot to write, for next time."""

    def __init__(self, path: Path, *, defer_snapshot: bool = False) -> None:
        self.path = path
        #: leave writing the snapshot to snapshot_steps() instead of take()
        self.defer_snapshot = defer_snapshot
        self._papers: dict[str, Paper | None] | None = None
        #: papers.json's signature when it was read, if its snapshot should be written
        self._snapshot_due: snapshot.Signature | None = None
        #: the snapshot left for snapshot_steps(): papers.json's signature, its papers
        self._snapshot_left: tuple[snapshot.Signature, list[Paper]] | None = None
        #: papers.json's signature when read() last read it
        self._read_as: snapshot.Signature | None = None
        #: papers.json's signature while it holds just what take() handed over and what
        #: was written since (None: not known to): what leave_snapshot() may snapshot
        self._holds_ours: snapshot.Signature | None = None

    def read(self) -> dict[str, Paper | None]:
        """The papers by id (None for a document that is not one), kept until taken."""
        if self._papers is None:
            self._snapshot_due = None
            before = self._read_as = self._signature()
            fast = snapshot.load(self.path, current=before) if before is not None else None
            if fast is not None:  # a fresh dict: kept as it is, not copied (100k entries)
                self._papers = cast("dict[str, Paper | None]", fast)
                return self._papers
            self._papers = read_catalogue(self.path)
            papers = self._papers
            if (
                before is not None
                and len(papers) >= snapshot.MIN_PAPERS
                and None not in papers.values()
            ):
                self._snapshot_due = before  # written if papers.json is still the file read
        return self._papers

    def drop(self) -> None:
        """Forget what was read: the next read() goes to the file."""
        self._papers = None

    def take(self, problems: list[str]) -> list[Paper]:
        """The papers that could be read, handed over (not kept twice in memory);
        the others are told in `problems`."""
        papers = self.read()
        self._papers = None
        bad = (
            [pid for pid, paper in papers.items() if paper is None]
            if None in papers.values()
            else []
        )
        self._holds_ours = None if bad else self._read_as
        if bad:
            problems.append(f"{self.path}: skipped {len(bad)} papers that could not be read.")
            return [paper for paper in papers.values() if paper is not None]
        loaded: list[Paper] = list(papers.values())  # type: ignore[arg-type]
        if self._snapshot_due is not None:  # read from papers.json: next time, from a snapshot
            if self.defer_snapshot:
                self._snapshot_left = (self._snapshot_due, loaded)
            else:
                snapshot.save(self.path, self._snapshot_due, loaded)
            self._snapshot_due = None
        return loaded

    def snapshot_steps(self) -> Iterator[None] | None:
        """Writing the snapshot take() left (with defer_snapshot), a few ms per step;
        None if there is none to write."""
        # read once: an import's worker thread may drop it meanwhile (rewriting())
        left, self._snapshot_left = self._snapshot_left, None
        if left is None:
            return None
        made_from, papers = left
        return snapshot.writing(self.path, made_from, papers)

    def snapshot_left(self) -> bool:
        return self._snapshot_left is not None

    @contextmanager
    def rewriting(self) -> Iterator[None]:
        """papers.json is rewritten inside (under the lock), papers added to what it
        held: what was read, its snapshot, are outdated."""
        ours = self._holds_ours is not None and self._signature() == self._holds_ours
        self._papers = self._snapshot_left = self._holds_ours = None
        snapshot.forget(self.path)
        yield
        self._holds_ours = self._signature() if ours else None  # (not reached if the write failed)

    def leave_snapshot(self, papers: Sequence[Paper]) -> bool:
        """`papers`, what the catalogue holds after the papers written (the library's),
        left for snapshot_steps() (when big enough), so that the next open reads them
        from a snapshot. False if nothing was left: papers.json may hold others
        (another process wrote it, or some papers could not be read)."""
        if self._holds_ours is None or len(papers) < snapshot.MIN_PAPERS:
            return False
        self._snapshot_left = (self._holds_ours, list(papers))
        return True

    def _signature(self) -> snapshot.Signature | None:
        try:
            return snapshot.signature(os.stat(self.path))
        except OSError:
            return None


_LIST_FIELDS = ("tags", "highlights")


def annotation_from(pid: str, doc: Mapping[str, Any], problems: list[str]) -> Annotation:
    """An Annotation from a stored document; a field of the wrong type is dropped
    (and reported) instead of stopping the app. The file itself is not changed."""
    try:
        return Annotation.from_document(pid, doc)
    except (TypeError, ValueError, AttributeError):
        pass
    kept = {
        k: v
        for k, v in doc.items()
        if not (k in _LIST_FIELDS and not isinstance(v, (list, str)))
        and not (k in ("note", "status") and not isinstance(v, str))
    }
    problems.append(f"annotation of {pid}: some fields could not be read and are ignored.")
    try:
        return Annotation.from_dict({**kept, "paper_id": pid})
    except (TypeError, ValueError, AttributeError):
        return Annotation(pid)
