"""Slow work off the GUI thread: one helper, results back on the GUI thread by signal."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal


class _Relay(QObject):
    """Lives on the GUI thread; worker threads emit, Qt queues to the GUI thread."""

    finished = Signal(object)
    failed = Signal(object)
    progressed = Signal(int, int)


class Task:
    """A running piece of work. `cancel()` asks it to stop at its next progress
    report; `progress(done, total)` is what the work function calls, and `commit()`
    its point of no return (after it, cancel() is refused)."""

    def __init__(self) -> None:
        self._cancelled = threading.Event()
        self._lock = threading.Lock()
        self._committed = False
        self.relay = _Relay()

    def cancel(self) -> bool:
        """Ask the work to stop; False (nothing asked) once it has committed."""
        with self._lock:
            if self._committed:
                return False
            self._cancelled.set()
            return True

    def commit(self) -> bool:
        """The work's point of no return: False if it was cancelled already, else
        True, and cancel() refused from now on."""
        with self._lock:
            if self._cancelled.is_set():
                return False
            self._committed = True
            return True

    @property
    def cancelled(self) -> bool:
        return self._cancelled.is_set()

    def progress(self, done: int, total: int) -> bool:
        self.relay.progressed.emit(done, total)
        return not self._cancelled.is_set()


class _Runnable(QRunnable):
    def __init__(self, task: Task, fn: Callable[[Task], Any]) -> None:
        super().__init__()
        self._task = task
        self._fn = fn

    def run(self) -> None:
        try:
            result = self._fn(self._task)
        except BaseException as exc:  # reported to the GUI thread, never lost in a worker
            self._tell(self._task.relay.failed, exc)
        else:
            self._tell(self._task.relay.finished, result)

    @staticmethod
    def _tell(signal: Any, value: Any) -> None:
        try:
            signal.emit(value)
        except RuntimeError:  # the window went while the work ran: nobody to tell
            pass


class TaskRunner:
    """Runs `fn(task)` on a worker thread (or inline when `synchronous`, for tests)
    and calls `on_done(result)` or `on_error(exception)` on the GUI thread.

    By default one pooled worker runs the jobs one after another. With `daemon`, each
    job has a daemon thread of its own: a job given up on (cancelled while it parses
    a big file, which only ends at its next look at cancel) neither delays the next
    job nor keeps the process from exiting (a pool's thread would: Qt waits for it)."""

    def __init__(self, *, synchronous: bool = False, daemon: bool = False) -> None:
        self.synchronous = synchronous
        self.daemon = daemon
        self._pool = QThreadPool()
        self._pool.setMaxThreadCount(1)  # one worker: jobs never race each other
        self._tasks: set[Task] = set()
        self._threads: list[threading.Thread] = []

    def start(
        self,
        fn: Callable[[Task], Any],
        on_done: Callable[[Any], None],
        on_error: Callable[[BaseException], None],
        on_progress: Callable[[int, int], None] | None = None,
    ) -> Task:
        task = Task()
        self._tasks.add(task)

        def finish(result: Any) -> None:
            self._tasks.discard(task)
            on_done(result)

        def fail(exc: BaseException) -> None:
            self._tasks.discard(task)
            on_error(exc)

        task.relay.finished.connect(finish)
        task.relay.failed.connect(fail)
        if on_progress is not None:
            task.relay.progressed.connect(on_progress)
        runnable = _Runnable(task, fn)
        if self.synchronous:
            runnable.run()
        elif self.daemon:
            thread = threading.Thread(target=runnable.run, name="paper-reader task", daemon=True)
            self._threads = [t for t in self._threads if t.is_alive()]
            self._threads.append(thread)
            thread.start()
        else:
            self._pool.start(runnable)
        return task

    def wait(self, msecs: int = -1) -> bool:
        if self.daemon:
            import time

            end = None if msecs < 0 else time.monotonic() + msecs / 1000
            for thread in self._threads:
                thread.join(None if end is None else max(0.0, end - time.monotonic()))
            return not any(t.is_alive() for t in self._threads)
        return self._pool.waitForDone(msecs)
