"""A library folder on disk: the catalogue files and annotations.json, locked writes, loading."""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import os
import weakref
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from tinydb import TinyDB
from tinydb.table import Table

from reader.core import crdt, say
from reader.core.hlc import Clock
from reader.core.library import NOTHING_NEW, CaughtUp
from reader.core.models import TRASH, Annotation, Paper
from reader.core.paper_table import PaperTable
from reader.store import journal, paper_files
from reader.store.catalogue_db import CatalogueDB
from reader.store.catalogue_words import IndexWords
from reader.store.device import DEVICES_DIR, device_id
from reader.store.devices import EMPTY, Others, conflict_copies, join_into, join_tables
from reader.store.journal import JOURNAL_FILE, DamagedJournal, Journal, decode, replayed
from reader.store.locking import LOCK_FILE, LibraryLock, Timeout, make_lock, run_locked
from reader.store.merged import MergedView
from reader.store.migrations import SCHEMA_VERSION
from reader.store.storage import (
    AtomicJSONStorage,
    DamagedFileError,
    Signature,
    StorageError,
    check_writable,
    keep_aside,
    parse_document,
    path_signature,
    read_only_reason,
    reason,
    remove_stale_temp_files,
)
from reader.store.view_cache import ViewCache

#: the catalogue of an earlier version, one JSON file (migrated: see legacy.py)
PAPERS_FILE = "papers.json"
ANNOTATIONS_FILE = "annotations.json"
BACKUPS_DIR = "backups"
#: how long looking for other programs' changes waits for the lock (else: next time)
RELOAD_LOCK_WAIT_S = 0.2
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


def _stat_key(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns


def read_device_copy(path: Path) -> dict[str, Any] | None:
    """A syncer's conflict copy of a device's annotations.json (or journal) as a
    document; None if it is not whole yet."""
    if path.name.endswith(".journal"):
        try:
            raw = path.read_bytes()
        except OSError:
            return None
        return {"annotations": replayed({}, journal.scan(raw).changes)}
    try:
        return parse_document(path, path.read_bytes())
    except (OSError, DamagedFileError):
        return None


def _matched(held: list[bytes], lines: list[bytes]) -> tuple[int, list[bytes]]:
    """Match the journal lines `held` (in order) in the journal's `lines`, others'
    lines between them: how many held are missing, and the lines not held."""
    at, missing, taken = 0, 0, set[int]()
    for line in held:
        try:
            at = lines.index(line, at)
        except ValueError:
            missing += 1
            continue
        taken.add(at)
        at += 1
    return missing, [line for i, line in enumerate(lines) if i not in taken]


def _positions(held: list[bytes], lines: list[bytes]) -> set[int] | None:
    """Where the journal lines `held` (in order) are in the journal's `lines`, if
    every one is there and every other line comes after them (other programs' saves
    since ours); else None."""
    at, taken = 0, set[int]()
    for line in held:
        try:
            at = lines.index(line, at)
        except ValueError:
            return None
        taken.add(at)
        at += 1
    if len(taken) != at:  # a line not held before one held: not simply after ours
        return None
    return taken


def _weak(method: Callable[[str], None]) -> Callable[[str], None]:
    """`method`, called while its object lives: what a folder's parts tell it does not
    keep it alive (a cycle would leave its databases to the collector, which may
    finalize a connection before its owner closes it)."""
    ref = weakref.WeakMethod(method)

    def call(text: str) -> None:
        target = ref()
        if target is not None:
            target(text)

    return call


def not_a_folder(path: Path) -> str:
    """The message that the library's `path` is a file, not a folder."""
    return say._("{path}: not a folder").format(path=path)


class LibraryFolder:
    """The LibraryStore of reader.core.library, backed by TinyDB files in a folder.

    Every write holds the folder's OS lock for that write only and re-reads the
    file first if another process changed it, so two writers lose no update.
    Annotation saves are lines appended to annotations.journal (see journal.py),
    folded into annotations.json now and then."""

    def __init__(
        self, folder: Path, *, device: str | None = None, catalogue: CatalogueDB | None = None
    ) -> None:
        self.folder = folder
        #: this device (see reader.store.device): it writes devices/<device>/ only
        try:
            self.device = device or device_id()
        except ValueError as exc:  # a READER_DEVICE_ID that is no folder name
            raise StorageError(str(exc)) from exc
        self.device_dir = folder / DEVICES_DIR / self.device
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            why = say._("{folder}: cannot create the library folder ({reason})")
            raise StorageError(why.format(folder=folder, reason=reason(exc))) from exc
        if not folder.is_dir():
            raise StorageError(not_a_folder(folder))
        with contextlib.suppress(OSError):  # (a read-only folder: nothing is written)
            self.device_dir.mkdir(parents=True, exist_ok=True)
        self._lock = make_lock(folder)
        self._ann_db = _open_db(self.device_dir / ANNOTATIONS_FILE, indent=True)
        #: files found damaged that could not be moved aside: read as empty, never written
        self.unreadable: set[str] = set()
        #: problems met while loading (records that could not be read), for the user
        self.problems: list[str] = []
        #: how many of `problems` take_problems() handed over, and every one it did
        self._told = 0
        self._told_texts: set[str] = set()
        #: the catalogue's index in the cache folder (the papers of every device's files)
        self.catalogue = catalogue or CatalogueDB.for_library(folder)
        #: an earlier version's papers.json as problem() parsed it (for its migration)
        self.legacy_papers: dict[str, Any] | None = None
        #: annotations.journal: the saves not yet folded into annotations.json
        self._journal = Journal(self.device_dir)
        #: the other devices' files (read, never written) and this device's clock
        self._others = Others(folder, self.device)
        self._clock = Clock(self.device)
        #: the library the user sees: this device's records as last loaded (or since
        #: written by us) and the other devices' as last read, merged (see merged.py)
        self._view = MergedView(self.device, tell=_weak(self._note))
        #: the merged view kept between opens (see view_cache.py): looked at by the
        #: first load only, written then if it missed and on close
        self._view_cache: ViewCache | None = None
        #: conflict copies of this device's files that did not parse: (size, mtime) then
        self._copies_tried: dict[str, tuple[int, int] | None] = {}
        #: another device's small tables (tag colours, ...) changed since last handed over
        self._tables_news = False
        #: update() caught up under the lock it holds: write_annotations() need not
        self._caught = False
        #: annotations.json as last loaded (or since rewritten by us alone)
        self._ann_seen: Signature | None = None
        #: what this process holds of annotations.json (None: nothing loaded yet): the
        #: document as last loaded or written by us, and the journal's lines on top of it
        #: in order (ours appended since). If the file is damaged, deleted or replaced by
        #: another program's recovery, or lines vanish from the journal, while it is
        #: held, it is written back: see _rescue_locked
        self._held: dict[str, Any] | None = None
        self._held_lines: list[bytes] = []
        #: what is held was written back (with other programs' saves in it) where the
        #: library in memory did not see: the next update() reads the file anew
        self._reread = False
        #: annotations.json's damaged copies (moved aside) in the folder when last loaded
        self._asides: frozenset[str] = frozenset()
        self.removed_temp_files = self._remove_stale_temp_files()

    @property
    def papers_path(self) -> Path:
        """An earlier version's catalogue file (migrated on open)."""
        return self.folder / PAPERS_FILE

    @property
    def papers_dir(self) -> Path:
        """This device's catalogue files (one per import)."""
        return paper_files.papers_dir(self.device_dir)

    @property
    def annotations_path(self) -> Path:
        return self.device_dir / ANNOTATIONS_FILE

    @property
    def journal_path(self) -> Path:
        return self._journal.path

    @property
    def lock(self) -> LibraryLock:
        return self._lock

    @property
    def _own(self) -> dict[str, crdt.Record]:
        """This device's records as last loaded or since written (the merged view's;
        to look at, not to change)."""
        return self._view.own

    @property
    def backups(self) -> Backups:
        """The Backups of this folder, sharing its lock."""
        from reader.store.backups import Backups

        return Backups(
            self.folder,
            lock=self._lock,
            fold=self._fold_told,
            tell=_weak(self._note),
            source=self.annotations_path,
            into=self.folder / BACKUPS_DIR / self.device,
        )

    def read_only(self) -> str | None:
        """Why this library cannot be saved (read-only folder or file), or None."""
        for path in (self.annotations_path, self.journal_path, self.papers_dir):
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
                if self.device_dir.is_dir():
                    removed += remove_stale_temp_files(self.device_dir)
                if self.papers_dir.is_dir():
                    removed += remove_stale_temp_files(self.papers_dir)
                for backups in (self.folder / BACKUPS_DIR, self.folder / BACKUPS_DIR / self.device):
                    if backups.is_dir():
                        removed += remove_stale_temp_files(backups)
                return removed
        except (Timeout, OSError):
            return []

    def locked(self, fn: Callable[[], T]) -> T:
        """Run `fn` holding the library lock; OS errors become StorageError."""
        return run_locked(self._lock, self.folder, fn)

    def _note(self, message: str) -> None:
        """Keep `message` for the user (once: a load that meets the same again adds none)."""
        if message not in self.problems:
            self.problems.append(message)

    def take_problems(self) -> list[str]:
        """The problems not handed over before, each once: what to tell the user now."""
        new = [p for p in self.problems[self._told :] if p not in self._told_texts]
        self._told = len(self.problems)
        self._told_texts.update(new)
        return new

    def _refuse_unreadable(self, name: str) -> None:
        if name in self.unreadable:
            why = say._("{path}: the file is damaged; not overwriting it")
            raise StorageError(why.format(path=self.folder / name))

    # -- LibraryStore -----------------------------------------------------

    def is_empty(self) -> bool:
        if PAPERS_FILE in self.unreadable or self.papers_path.exists():
            return False
        return not paper_files.catalogue_files(self.folder)

    def load_papers(self) -> PaperTable:
        """Every device's papers: the catalogue's index brought in step with the
        files; the papers read from it when asked for, each abstract
        models.NOT_LOADED (see abstracts())."""
        papers = self.catalogue.load(self.folder, self.problems)
        self.problems.extend(p for p in self.catalogue.problems if p not in self.problems)
        return papers

    def catching_up(self) -> bool:
        """Whether load_papers() listed the papers taken in first, the others coming
        (taken_since())."""
        return self.catalogue.catching_up is not None

    def stop_taking(self) -> None:
        """Stop taking the catalogue files in (see catching_up()): the window closes."""
        self.catalogue.stop_taking()

    def taken_since(self, limit: int) -> tuple[list[str], list[str], bool]:
        """What the catalogue's index took in since load_papers() (an index made anew:
        see CatalogueDB.load), up to `limit` papers: the ids of those new or written
        anew, of those deleted, and whether they are the last."""
        return self.catalogue.taken_since(limit)

    def words(self) -> IndexWords:
        """The papers' words in the catalogue's index, for search."""
        return self.catalogue.words()

    def abstracts(self, ids: Iterable[str]) -> dict[str, str]:
        """The abstracts of papers `ids` (load_papers() lists papers without them), by
        id; from any thread."""
        return self.catalogue.abstracts(ids)

    def load_annotations(self) -> dict[str, Annotation]:
        """The library's annotations: this device's annotations.json with its
        journal's saves applied, merged with every other device's records."""
        if ANNOTATIONS_FILE in self.unreadable:
            return {}
        if self._new_copies() and self.read_only() is None:
            with contextlib.suppress(StorageError, Timeout):
                self.locked(self._absorb_copies_locked)
        storage = self._ann_db.storage
        document = storage.read() or {}
        table = document.get("annotations", {})
        self._ann_seen = storage.signature
        lines: list[bytes] = []
        if JOURNAL_FILE not in self.unreadable:
            found = self._journal.load(cache_key=storage.signature)
            table, lines = replayed(table, found.changes), found.lines
        self._held, self._held_lines = document, list(lines)
        self._reread = False
        self._asides = self._aside_names()
        own_table = document.get("annotations")
        self._clock.see(
            crdt.clock_of(document, own_table.values() if isinstance(own_table, dict) else ())
        )
        for name, docs in document.items():
            if name not in ("annotations", "_meta"):
                self._clock.see(crdt.table_max_stamp(docs))
        for pid in {pid for change in found.changes for pid in change} if lines else ():
            self._clock.see(crdt.max_stamp(table.get(pid) or {}))
        others, _ = self._others.load()
        own = dict(table) if isinstance(table, dict) else {}
        if self._view_cache is None:  # the first load: the merge kept from the last open?
            self._view_cache = ViewCache.for_library(self.folder, self.device, self._weight())
            key = self._view_key()
            self._view.load(own, others, cached=self._view_cache.read(key))
            if self._view_cache.key is None and not self._view.odd:
                self._view_cache.write(key, *self._view.merged())
        else:
            self._view.load(own, others)
        for other in others.values():
            self._clock.see(other.clock)
        return self._view.annotations()

    def take_conflict_changes(self) -> set[str]:
        """The papers whose note's conflicting versions changed since last asked."""
        return self._view.take_conflict_changes()

    def _take_others(self) -> set[str]:
        """Read the other devices' files that changed; the papers whose annotation
        changed with them."""
        others, devices = self._others.load()
        for device in devices:
            self._clock.see(others.get(device, EMPTY).clock)
        changed, tables = self._view.take_others(others, devices)
        if tables:
            self._tables_news = True
        return changed

    def note_conflicts(self, pid: str) -> list[crdt.Version]:
        """The versions of paper `pid`'s note in conflict with the one shown."""
        return self._view.note_conflicts(pid)

    def _new_copies(self) -> list[str]:
        """The syncer's conflict copies of this device's files, but those that did
        not parse when last tried and have not changed since."""
        tried = self._copies_tried
        return [
            name
            for name in conflict_copies(self.device_dir)
            if name not in tried or tried[name] != _stat_key(self.device_dir / name)
        ]

    def _absorb_copies_locked(self) -> None:
        """Fold a syncer's conflict copies of this device's own files into its
        annotations.json and move them into backups/. Call it holding the lock."""
        names = self._new_copies()
        if not names:
            return
        copies = {}
        for name in names:
            data = read_device_copy(self.device_dir / name)
            if data is None:  # not whole yet: tried again when it changes
                self._copies_tried[name] = _stat_key(self.device_dir / name)
            else:
                copies[name] = data
                records = data.get("annotations")
                self._clock.see(crdt.clock_of(data, records.values() if records else ()))
                for table in data.values():
                    self._clock.see(crdt.table_max_stamp(table))

        def mutate(doc: dict[str, Any]) -> None:
            records = doc.setdefault("annotations", {})
            for data in copies.values():
                join_into(records, data.get("annotations") or {})
                tables = {n: t for n, t in doc.items() if n not in ("annotations", "_meta")}
                join_tables(tables, data)
                doc.update(tables)

        if copies:
            self._fold_told(mutate)
            self._reread = True
            aside = self.folder / BACKUPS_DIR / self.device / "sync-conflicts"
            aside.mkdir(parents=True, exist_ok=True)
            from reader.store.backups import stamp_now

            for name in copies:
                os.replace(self.device_dir / name, aside / f"{stamp_now()}-{name}")
            merged = say._(
                "Merged {count} conflict copies a file syncer left in {folder} (kept in {aside})."
            )
            self._note(merged.format(count=len(copies), folder=self.device_dir, aside=aside))

    def reload_annotations(self) -> dict[str, Annotation] | None:
        """The annotations as now on disk if another program changed them, else None.
        Under the lock: if what this process holds was lost meanwhile (the file
        damaged or deleted, saves gone from the journal), it is written back first and
        the user told (take_problems). None too if the lock is busy (next time, then)."""
        if ANNOTATIONS_FILE in self.unreadable:
            return None
        own_same = (
            path_signature(self.annotations_path) == self._ann_seen
            and not self._journal.changed()
            and not self._new_copies()
        )
        if own_same:
            if not self._others.changed():
                return None
            self._take_others()
            self._tables_news = False  # (the library reads its settings again now)
            return self._view.annotations()  # another device's edits: nothing to write back
        if self.read_only() is not None:  # nothing can be written back: shown as it is
            return self.load_annotations()
        try:
            held = self._lock.acquire(timeout=RELOAD_LOCK_WAIT_S)
        except Timeout:
            return None  # another program is writing: looked at again next time
        except OSError as exc:
            why = reason(exc)
            no_lock = say._("{folder}: cannot take the library lock ({reason})")
            raise StorageError(no_lock.format(folder=self.folder, reason=why)) from exc
        with held:
            return self.locked(self._reload_locked)

    def _reload_locked(self) -> dict[str, Annotation]:
        self._rescue_told()
        return self.load_annotations()

    def _aside_names(self) -> frozenset[str]:
        """The names of annotations.json's damaged copies in the folder (see recovery)."""
        prefix = ANNOTATIONS_FILE + ".damaged-"
        try:
            with os.scandir(self.device_dir) as entries:
                return frozenset(e.name for e in entries if e.name.startswith(prefix))
        except OSError:
            return frozenset()

    def _rescue_told(self) -> None:
        message = self._rescue_locked()
        if message:
            self._note(message)

    def _rescue_locked(self) -> str | None:
        """Write back what this process holds of annotations.json if it was lost on
        disk since it was loaded: the file damaged (kept aside, never deleted), deleted,
        or replaced by another program's recovery with an older backup; or saves of the
        journal gone (it was truncated, damaged or replaced). What is written: the
        document as held, the journal's lines held on top, then the journal's lines not
        held (another program's saves since). A file rewritten by another program (a
        fold, a restore) is not a loss: it is taken as it is. Returns what to tell the
        user, None if nothing was lost. Call it holding the lock."""
        if self._held is None or self.unreadable & {ANNOTATIONS_FILE, JOURNAL_FILE}:
            return None
        path, storage = self.annotations_path, self._ann_db.storage
        unchanged = path_signature(path) == self._ann_seen
        damaged: DamagedFileError | None = None
        try:
            on_disk = storage.read()
        except DamagedFileError as exc:
            damaged, on_disk = exc, None
        _, found = self._journal.read()
        held = self._held_lines
        missing, fresh = _matched(held, found.lines)
        gone = on_disk is None and damaged is None and self._ann_seen is not None
        recovered = sorted(self._aside_names() - self._asides) if not unchanged else []
        lost_file = damaged is not None or gone or (on_disk is not None and bool(recovered))
        if not (lost_file or (unchanged and missing) or found.damaged):
            return None
        if not (lost_file or unchanged):
            return self._fold_plain()  # another program rewrote it: its damaged journal as usual
        # the journal's lines held are in what is written; the others go on top
        changes = [c for c in map(decode, [*held, *fresh]) if c is not None]
        for change in map(decode, fresh):  # (other programs' saves: their stamps seen)
            for record in (change or {}).values():
                self._clock.see(crdt.max_stamp(record or {}))
        document = dict(self._held)
        document["annotations"] = replayed(document.get("annotations", {}), changes)
        from reader.store.backups import stamp_now

        kept = keep_aside(path, "damaged", stamp_now()) if damaged is not None else None
        try:
            self._write_own(document)
        finally:
            self._ann_db.clear_cache()
        journal_kept = self._journal.set_aside() if found.damaged else None
        if not found.damaged:
            self._journal.reset(found)
        self._ann_seen = storage.signature
        self._journal.mark_seen()
        self._held, self._held_lines = document, []
        self._asides = self._aside_names()
        count = len(document["annotations"])
        told = []
        if damaged is not None:
            said = say._(
                "{file} was damaged while the window was open; the damaged copy was kept as"
                " {kept}.\n{problem}."
            )
            told.append(said.format(file=path.name, kept=kept, problem=damaged))
        elif gone:
            said = say._("{path} was deleted while the window was open.")
            told.append(said.format(path=path))
        elif recovered:
            said = say._(
                "{file} was found damaged by another program, which kept the damaged copy as"
                " {kept} and put back an older backup."
            )
            told.append(said.format(file=path.name, kept=self.device_dir / recovered[-1]))
        journal = self._journal.path.name
        if found.damaged:
            said = say._("{file} was damaged ({damage}); it was kept as {kept}.")
            told.append(said.format(file=journal, damage=found.damaged, kept=journal_kept))
        elif missing:
            said = say._(
                "{file} lost {count} saves while the window was open (it was truncated or"
                " replaced)."
            )
            told.append(said.format(file=journal, count=missing))
        said = say._(
            "Everything the window held ({count} annotations and your settings) was written"
            " back to {path}; nothing it showed was lost."
        )
        told.append(said.format(count=count, path=path))
        return "\n".join(told)

    def write_annotations(self, changes: Mapping[str, Mapping[str, Any] | None]) -> None:
        """Write the annotations' field changes (as Annotation.to_dict() has the
        fields; None: the annotation removed), as this device's records stamped now:
        one durable line appended to the journal, the same cost whatever the size of
        annotations.json. Past journal.FOLD_BYTES the journal is folded. Applied to
        what is on disk now (caught up first, unless update() just did)."""
        self._refuse_unreadable(ANNOTATIONS_FILE)
        self._refuse_unreadable(JOURNAL_FILE)
        check_writable(self.annotations_path)  # a file the user made read-only stays so

        def append() -> None:
            if not self._caught:
                self._catch_up_locked()
            stamped = self._view.stamped(changes, self._clock.now())
            try:
                size, _ = self._journal.append(stamped)
            except DamagedJournal:  # keep its good lines, move it aside, start anew
                self._fold_told()
                size, _ = self._journal.append(stamped)
            if self._held is not None:
                self._held_lines.append(self._journal.last_line)
            self._view.apply_own(stamped)
            self._view.merge_written(changes)
            if size > journal.FOLD_BYTES:
                try:
                    self._fold_told()
                except StorageError:
                    pass  # the save itself is durable; the fold is tried again next save

        self.locked(append)

    def update(
        self, compute: Callable[[CaughtUp], Mapping[str, Mapping[str, Any] | None]]
    ) -> dict[str, Annotation | None]:
        """An edit applied to what is on disk now: holding the lock, catch up with what
        other programs and devices saved, hand that to `compute`, and append the field
        changes it returns as one durable line (none: nothing is written). Returns the
        annotations written as the library now shows them (merged with the other
        devices'). One hold of the lock; the catch-up costs a few stats when nobody
        else wrote."""
        self._refuse_unreadable(ANNOTATIONS_FILE)
        self._refuse_unreadable(JOURNAL_FILE)
        check_writable(self.annotations_path)  # a file the user made read-only stays so
        out: dict[str, Annotation | None] = {}

        def run() -> None:
            changes = compute(self._catch_up_locked())
            if changes:
                self._caught = True
                try:
                    self.write_annotations(changes)
                finally:
                    self._caught = False
                out.update((pid, self._view.get(pid)) for pid in changes)

        self.locked(run)
        return out

    def resolve_note(self, pid: str, text: str) -> Annotation | None:
        """Settle paper `pid`'s note conflict: `text` (the user's merge, or the version
        kept) becomes the note, having seen every version, on every device."""
        self._refuse_unreadable(ANNOTATIONS_FILE)
        check_writable(self.annotations_path)

        def run() -> Annotation | None:
            self._catch_up_locked()
            before = self._view.get(pid)
            fields = {**(before.to_dict() if before else {}), "note": text}
            stamped = self._view.stamped({pid: fields}, self._clock.now(), resolve=True)
            self._journal.append(stamped)
            if self._held is not None:
                self._held_lines.append(self._journal.last_line)
            self._view.apply_own(stamped)
            self._view.merge([pid])
            return self._view.get(pid)

        return self.locked(run)

    def _catch_up_locked(self) -> CaughtUp:
        """What other programs and devices saved since this process last read or
        wrote the annotations (see CaughtUp); what it holds is then the file as it
        is. Call it holding the lock."""
        if self._new_copies():
            self._absorb_copies_locked()
        same_file = path_signature(self.annotations_path) == self._ann_seen
        if self._held is not None and same_file and not self._reread:
            changed: set[str] = set()
            if self._journal.changed():
                _, found = self._journal.read()
                held = self._held_lines
                taken = _positions(held, found.lines)
                if found.damaged or taken is None:
                    return CaughtUp(self._reload_locked(), ())
                fresh = [c for i, c in enumerate(found.changes) if i not in taken]
                self._held_lines = list(found.lines)
                self._journal.mark_seen()
                for one in fresh:  # (another program's saves on this device)
                    self._view.apply_own(one)
                    for record in one.values():
                        self._clock.see(crdt.max_stamp(record or {}))
                changed = self._view.merge({pid for one in fresh for pid in one})
            if self._others.changed():
                changed |= self._take_others()
                if self._tables_news:  # another device's settings: all read anew
                    self._tables_news = False
                    return CaughtUp(self._view.annotations(), ())
            if not changed:
                return NOTHING_NEW
            return CaughtUp(None, [self._view.fields(changed)])
        # the file rewritten (another program's fold, a restore), lost or damaged, or
        # saves gone from the journal: written back if need be, then read anew
        return CaughtUp(self._reload_locked(), ())

    def update_table(
        self, name: str, compute: Callable[[dict[str, dict[str, Any]]], Mapping[str, Any]]
    ) -> dict[str, dict[str, Any]]:
        """Holding the lock: `compute` the changes of table `name` from the table as
        it is on disk now, write them as write_table() does (none: nothing written),
        and return the table as it then is."""
        self._refuse_unreadable(ANNOTATIONS_FILE)
        out: dict[str, dict[str, Any]] = {}

        def run() -> None:
            seen = self._ann_seen
            self._rescue_told()
            if self._ann_seen != seen:  # written back: the annotations too are read anew
                self._reread = True
            docs = self.load_table(name)
            changes = compute({k: dict(v) for k, v in docs.items()})
            if changes:
                self.write_table(name, changes)
                for key, value in changes.items():
                    if value is None:
                        docs.pop(key, None)
                    else:
                        docs[key] = dict(value)
            out.update(docs)

        self.locked(run)
        return out

    def _fold_locked(self, mutate: Callable[[dict[str, Any]], None] | None = None) -> str | None:
        """Fold the journal into annotations.json (applying `mutate` to the document
        too); returns what to tell the user. What this process holds is first written
        back if it was lost on disk (see _rescue_locked). Call it holding the lock."""
        self._refuse_unreadable(ANNOTATIONS_FILE)
        self._rescue_told()
        return self._fold_plain(mutate)

    def _fold_plain(self, mutate: Callable[[dict[str, Any]], None] | None = None) -> str | None:
        storage = self._ann_db.storage
        known = (
            path_signature(self.annotations_path) == self._ann_seen and not self._journal.changed()
        )
        if not known:  # other programs' saves, folded in now: their stamps seen first
            _, found = self._journal.read()
            held = self._held is not None
            fresh = _matched(self._held_lines, found.lines)[1] if held else found.lines
            for change in map(decode, fresh):
                for record in (change or {}).values():
                    self._clock.see(crdt.max_stamp(record or {}))
        try:
            wrote, message = journal.fold(self._journal, storage.read, self._write_own, mutate)
        finally:
            self._ann_db.clear_cache()
        if wrote and known:  # what we had loaded plus what we wrote: all known
            self._ann_seen = storage.signature
            self._journal.mark_seen()
            if self._held is not None:
                self._held, self._held_lines = storage.read() or {}, []
        return message

    def _write_own(self, document: dict[str, Any]) -> None:
        """Write this device's annotations.json (atomically) with its clock in _meta:
        a stamp not earlier than any in it (and than any this process saw), so a
        reader need not look at each."""
        meta = document.get("_meta")
        if not isinstance(meta, dict):
            meta = document["_meta"] = {}
        # the clock kept in it (a file another program wrote: loading saw the stamps of
        # one without); the journal's saves of other programs, conflict copies: seen
        self._clock.see(crdt.clock_of(document, ()))
        for name, table in document.items():
            if name not in ("annotations", "_meta"):
                self._clock.see(crdt.table_max_stamp(table))
        meta["clock"] = {"stamp": self._clock.last()}
        self._ann_db.storage.write(document)

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
        """`papers` written as this device's next catalogue file (see paper_files.py),
        after a backup of annotations.json, and taken into the catalogue's index.
        Nothing on the annotations' side changes (the backup is a copy with the
        journal's saves in it, the journal is not folded) and its files are read under
        the lock only, so a worker thread may run this while another thread uses the
        folder for annotations (a save waits for the lock meanwhile)."""
        # a read-only file of the library refuses the whole import before anything is
        # written: the annotations it may restore must not fail once the papers are in
        why = self.read_only()
        if why:
            raise StorageError(why)
        # an import may also restore annotations: keep a copy of what the user wrote first
        if ANNOTATIONS_FILE not in self.unreadable and (
            self.annotations_path.exists() or self.journal_path.exists()
        ):
            self.backups.take_copy("before-import")
        papers = list(papers)
        written = paper_files.PapersFile("", self._clock.now(), papers)
        name = self.locked(lambda: paper_files.write_file(self.device_dir, papers, written.stamp))
        self.catalogue.add(self.folder, name, dataclasses.replace(written, name=name))

    def delete_papers(self, deleted: Mapping[str, str]) -> None:
        """Papers `deleted` (id -> TRASH or PURGED, reader.core.models) written as this
        device's next catalogue file and taken into the index: on every device they
        leave the catalogue (what was written about them stays, see Library)."""
        why = self.read_only()
        if why:
            raise StorageError(why)
        marks = dict(deleted)
        written = paper_files.PapersFile("", self._clock.now(), [], marks)
        name = self.locked(
            lambda: paper_files.write_file(self.device_dir, [], written.stamp, marks)
        )
        self.catalogue.add(self.folder, name, dataclasses.replace(written, name=name))

    def trash(self) -> list[Paper]:
        """The papers in the trash (deleted, not purged), as the catalogue files say
        now: another program may have emptied it, or put papers back."""
        self.catalogue.sync(self.folder, [])
        return self.catalogue.papers(TRASH, abstracts=True)

    def paper_order(self) -> list[str]:
        """The ids of the papers (not deleted) in the order load_papers() lists them."""
        return self.catalogue.ids()

    # -- small tables of user data (tag colours, saved searches, preferences) --

    def load_table(self, name: str) -> dict[str, dict[str, Any]]:
        """Small table `name` as the user sees it: per key the latest document of any
        device (each device keeps its own, stamped)."""
        if ANNOTATIONS_FILE in self.unreadable:
            return {}
        own = self._ann_db.table(name)._read_table()
        tables = [own, *(data.tables.get(name, {}) for data in self._view.others.values())]
        for table in tables:
            self._clock.see(crdt.table_max_stamp(table))
        return crdt.table_view(tables)

    def write_table(self, name: str, changes: Mapping[str, Mapping[str, Any] | None]) -> None:
        """Durably set (or with None, delete) documents of table `name`, as this
        device's entries stamped now, in annotations.json: the journal is folded in
        the same atomic write."""
        self._refuse_unreadable(ANNOTATIONS_FILE)

        def mutate(doc: dict[str, Any]) -> None:
            docs = doc.setdefault(name, {})
            for key, value in changes.items():
                at = self._clock.now()
                docs[key] = {"v": None if value is None else dict(value), "at": at}

        self.locked(lambda: self._fold_told(mutate))

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
                self.legacy_papers = None
                if self.papers_path.exists():
                    self.legacy_papers = parse_document(
                        self.papers_path, self.papers_path.read_bytes()
                    )
            else:
                self._ann_db.storage.read()
        except StorageError as exc:
            return exc
        except OSError as exc:  # (papers.json that cannot be read)
            why = say._("{path}: cannot be read ({reason})")
            return StorageError(why.format(path=self.papers_path, reason=reason(exc)))
        return None

    def forget_cached(self) -> None:
        """Drop what was read, so the next read goes to disk (files moved or restored)."""
        self.legacy_papers = None
        self._journal = Journal(self.device_dir)
        self._others = Others(self.folder, self.device)
        self._ann_db.storage.close()
        self._ann_db.clear_cache()

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

    def _weight(self) -> int:
        """The bytes of every device's annotation files as last read."""
        own = [sig[2] for sig in (self._ann_seen, self._journal.seen) if sig is not None]
        theirs = [f[2] for files in self._others.known().values() for f in files]
        return sum(own) + sum(theirs)

    def _view_key(self) -> Any:
        """What the merged view was made from: the signature of every file read."""
        return [
            self.device,
            self._ann_seen,
            self._journal.seen,
            sorted(self.unreadable),
            sorted(self._others.known().items()),
        ]

    def _keep_view_locked(self) -> None:
        """Keep the merged view for the next open if it is what the files now hold
        (nobody wrote this device's files since we last read or wrote them). Call it
        holding the lock."""
        cache = self._view_cache
        if (
            cache is None
            or self._view.odd
            or self._reread
            or self.unreadable
            or path_signature(self.annotations_path) != self._ann_seen
            or self._journal.changed()
            or self._new_copies()
        ):
            return
        key = self._view_key()
        if key != cache.key:
            cache.write(key, *self._view.merged())

    def keep_view(self) -> None:
        """Keep the library as merged now for the next open (see view_cache.py), if
        it is what the files hold: as the window closes, after a command's edits.
        Best effort: the next open merges the files if it cannot be kept."""
        if self._view_cache is None or self._view_cache.path is None:
            return
        with contextlib.suppress(StorageError, Timeout):
            self.locked(self._keep_view_locked)

    def close(self) -> None:
        """Fold the journal (if the library can be written), keep the merged view for
        the next open, and let go of the files."""
        if self.read_only() is None and not self.unreadable & {ANNOTATIONS_FILE, JOURNAL_FILE}:

            def fold_and_keep() -> None:
                self._fold_told()
                self._keep_view_locked()

            with contextlib.suppress(StorageError):
                # best effort: the saves are durable in the journal anyway
                self.locked(fold_and_keep)
        self._ann_db.close()
        self.catalogue.stop_taking()
        self.catalogue.close()
