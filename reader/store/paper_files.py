"""The catalogue in the library folder: one file per import, written once by one device.

``devices/<device>/papers/<n>.jsonl`` holds the papers one import (or the bundled
sample, or the migration of an old ``papers.json``) added: a header line
``{"format": "paper-reader papers", "version": 1, "count": N, "at": STAMP}`` then
N lines, one paper each (the JSON of Paper.to_dict()). A file is written whole
beside its place and renamed into it, never rewritten, so a file syncer only ever
copies whole new files. The catalogue is the merge of every device's files: for a
paper id, the line of the file with the latest stamp (a hybrid-logical-clock stamp,
see reader.core.hlc), the later line within one file.

A paper moved to the trash is a line ``{"id": ID, "deleted": "trash"}`` of a later
file (``"purged"`` once the trash is emptied); a file with such lines is of version 2,
which an older Paper Reader leaves unread rather than misread. A paper put back is
its whole line again, in a file later still.

A file not yet whole (a syncer still copying it: no final newline, fewer lines
than its header counts) is left for later, never reported; a syncer's temporary
files and conflict copies do not have the name of a catalogue file and are not
read (a file written once has no conflicting versions). A line that is not a paper
is reported with its file and line and skipped.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from reader.core import say
from reader.core.models import PURGED, TRASH, Paper
from reader.store.device import DEVICES_DIR
from reader.store.storage import StorageError, atomic_write_pieces, reason

PAPERS_DIR = "papers"
FORMAT = "paper-reader papers"
VERSION = 1
#: the version of a file that deletes papers (see above)
DELETING_VERSION = 2
_NAME = re.compile(r"(\d{6,9})\.jsonl")

#: a catalogue file as the index last saw it: (size, mtime in ns)
Stat = tuple[int, int]


@dataclass(frozen=True, slots=True)
class PapersFile:
    """One catalogue file: its stamp, its papers in order, and the papers it deletes
    (id -> TRASH or PURGED). Of scan_file(): `papers` is read as it is iterated, once,
    and `deleted` is whole once it has been."""

    name: str
    stamp: str
    papers: Iterable[Paper]
    deleted: dict[str, str] = field(default_factory=dict)


class FileChanged(OSError):
    """A catalogue file scan_file() looked at could not be read again whole."""


def papers_dir(device_dir: Path) -> Path:
    return device_dir / PAPERS_DIR


def catalogue_files(folder: Path) -> dict[str, Stat]:
    """Every device's catalogue files in library `folder`, by name relative to it
    ("devices/<device>/papers/<n>.jsonl"), with their size and mtime."""
    found: dict[str, Stat] = {}
    try:
        devices = list(os.scandir(folder / DEVICES_DIR))
    except OSError:
        return found
    for device in devices:
        try:
            entries = list(os.scandir(Path(device.path) / PAPERS_DIR))
        except OSError:  # (not a folder, no papers of this device, unreadable)
            continue
        for entry in entries:
            if _NAME.fullmatch(entry.name) is None:
                continue
            try:
                st = entry.stat()
            except OSError:
                continue
            found[f"{DEVICES_DIR}/{device.name}/{PAPERS_DIR}/{entry.name}"] = (
                st.st_size,
                st.st_mtime_ns,
            )
    return found


#: papers written per piece of a catalogue file
PIECE_PAPERS = 1_000


def _pieces(
    header: dict[str, object], papers: Sequence[Paper], deleted: Mapping[str, str]
) -> Iterator[bytes]:
    """A catalogue file's bytes, the header then a thousand papers at a time, then
    the deletions."""
    import orjson

    yield orjson.dumps(header, option=orjson.OPT_APPEND_NEWLINE)
    for start in range(0, len(papers), PIECE_PAPERS):
        lines = [orjson.dumps(p.to_dict()) for p in papers[start : start + PIECE_PAPERS]]
        yield b"\n".join(lines) + b"\n"
    if deleted:
        lines = [orjson.dumps({"id": pid, "deleted": how}) for pid, how in deleted.items()]
        yield b"\n".join(lines) + b"\n"


def write_file(
    device_dir: Path,
    papers: Sequence[Paper],
    stamp: str,
    deleted: Mapping[str, str] | None = None,
) -> str:
    """Write `papers` (and `deleted`: id -> TRASH or PURGED) as this device's next
    catalogue file, stamped `stamp`; returns its name relative to the library folder.
    Call it holding the library's lock."""
    deleted = deleted or {}
    target = papers_dir(device_dir)
    try:
        target.mkdir(parents=True, exist_ok=True)
        taken = [int(m.group(1)) for n in os.listdir(target) if (m := _NAME.fullmatch(n))]
    except OSError as exc:
        why = say._("{path}: cannot write the catalogue ({reason})")
        raise StorageError(why.format(path=target, reason=reason(exc))) from exc
    path = target / f"{max(taken, default=0) + 1:06d}.jsonl"
    version = DELETING_VERSION if deleted else VERSION
    count = len(papers) + len(deleted)
    header = {"format": FORMAT, "version": version, "count": count, "at": stamp}
    atomic_write_pieces(path, _pieces(header, papers, deleted))
    return f"{DEVICES_DIR}/{device_dir.name}/{PAPERS_DIR}/{path.name}"


def read_file(folder: Path, name: str, problems: list[str]) -> PapersFile | None:
    """Catalogue file `name` of library `folder` read whole; None if it is not whole
    yet (or cannot be read now). What is wrong with it is told in `problems`, by
    file and line; the lines that are papers are kept."""
    found = scan_file(folder, name, problems)
    if found is None:
        return None
    try:
        papers = list(found.papers)
    except FileChanged:
        return None
    return PapersFile(name, found.stamp, papers, found.deleted)


#: bytes read at a time while a catalogue file is looked over
_CHUNK = 1 << 24


def scan_file(folder: Path, name: str, problems: list[str]) -> PapersFile | None:
    """read_file() that never holds the file's papers all at once (a file of 1M papers
    is gigabytes of them): the file is looked over (its header, whether it is whole),
    and its papers are read from it again, a line at a time, as `papers` is iterated
    (FileChanged if it can no longer be read whole then). What is wrong with its lines
    is told in `problems` once they are all read."""
    import orjson

    path = folder / name
    try:
        with path.open("rb") as f:
            first = f.readline()
            start = f.tell()
            rest, last = 0, first[-1:]
            while chunk := f.read(_CHUNK):
                rest += chunk.count(b"\n")
                last = chunk[-1:]
    except OSError:
        return None
    if last != b"\n":
        return None  # still being copied: read when whole
    try:
        header = orjson.loads(first)
        count, stamp = header["count"], header["at"]
        if header.get("format") != FORMAT or not isinstance(stamp, str):
            raise ValueError
        if header.get("version") not in (VERSION, DELETING_VERSION):
            newer = say._("{path}: made by a newer version of Paper Reader; not read.")
            problems.append(newer.format(path=path))
            return PapersFile(name, stamp, [])
        if not isinstance(count, int) or count < 0:
            raise ValueError
    except (orjson.JSONDecodeError, ValueError, TypeError, KeyError, IndexError):
        not_ours = say._("{path}, line 1: not the header of a catalogue file; not read.")
        problems.append(not_ours.format(path=path))
        return PapersFile(name, "", [])
    if rest < count:
        return None  # still being copied
    deleted: dict[str, str] = {}
    papers = _papers(path, start, (count, rest), deleted, problems)
    return PapersFile(name, stamp, papers, deleted)


def _papers(
    path: Path,
    start: int,
    counts: tuple[int, int],
    deleted: dict[str, str],
    problems: list[str],
) -> Iterator[Paper]:
    """The papers of catalogue file `path`, its lines from byte `start` on: `counts`, as
    many as its header counts and as it was found to hold; the papers deleted into
    `deleted`; what is wrong told in `problems`."""
    import orjson

    count, held = counts
    bad = []
    seen = 0
    try:
        with path.open("rb") as f:
            f.seek(start)
            for line in f:
                if seen == count:
                    break
                seen += 1
                try:
                    data = orjson.loads(line)
                    pid = data.get("id") if isinstance(data, dict) else None
                    if not isinstance(pid, str) or not pid:
                        raise ValueError
                    how = data.get("deleted")
                    if how is not None:
                        if how not in (TRASH, PURGED):
                            raise ValueError
                        deleted[pid] = how
                        continue
                    paper = Paper.from_dict(data)
                except (orjson.JSONDecodeError, ValueError, TypeError, KeyError, OverflowError):
                    bad.append(seen + 1)
                    continue
                yield paper
    except OSError as exc:
        raise FileChanged(f"{path}: {reason(exc)}") from exc
    if seen < count:
        raise FileChanged(f"{path}: shorter than when it was looked over")
    if bad:
        shown = ", ".join(map(str, bad[:10])) + (", ..." if len(bad) > 10 else "")
        skipped = say._("{path}: {count} lines are not papers and were skipped (line {lines}).")
        problems.append(skipped.format(path=path, count=len(bad), lines=shown))
    if held > count:
        ignored = say._("{path}: {extra} lines after the {count} its header counts were ignored.")
        problems.append(ignored.format(path=path, extra=held - count, count=count))
