"""Verified, rotating backups of annotations.json: before migrations and imports, on close,
hourly.

A backup is named `annotations-<seq>-<time>Z-<reason>.json`, e.g.
`annotations-000123-20260105T090000.000000Z-close.json`. The clock is not trusted
(it can be set back, or be wrong on another machine syncing the folder): the
backups are ordered and rotated by `seq`, one more than the highest in the folder,
and the time is only shown. Backups named the old way, `annotations-<time>Z-<reason>.json`,
count as older than every numbered one, ordered among themselves by their time."""

from __future__ import annotations

import datetime as dt
import os
import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import NamedTuple

from reader.core import say
from reader.store.files import ANNOTATIONS_FILE, BACKUPS_DIR
from reader.store.journal import Journal, apply, fold
from reader.store.locking import LibraryLock, make_lock, run_locked
from reader.store.storage import (
    DamagedFileError,
    StorageError,
    atomic_write,
    dump_json,
    load_document,
    move_aside,
    parse_document,
)

#: How many backups are kept; the oldest goes once a newer copy is verified.
BACKUP_KEEP = 10
HOURLY_S = 3600.0

_STAMP = "%Y%m%dT%H%M%S.%f"
#: the sequence number is at least 6 digits (more once it passes 999999)
_NAME = re.compile(r"^annotations-(?:(\d{6,})-)?(\d{8}T\d{6}\.\d{6})Z-([a-z0-9-]+)\.json$")


def utc_now() -> dt.datetime:
    """The time now, in UTC: the one time source of this module (tests replace it)."""
    return dt.datetime.now(dt.UTC)


class BackupInfo(NamedTuple):
    """One backup file: its name (what `restore` takes), when (by the clock then) and
    why it was taken, and its sequence number: what orders the backups (0 for one
    named the old way, before backups were numbered)."""

    name: str
    path: Path
    taken: dt.datetime
    reason: str
    seq: int = 0

    def order(self) -> tuple[int, dt.datetime, str]:
        """The sort key, newest last: by sequence; old-style (0) ones by their time."""
        return (self.seq, self.taken, self.name)


def verify(path: Path, raw: bytes) -> int:
    """Check that `raw` is a usable annotations file; return how many annotations it
    holds. Raises DamagedFileError naming `path` if not."""
    data = parse_document(path, raw)
    return len(data.get("annotations", {}))


def stamp_now() -> str:
    """A UTC time stamp for file names: sortable, no characters any file system minds."""
    return utc_now().strftime("%Y%m%dT%H%M%S")


class Backups:
    """The backups/ folder of one library. Every copy is written atomically, read
    back and parsed before an older one is removed; `keep` copies are kept."""

    def __init__(
        self,
        folder: Path,
        *,
        keep: int = BACKUP_KEEP,
        lock: LibraryLock | None = None,
        clock: Callable[[], dt.datetime] | None = None,
        fold: Callable[[], object] | None = None,
        tell: Callable[[str], None] | None = None,
        source: Path | None = None,
        into: Path | None = None,
    ) -> None:
        self.folder = folder
        #: backups/<device>/ of a device's annotations.json (`source`); the defaults are
        #: those of a library of an earlier release (backups/, annotations.json)
        self.dir = into or folder / BACKUPS_DIR
        self._source = source or folder / ANNOTATIONS_FILE
        self.keep = keep
        self._lock = lock or make_lock(folder)
        self._now = clock or (lambda: utc_now())  # looked up when called: patchable
        #: folds the journal into annotations.json (under the lock), so that a backup
        #: holds every save; a LibraryFolder passes its own
        self._fold = fold or self._fold_journal
        #: where what the user must be told goes (a LibraryFolder passes its problems)
        self._tell = tell

    def _fold_journal(self) -> None:
        def write(doc: dict[str, object]) -> None:
            atomic_write(self.source, dump_json(doc, indent=True))

        fold(Journal(self.source.parent), lambda: load_document(self.source), write)

    @property
    def source(self) -> Path:
        return self._source

    def list(self) -> list[BackupInfo]:
        """The backups, newest (highest sequence number) first; files that are not
        backups are ignored."""
        infos = []
        for path in self.dir.glob("annotations-*.json"):
            match = _NAME.match(path.name)
            if match:
                taken = dt.datetime.strptime(match[2], _STAMP).replace(tzinfo=dt.UTC)
                seq = int(match[1]) if match[1] else 0
                infos.append(BackupInfo(path.name, path, taken, match[3], seq))
        return sorted(infos, key=BackupInfo.order, reverse=True)

    def find(self, name: str) -> BackupInfo:
        """The backup called `name` (or the only one whose name starts with it)."""
        infos = self.list()
        exact = [i for i in infos if i.name == name]
        matches = exact or [i for i in infos if i.name.startswith(name)]
        if len(matches) != 1:
            if matches:
                why = say._("{path}: ambiguous name")
            else:
                why = say._("{path}: no such backup")
            raise StorageError(why.format(path=self.dir / name))
        return matches[0]

    def check(self, info: BackupInfo) -> int:
        """How many annotations the backup holds; DamagedFileError if it does not parse."""
        try:
            return verify(info.path, info.path.read_bytes())
        except DamagedFileError:
            raise
        except OSError as exc:
            why = say._("{path}: cannot be read ({reason})")
            raise DamagedFileError(why.format(path=info.path, reason=exc)) from exc

    def newest_good(self) -> tuple[BackupInfo, bytes] | None:
        """The newest backup (by sequence number) that parses, with its bytes; damaged
        ones are skipped, falling back to the next lower number."""
        for info in self.list():
            try:
                raw = info.path.read_bytes()
                verify(info.path, raw)
            except OSError:
                continue
            return info, raw
        return None

    def take(self, reason: str, *, force: bool = False) -> Path | None:
        """Back up annotations.json now; return the backup's path. Returns None if
        there is no annotations file yet, and (unless `force`) the newest backup's
        path if it already holds the same bytes. A damaged annotations file is never
        backed up (DamagedFileError): it must not push good copies out. Raises
        StorageError if the copy cannot be written or does not read back intact."""

        def run() -> Path | None:
            self._fold()  # the saves still in the journal belong in the copy
            return self._take(reason, force, None)

        return run_locked(self._lock, self.folder, run)

    def take_copy(self, reason: str) -> Path | None:
        """take(), but annotations.json and the journal are left as they are: the copy
        holds what folding the journal would make annotations.json (every save). For
        a writer that must not change them while a LibraryFolder keeps its own view of
        them: an import's, on a worker thread, while the window saves annotations."""

        def run() -> Path | None:
            try:
                raw: bytes | None = self.source.read_bytes()
            except FileNotFoundError:
                raw = None
            _, found = Journal(self.source.parent).read()
            if found.changes:  # (the good lines of a damaged journal: the next fold moves it)
                doc = {} if raw is None else parse_document(self.source, raw)
                table = doc.setdefault("annotations", {})
                for changes in found.changes:
                    apply(table, changes)
                raw = dump_json(doc, indent=True)  # (the bytes a fold would write)
            return None if raw is None else self._take(reason, False, None, raw)

        return run_locked(self._lock, self.folder, run)

    def take_if_due(self, max_age_s: float = HOURLY_S) -> Path | None:
        """Take an "hourly" backup if the newest was taken `max_age_s` ago or more;
        else None. A newest backup taken "in the future" means the clock was set back
        since: one is due then too (else none would be for as long as it was set back)."""
        infos = self.list()
        if infos and 0 <= (self._now() - infos[0].taken).total_seconds() < max_age_s:
            return None
        return self.take("hourly")

    def restore(self, name: str) -> Path | None:
        """Make backup `name` the annotations file. The current file is first saved
        aside (as a "before-restore" backup, or moved aside if damaged); its new
        path is returned (None if there was no current file or it was identical)."""
        info = self.find(name)

        def run() -> Path | None:
            raw = info.path.read_bytes()
            verify(info.path, raw)  # a damaged backup never replaces anything
            # the journal's saves go into the current file (and its before-restore
            # copy); none may stay to be applied on top of the restored one
            try:
                self._fold()
            except DamagedFileError:
                journal = Journal(self.source.parent)
                if journal.path.exists():
                    move_aside(journal.path, "before-restore", stamp_now())
            try:
                current: bytes | None = self.source.read_bytes()
            except FileNotFoundError:
                current = None
            if current == raw:
                return None
            aside = None
            if current is not None:
                try:
                    verify(self.source, current)
                    aside = self._take("before-restore", True, info.name)
                except DamagedFileError:
                    aside = move_aside(self.source, "damaged", stamp_now())
            atomic_write(self.source, raw)
            return aside

        return run_locked(self._lock, self.folder, run)

    def _take(
        self, reason: str, force: bool, protect: str | None, raw: bytes | None = None
    ) -> Path | None:
        """Back up `raw` (default: annotations.json as it is; None if there is none)."""
        if raw is None:
            try:
                raw = self.source.read_bytes()
            except FileNotFoundError:
                return None
        verify(self.source, raw)
        infos = self.list()
        if not force and infos and _holds(infos[0].path, raw):
            return infos[0].path
        self._make_dir()
        path = self.dir / self._new_name(reason, infos)
        atomic_write(path, raw)
        copy = path.read_bytes()
        if copy != raw:
            path.unlink()
            why = say._("{path}: the backup did not read back intact; older ones kept")
            raise StorageError(why.format(path=path))
        verify(path, copy)
        # the lowest sequence numbers go; never the copy just taken (nor `protect`)
        rest = [i for i in self.list() if i.name not in (path.name, protect)]
        for old in rest[max(self.keep - 1, 0) :]:
            old.path.unlink(missing_ok=True)
        return path

    def _make_dir(self) -> None:
        """backups/, made if missing. Something else of that name (a file, a symlink to
        none or to a file) is moved aside, never deleted, and the user told."""
        if self.dir.is_dir():
            return
        # backups/ itself, then backups/<device>/
        for place in dict.fromkeys((self.folder / BACKUPS_DIR, self.dir)):
            if os.path.lexists(place) and not place.is_dir():
                aside = move_aside(place, "not-a-folder", stamp_now())
                if self._tell is not None:
                    moved = say._(
                        "{path} was not a folder: it was moved aside as {aside}, "
                        "and a backups folder made in its place."
                    )
                    self._tell(moved.format(path=place, aside=aside))
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            why = say._("{folder}: cannot make the backups folder ({error})")
            raise StorageError(why.format(folder=self.dir, error=exc)) from exc

    def _new_name(self, reason: str, infos: Iterable[BackupInfo]) -> str:
        slug = re.sub(r"[^a-z0-9]+", "-", reason.lower()).strip("-") or "manual"
        when = self._now().astimezone(dt.UTC).strftime(_STAMP)
        seq = 1 + max((i.seq for i in infos), default=0)
        while True:
            name = f"annotations-{seq:06d}-{when}Z-{slug}.json"
            if not (self.dir / name).exists():
                return name
            seq += 1


def _holds(path: Path, raw: bytes) -> bool:
    try:
        return path.read_bytes() == raw
    except OSError:
        return False
