"""The library lock: one holder at a time across processes and threads, re-entrant
in its holder, the same OS lock as the filelock package's."""

from __future__ import annotations

import errno
import subprocess
import sys
import textwrap
import threading
from pathlib import Path

import filelock
import pytest

from reader.store import locking
from reader.store.locking import LibraryLock, Timeout, make_lock

REPO = Path(__file__).resolve().parents[2]


def _free(path: Path) -> bool:
    """Whether a fresh lock on `path` can be taken right now (and lets go again)."""
    try:
        with LibraryLock(str(path)).acquire(timeout=0):
            return True
    except Timeout:
        return False


def test_another_process_holding_the_lock_keeps_us_out_until_it_lets_go(tmp_path):
    lock_file = tmp_path / ".lock"
    script = textwrap.dedent(f"""
        import sys
        from reader.store.locking import LibraryLock
        with LibraryLock({str(lock_file)!r}):
            print("locked", flush=True)
            sys.stdin.readline()
    """)
    with subprocess.Popen(
        [sys.executable, "-c", script],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        cwd=REPO,
    ) as child:
        assert child.stdout.readline().strip() == "locked"
        with pytest.raises(Timeout):
            LibraryLock(str(lock_file)).acquire(timeout=0)
        child.stdin.write("\n")
        child.stdin.flush()
        assert child.wait() == 0
    assert _free(lock_file)


def test_it_excludes_filelock_and_filelock_excludes_it(tmp_path):
    lock_file = tmp_path / ".lock"
    with filelock.FileLock(str(lock_file)):
        assert not _free(lock_file)
    with LibraryLock(str(lock_file)), pytest.raises(filelock.Timeout):
        filelock.FileLock(str(lock_file)).acquire(timeout=0)
    assert _free(lock_file)


def test_reentrant_in_its_thread_and_free_once_every_hold_is_released(tmp_path):
    lock = make_lock(tmp_path)
    with lock:
        with lock.acquire(timeout=0):
            assert lock.is_locked
        assert lock.is_locked and not _free(tmp_path / ".lock")
    assert not lock.is_locked and _free(tmp_path / ".lock")
    with pytest.raises(RuntimeError):
        lock.release()


def test_another_thread_waits_for_the_holder(tmp_path):
    lock = make_lock(tmp_path)
    held, go = threading.Event(), threading.Event()

    def holder() -> None:
        with lock:
            held.set()
            go.wait()

    thread = threading.Thread(target=holder)
    thread.start()
    held.wait()
    with pytest.raises(Timeout):
        lock.acquire(timeout=0)
    go.set()
    thread.join()
    with lock.acquire(timeout=0):
        assert lock.is_locked
    assert not lock.is_locked


def test_a_failed_try_leaves_nothing_held(tmp_path):
    lock_file = tmp_path / ".lock"
    mine = LibraryLock(str(lock_file))
    with LibraryLock(str(lock_file)):
        with pytest.raises(Timeout):
            mine.acquire(timeout=0)
        assert not mine.is_locked
    with mine.acquire(timeout=0):
        pass
    assert _free(lock_file)


def test_without_flock_it_falls_back_to_filelock_and_still_excludes(tmp_path, monkeypatch):
    def no_flock(fd: int) -> bool:
        raise OSError(errno.ENOSYS, "Function not implemented")

    monkeypatch.setattr(locking, "_try_lock", no_flock)
    first, second = make_lock(tmp_path), make_lock(tmp_path)
    with first, pytest.raises(Timeout):
        second.acquire(timeout=0)
    with second.acquire(timeout=0):
        assert second.is_locked
