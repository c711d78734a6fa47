"""The library's OS lock: every writer holds it for one write only."""

# The lock is the OS's own: flock(2) on POSIX, msvcrt.locking on Windows, on one
# file in the library folder; the same calls the filelock package makes, so it
# excludes a filelock.FileLock on that file too. Its own module rather than
# filelock because the app takes it before its first paint (stale temp files),
# and filelock takes ~35 ms to import. A file system without flock (some network
# mounts) is handed to filelock, which then uses a marker file instead.

from __future__ import annotations

import errno
import math
import os
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any, Self, TypeVar

from reader.core import say
from reader.store.storage import StorageError, could_not_save, read_only_reason

LOCK_FILE = ".lock"
LOCK_TIMEOUT_S = 15.0
# how often a busy lock is tried again; a long wait would make every contended save that slow
LOCK_POLL_S = 0.002

T = TypeVar("T")

_BUSY = frozenset({errno.EACCES, errno.EAGAIN, errno.EWOULDBLOCK})

if sys.platform == "win32":  # pragma: no cover (Windows)
    import msvcrt

    def _try_lock(fd: int) -> bool:
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError as exc:
            if exc.errno in _BUSY or exc.errno == errno.EDEADLK:
                return False
            raise
        return True

    def _unlock(fd: int) -> None:
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)

else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            if exc.errno in _BUSY:
                return False
            raise
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)


class Timeout(TimeoutError):
    """The lock stayed busy (held by another process) for the whole timeout."""


class LibraryLock:
    """An exclusive lock on the file `lock_file`, across processes and threads.

    Re-entrant in the thread that holds it; another thread of this process waits
    like another process does. acquire(timeout=0) tries once."""

    def __init__(
        self, lock_file: str, timeout: float = LOCK_TIMEOUT_S, poll_interval: float = LOCK_POLL_S
    ) -> None:
        self.lock_file = lock_file
        self.timeout = timeout
        self.poll_interval = poll_interval
        self._thread_lock = threading.RLock()
        self._depth = 0  # holds by the owning thread
        self._fd: int | None = None
        self._fallback: Any = None  # a filelock.FileLock where flock is missing

    @property
    def is_locked(self) -> bool:
        return self._depth > 0

    def acquire(self, timeout: float | None = None) -> _Held:
        """Take the lock, waiting up to `timeout` seconds (else the lock's own; 0
        tries once, a negative one waits for good), or raise Timeout. OSError if
        the lock file cannot be opened."""
        wait = self.timeout if timeout is None else timeout
        deadline = math.inf if wait < 0 else time.monotonic() + wait
        if wait < 0:
            taken = self._thread_lock.acquire()
        else:
            taken = (
                self._thread_lock.acquire(True, wait) if wait else self._thread_lock.acquire(False)
            )
        if not taken:
            raise Timeout(f"{self.lock_file}: held by another thread")
        try:
            if self._depth == 0:
                self._take(deadline)
            self._depth += 1
        except BaseException:
            self._thread_lock.release()
            raise
        return _Held(self)

    def _take(self, deadline: float) -> None:
        while self._fallback is None:
            fd = os.open(self.lock_file, os.O_RDWR | os.O_CREAT, 0o644)
            try:
                locked = _try_lock(fd)
            except OSError as exc:
                os.close(fd)
                if exc.errno not in (errno.ENOSYS, errno.EOPNOTSUPP):
                    raise
                self._fallback = _filelock(self.lock_file, self.poll_interval)
                break
            if locked and (sys.platform == "win32" or os.fstat(fd).st_nlink > 0):
                self._fd = fd
                return
            if locked:  # the lock file was removed meanwhile: it locks nothing any more
                _unlock(fd)
                os.close(fd)
                continue
            os.close(fd)
            if time.monotonic() >= deadline:
                raise Timeout(f"{self.lock_file}: held by another program")
            time.sleep(self.poll_interval)
        left = deadline - time.monotonic()
        try:
            self._fallback.acquire(timeout=-1 if left == math.inf else max(left, 0.0))
        except TimeoutError as exc:
            raise Timeout(f"{self.lock_file}: held by another program") from exc

    def release(self) -> None:
        """Let go of one hold; the lock is free once every hold was let go."""
        if self._depth == 0:
            raise RuntimeError("releasing a lock that is not held")
        try:
            if self._depth == 1:
                fd, self._fd = self._fd, None
                if fd is not None:
                    try:
                        _unlock(fd)
                    finally:
                        os.close(fd)  # closing alone would also let go
                elif self._fallback is not None:
                    self._fallback.release()
        finally:
            self._depth -= 1
            self._thread_lock.release()

    def __enter__(self) -> Self:
        self.acquire()
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.release()


class _Held:
    """What acquire() returns: `with lock.acquire(timeout=0):` lets go on leaving."""

    def __init__(self, lock: LibraryLock) -> None:
        self.lock = lock

    def __enter__(self) -> LibraryLock:
        return self.lock

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.lock.release()


def _filelock(path: str, poll_interval: float) -> Any:
    """filelock's lock for a file system without flock (it uses a marker file there)."""
    from filelock import FileLock

    return FileLock(path, poll_interval=poll_interval)


def make_lock(folder: Path) -> LibraryLock:
    """The OS lock every writer of the library in `folder` holds while writing."""
    return LibraryLock(str(folder / LOCK_FILE))


def run_locked(lock: LibraryLock, folder: Path, fn: Callable[[], T]) -> T:
    """Run `fn` holding `lock` (the library's); OS errors become StorageError."""
    lock_path = Path(lock.lock_file)
    # taking the lock creates its file: not even that in a folder made read-only
    why = None if lock_path.exists() else read_only_reason(lock_path)
    if why:
        raise StorageError(why)
    try:
        with lock:
            return fn()
    except StorageError:
        raise
    except Timeout as exc:
        why = say._("{folder}: another program holds the library lock")
        raise StorageError(why.format(folder=folder)) from exc
    except OSError as exc:
        raise StorageError(could_not_save(exc.filename or folder, exc)) from exc
