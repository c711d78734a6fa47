"""A library folder on disk: papers.json and annotations.json, locked writes, loading."""

from __future__ import annotations

import contextlib
import copy
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from tinydb import TinyDB
from tinydb.table import Table

from reader.core.models import Annotation, Paper
from reader.store import journal
from reader.store.catalogue import Catalogue, annotation_from
from reader.store.journal import JOURNAL_FILE, DamagedJournal, Journal, replayed
from reader.store.locking import LOCK_FILE, LibraryLock, Timeout, make_lock, run_locked
from reader.store.migrations import SCHEMA_VERSION
from reader.store.storage import (
    AtomicJSONStorage,
    Signature,
    StorageError,
    check_writable,
    path_signature,
    read_only_reason,
    reason,
    remove_stale_temp_files,
)

PAPERS_FILE = "papers.json"
ANNOTATIONS_FILE = "annotations.json"
BACKUPS_DIR = "backups"
if TYPE_CHECKING:
    from reader.store.backups import Backups

T = TypeVar("T")


class _KeyedTable(Table):
    """A table whose document ids are our paper ids (strings), not counters."""

    document_id_class = str  # type: ignore[assignment]


class _KeyedDB(TinyDB):
    table_class = _KeyedTable


def _open_db(path: Path, *, indent: bool) -> Any:
    return _KeyedDB(path, storage=AtomicJSONStorage, indent=indent)


class LibraryFolder:
    """The LibraryStore of reader.core.library, backed by TinyDB files in a folder.

    Every write holds the folder's OS lock for that write only and re-reads the
    file first if another process changed it, so two writers lose no update.
    Annotation saves are lines appended to annotations.journal (see journal.py),
    folded into annotations.json now and then."""

    def __init__(self, folder: Path, *, defer_snapshot: bool = False) -> None:
        self.folder = folder
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StorageError(
                f"{folder}: cannot create the library folder ({reason(exc)})"
            ) from exc
        if not folder.is_dir():
            raise StorageError(f"{folder}: not a folder")
        self._lock = make_lock(folder)
        self._papers_db = _open_db(folder / PAPERS_FILE, indent=False)
        self._ann_db = _open_db(folder / ANNOTATIONS_FILE, indent=True)
        #: files found damaged that could not be moved aside: read as empty, never written
        self.unreadable: set[str] = set()
        #: problems met while loading (records that could not be read), for the user
        self.problems: list[str] = []
        #: papers.json read at start, until load_papers() hands it over; with
        #: defer_snapshot, the snapshot of a big one is left to snapshot_steps() (the
        #: window writes it after its first paint) instead of written by load_papers()
        self._catalogue = Catalogue(folder / PAPERS_FILE, defer_snapshot=defer_snapshot)
        #: annotations.journal: the saves not yet folded into annotations.json
        self._journal = Journal(folder)
        #: annotations.json as last loaded (or since rewritten by us alone)
        self._ann_seen: Signature | None = None
        self.removed_temp_files = self._remove_stale_temp_files()

    @property
    def papers_path(self) -> Path:
        return self.folder / PAPERS_FILE

    @property
    def annotations_path(self) -> Path:
        return self.folder / ANNOTATIONS_FILE

    @property
    def journal_path(self) -> Path:
        return self._journal.path

    @property
    def lock(self) -> LibraryLock:
        return self._lock

    @property
    def backups(self) -> Backups:
        """The Backups of this folder, sharing its lock."""
        from reader.store.backups import Backups

        return Backups(self.folder, lock=self._lock, fold=self._fold_locked)

    def read_only(self) -> str | None:
        """Why this library cannot be saved (read-only folder or file), or None."""
        for path in (self.annotations_path, self.journal_path, self.papers_path):
            why = read_only_reason(path)
            if why:
                return why
        return None

    def _remove_stale_temp_files(self) -> list[Path]:
        # Only when nobody holds the lock: a temp file of a live writer looks the same.
        if read_only_reason(self.folder / LOCK_FILE):
            return []
        try:
            with self._lock.acquire(timeout=0):
                removed = remove_stale_temp_files(self.folder)
                if (self.folder / BACKUPS_DIR).is_dir():
                    removed += remove_stale_temp_files(self.folder / BACKUPS_DIR)
                return removed
        except (Timeout, OSError):
            return []

    def locked(self, fn: Callable[[], T]) -> T:
        """Run `fn` holding the library lock; OS errors become StorageError."""
        return run_locked(self._lock, self.folder, fn)

    def _refuse_unreadable(self, name: str) -> None:
        if name in self.unreadable:
            raise StorageError(f"{self.folder / name}: the file is damaged; not overwriting it")

    # -- LibraryStore -----------------------------------------------------

    def is_empty(self) -> bool:
        if PAPERS_FILE in self.unreadable:
            return False
        return not self._catalogue.read()

    def load_papers(self) -> list[Paper]:
        if PAPERS_FILE in self.unreadable:
            return []
        return self._catalogue.take(self.problems)

    def snapshot_steps(self) -> Iterator[None] | None:
        """Writing the catalogue's snapshot that loading left (with defer_snapshot), a
        few ms per step; None if there is none to write."""
        return self._catalogue.snapshot_steps()

    def snapshot_left(self) -> bool:
        """Whether loading left a snapshot for snapshot_steps() to write."""
        return self._catalogue.snapshot_left()

    def load_annotations(self) -> dict[str, Annotation]:
        """annotations.json with the journal's saves applied."""
        if ANNOTATIONS_FILE in self.unreadable:
            return {}
        storage = self._ann_db.storage
        table = (storage.read() or {}).get("annotations", {})
        self._ann_seen = storage.signature
        if JOURNAL_FILE not in self.unreadable:
            table = replayed(table, self._journal.load(cache_key=storage.signature).changes)
        out = {}
        for doc_id, doc in table.items():
            ann = annotation_from(doc_id, doc, self.problems)
            out[ann.paper_id] = ann
        return out

    def reload_annotations(self) -> dict[str, Annotation] | None:
        if ANNOTATIONS_FILE in self.unreadable:
            return None
        if path_signature(self.annotations_path) == self._ann_seen and not self._journal.changed():
            return None
        return self.load_annotations()

    def write_annotations(self, changes: Mapping[str, Mapping[str, Any] | None]) -> None:
        """One durable line appended to the journal: the same cost whatever the size
        of annotations.json. Past journal.FOLD_BYTES the journal is folded."""
        self._refuse_unreadable(ANNOTATIONS_FILE)
        self._refuse_unreadable(JOURNAL_FILE)
        check_writable(self.annotations_path)  # a file the user made read-only stays so

        def append() -> None:
            try:
                size, _ = self._journal.append(changes)
            except DamagedJournal:  # keep its good lines, move it aside, start anew
                self._fold_told()
                size, _ = self._journal.append(changes)
            if size > journal.FOLD_BYTES:
                try:
                    self._fold_told()
                except StorageError:
                    pass  # the save itself is durable; the fold is tried again next save

        self.locked(append)

    def _fold_locked(self, mutate: Callable[[dict[str, Any]], None] | None = None) -> str | None:
        """Fold the journal into annotations.json (applying `mutate` to the document
        too); returns what to tell the user. Call it holding the lock."""
        self._refuse_unreadable(ANNOTATIONS_FILE)
        storage = self._ann_db.storage
        known = (
            path_signature(self.annotations_path) == self._ann_seen and not self._journal.changed()
        )
        try:
            wrote, message = journal.fold(self._journal, storage.read, storage.write, mutate)
        finally:
            self._ann_db.clear_cache()
        if wrote and known:  # what we had loaded plus what we wrote: all known
            self._ann_seen = storage.signature
            self._journal.mark_seen()
        return message

    def _fold_told(self, mutate: Callable[[dict[str, Any]], None] | None = None) -> None:
        message = self._fold_locked(mutate)
        if message:
            self.problems.append(message)

    def fold_journal(self) -> str | None:
        """Fold the journal into annotations.json now (under the lock); returns what
        to tell the user (a damaged journal moved aside), if anything."""
        return self.locked(self._fold_locked)

    def journal_problem(self) -> tuple[StorageError | None, int]:
        """Why the journal cannot be used fully (DamagedJournal: a damaged line, the
        lines before it still used; StorageError: unreadable) and how many saves it
        holds that can be used."""
        try:
            _, found = self._journal.read(cache_key=self._ann_db.storage.signature)
        except StorageError as exc:
            return exc, 0
        if found.damaged:
            return DamagedJournal(f"{self.journal_path}: {found.damaged}"), len(found.changes)
        return None, len(found.changes)

    def add_papers(self, papers: Sequence[Paper]) -> None:
        """papers.json rewritten with `papers` added or replaced, after a backup of
        annotations.json. Nothing on the annotations' side changes (the backup is a copy
        with the journal's saves in it, the journal is not folded) and its files are read
        under the lock only, so a worker thread may run this while another thread uses
        the folder for annotations (a save waits for the lock meanwhile). The catalogue's
        snapshot is for after it (leave_snapshot)."""
        self._refuse_unreadable(PAPERS_FILE)
        # an import may also restore annotations: keep a copy of what the user wrote first
        if ANNOTATIONS_FILE not in self.unreadable and (
            self.annotations_path.exists() or self.journal_path.exists()
        ):
            self.backups.take_copy("before-import")
        table = self._papers_db.table("papers")
        # parsed before the lock is taken (~0.5 s at 100k papers), not while saves wait
        # for it: under it, papers.json is read again only if another process wrote it
        self._papers_db.storage.read()

        def mutate(docs: dict[str, dict[str, Any]]) -> None:
            for paper in papers:
                data = paper.to_dict()
                del data["id"]
                docs[paper.id] = data

        def write() -> None:
            with self._catalogue.rewriting():  # (papers.json's signatures, taken under the lock)
                table._update_table(mutate)

        self.locked(write)

    def leave_snapshot(self, papers: Sequence[Paper]) -> bool:
        """After add_papers(): `papers`, the whole catalogue as the library now holds
        it, kept for snapshot_steps() to write a snapshot of (a big one), so that the
        next open need not parse papers.json. False if none is left."""
        return self._catalogue.leave_snapshot(papers)

    # -- small tables of user data (tag colours, saved searches, preferences) --

    def load_table(self, name: str) -> dict[str, dict[str, Any]]:
        if ANNOTATIONS_FILE in self.unreadable:
            return {}
        docs = self._ann_db.table(name)._read_table()
        return {str(k): dict(v) for k, v in docs.items() if isinstance(v, dict)}

    def write_table(self, name: str, changes: Mapping[str, Mapping[str, Any] | None]) -> None:
        """Durably set (or with None, delete) documents of table `name` in
        annotations.json: the journal is folded in the same atomic write."""
        self._refuse_unreadable(ANNOTATIONS_FILE)

        def mutate(doc: dict[str, Any]) -> None:
            docs = doc.setdefault(name, {})
            for key, value in changes.items():
                if value is None:
                    docs.pop(key, None)
                else:
                    docs[key] = dict(value)

        def run() -> None:
            if name == "annotations":  # journal lines replayed after a crash must not undo it
                self._fold_told()
            self._fold_told(mutate)

        self.locked(run)

    # -- whole documents (migrations, recovery) ----------------------------

    def read_annotations_document(self) -> dict[str, Any]:
        """annotations.json as one dict of tables (empty if the file does not exist),
        a copy the caller may change freely, with the journal's saves in it: the
        journal is folded first (only applied to the copy if the library is read-only)."""
        storage = self._ann_db.storage
        if self.read_only() is None and JOURNAL_FILE not in self.unreadable:
            self.locked(self._fold_told)
            return copy.deepcopy(storage.read() or {})
        data = copy.deepcopy(storage.read() or {})
        if JOURNAL_FILE not in self.unreadable and ANNOTATIONS_FILE not in self.unreadable:
            _, found = self._journal.read()
            if found.changes:
                data["annotations"] = replayed(data.get("annotations", {}), found.changes)
        return data

    def write_annotations_document(self, data: dict[str, Any]) -> None:
        """Replace annotations.json with `data`. Call it holding the lock, with `data`
        from read_annotations_document() under that same hold (which folded the
        journal: lines left in it would be applied on top of `data`)."""
        self._refuse_unreadable(ANNOTATIONS_FILE)
        self._ann_db.storage.write(data)
        self._ann_db.clear_cache()

    def problem(self, name: str) -> StorageError | None:
        """Why file `name` (PAPERS_FILE or ANNOTATIONS_FILE) cannot be used: a
        DamagedFileError if its content is bad, a plain StorageError if it cannot be
        read at all; None if fine or absent. What was read is kept for loading:
        checking a file at start costs no second parse."""
        try:
            if name == PAPERS_FILE:
                self._catalogue.drop()
                self._catalogue.read()
            else:
                self._ann_db.storage.read()
        except StorageError as exc:
            return exc
        return None

    def forget_cached(self) -> None:
        """Drop what was read, so the next read goes to disk (files moved or restored)."""
        self._catalogue.drop()
        self._journal = Journal(self.folder)
        for db in (self._papers_db, self._ann_db):
            db.storage.close()
            db.clear_cache()

    def schema_version(self) -> int:
        # read without the deep copy read_annotations_document() makes
        document = self._ann_db.storage.read() or {}
        meta = document.get("_meta", {}).get("schema") if isinstance(document, dict) else None
        with contextlib.suppress(TypeError, ValueError):
            return int(meta["version"]) if meta else 0
        return 0

    def set_schema_version(self, version: int = SCHEMA_VERSION) -> None:
        def apply() -> None:
            data = self.read_annotations_document()
            data["_meta"] = {**data.get("_meta", {}), "schema": {"version": version}}
            self.write_annotations_document(data)

        self.locked(apply)

    def close(self) -> None:
        """Fold the journal (if the library can be written) and let go of the files."""
        if self.read_only() is None and not self.unreadable & {ANNOTATIONS_FILE, JOURNAL_FILE}:
            with contextlib.suppress(StorageError):
                self.locked(
                    self._fold_told
                )  # best effort: the saves are durable in the journal anyway
        self._papers_db.close()
        self._ann_db.close()
