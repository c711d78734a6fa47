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
    report; `progress(done, total)` is what the work function calls."""

    def __init__(self) -> None:
        self._cancelled = threading.Event()
        self.relay = _Relay()

    def cancel(self) -> None:
        self._cancelled.set()

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
            self._task.relay.failed.emit(exc)
        else:
            self._task.relay.finished.emit(result)


class TaskRunner:
    """Runs `fn(task)` on a worker thread (or inline when `synchronous`, for tests)
    and calls `on_done(result)` or `on_error(exception)` on the GUI thread."""

    def __init__(self, *, synchronous: bool = False) -> None:
        self.synchronous = synchronous
        self._pool = QThreadPool()
        self._pool.setMaxThreadCount(1)  # one worker: jobs never race each other
        self._tasks: set[Task] = set()

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
        else:
            self._pool.start(runnable)
        return task

    def wait(self, msecs: int = -1) -> bool:
        return self._pool.waitForDone(msecs)
