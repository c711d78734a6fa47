"""A big library whose catalogue's index is made anew (deleted, stale, damaged) opens
with the papers its index took in first; the others come into the window as the index
takes them in, on a thread of its own (reader.store.catalogue_db.CatalogueDB.load),
a step at a time on this thread, the status bar saying how far it is."""

from __future__ import annotations

from PySide6.QtCore import QObject, QTimer
from PySide6.QtWidgets import QStatusBar

from reader.core.library import Library

#: papers taken into the window a step (~50 ms at 1M papers: a step costs ~25 ms
#: whatever its size, ~5 us a paper)...
STEP = 5_000
#: ...every this many ms while the index takes them in (at once while steps are full)
TICK_MS = 200


class CatchUp(QObject):
    """Takes in the papers the catalogue's index took since the library was opened,
    until it has taken them all."""

    def __init__(self, library: Library, status: QStatusBar, parent: QObject) -> None:
        super().__init__(parent)
        self._library = library
        self._status = status
        self._timer = QTimer(self, singleShot=True, interval=TICK_MS)
        self._timer.timeout.connect(self._step)
        self.done = False
        self._timer.start()

    def _step(self) -> None:
        before = len(self._library)
        self.done = self._library.catch_up(STEP)
        count = len(self._library)
        if self.done:
            self._status.showMessage(self.tr("Library indexed: %Ln paper(s)", "", count), 10_000)
            return
        self._status.showMessage(self.tr("Indexing the library: %Ln paper(s) so far…", "", count))
        self._timer.start(0 if count - before >= STEP else TICK_MS)
