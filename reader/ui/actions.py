"""Every action of the window with its shortcut, its menus and the list's context menu."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QInputDialog, QMainWindow, QMenu, QWidget

from reader.core.models import Status
from reader.ui.controller import PaperController
from reader.ui.transfer import Transfers


@dataclass
class Actions:
    mark: dict[Status, QAction]
    undo: QAction
    redo: QAction
    next_paper: QAction
    prev_paper: QAction
    focus_search: QAction
    slash_search: QAction
    focus_tags: QAction
    focus_note: QAction
    focus_list: QAction
    add_tag: QAction
    open_link: QAction
    import_files: QAction
    export_selection: QAction
    export_view: QAction
    export_all: QAction
    quit: QAction

    def all(self) -> list[QAction]:
        return [*self.mark.values(), self.undo, self.redo, self.next_paper, self.prev_paper,
                self.focus_search, self.focus_tags, self.focus_note, self.focus_list,
                self.add_tag, self.open_link, self.import_files, self.export_selection,
                self.export_view, self.export_all, self.quit]


def _action(window: QWidget, text: str, keys: list[str] | QKeySequence.StandardKey,
            slot: Callable[[], object], *, list_only: QWidget | None = None) -> QAction:
    """An action; single-letter shortcuts act only while the list has focus so that
    typing in the search box, tag entry or note never triggers them."""
    action = QAction(text, list_only or window)
    if isinstance(keys, QKeySequence.StandardKey):
        action.setShortcut(keys)
    else:
        action.setShortcuts([QKeySequence(k) for k in keys])
    if list_only is not None:
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        list_only.addAction(action)
    else:
        window.addAction(action)
    action.triggered.connect(lambda _checked=False: slot())
    return action


def build_actions(window: QMainWindow, controller: PaperController, transfers: Transfers) -> Actions:
    sidebar, pane = controller.sidebar, controller.pane
    view = sidebar.view
    mark = {
        status: _action(window, f"Mark {status.value.capitalize()}", [str(n)],
                        lambda s=status: controller.set_status(s), list_only=view)
        for n, status in enumerate(Status, start=1)
    }
    undo = controller.undo_stack.createUndoAction(window, "&Undo")
    undo.setShortcut(QKeySequence.StandardKey.Undo)
    redo = controller.undo_stack.createRedoAction(window, "&Redo")
    redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
    window.addActions([undo, redo])

    def focus_tags() -> None:
        if pane.paper_id:
            pane.tag_editor.entry.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def focus_note() -> None:
        if pane.paper_id:
            pane.note_editor.editor.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def focus_search() -> None:
        sidebar.search.setFocus(Qt.FocusReason.ShortcutFocusReason)
        sidebar.search.selectAll()

    def add_tag_dialog() -> None:
        ids = controller.target_ids()
        if not ids:
            return
        tag, ok = QInputDialog.getText(window, "Add tag", f"Tag for {len(ids)} paper(s):")
        if ok and tag.strip():
            controller.add_tags([t for t in tag.split(",") if t.strip()], ids)

    def open_link() -> None:
        pid = pane.paper_id
        if pid:
            from PySide6.QtCore import QUrl

            url = controller.library.paper(pid).url
            if url.lower().startswith(("http://", "https://")):
                pane.browser.anchorClicked.emit(QUrl(url))

    return Actions(
        mark=mark,
        undo=undo,
        redo=redo,
        next_paper=_action(window, "Next paper", ["J"], lambda: sidebar.move(1), list_only=view),
        prev_paper=_action(window, "Previous paper", ["K"], lambda: sidebar.move(-1), list_only=view),
        focus_search=_action(window, "Search", ["Ctrl+F"], focus_search),
        slash_search=_action(window, "Search", ["/"], focus_search, list_only=view),
        focus_tags=_action(window, "Add tag", ["T"], focus_tags, list_only=view),
        focus_note=_action(window, "Edit note", ["N"], focus_note, list_only=view),
        focus_list=_action(window, "Go to list", ["Ctrl+L"], lambda: view.setFocus()),
        add_tag=_action(window, "Add Tag to Selection…", ["Ctrl+T"], add_tag_dialog),
        open_link=_action(window, "Open Paper Page", ["Ctrl+Return", "O"], open_link, list_only=view),
        import_files=_action(window, "&Import…", ["Ctrl+O"], transfers.choose_and_import),
        export_selection=_action(window, "Export &Selection…", ["Ctrl+E"], lambda: transfers.choose_and_export(
            controller.target_ids(), "the selection")),
        export_view=_action(window, "Export Current &View…", ["Ctrl+Shift+E"],
                            lambda: transfers.choose_and_export(sidebar.model.ids(), "the current view")),
        export_all=_action(window, "Export &Everything…", [], lambda: transfers.choose_and_export(
            controller.library.paper_ids(), "the whole library")),
        quit=_action(window, "&Quit", QKeySequence.StandardKey.Quit, window.close),
    )


def build_menus(window: QMainWindow, actions: Actions) -> None:
    bar = window.menuBar()
    file_menu = bar.addMenu("&File")
    file_menu.addAction(actions.import_files)
    file_menu.addSeparator()
    file_menu.addActions([actions.export_selection, actions.export_view, actions.export_all])
    file_menu.addSeparator()
    file_menu.addAction(actions.quit)
    edit = bar.addMenu("&Edit")
    edit.addActions([actions.undo, actions.redo])
    paper = bar.addMenu("&Paper")
    paper.addActions(list(actions.mark.values()))
    paper.addSeparator()
    paper.addActions([actions.add_tag, actions.focus_tags, actions.focus_note, actions.open_link])
    go = bar.addMenu("&Go")
    go.addActions([actions.next_paper, actions.prev_paper, actions.focus_search, actions.focus_list])


def list_context_menu(controller: PaperController, actions: Actions, pos: QPoint) -> QMenu:
    """The menu for the list's selection; the caller shows it."""
    view = controller.sidebar.view
    menu = QMenu(view)
    menu.addActions(list(actions.mark.values()))
    menu.addSeparator()
    menu.addAction(actions.add_tag)
    tags = sorted({t for pid in controller.target_ids() for t in controller.library.tags(pid)},
                  key=str.casefold)
    if tags:
        remove = menu.addMenu("Remove Tag")
        for tag in tags:
            remove.addAction(tag, lambda t=tag: controller.remove_tags([t]))
    menu.addSeparator()
    menu.addAction(actions.open_link)
    return menu
