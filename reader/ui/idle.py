"""Work the window leaves for later: after its first paint, or while the user is idle."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Generator, Iterator

import shiboken6
from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication, QWidget

#: what a user does with keyboard and mouse (a step owed to it runs before it)
INPUT = frozenset({
    QEvent.Type.KeyPress, QEvent.Type.ShortcutOverride, QEvent.Type.Shortcut,
    QEvent.Type.MouseButtonPress, QEvent.Type.MouseButtonDblClick, QEvent.Type.ContextMenu,
    QEvent.Type.DragEnter, QEvent.Type.Drop, QEvent.Type.InputMethod, QEvent.Type.Wheel,
})  # fmt: skip

#: this module's filters on the whole application (AfterFirstPaint, WhenIdle)
_watching: list[QObject] = []


def _watch(qapp: QApplication, watcher: QObject) -> None:
    qapp.installEventFilter(watcher)
    _watching.append(watcher)


def _unwatch(qapp: QApplication, watcher: QObject) -> None:
    qapp.removeEventFilter(watcher)
    if watcher in _watching:
        _watching.remove(watcher)


@contextlib.contextmanager
def _unwatched(qapp: QApplication) -> Iterator[None]:
    """None of the filters watches while a step runs: no input comes during a step,
    and an event for an object of a class Qt keeps to itself (making a widget sends
    some) makes PySide create every enum of every class it knows, ~50 ms."""
    _watching[:] = [w for w in _watching if shiboken6.isValid(w)]  # (gone with their window)
    watchers = list(_watching)
    for watcher in watchers:
        qapp.removeEventFilter(watcher)
    try:
        yield
    finally:
        for watcher in watchers:
            if watcher in _watching and shiboken6.isValid(watcher):
                qapp.installEventFilter(watcher)


class IdleSteps(QObject):
    """Runs `steps` (a generator) one step per event-loop turn until it is done or
    stop() closes it. A step that yields a number of ms has the next one wait that
    long (polling another process, say) rather than come at the next turn."""

    def __init__(self, parent: QObject, steps: Generator[int | None, None, object]) -> None:
        super().__init__(parent)
        self._steps: Generator[int | None, None, object] | None = steps
        self._timer = QTimer(self, interval=0)
        self._timer.timeout.connect(self._next)
        self._timer.start()

    @property
    def done(self) -> bool:
        return self._steps is None

    def _next(self) -> None:
        if self._steps is None:
            return
        wait = next(self._steps, StopIteration)
        if wait is StopIteration:
            self._finish()
        else:
            self._timer.setInterval(wait if isinstance(wait, int) else 0)

    def stop(self) -> None:
        """Stop here (the generator is closed: it cleans up after itself)."""
        if self._steps is not None:
            self._steps.close()
            self._finish()

    def _finish(self) -> None:
        self._steps = None
        self._timer.stop()


class WhenIdle(IdleSteps):
    """Runs `steps` (a generator) one step per event-loop turn while the user leaves
    keyboard and mouse alone: each input puts the next step QUIET_MS off, so a key
    waits at most for the step under way (loading Markdown, ~100 ms, is one)."""

    QUIET_MS = 300

    def __init__(
        self,
        qapp: QApplication,
        parent: QObject,
        steps: Generator[int | None, None, object],
        held: Callable[[], bool] | None = None,
    ) -> None:
        super().__init__(parent, steps)
        self._timer.stop()  # from the first quiet moment on
        self._qapp = qapp
        #: while this holds, no step is taken (turns go to something more urgent)
        self._held = held
        self._quiet = QTimer(self, singleShot=True, interval=self.QUIET_MS)
        self._quiet.timeout.connect(self._timer.start)
        _watch(qapp, self)
        self._quiet.start()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        if event.type() in INPUT:
            self._timer.stop()
            self._quiet.start()
        return False

    def _next(self) -> None:
        if self._held is not None and self._held():
            return
        with _unwatched(self._qapp):
            super()._next()

    def _finish(self) -> None:
        super()._finish()
        self._quiet.stop()
        _unwatch(self._qapp, self)


class AfterFirstPaint(QObject):
    """Runs `steps` (a generator, one step per event-loop turn) once `painted` has
    painted for the first time. From then on the user's first key, click or drop
    runs every step left at once, before that input is handled, so no shortcut or
    menu is missing (input reaches a window only after it was exposed, and so
    painted). A window that is never painted gets the steps after FALLBACK_MS."""

    FALLBACK_MS = 2_000

    def __init__(
        self, qapp: QApplication, painted: QWidget, steps: Callable[[], Iterator[None]]
    ) -> None:
        super().__init__(painted)
        self._qapp = qapp
        self._painted = painted
        self._steps: Iterator[None] | None = steps()
        self._started = False
        painted.installEventFilter(self)
        # a timer object: the static singleShot with a receiver makes PySide create
        # QMetaMethod's enums (~1 ms) before the first paint
        self._fallback = QTimer(self, singleShot=True, interval=self.FALLBACK_MS)
        self._fallback.timeout.connect(self._start)
        self._fallback.start()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        kind = event.type()
        if kind in INPUT:
            self.run_all()
        elif kind == QEvent.Type.Paint and watched is self._painted:
            self._start()
        return False

    def _start(self) -> None:
        if self._started or self._steps is None:
            return
        self._started = True
        self._fallback.stop()
        self._painted.removeEventFilter(self)
        # watching every event of the application costs; only from the first paint on
        _watch(self._qapp, self)
        QTimer.singleShot(0, self, self._next)

    def _next(self) -> None:
        if self._steps is None:
            return
        with _unwatched(self._qapp):  # (a step's own events: widgets made, properties set)
            finished = next(self._steps, StopIteration) is StopIteration
        if finished:
            self._done()
        else:
            QTimer.singleShot(0, self, self._next)

    @property
    def done(self) -> bool:
        """Every step has run."""
        return self._steps is None

    def run_all(self) -> None:
        """Every step left, now."""
        if self._steps is not None:
            with _unwatched(self._qapp):
                for _ in self._steps:
                    pass
            self._done()

    def _done(self) -> None:
        self._steps = None
        _unwatch(self._qapp, self)
        self._painted.removeEventFilter(self)
