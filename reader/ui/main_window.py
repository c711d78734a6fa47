"""The main window: assembles facets, list, reader pane, menus and status bar.

It holds what the first paint shows (the list, the reader pane, the menu bar's
titles). The features (actions and menu items, triage, highlighting, note links)
are built by the composition root (reader.ui.app) right after the first paint, and
attach themselves through the window's Qt interface (its menu bar, status bar,
add_above_reader()); the window knows none of them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, Qt, Signal
from PySide6.QtWidgets import QMainWindow, QSplitter, QVBoxLayout, QWidget

from reader.ui import plain
from reader.ui.controller import PaperController
from reader.ui.reader_view import ReaderPane
from reader.ui.sidebar import Sidebar
from reader.ui.theme import Appearance, flat_scroll_bars
from reader.ui.transfer import Transfers, dropped_files, show_report

if TYPE_CHECKING:
    from PySide6.QtGui import QCloseEvent, QDragEnterEvent, QDropEvent
    from PySide6.QtWidgets import QMessageBox

#: the menu bar, from the first paint (the composition root fills the menus after it);
#: the titles translated when shown, the menus known by these
MENUS = (
    QT_TRANSLATE_NOOP("MainWindow", "&File"),
    QT_TRANSLATE_NOOP("MainWindow", "&Edit"),
    QT_TRANSLATE_NOOP("MainWindow", "&Paper"),
    QT_TRANSLATE_NOOP("MainWindow", "&View"),
    QT_TRANSLATE_NOOP("MainWindow", "&Go"),
    QT_TRANSLATE_NOOP("MainWindow", "&Help"),
)


class MainWindow(QMainWindow):
    """Thin: every behaviour lives in the widgets and the controller.

    Signals:
        closing(): the window is about to close (state must be saved).
        language_changed(): another language is in use (the features' texts follow).
    """

    closing = Signal()
    language_changed = Signal()

    def __init__(
        self,
        controller: PaperController,
        transfers: Transfers,
        appearance: Appearance,
        title: str,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.controller = controller
        self.appearance = appearance
        appearance.setParent(self)
        self.transfers = transfers
        transfers.setParent(self)
        self.sidebar: Sidebar = controller.sidebar
        self.pane: ReaderPane = controller.pane
        self.setWindowTitle(title)

        # the reader pane's column is made in the splitter: moved in later, it would be
        # polished again with all its children (its lower half has a style sheet)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        right = QWidget(self.splitter)
        self._right_layout = QVBoxLayout(right)
        self._right_layout.setContentsMargins(0, 0, 0, 0)
        self._right_layout.setSpacing(0)
        self._right_layout.addWidget(self.pane, 1)
        self.splitter.addWidget(self.sidebar.facets)
        self.splitter.addWidget(self.sidebar)
        self.splitter.addWidget(right)
        # at 900 px the reader gives way before the facets' counts and the titles do
        self.sidebar.facets.setMinimumWidth(170)
        self.sidebar.setMinimumWidth(240)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setStretchFactor(2, 5)
        self.splitter.setSizes([205, 400, 675])
        self.splitter.setChildrenCollapsible(False)
        self.setCentralWidget(self.splitter)
        bar = self.menuBar()
        #: the menu bar's menus by their English titles (MENUS)
        self.menus = {title: bar.addMenu(self.tr(title)) for title in MENUS}

        appearance.theme_applied.connect(lambda _mode: self.pane.restyle())
        controller.save_failed.connect(self._save_failed)
        controller.saved_again.connect(
            lambda: self.statusBar().showMessage(self.tr("All edits saved."), 10_000)
        )
        controller.undo_kept.connect(
            lambda msg: self.statusBar().showMessage(plain.one_line(msg), 15_000)
        )
        controller.told.connect(
            lambda msg: self.statusBar().showMessage(plain.one_line(msg), 10_000)
        )
        transfers.message.connect(
            lambda msg: self.statusBar().showMessage(plain.one_line(msg), 10_000)
        )
        transfers.import_finished.connect(lambda report: show_report(self, report))
        transfers.imported.connect(self.controller.push)  # (Edit → Undo Import)
        transfers.import_failed.connect(self.warn)
        self._save_warning: QMessageBox | None = None
        self.setAcceptDrops(True)
        self.statusBar().setSizeGripEnabled(False)
        # the bars the first paint may show (~0.2 ms each); the rest after it (reader.ui.app)
        note = self.pane.note_editor
        flat_scroll_bars(
            self.sidebar.view.verticalScrollBar(),
            self.pane.browser.verticalScrollBar(),
            self.sidebar.facets.verticalScrollBar(),
            note.editor.verticalScrollBar(),
            note.preview.verticalScrollBar(),
        )
        self.resize(1280, 800)

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        """Another language: the menus' titles in it, and the features told."""
        if event.type() == QEvent.Type.LanguageChange:
            for title, menu in self.menus.items():
                menu.setTitle(self.tr(title))
            self.language_changed.emit()
        super().changeEvent(event)

    def add_above_reader(self, widget: QWidget) -> None:
        """Put `widget` above the reader pane, full width (the triage bar)."""
        self._right_layout.insertWidget(0, widget)

    # -- what the window's own actions do ---------------------------------------------------

    def show_table(self, on: bool) -> None:
        """The papers as a table (on) or as the list; a table gets room for its
        columns, half the window (the reader narrower), if it had less."""
        self.sidebar.set_table(on)
        facets, listed, reader = self.splitter.sizes()
        wanted = (listed + reader) // 2
        if on and listed < wanted:
            self.splitter.setSizes([facets, wanted, listed + reader - wanted])

    def warn(self, message: str) -> QMessageBox:
        """A non-modal warning (the user keeps working) and the same in the status bar."""
        from PySide6.QtWidgets import QMessageBox

        self.statusBar().showMessage(plain.one_line(message.split("\n", 1)[0]), 15_000)
        box = plain.message(self, QMessageBox.Icon.Warning, "Paper Reader", message)
        box.setModal(False)  # open() would make it window-modal
        box.show()
        return box

    def _save_failed(self, message: str) -> None:
        self.statusBar().showMessage(plain.one_line(message), 30_000)
        if self._save_warning is None or not self._save_warning.isVisible():
            self._save_warning = self.warn(message)

    def bring_to_front(self) -> None:
        if self.isMinimized():
            self.showNormal()
        self.raise_()
        self.activateWindow()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802 (Qt override)
        if dropped_files(event.mimeData()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802 (Qt override)
        files = dropped_files(event.mimeData())
        if files:
            event.acceptProposedAction()
            self.transfers.import_files(files)

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802 (Qt override)
        self.controller.flush()
        if not self._confirm_unsaved():
            event.ignore()
            return
        self.closing.emit()
        super().closeEvent(event)

    def _confirm_unsaved(self) -> bool:
        """With edits that could not be written, retry; if that fails, ask before
        discarding them. False keeps the window open."""
        from PySide6.QtWidgets import QMessageBox

        lib = self.controller.library
        while not self.controller.retry_saves():
            answer = QMessageBox.warning(
                self,
                self.tr("Unsaved edits"),
                self.tr(
                    "Edits to %Ln paper(s) could not be saved (see the status bar). "
                    "Retry, or close and lose them?",
                    "",
                    lib.pending_count(),
                ),
                QMessageBox.StandardButton.Retry
                | QMessageBox.StandardButton.Discard
                | QMessageBox.StandardButton.Cancel,
                QMessageBox.StandardButton.Retry,
            )
            if answer == QMessageBox.StandardButton.Discard:
                return True
            if answer != QMessageBox.StandardButton.Retry:
                return False
        return True
