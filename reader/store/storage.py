"""Atomic, durable TinyDB storage: temp file, flush, fsync, os.replace, fsync dir."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import tempfile
import weakref
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from tinydb.storages import Storage

from reader.core import say

TEMP_PREFIX = ".tmp-"

# Directory fsync is not supported everywhere; these errors mean "cannot", not "failed".
_DIR_FSYNC_UNSUPPORTED = {errno.EINVAL, errno.ENOTSUP, errno.EBADF}


def _friendly(number: int) -> str | None:
    """What OS error `number` means to a user, in their language (None: no better words
    than the system's)."""
    reasons = {
        errno.ENOSPC: say._("the disk is full"),
        errno.EDQUOT: say._("the disk quota is exceeded"),
        errno.EROFS: say._("the disk is read-only"),
        errno.EACCES: say._("permission denied"),
        errno.EPERM: say._("permission denied"),
        errno.EIO: say._("input/output error"),
    }
    return reasons.get(number)


class StorageError(OSError):
    """A save or load that failed; the message says which file and why."""


class DamagedFileError(StorageError):
    """A data file exists but does not hold a valid library document."""


class UnsavableValueError(StorageError, ValueError):
    """The data holds a value JSON cannot represent; nothing was written."""


def reason(exc: OSError) -> str:
    """A short human reason for an OS error: "the disk is full (No space left on device)"."""
    detail = exc.strerror or str(exc)
    friendly = _friendly(exc.errno or 0)
    return f"{friendly} ({detail})" if friendly else detail


def dump_json(data: Any, *, indent: bool = False) -> bytes:
    """Serialise `data` strictly: lone surrogates and other unencodable values raise
    ValueError before anything touches the disk."""
    import orjson

    try:
        if indent:
            return orjson.dumps(data, option=orjson.OPT_INDENT_2 | orjson.OPT_APPEND_NEWLINE)
        return orjson.dumps(data)
    except orjson.JSONEncodeError as exc:
        raise ValueError(say._("cannot be saved as JSON: {error}").format(error=exc)) from exc


def fsync_dir(folder: Path) -> None:
    """Make a rename in `folder` durable. Skipped where directories cannot be opened
    or synced; a real I/O error is raised, since the rename may then not survive."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError as exc:
        if exc.errno not in _DIR_FSYNC_UNSUPPORTED:
            raise
    finally:
        os.close(fd)


def _read_only(path: Path, mode: int) -> bool:
    # the mode bits are checked too: root may write anything, but a file or folder
    # the user made read-only must stay untouched
    return not mode & 0o222 or not os.access(path, os.W_OK)


def read_only_reason(path: Path) -> str | None:
    """Why `path` may not be written ("...: the file is read-only"), or None."""
    target = Path(os.path.realpath(path))
    try:
        if _read_only(target, os.stat(target).st_mode):
            return say._("{path}: the file is read-only").format(path=path)
    except FileNotFoundError:
        pass
    try:
        folder_mode = os.stat(target.parent).st_mode
    except OSError as exc:
        return say._("{folder}: cannot use the folder ({reason})").format(
            folder=target.parent, reason=reason(exc)
        )
    if _read_only(target.parent, folder_mode):
        return say._("{folder}: the folder is read-only").format(folder=target.parent)
    return None


def check_writable(path: Path) -> None:
    """Raise StorageError if `path` (or its folder) is read-only: respected, never forced."""
    why = read_only_reason(path)
    if why:
        raise StorageError(why)


def _write_replace(path: Path, payload: Iterable[bytes | memoryview]) -> int:
    """atomic_write's work, the payload in pieces written one after another; returns an
    open descriptor on the new file (the caller closes it)."""
    check_writable(path)
    target = Path(os.path.realpath(path))  # a symlink keeps pointing where it pointed
    folder = target.parent
    try:
        mode: int | None = stat.S_IMODE(os.stat(target).st_mode)
    except FileNotFoundError:
        mode = None
    tmp_name, fd = "", -1
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=TEMP_PREFIX + target.name + ".", dir=folder)
        for piece in payload:
            view = memoryview(piece)
            while view:
                view = view[os.write(fd, view) :]
        os.fsync(fd)
        if mode is not None:
            os.fchmod(fd, mode)
        os.replace(tmp_name, target)
        tmp_name = ""
        fsync_dir(folder)
        return fd
    except OSError as exc:
        if fd >= 0:
            os.close(fd)
        raise StorageError(could_not_save(path, exc)) from exc
    finally:
        if tmp_name:
            with contextlib.suppress(OSError):
                os.unlink(tmp_name)


def could_not_save(path: Path, exc: OSError) -> str:
    """The message of a save of `path` that failed with `exc`."""
    return say._("{path}: could not save ({reason})").format(path=path, reason=reason(exc))


def cannot_read(path: Path, exc: OSError) -> str:
    """The message of a read of `path` that failed with `exc`."""
    return say._("{path}: cannot read ({reason})").format(path=path, reason=reason(exc))


def atomic_write_pieces(path: Path, pieces: Iterable[bytes]) -> None:
    """atomic_write() of the bytes `pieces` make one after another (never all joined
    in memory: a big catalogue file is written line by line)."""
    os.close(_write_replace(path, pieces))


def atomic_write(path: Path, payload: bytes) -> None:
    """Replace `path` with `payload` so that a crash leaves either the old or the new
    file, never a mix. A symlinked `path` keeps pointing where it pointed; the file's
    permission bits are kept; a read-only file or folder is refused. Raises
    StorageError naming the file on any failure, with the previous file untouched."""
    os.close(_write_replace(path, [payload]))


def move_aside(path: Path, label: str, stamp: str) -> Path:
    """Rename `path` to `<name>.<label>-<stamp>` in its folder (never deleting
    anything) and return the new path."""
    if _read_only(path.parent, os.stat(path.parent).st_mode):
        raise StorageError(_left_in_place(path.parent, path.name))
    aside = _aside_name(path, label, stamp)
    try:
        os.rename(path, aside)
        fsync_dir(path.parent)
    except OSError as exc:
        why = say._("{path}: could not move it aside ({reason})")
        raise StorageError(why.format(path=path, reason=reason(exc))) from exc
    return aside


def _left_in_place(folder: Path, name: str) -> str:
    return say._("{folder}: the folder is read-only; {name} left in place").format(
        folder=folder, name=name
    )


def _aside_name(path: Path, label: str, stamp: str) -> Path:
    aside = path.with_name(f"{path.name}.{label}-{stamp}")
    n = 1
    while os.path.lexists(aside):
        n += 1
        aside = path.with_name(f"{path.name}.{label}-{stamp}-{n}")
    return aside


def keep_aside(path: Path, label: str, stamp: str) -> Path:
    """A durable copy of `path` as `<name>.<label>-<stamp>` in its folder (as
    move_aside names it), `path` left in place for the caller to replace atomically:
    at no moment is there no file at `path`. A hard link where the file system has
    them (no copy of the bytes), else a copy. A symlinked `path`: a copy of the file
    it links to, beside that file (which is what an atomic write replaces). Returns
    the copy's path."""
    target = Path(os.path.realpath(path))
    if _read_only(target.parent, os.stat(target.parent).st_mode):
        raise StorageError(_left_in_place(target.parent, path.name))
    aside = _aside_name(target, label, stamp)
    try:
        try:
            os.link(target, aside)
        except (OSError, NotImplementedError):  # no hard links here: a copy
            import shutil

            shutil.copyfile(target, aside)
            fd = os.open(aside, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        fsync_dir(target.parent)
    except OSError as exc:
        why = say._("{path}: could not keep a copy of it ({reason})")
        raise StorageError(why.format(path=path, reason=reason(exc))) from exc
    return aside


def remove_stale_temp_files(folder: Path) -> list[Path]:
    """Delete temp files a crash left behind in `folder`; return what was removed.
    Call it only while holding the library lock: a live writer's temp file looks the same."""
    removed = []
    for leftover in folder.glob(TEMP_PREFIX + "*"):
        with contextlib.suppress(OSError):
            leftover.unlink()
            removed.append(leftover)
    return removed


Signature = tuple[int, int, int, int, int]


def stat_signature(st: os.stat_result) -> Signature:
    """What tells one version of a file from another: device, inode, size, times."""
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def path_signature(path: Path) -> Signature | None:
    """The signature of the file at `path` now; None if there is none."""
    try:
        return stat_signature(os.stat(path))
    except FileNotFoundError:
        return None


def read_all(fd: int) -> bytes:
    """Everything from the descriptor's position to the end."""
    chunks = []
    while chunk := os.read(fd, 1 << 20):
        chunks.append(chunk)
    return b"".join(chunks)


class AtomicJSONStorage(Storage):
    """TinyDB storage that never overwrites in place and re-reads only when the
    file changed on disk since it was last read or written (another process).

    It keeps the file it last saw open: while open, its inode number cannot be
    reused by another file, so "same inode, size and times" really means "same file"."""

    def __init__(self, path: str | Path, *, indent: bool = False) -> None:
        self.path = Path(path)
        self._indent = indent
        self._cache: dict[str, Any] | None = None
        self._signature: Signature | None = None
        self._pin: weakref.finalize[..., Any] | None = None

    def _remember(self, data: dict[str, Any] | None, fd: int | None) -> None:
        if self._pin is not None:
            self._pin()
            self._pin = None
        self._cache, self._signature = data, None
        if fd is None:
            return
        self._signature = stat_signature(os.fstat(fd))
        if os.name == "posix":  # elsewhere an open file blocks other writers' os.replace
            self._pin = weakref.finalize(self, os.close, fd)
        else:
            os.close(fd)

    @property
    def signature(self) -> Signature | None:
        """The signature of the file as last read or written (None: not cached)."""
        return self._signature

    def changed_on_disk(self) -> bool:
        return path_signature(self.path) != self._signature

    def read(self) -> dict[str, Any] | None:
        if self._cache is not None and not self.changed_on_disk():
            return self._cache
        self._remember(None, None)
        fd = _open_for_reading(self.path)
        if fd is None:
            return None
        try:
            # from the descriptor: the signature taken from it matches what was parsed
            data = read_document(self.path, fd)
        except BaseException:
            os.close(fd)
            raise
        self._remember(data, fd)
        return data

    def write(self, data: dict[str, Any]) -> None:
        # TinyDB mutates the dict read() returned before calling write(); forget it
        # until the write succeeds so a failed save never looks like the disk's state.
        self._remember(None, None)
        try:
            payload = [dump_json(data, indent=self._indent)]
        except ValueError as exc:
            raise UnsavableValueError(f"{self.path}: {exc}") from exc
        self._remember(data, _write_replace(self.path, payload))

    def close(self) -> None:
        self._remember(None, None)


def _is_table(table: Any) -> bool:
    """A TinyDB table: an object of objects."""
    return isinstance(table, dict) and all(isinstance(doc, dict) for doc in table.values())


def parse_document(path: Path, raw: bytes) -> dict[str, Any]:
    """Parse a TinyDB file: a JSON object whose values are objects of objects."""
    import orjson

    if not raw or raw.isspace():  # isspace(), not strip(): no copy of a big file
        raise DamagedFileError(say._("{path}: the file is empty").format(path=path))
    try:
        data = orjson.loads(raw)
    except ValueError as exc:  # (orjson's JSONDecodeError)
        why = say._("{path}: not valid JSON ({error})").format(path=path, error=exc)
        raise DamagedFileError(why) from exc
    if not isinstance(data, dict) or not all(_is_table(table) for table in data.values()):
        raise DamagedFileError(say._("{path}: valid JSON but not a library file").format(path=path))
    return data


def _open_for_reading(path: Path) -> int | None:
    try:
        return os.open(path, os.O_RDONLY)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StorageError(cannot_read(path, exc)) from exc


def load_document(path: Path) -> dict[str, Any] | None:
    """The TinyDB file at `path` parsed (None if absent; see read_document)."""
    fd = _open_for_reading(path)
    if fd is None:
        return None
    try:
        return read_document(path, fd)
    finally:
        os.close(fd)


def read_document(path: Path, fd: int) -> dict[str, Any]:
    """Read and parse the TinyDB file open as `fd`: DamagedFileError if its content
    is bad, StorageError if it cannot be read."""
    try:
        return parse_document(path, read_all(fd))
    except StorageError:
        raise
    except OSError as exc:
        raise StorageError(cannot_read(path, exc)) from exc
