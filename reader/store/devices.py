"""The other devices' annotation files in a library folder, as a file syncer brings them.

`devices/<id>/annotations.json` (TinyDB) and `annotations.journal` of every other
device are read, never written. What a syncer leaves beside them is handled:

- conflict copies (`annotations.sync-conflict-….json`, `annotations (… conflicted
  copy …).json`, `annotations (1).json`, and the same of the journal) are merged
  into the device's records; the owner folds its own into its file and moves them
  aside (LibraryFolder);
- temporary and partial files (`.syncthing.*.tmp`, `~*.tmp`, a half-copied file)
  are not read: a file that does not parse yet is taken as it was last read (or
  left out) until it is complete, never reported as damage.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any, NamedTuple

from reader.core.crdt import Record, clock_of, join, max_stamp, table_max_stamp
from reader.core.hlc import ZERO
from reader.store.device import DEVICES_DIR, valid
from reader.store.journal import JOURNAL_FILE, replayed, scan
from reader.store.storage import DamagedFileError, parse_document

ANNOTATIONS = "annotations.json"
_CONFLICT = re.compile(
    r"annotations(?:\.sync-conflict-[^/]*?| \([^)/]*conflicted copy[^)/]*\)| \(\d{1,3}\))"
    r"\.(json|journal)"
)


def is_conflict_copy(name: str) -> bool:
    return _CONFLICT.fullmatch(name) is not None


#: per file read: its name, inode, size and times (a syncer's rename gives a new
#: inode and change time even where it keeps the size and the modification time)
Signature = tuple[tuple[str, int, int, int, int], ...]


class DeviceData(NamedTuple):
    """One device's records as read: per paper its record, its small tables, and
    its latest stamp (what this device's clock must not run behind)."""

    records: dict[str, Record]
    tables: dict[str, dict[str, Any]]
    clock: str = ZERO


EMPTY = DeviceData({}, {})


def _signature(folder: Path) -> Signature:
    """The files of a device folder that are read, with their sizes and times."""
    out = []
    try:
        with os.scandir(folder) as entries:
            for entry in entries:
                name = entry.name
                if name in (ANNOTATIONS, JOURNAL_FILE) or is_conflict_copy(name):
                    try:
                        st = entry.stat()
                    except OSError:
                        continue
                    out.append((name, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns))
    except OSError:
        return ()
    return tuple(sorted(out))


def _document(path: Path) -> dict[str, Any] | None:
    """A device's annotations document; None if it is absent or not (yet) whole."""
    try:
        raw = path.read_bytes()
    except OSError:
        return None
    try:
        doc = parse_document(path, raw)
    except DamagedFileError:
        return None
    return doc if isinstance(doc, dict) else None


def _journal_changes(path: Path) -> list[dict[str, Any]]:
    try:
        raw = path.read_bytes()
    except OSError:
        return []
    return scan(raw).changes  # a half-copied last line is not a line yet


def _tables(doc: Mapping[str, Any]) -> dict[str, dict[str, Any]]:
    return {
        name: table
        for name, table in doc.items()
        if name not in ("annotations", "_meta") and isinstance(table, dict)
    }


def join_into(records: dict[str, Record], more: Mapping[str, Any]) -> None:
    """Join a conflict copy's records into `records` (in place)."""
    for pid, record in more.items():
        if type(record) is not dict:
            continue
        have = records.get(pid)
        records[pid] = join(have, record) if type(have) is dict else record


def join_tables(tables: dict[str, dict[str, Any]], more: Mapping[str, Any]) -> None:
    """Join a conflict copy's small tables into `tables` (per key the latest)."""
    from reader.core.crdt import table_view_entries

    for name, table in _tables(more).items():
        tables[name] = table_view_entries([tables.get(name, {}), table])


def read_device(folder: Path, *, previous: DeviceData | None = None) -> DeviceData | None:
    """A device folder's records: its annotations.json with its journal replayed,
    conflict copies joined in. None if its annotations.json is there but not whole
    yet (the caller keeps `previous`)."""
    main = folder / ANNOTATIONS
    doc = _document(main)
    if doc is None and main.exists():
        return previous
    doc = doc or {}
    table = doc.get("annotations")
    records: dict[str, Record] = dict(table) if isinstance(table, dict) else {}
    clocks = [clock_of(doc, records.values())]
    tables = _tables(doc)
    clocks += [table_max_stamp(t) for t in tables.values()]
    changes = _journal_changes(folder / JOURNAL_FILE)
    records = replayed(records, changes)
    for name in conflict_copies(folder):
        path = folder / name
        if name.endswith(".journal"):
            more = _journal_changes(path)
            changes += more
            join_into(records, replayed({}, more))
            continue
        copy = _document(path)
        if copy is None:
            continue  # not whole yet: next time
        extra = copy.get("annotations")
        if isinstance(extra, dict):
            join_into(records, extra)
            clocks.append(clock_of(copy, extra.values()))
        join_tables(tables, copy)
    clocks += [max_stamp(r) for change in changes for r in change.values() if type(r) is dict]
    return DeviceData(records, tables, max(clocks, default=ZERO))


def conflict_copies(folder: Path) -> list[str]:
    try:
        with os.scandir(folder) as entries:
            return sorted(e.name for e in entries if is_conflict_copy(e.name))
    except OSError:
        return []


def device_folders(library: Path) -> Iterator[tuple[str, Path]]:
    """(id, folder) of every device folder in the library folder."""
    root = library / DEVICES_DIR
    try:
        with os.scandir(root) as entries:
            names = sorted(e.name for e in entries if e.is_dir() and valid(e.name))
    except OSError:
        return
    for name in names:
        yield name, root / name


class Others:
    """The other devices' records, read again only when their files changed."""

    def __init__(self, library: Path, me: str) -> None:
        self.library = library
        self.me = me
        self._read: dict[str, tuple[Signature, DeviceData]] = {}

    def signatures(self) -> dict[str, Signature]:
        return {
            device: _signature(folder)
            for device, folder in device_folders(self.library)
            if device != self.me
        }

    def known(self) -> dict[str, Signature]:
        """The signatures of the files as last read (what the records held match)."""
        return {device: sig for device, (sig, _) in self._read.items()}

    def changed(self) -> bool:
        """Whether another device's files changed since load() (a few stats)."""
        return self.signatures() != self.known()

    def load(self) -> tuple[dict[str, DeviceData], set[str]]:
        """Every other device's records, and the devices whose records changed."""
        changed: set[str] = set()
        now = self.signatures()
        for device in list(self._read):
            if device not in now:
                del self._read[device]
                changed.add(device)
        for device, sig in now.items():
            known = self._read.get(device)
            if known is not None and known[0] == sig:
                continue
            folder = self.library / DEVICES_DIR / device
            data = read_device(folder, previous=known[1] if known else None)
            if data is None:  # not whole yet: read again when the file changes
                data = EMPTY
            if known is None or data != known[1]:
                changed.add(device)
            self._read[device] = (sig, data)
        return {device: data for device, (_, data) in self._read.items()}, changed
