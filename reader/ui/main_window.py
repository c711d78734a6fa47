"""The main window: assembles facets, list, reader pane, menus and status bar.

What the first paint shows (the list, the reader pane, the menu bar's titles) is
built in __init__. Actions and menu items, triage, highlighting and note links are
added by finish_setup(): the composition root runs it in steps right after the
first paint, and it runs at once on first use (the user's first key or click, or
code reading `actions`, `triage`, `triage_bar`, `highlighter` or `note_links`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtWidgets import QMainWindow, QSplitter, QVBoxLayout, QWidget

from reader.ui import plain
from reader.ui.controller import PaperController
from reader.ui.reader_view import ReaderPane
from reader.ui.sidebar import Sidebar
from reader.ui.theme import Appearance, flat_scroll_bars
from reader.ui.transfer import Transfers, dropped_files, show_report

if TYPE_CHECKING:
    from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent
    from PySide6.QtWidgets import QMessageBox

    from reader.ui.actions import Actions
    from reader.ui.highlights import Highlighter
    from reader.ui.interest import Interest
    from reader.ui.note_links import NoteLinks
    from reader.ui.palette import CheatSheet, CommandPalette
    from reader.ui.triage import Triage, TriageBar

HIGHLIGHT_NAMES_PREF = "highlight_names"
#: the menu bar, from the first paint (finish_setup() fills the menus)
MENUS = ("&File", "&Edit", "&Paper", "&View", "&Go", "&Help")


class MainWindow(QMainWindow):
    """Thin: every behaviour lives in the widgets and the controller.

    Signals:
        closing(): the window is about to close (state must be saved).
    """

    closing = Signal()

    def __init__(
        self,
        controller: PaperController,
        transfers: Transfers,
        appearance: Appearance,
        title: str,
        parent: QWidget | None = None,
        interest: Interest | None = None,
    ) -> None:
        super().__init__(parent)
        self._setup_steps: list[Callable[[], None]] | None = None  # None: not started
        self._in_step = False
        self.controller = controller
        #: predicted interest (triage's order, the sort, More Like This)
        self.interest = interest
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
        self.splitter.setSizes([190, 400, 690])
        self.splitter.setChildrenCollapsible(False)
        self.setCentralWidget(self.splitter)
        bar = self.menuBar()
        for menu in MENUS:  # the titles now (the layout does not move later), items later
            bar.addMenu(menu)

        appearance.theme_applied.connect(lambda _mode: self.pane.restyle())
        controller.save_failed.connect(self._save_failed)
        controller.saved_again.connect(
            lambda: self.statusBar().showMessage("All edits saved.", 10_000)
        )
        controller.undo_kept.connect(
            lambda msg: self.statusBar().showMessage(plain.one_line(msg), 15_000)
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
        # the bars the first paint may show (~0.2 ms each); the rest after it (finish_setup)
        note = self.pane.note_editor
        flat_scroll_bars(
            self.sidebar.view.verticalScrollBar(),
            self.pane.browser.verticalScrollBar(),
            self.sidebar.facets.verticalScrollBar(),
            note.editor.verticalScrollBar(),
            note.preview.verticalScrollBar(),
        )
        self.resize(1280, 800)

    # -- the rest of the window, after the first paint ------------------------------------

    def setup_pending(self) -> bool:
        """True until finish_setup() has run to the end."""
        return self._setup_steps is None or bool(self._setup_steps)

    def finish_setup_step(self) -> bool:
        """Run the next step of finish_setup(); True when there is more to do."""
        if self._setup_steps is None:
            self._setup_steps = [
                self._build_actions,
                self._build_triage,
                self._build_menus,
                self._install_highlights,
                self._install_note_links,
                lambda: flat_scroll_bars(self),
            ]
        if self._setup_steps and not self._in_step:
            self._in_step = True
            try:
                self._setup_steps.pop(0)()
            finally:
                self._in_step = False
        return bool(self._setup_steps)

    def finish_setup(self) -> None:
        """Add everything the first paint did not need (once; later calls do nothing)."""
        while not self._in_step and self.finish_setup_step():
            pass

    def _late(self, name: str) -> Any:
        """An attribute finish_setup() makes: complete first (a step itself reads it as it is)."""
        if self.setup_pending():
            self.finish_setup()
        return self.__dict__[name]

    @property
    def actions(self) -> Actions:  # type: ignore[override]  # QWidget.actions() is not used
        return self._late("_actions")

    @property
    def triage(self) -> Triage:
        return self._late("_triage")

    @property
    def triage_bar(self) -> TriageBar:
        return self.triage.bar

    @property
    def highlighter(self) -> Highlighter:
        return self._late("_highlighter")

    @property
    def note_links(self) -> NoteLinks:
        return self._late("_note_links")

    def _build_actions(self) -> None:
        from reader.ui.actions import build_actions

        self._actions = build_actions(self, self.controller, self.transfers)
        self.controller.undo_stack.indexChanged.connect(self._after_undo_redo)
        self.sidebar.view.customContextMenuRequested.connect(self._context_menu)

    def _build_triage(self) -> None:
        from reader.core.triage import stored_decisions
        from reader.ui.actions import add_window_actions
        from reader.ui.triage import Triage, TriageBar

        bar = TriageBar(self)
        self._right_layout.insertWidget(0, bar)
        self._triage = Triage(
            self.controller, bar, stored_decisions(self.controller.library), self.interest
        )
        add_window_actions(self, self._actions, self._triage)

    def _build_menus(self) -> None:
        from reader.ui.actions import build_menus

        build_menus(self, self._actions)

    def _install_highlights(self) -> None:
        from reader.ui import highlights
        from reader.ui.highlight_list import HighlightPalette

        prefs = self.controller.library.prefs
        palette = HighlightPalette(prefs.get(HIGHLIGHT_NAMES_PREF) or [])
        palette.renamed.connect(lambda names: prefs.set_highlight_names(list(names)))
        self._highlighter = highlights.Highlighter(self, palette)
        self.controller.library_changed.connect(
            lambda change: (
                "prefs" in change.fields
                and palette.set_names(prefs.get(HIGHLIGHT_NAMES_PREF) or [])
            )
        )

    def _install_note_links(self) -> None:
        from reader.ui.note_links import NoteLinks

        self._note_links = NoteLinks(self)

    # -- what the window's own actions do ---------------------------------------------------

    def show_table(self, on: bool) -> None:
        """The papers as a table (on) or as the list; a table gets room for its
        columns, half the window (the reader narrower), if it had less."""
        self.sidebar.set_table(on)
        facets, listed, reader = self.splitter.sizes()
        wanted = (listed + reader) // 2
        if on and listed < wanted:
            self.splitter.setSizes([facets, wanted, listed + reader - wanted])

    def show_palette(self) -> CommandPalette:
        from reader.ui.palette import CommandPalette

        palette = CommandPalette([a for a in self.actions.all() if a.isEnabled()], self)
        palette.open()
        return palette

    def show_cheatsheet(self) -> CheatSheet:
        from reader.ui.palette import CheatSheet

        sheet = CheatSheet(self.actions.by_menu(), self, self._where_keys_act)
        sheet.open()
        return sheet

    def _where_keys_act(self, action: QAction) -> str:
        """Where an action's keys act, for the shortcut sheet."""
        owner = action.parent()
        if action in (*self.triage.decision_actions, self.triage.exit_action):
            return "in triage mode"
        if owner is self.sidebar.view:
            return "in the list"
        if owner is self.pane.browser:
            return "in the abstract, text chosen"
        return "anywhere"

    def _after_undo_redo(self, index: int) -> None:
        """Undoing a triage decision shows that paper again."""
        from reader.ui.commands import TriageDecisionCommand

        command = self.controller.undo_stack.command(index)
        if isinstance(command, TriageDecisionCommand) and self.triage.active:
            self.sidebar.select_paper(command.paper_id)

    def _context_menu(self, pos: QPoint) -> None:
        from reader.ui.actions import list_context_menu

        menu = list_context_menu(self.controller, self.actions, pos)
        menu.popup(self.sidebar.view.viewport().mapToGlobal(pos))

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
                "Unsaved edits",
                f"Edits to {lib.pending_count()} paper(s) could not be saved "
                "(see the status bar). Retry, or close and lose them?",
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
