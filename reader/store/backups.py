"""Verified, rotating backups of annotations.json: before migrations and imports, on close,
hourly."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

from reader.store.files import ANNOTATIONS_FILE, BACKUPS_DIR
from reader.store.journal import Journal, fold
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
_NAME = re.compile(r"^annotations-(\d{8}T\d{6}\.\d{6})Z-([a-z0-9-]+)\.json$")


class BackupInfo(NamedTuple):
    """One backup file: its name (what `restore` takes), when and why it was taken."""

    name: str
    path: Path
    taken: dt.datetime
    reason: str


def verify(path: Path, raw: bytes) -> int:
    """Check that `raw` is a usable annotations file; return how many annotations it
    holds. Raises DamagedFileError naming `path` if not."""
    data = parse_document(path, raw)
    return len(data.get("annotations", {}))


def stamp_now() -> str:
    """A UTC time stamp for file names: sortable, no characters any file system minds."""
    return dt.datetime.now(dt.UTC).strftime("%Y%m%dT%H%M%S")


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
    ) -> None:
        self.folder = folder
        self.dir = folder / BACKUPS_DIR
        self.keep = keep
        self._lock = lock or make_lock(folder)
        self._now = clock or (lambda: dt.datetime.now(dt.UTC))
        #: folds the journal into annotations.json (under the lock), so that a backup
        #: holds every save; a LibraryFolder passes its own
        self._fold = fold or self._fold_journal

    def _fold_journal(self) -> None:
        def write(doc: dict[str, object]) -> None:
            atomic_write(self.source, dump_json(doc, indent=True))

        fold(Journal(self.folder), lambda: load_document(self.source), write)

    @property
    def source(self) -> Path:
        return self.folder / ANNOTATIONS_FILE

    def list(self) -> list[BackupInfo]:
        """The backups, newest first (files that are not backups are ignored)."""
        infos = []
        for path in self.dir.glob("annotations-*.json"):
            match = _NAME.match(path.name)
            if match:
                taken = dt.datetime.strptime(match[1], _STAMP).replace(tzinfo=dt.UTC)
                infos.append(BackupInfo(path.name, path, taken, match[2]))
        return sorted(infos, key=lambda i: i.name, reverse=True)

    def find(self, name: str) -> BackupInfo:
        """The backup called `name` (or the only one whose name starts with it)."""
        infos = self.list()
        exact = [i for i in infos if i.name == name]
        matches = exact or [i for i in infos if i.name.startswith(name)]
        if len(matches) != 1:
            why = "ambiguous name" if matches else "no such backup"
            raise StorageError(f"{self.dir / name}: {why}")
        return matches[0]

    def check(self, info: BackupInfo) -> int:
        """How many annotations the backup holds; DamagedFileError if it does not parse."""
        try:
            return verify(info.path, info.path.read_bytes())
        except DamagedFileError:
            raise
        except OSError as exc:
            raise DamagedFileError(f"{info.path}: cannot be read ({exc})") from exc

    def newest_good(self) -> tuple[BackupInfo, bytes] | None:
        """The newest backup that parses, with its bytes; damaged ones are skipped."""
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

    def take_if_due(self, max_age_s: float = HOURLY_S) -> Path | None:
        """Take an "hourly" backup if the newest is older than `max_age_s`; else None."""
        infos = self.list()
        if infos and (self._now() - infos[0].taken).total_seconds() < max_age_s:
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
                journal = Journal(self.folder)
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

    def _take(self, reason: str, force: bool, protect: str | None) -> Path | None:
        try:
            raw = self.source.read_bytes()
        except FileNotFoundError:
            return None
        verify(self.source, raw)
        infos = self.list()
        if not force and infos and _holds(infos[0].path, raw):
            return infos[0].path
        self.dir.mkdir(exist_ok=True)
        path = self.dir / self._new_name(reason, {i.name for i in infos})
        atomic_write(path, raw)
        copy = path.read_bytes()
        if copy != raw:
            path.unlink()
            raise StorageError(f"{path}: the backup did not read back intact; older ones kept")
        verify(path, copy)
        for old in [i for i in self.list() if i.name != protect][self.keep :]:
            old.path.unlink(missing_ok=True)
        return path

    def _new_name(self, reason: str, taken: set[str]) -> str:
        slug = re.sub(r"[^a-z0-9]+", "-", reason.lower()).strip("-") or "manual"
        when = self._now().astimezone(dt.UTC)
        while True:
            name = f"annotations-{when.strftime(_STAMP)}Z-{slug}.json"
            if name not in taken and not (self.dir / name).exists():
                return name
            when += dt.timedelta(microseconds=1)  # two backups in one microsecond (tests)


def _holds(path: Path, raw: bytes) -> bool:
    try:
        return path.read_bytes() == raw
    except OSError:
        return False
