"""The write-ahead journal of annotations.json: one durable line appended per save.

annotations.json stays the file of record. A save appends one line holding its
field changes (what LibraryFolder.write_annotations is given) to
annotations.journal, then flushes and fsyncs it, under the library lock: its cost
does not depend on how big annotations.json is. Reading is annotations.json plus
the journal's lines applied in order. Now and then (the journal past FOLD_BYTES,
before a backup, a migration or a whole-document write, on close) the journal is
folded: annotations.json is rewritten atomically with the lines applied, then the
journal is emptied. A crash between the two replays lines that annotations.json
already holds, which changes nothing: applying the same changes again gives the
same document (each sets fields to values or deletes an annotation; the earliest
creation time stands).

A line is `<crc32 of the JSON, 8 hex digits> <JSON>\\n`. An unfinished last line
(a crash mid-append) is ignored and cut off before the next append. A line that
fails its checksum stops the replay there: the lines before it are kept, the
journal is moved aside (never deleted) and the user told.
"""

from __future__ import annotations

import contextlib
import os
import zlib
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from reader.core import say
from reader.store.storage import (
    Signature,
    StorageError,
    UnsavableValueError,
    cannot_read,
    check_writable,
    could_not_save,
    fsync_dir,
    move_aside,
    path_signature,
    read_all,
    reason,
    stat_signature,
)

JOURNAL_FILE = "annotations.journal"
#: Past this size the journal is folded into annotations.json (bounds replay time).
FOLD_BYTES = 256 * 1024

Changes = Mapping[str, Mapping[str, Any] | None]


def journal_path(folder: Path) -> Path:
    """The journal of the library in `folder`: beside annotations.json, or beside
    the file it links to (a symlink into a synced folder takes its journal along):
    annotations.journal, or <name>.journal for a file linked under another name."""
    real = Path(os.path.realpath(folder / "annotations.json"))
    if real.name == "annotations.json":
        return real.with_name(JOURNAL_FILE)
    return real.with_name(real.name + ".journal")


def encode(changes: Changes) -> bytes:
    """One journal line for `changes` (UnsavableValueError if JSON cannot hold them)."""
    import orjson

    try:
        payload = orjson.dumps(changes)
    except orjson.JSONEncodeError as exc:
        why = say._("cannot be saved as JSON: {error}").format(error=exc)
        raise UnsavableValueError(why) from exc
    return b"%08x " % zlib.crc32(payload) + payload + b"\n"


def _decode(line: bytes) -> dict[str, Any] | None:
    if len(line) < 10 or line[8:9] != b" ":
        return None
    import orjson

    payload = line[9:]
    try:
        if int(line[:8], 16) != zlib.crc32(payload):
            return None
        changes = orjson.loads(payload)
    except ValueError:  # not hex, or not JSON (orjson's error is a ValueError)
        return None
    if not isinstance(changes, dict) or not all(
        v is None or isinstance(v, dict) for v in changes.values()
    ):
        return None
    return changes


class Scan:
    """What a journal holds: the changes of its good lines, in order. (A plain class:
    a dataclass is ~1 ms of the program's start.)"""

    __slots__ = ("changes", "damaged", "good_end", "lines", "size")

    def __init__(self, size: int = 0) -> None:
        self.changes: list[dict[str, Any]] = []
        #: the good lines themselves (without their newline), one per change: what
        #: tells a save this process holds from one it has not seen (see LibraryFolder)
        self.lines: list[bytes] = []
        #: bytes of whole good lines from the start; what follows is not used
        self.good_end = 0
        #: all bytes
        self.size = size
        #: why the bytes after good_end are damaged; None if there are none, or only an
        #: unfinished last line (what a crash mid-append leaves)
        self.damaged: str | None = None

    @property
    def clean(self) -> bool:
        return self.good_end == self.size


def scan(raw: bytes) -> Scan:
    """Split a journal into good lines; stop at the first that does not check out."""
    out = Scan(size=len(raw))
    pos = 0
    while pos < len(raw):
        end = raw.find(b"\n", pos)
        if end < 0:
            break  # unfinished: the writer died mid-line
        changes = _decode(raw[pos:end])
        if changes is None:
            if raw[pos:].strip(b"\x00\n"):  # a crash may also leave zeros: not damage
                out.damaged = say._("line {number} is damaged").format(number=len(out.changes) + 1)
            break
        out.changes.append(changes)
        out.lines.append(raw[pos:end])
        pos = end + 1
    out.good_end = pos
    return out


_ABSENT = object()


def apply(
    docs: dict[str, dict[str, Any]], changes: Mapping[str, Any], *, copy: set[str] | None = None
) -> None:
    """Apply one save's field changes to the annotations table `docs` in place (None
    deletes an annotation). Applying the same changes twice changes nothing more.
    With `copy`, a document not named in it is copied before it is changed (and
    then named): the caller's documents are left as they were."""
    for pid, fields in changes.items():
        if fields is None:
            docs.pop(pid, None)
            continue
        doc = docs.get(pid)
        if doc is None:  # a new annotation: the fields as they are, but the paper's id
            docs[pid] = doc = dict(fields)
            doc.pop("paper_id", None)
            if copy is not None:
                copy.add(pid)
            continue
        if copy is not None and pid not in copy:
            doc = docs[pid] = dict(doc)
            copy.add(pid)
        # all fields but the paper's id; another process may have created the
        # annotation first: the earlier creation time stands
        first, paper_id = doc.get("created"), doc.get("paper_id", _ABSENT)
        doc.update(fields)
        if "paper_id" in fields:
            if paper_id is _ABSENT:
                del doc["paper_id"]
            else:
                doc["paper_id"] = paper_id
        value = fields.get("created")
        if first and isinstance(first, str) and isinstance(value, str) and first <= value:
            doc["created"] = first


def replayed(
    table: dict[str, dict[str, Any]], changes: list[dict[str, Any]]
) -> dict[str, dict[str, Any]]:
    """`table` with `changes` applied, `table` itself (and its documents) unchanged."""
    if not changes:
        return table
    out, copied = dict(table), set[str]()
    for one in changes:
        apply(out, one, copy=copied)
    return out


class Journal:
    """annotations.journal of one library folder, as one process sees it."""

    def __init__(self, folder: Path) -> None:
        self.path = journal_path(folder)
        #: the journal as last read by load(), or since only appended to by us
        self._seen: Signature | None = None
        #: the journal as we last left it: good lines up to its end
        self._written: Signature | None = None
        self._cached: tuple[Signature | None, object, Scan] | None = None
        #: the journal's bytes as we last left them, and their lines' changes: a fold
        #: that reads the same bytes back need not decode them again (a bulk edit of
        #: 100,000 papers is one line of ~10 MB). The bytes, not the file's signature,
        #: tell: a journal folded, emptied and refilled to the same size by another
        #: process within one clock tick has the same signature
        self._known: tuple[bytes, list[dict[str, Any]]] | None = None
        #: the line the last append() wrote (without its newline), as Scan.lines has it
        self.last_line = b""

    @property
    def seen(self) -> Signature | None:
        """The journal's signature as last read by load(), or since appended to by us."""
        return self._seen

    def changed(self) -> bool:
        """Whether the journal changed since load() (another process's saves)."""
        return path_signature(self.path) != self._seen

    def read(self, cache_key: object = None) -> tuple[Signature | None, Scan]:
        """The journal's signature and lines (nothing if absent); StorageError if it
        cannot be read. Given `cache_key` (the signature of the annotations.json
        read with it), not read again while neither that nor the journal changed; a
        fold rewrites annotations.json before it empties the journal, so a journal
        emptied and refilled to the same size within one clock tick is not mistaken
        for the one read before. Without a key (under the lock): always read."""
        now = path_signature(self.path)
        if (
            cache_key is not None
            and self._cached is not None
            and self._cached[:2] == (now, cache_key)
        ):
            return now, self._cached[2]
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except FileNotFoundError:
            return None, Scan()
        except OSError as exc:
            raise StorageError(cannot_read(self.path, exc)) from exc
        try:
            # the signature before the bytes: read without the lock (on opening), a
            # save appended meanwhile must leave the journal looking changed since
            # (changed()), not seen; lines read beyond the signature are only read again
            sig = stat_signature(os.fstat(fd))
            found = self._scan(read_all(fd))
        except OSError as exc:
            raise StorageError(cannot_read(self.path, exc)) from exc
        finally:
            os.close(fd)
        self._cached = (sig, cache_key, found) if cache_key is not None else None
        return sig, found

    def _scan(self, raw: bytes) -> Scan:
        """scan(raw), or the lines we know without decoding them if `raw` is (or
        begins with) the journal as we last left it."""
        known = self._known
        if known is None or not raw.startswith(known[0]):
            return scan(raw)
        head = known[0]
        if len(raw) == len(head):
            found = Scan(size=len(raw))
            found.changes, found.good_end = list(known[1]), len(raw)
            found.lines = raw.split(b"\n")[:-1]
            return found
        # lines appended since (another process's saves): only those are decoded
        tail = scan(raw[len(head) :])
        found = Scan(size=len(raw))
        found.changes = [*known[1], *tail.changes]
        found.lines = [*head.split(b"\n")[:-1], *tail.lines]
        found.good_end = len(head) + tail.good_end
        found.damaged = tail.damaged
        return found

    def load(self, cache_key: object = None) -> Scan:
        """read(), noting that its lines are now known (see changed())."""
        self._seen, found = self.read(cache_key)
        return found

    def mark_seen(self) -> None:
        """The caller now knows everything the journal holds (it folded it)."""
        self._seen = path_signature(self.path)

    def append(self, changes: Changes) -> tuple[int, bool]:
        """Durably append one save; call it holding the library lock. Returns the
        journal's size and whether it held lines we had not seen (another process's).
        An unfinished last line left by a crash is cut off first. Raises
        StorageError, and DamagedJournal if the journal is damaged (fold it first)."""
        line = encode(changes)
        check_writable(self.path)
        fd = self._open()
        size = -1
        known = self._known
        try:
            st = os.fstat(fd)
            before = stat_signature(st)
            size = st.st_size
            # not as we left it (or not ending a line): are its lines whole?
            if before != self._written or (size and _last_byte(fd, size) != b"\n"):
                os.lseek(fd, 0, os.SEEK_SET)
                raw = read_all(fd)
                found = self._scan(raw)
                if found.damaged:
                    raise DamagedJournal(f"{self.path}: {found.damaged}")
                if not found.clean:
                    os.ftruncate(fd, found.good_end)
                    size = found.good_end
                known = (raw[: found.good_end], found.changes)
            self._written = self._known = None  # until this line is durably written
            view = memoryview(line)
            while view:
                view = view[os.write(fd, view) :]
            os.fsync(fd)
            st = os.fstat(fd)
        except OSError as exc:
            if size >= 0:  # a failed save leaves no line behind (best effort)
                with contextlib.suppress(OSError):
                    os.ftruncate(fd, size)
            if isinstance(exc, StorageError):
                raise
            raise StorageError(could_not_save(self.path, exc)) from exc
        finally:
            os.close(fd)
        self._written = stat_signature(st)
        self._known = None if known is None else (known[0] + line, [*known[1], dict(changes)])
        self.last_line = line[:-1]
        # (a journal absent when last looked at and empty now holds nobody's saves:
        # made by this append, or emptied by a fold that rewrote annotations.json)
        unseen = before != self._seen and not (self._seen is None and before[2] == 0)
        if not unseen:
            self._seen = self._written
        return st.st_size, unseen

    def _open(self) -> int:
        try:
            return os.open(self.path, os.O_RDWR | os.O_APPEND)
        except FileNotFoundError:
            pass
        fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            fsync_dir(self.path.parent)  # the new file's name must survive a crash too
        except OSError:
            os.close(fd)
            raise
        return fd

    def _not_emptied(self, exc: OSError) -> str:
        why = say._("{path}: could not empty it ({reason})")
        return why.format(path=self.path, reason=reason(exc))

    def reset(self, found: Scan) -> str | None:
        """After its lines were folded into annotations.json (durably): empty the
        journal, or if it was damaged move it aside and return what to tell the
        user. Call it holding the library lock."""
        if found.damaged:
            aside = self.set_aside()
            kept = say._(
                "{path}: {damage}. The {count} saves before it were kept; the journal was kept"
                " as {aside}."
            )
            return kept.format(
                path=self.path, damage=found.damaged, count=len(found.changes), aside=aside
            )
        try:
            fd = os.open(self.path, os.O_RDWR)
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise StorageError(self._not_emptied(exc)) from exc
        try:
            os.ftruncate(fd, 0)
            os.fsync(fd)
            self._written, self._known = stat_signature(os.fstat(fd)), (b"", [])
        except OSError as exc:
            self._written = self._known = None
            raise StorageError(self._not_emptied(exc)) from exc
        finally:
            os.close(fd)
        return None

    def set_aside(self) -> Path:
        """Move the journal aside as damaged (never deleting it) once its good lines
        are durably in annotations.json; return where it went. Call it holding the lock."""
        from reader.store.backups import stamp_now

        aside = move_aside(self.path, "damaged", stamp_now())
        self._written = self._seen = self._cached = self._known = None
        return aside


def decode(line: bytes) -> dict[str, Any] | None:
    """The changes of one journal line (as Scan.lines has it), None if it is damaged."""
    return _decode(line)


def _last_byte(fd: int, size: int) -> bytes:
    os.lseek(fd, size - 1, os.SEEK_SET)  # appends still go to the end (O_APPEND)
    return os.read(fd, 1)


class DamagedJournal(StorageError):
    """The journal holds a line that fails its checksum: fold it (keeping the lines
    before) and move it aside before appending."""


def fold(
    journal: Journal,
    read: Callable[[], dict[str, Any] | None],
    write: Callable[[dict[str, Any]], None],
    mutate: Callable[[dict[str, Any]], None] | None = None,
) -> tuple[bool, str | None]:
    """Fold the journal into annotations.json: `read()` the document, apply the
    journal's lines (and `mutate`), `write()` it atomically, then empty the journal.
    Call it holding the library lock. Does nothing if there is nothing to do.
    Returns whether anything was written and what to tell the user (a damaged
    journal moved aside)."""
    _, found = journal.read()
    if mutate is None and not found.changes and found.size == 0:
        return False, None
    doc = read() or {}
    if found.changes:
        table = doc.setdefault("annotations", {})
        for changes in found.changes:
            apply(table, changes)
    if mutate is not None:
        mutate(doc)
    if found.changes or mutate is not None:
        write(doc)
    return True, journal.reset(found)
