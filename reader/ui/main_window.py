"""The main window: assembles facets, list, reader pane, menus and status bar."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt, Signal
from PySide6.QtGui import QActionGroup, QCloseEvent, QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import (
    QInputDialog,
    QMainWindow,
    QMessageBox,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from reader.ui import highlights, note_links
from reader.ui.actions import Actions, build_actions, build_menus, list_context_menu
from reader.ui.commands import TriageDecisionCommand
from reader.ui.highlight_list import HighlightPalette
from reader.ui.controller import PaperController
from reader.ui.palette import CheatSheet, CommandPalette
from reader.ui.reader_view import ReaderPane
from reader.ui.sidebar import Sidebar
from reader.ui.theme import THEMES, Appearance
from reader.ui.transfer import Transfers, dropped_files, show_report
from reader.ui.tag_manager import install_tag_actions
from reader.ui.triage import TRIAGE_PREF, Triage, TriageBar, parse_decisions, stored_decisions


HIGHLIGHT_NAMES_PREF = "highlight_names"


class MainWindow(QMainWindow):
    """Thin: every behaviour lives in the widgets and the controller.

    Signals:
        closing(): the window is about to close (state must be saved).
    """

    closing = Signal()

    def __init__(self, controller: PaperController, transfers: Transfers, appearance: Appearance,
                 title: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.appearance = appearance
        appearance.setParent(self)
        self.transfers = transfers
        transfers.setParent(self)
        self.sidebar: Sidebar = controller.sidebar
        self.pane: ReaderPane = controller.pane
        self.setWindowTitle(title)

        self.triage_bar = TriageBar(self)
        right = QWidget(self)
        right_layout = QVBoxLayout(right)
        right_layout.setContentsMargins(0, 0, 0, 0)
        right_layout.setSpacing(0)
        right_layout.addWidget(self.triage_bar)
        right_layout.addWidget(self.pane, 1)
        self.splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.splitter.addWidget(self.sidebar.facets)
        self.splitter.addWidget(self.sidebar)
        self.splitter.addWidget(right)
        self.splitter.setStretchFactor(0, 1)
        self.splitter.setStretchFactor(1, 3)
        self.splitter.setStretchFactor(2, 5)
        self.splitter.setSizes([190, 400, 690])
        self.splitter.setChildrenCollapsible(False)
        self.setCentralWidget(self.splitter)

        self.actions: Actions = build_actions(self, controller, transfers)
        self.triage = Triage(controller, self.triage_bar,
                             stored_decisions(controller.library.prefs.get(TRIAGE_PREF)))
        self._add_window_actions()
        build_menus(self, self.actions)
        prefs = controller.library.prefs
        palette = HighlightPalette(prefs.get(HIGHLIGHT_NAMES_PREF) or [])
        palette.renamed.connect(lambda names: prefs.set(HIGHLIGHT_NAMES_PREF, list(names)))
        highlights.install(self, palette)
        note_links.install(self)
        controller.library_changed.connect(
            lambda change: "prefs" in change.fields
            and palette.set_names(prefs.get(HIGHLIGHT_NAMES_PREF) or []))

        self.sidebar.view.customContextMenuRequested.connect(self._context_menu)
        controller.save_failed.connect(self._save_failed)
        controller.saved_again.connect(lambda: self.statusBar().showMessage("All edits saved.", 10_000))
        controller.undo_stack.indexChanged.connect(self._after_undo_redo)
        transfers.message.connect(lambda msg: self.statusBar().showMessage(msg, 10_000))
        transfers.import_finished.connect(lambda report: show_report(self, report))
        transfers.import_failed.connect(self.warn)
        self._save_warning: QMessageBox | None = None
        self.setAcceptDrops(True)
        self.statusBar().setSizeGripEnabled(False)
        self.resize(1280, 800)

    def _add_window_actions(self) -> None:
        add = self.actions.add
        for decision, action in zip(self.triage.decisions, self.triage.decision_actions):
            self.actions.put(f"triage_{decision.key}", action)
        self.actions.put("triage_exit", self.triage.exit_action)
        look = self.appearance
        group = QActionGroup(self)
        for theme in THEMES:
            action = add(f"theme_{theme}", f"{theme.capitalize()} Theme", [],
                         lambda t=theme: look.set_theme(t), menu="&View")
            action.setCheckable(True)
            action.setChecked(theme == look.theme)
            group.addAction(action)
        look.theme_applied.connect(
            lambda _mode: self.actions.by_name[f"theme_{look.theme}"].setChecked(True))
        self.actions.separator("&View")
        add("zoom_in", "Zoom &In", ["Ctrl++", "Ctrl+="], look.zoom_in, menu="&View")
        add("zoom_out", "Zoom &Out", ["Ctrl+-"], look.zoom_out, menu="&View")
        add("zoom_reset", "&Actual Size", ["Ctrl+0"], look.zoom_reset, menu="&View")
        install_tag_actions(self, self.controller, self.actions)
        add("save_search", "&Save Search as Smart List…", ["Ctrl+S"], self.save_search, menu="&Go")
        add("delete_search", "&Delete Smart List…", [], self.delete_search, menu="&Go")
        add("triage_setup", "Triage &Keys…", [], self.configure_triage, menu="&Go")
        add("triage", "&Triage Mode", ["Ctrl+Shift+T"], self.triage.toggle, menu="&Go")
        self.actions.by_name["triage"].setCheckable(True)
        self.triage.mode_changed.connect(self.actions.by_name["triage"].setChecked)
        add("palette", "Command &Palette…", ["Ctrl+K", "Ctrl+Shift+P"], self.show_palette, menu="&Help")
        add("cheatsheet", "&Keyboard Shortcuts", ["?", "Shift+?", "F1"], self.show_cheatsheet, menu="&Help")

    def save_search(self) -> None:
        query = self.sidebar.query_text()
        if not query:
            self.statusBar().showMessage("Type a search or choose facets first.", 8_000)
            return
        name, ok = QInputDialog.getText(self, "Save search", f"Name for “{query}”:")
        if ok and name.strip():
            try:
                self.controller.library.save_search(name, query)
            except (ValueError, OSError) as exc:
                self.warn(f"Smart list not saved: {exc}")

    def delete_search(self) -> None:
        names = sorted(self.controller.library.prefs.saved_searches(), key=str.casefold)
        if not names:
            return
        name, ok = QInputDialog.getItem(self, "Delete smart list", "Smart list:", names, 0, False)
        if ok and name:
            self.controller.library.delete_search(name)

    def configure_triage(self) -> None:
        current = "\n".join(f"{d.key} {d.kind} {d.value} {d.label}" for d in self.triage.decisions)
        text, ok = QInputDialog.getMultiLineText(
            self, "Triage keys",
            "One decision a line: KEY tag|status VALUE LABEL\n(e.g. “i tag interesting Interesting”)",
            current)
        if not ok:
            return
        try:
            decisions = parse_decisions(text)
            self.controller.library.prefs.set(TRIAGE_PREF, [d.to_dict() for d in decisions])
        except (ValueError, OSError) as exc:
            self.warn(f"Triage keys not changed: {exc}")
            return
        self.triage.set_decisions(decisions)

    def show_palette(self) -> CommandPalette:
        palette = CommandPalette([a for a in self.actions.all() if a.isEnabled()], self)
        palette.open()
        return palette

    def show_cheatsheet(self) -> CheatSheet:
        sheet = CheatSheet(self.actions.by_menu(), self)
        sheet.open()
        return sheet

    def _after_undo_redo(self, index: int) -> None:
        """Undoing a triage decision shows that paper again."""
        stack = self.controller.undo_stack
        command = stack.command(index)
        if isinstance(command, TriageDecisionCommand) and self.triage.active:
            self.sidebar.select_paper(command.paper_id)

    def _context_menu(self, pos: QPoint) -> None:
        menu = list_context_menu(self.controller, self.actions, pos)
        menu.popup(self.sidebar.view.viewport().mapToGlobal(pos))

    def warn(self, message: str) -> QMessageBox:
        """A non-modal warning (the user keeps working) and the same in the status bar."""
        self.statusBar().showMessage(message.splitlines()[0], 15_000)
        box = QMessageBox(QMessageBox.Icon.Warning, "Paper Reader", message,
                          QMessageBox.StandardButton.Ok, self)
        box.setModal(False)  # open() would make it window-modal
        box.show()
        return box

    def _save_failed(self, message: str) -> None:
        self.statusBar().showMessage(message, 30_000)
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
        lib = self.controller.library
        while not self.controller.retry_saves():
            answer = QMessageBox.warning(
                self, "Unsaved edits",
                f"Edits to {lib.pending_count()} paper(s) could not be saved "
                "(see the status bar). Retry, or close and lose them?",
                QMessageBox.StandardButton.Retry | QMessageBox.StandardButton.Discard
                | QMessageBox.StandardButton.Cancel,
                QMessageBox.StandardButton.Retry)
            if answer == QMessageBox.StandardButton.Discard:
                return True
            if answer != QMessageBox.StandardButton.Retry:
                return False
        return True
