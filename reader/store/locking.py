"""The library's OS lock: every writer holds it for one write only."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from filelock import FileLock, Timeout

from reader.store.storage import StorageError, read_only_reason, reason

LOCK_FILE = ".lock"
LOCK_TIMEOUT_S = 15.0
# filelock polls a busy lock; its default 50 ms would make every contended save that slow
LOCK_POLL_S = 0.002

T = TypeVar("T")


def make_lock(folder: Path) -> FileLock:
    """The OS lock every writer of the library in `folder` holds while writing."""
    return FileLock(str(folder / LOCK_FILE), timeout=LOCK_TIMEOUT_S, poll_interval=LOCK_POLL_S)


def run_locked(lock: FileLock, folder: Path, fn: Callable[[], T]) -> T:
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
        raise StorageError(f"{folder}: another program holds the library lock") from exc
    except OSError as exc:
        where = exc.filename or folder
        raise StorageError(f"{where}: could not save ({reason(exc)})") from exc
