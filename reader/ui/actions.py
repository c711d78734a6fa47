"""The actions on papers with their shortcuts, the menus they fill and the list's
context menu (the window's own actions: reader.ui.window_actions; the actions' register:
reader.ui.action_set)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QPoint, Qt, QUrl
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import QInputDialog, QMainWindow, QMenu, QWidget

from reader.core.models import Status
from reader.ui import plain
from reader.ui.action_set import Actions, undo_actions
from reader.ui.controller import PaperController
from reader.ui.i18n import Counted
from reader.ui.main_window import MainWindow
from reader.ui.transfer import Transfers

if TYPE_CHECKING:
    pass

translate = QCoreApplication.translate


#: the marking actions' texts by status
MARK = {
    Status.UNREAD: QT_TRANSLATE_NOOP("Actions", "Mark Unread"),
    Status.READING: QT_TRANSLATE_NOOP("Actions", "Mark Reading"),
    Status.READ: QT_TRANSLATE_NOOP("Actions", "Mark Read"),
}


def build_actions(
    window: QMainWindow, controller: PaperController, transfers: Transfers
) -> Actions:
    sidebar, pane = controller.sidebar, controller.pane
    view = sidebar.view
    actions = Actions(window, view)
    add = actions.add

    add(
        "import_files",
        QT_TRANSLATE_NOOP("Actions", "&Import…"),
        ["Ctrl+O"],
        transfers.choose_and_import,
        menu="&File",
    )
    actions.separator("&File")
    add(
        "export_selection",
        QT_TRANSLATE_NOOP("Actions", "Export &Selection…"),
        ["Ctrl+E"],
        lambda: transfers.choose_and_export(controller.target_ids(), "selection"),
        menu="&File",
    )
    add(
        "export_view",
        QT_TRANSLATE_NOOP("Actions", "Export Current &View…"),
        ["Ctrl+Shift+E"],
        lambda: transfers.choose_and_export(sidebar.model.ids(), "view"),
        menu="&File",
    )
    add(
        "export_all",
        QT_TRANSLATE_NOOP("Actions", "Export &Everything…"),
        [],
        lambda: transfers.choose_and_export(controller.library.paper_ids(), "library"),
        menu="&File",
    )
    actions.separator("&File")
    add(
        "quit",
        QT_TRANSLATE_NOOP("Actions", "&Quit"),
        QKeySequence.StandardKey.Quit,
        window.close,
        menu="&File",
    )

    undo, redo = undo_actions(window, controller.undo_stack, actions)
    undo.setShortcut(QKeySequence.StandardKey.Undo)
    redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
    window.addActions([undo, redo])
    actions.put("undo", undo, "&Edit")
    actions.put("redo", redo, "&Edit")

    for n, status in enumerate(Status, start=1):
        actions.mark[status] = add(
            f"mark_{status.value}",
            MARK[status],
            [str(n)],
            lambda s=status: controller.set_status(s),
            menu="&Paper",
            list_only=True,
        )
    actions.separator("&Paper")

    def focus(widget: QWidget, needs_paper: bool = True) -> None:
        if pane.paper_id or not needs_paper:
            widget.setFocus(Qt.FocusReason.ShortcutFocusReason)

    def focus_search() -> None:
        focus(sidebar.search, needs_paper=False)
        sidebar.search.selectAll()

    def add_tag_dialog() -> None:
        ids = controller.target_ids()
        if not ids:
            return
        tag, ok = QInputDialog.getText(
            window, translate("Actions", "Add tag"), Counted().tag_for(len(ids))
        )
        if ok and tag.strip():
            controller.add_tags([t for t in tag.split(",") if t.strip()], ids)

    def open_link() -> None:
        pid = pane.paper_id
        if pid:
            url = controller.library.paper(pid).url
            if url.lower().startswith(("http://", "https://")):
                pane.browser.anchorClicked.emit(QUrl(url))

    add(
        "add_tag",
        QT_TRANSLATE_NOOP("Actions", "Add Tag to Selection…"),
        ["Ctrl+T"],
        add_tag_dialog,
        menu="&Paper",
    )
    add(
        "focus_tags",
        QT_TRANSLATE_NOOP("Actions", "Edit Tags"),
        ["T"],
        lambda: focus(pane.tag_editor.entry),
        menu="&Paper",
        list_only=True,
    )
    add(
        "focus_note",
        QT_TRANSLATE_NOOP("Actions", "Edit Note"),
        ["N"],
        lambda: focus(pane.note_editor.editor),
        menu="&Paper",
        list_only=True,
    )
    add(
        "open_link",
        QT_TRANSLATE_NOOP("Actions", "Open Paper Page"),
        ["O", "Ctrl+Return"],
        open_link,
        menu="&Paper",
        list_only=True,
    )

    def copy_cited(fmt: str) -> None:
        from PySide6.QtWidgets import QApplication

        from reader.formats.citing import cite

        ids = controller.target_ids()
        if ids:
            QApplication.clipboard().setText(
                cite(controller.library.papers(), ids, fmt, controller.library.abstracts)
            )
            counted = Counted()
            copied = counted.copied_citations if fmt == "text" else counted.copied_bibtex
            window.statusBar().showMessage(copied(len(ids)), 5_000)

    def delete() -> None:
        from reader.ui.hygiene import delete_chosen

        n = delete_chosen(controller)
        if n:
            window.statusBar().showMessage(Counted().moved_to_trash(n), 8_000)

    def merge_chosen() -> None:
        from reader.ui.hygiene import merge_group

        ids = controller.target_ids()
        if len(ids) < 2:
            told = translate("Actions", "Select two or more papers to merge")
            window.statusBar().showMessage(told, 5_000)
            return
        shown = pane.paper_id
        keep = shown if shown in ids else ids[0]  # the paper shown keeps everything
        merge_group(controller, [keep, *(pid for pid in ids if pid != keep)])

    def open_dialog(kind: str) -> None:
        from reader.ui.hygiene import DuplicatesDialog, TrashDialog

        dialog = (TrashDialog if kind == "trash" else DuplicatesDialog)(controller, window)
        dialog.open()

    actions.separator("&Paper")
    add(
        "delete_papers",
        QT_TRANSLATE_NOOP("Actions", "Move to &Trash"),
        ["Delete"],
        delete,
        menu="&Paper",
        list_only=True,
    )
    add(
        "merge_papers",
        QT_TRANSLATE_NOOP("Actions", "&Merge Selected Papers"),
        [],
        merge_chosen,
        menu="&Paper",
    )
    add(
        "show_trash",
        QT_TRANSLATE_NOOP("Actions", "T&rash…"),
        [],
        lambda: open_dialog("trash"),
        menu="&Go",
    )
    add(
        "show_duplicates",
        QT_TRANSLATE_NOOP("Actions", "Possible &Duplicates…"),
        [],
        lambda: open_dialog("dups"),
        menu="&Go",
    )
    actions.separator("&Paper")
    add(
        "copy_citation",
        QT_TRANSLATE_NOOP("Actions", "Copy &Citation"),
        ["Ctrl+Shift+C"],
        lambda: copy_cited("text"),
        menu="&Paper",
    )
    add(
        "copy_bibtex",
        QT_TRANSLATE_NOOP("Actions", "Copy as &BibTeX"),
        ["Ctrl+Alt+C"],
        lambda: copy_cited("bibtex"),
        menu="&Paper",
    )

    add(
        "next_paper",
        QT_TRANSLATE_NOOP("Actions", "Next Paper"),
        ["J"],
        lambda: sidebar.move(1),
        menu="&Go",
        list_only=True,
    )
    add(
        "prev_paper",
        QT_TRANSLATE_NOOP("Actions", "Previous Paper"),
        ["K"],
        lambda: sidebar.move(-1),
        menu="&Go",
        list_only=True,
    )
    add(
        "focus_search", QT_TRANSLATE_NOOP("Actions", "Search"), ["Ctrl+F"], focus_search, menu="&Go"
    )
    add("slash_search", QT_TRANSLATE_NOOP("Actions", "Search"), ["/"], focus_search, list_only=True)
    add(
        "focus_list",
        QT_TRANSLATE_NOOP("Actions", "Go to List"),
        ["Ctrl+L"],
        lambda: focus(view, needs_paper=False),
        menu="&Go",
    )

    def context_menu(pos: QPoint) -> None:
        list_context_menu(controller, actions, pos).popup(view.viewport().mapToGlobal(pos))

    view.customContextMenuRequested.connect(context_menu)
    return actions


def build_menus(window: MainWindow, actions: Actions) -> None:
    """Fill the menu bar's menus (there already, empty, from the first paint)."""
    for title, names in actions.menus.items():
        menu = window.menus[title]
        for name in names:
            if name is None:
                menu.addSeparator()
            else:
                menu.addAction(actions.by_name[name])


def list_context_menu(controller: PaperController, actions: Actions, pos: QPoint) -> QMenu:
    """The menu for the list's selection; the caller shows it."""
    view = controller.sidebar.view
    menu = QMenu(view)
    menu.addActions(list(actions.mark.values()))
    menu.addSeparator()
    if "more_like" in actions.by_name:
        menu.addAction(actions.more_like)
    menu.addAction(actions.add_tag)
    tags = sorted(
        {t for pid in controller.target_ids() for t in controller.library.tags(pid)},
        key=str.casefold,
    )
    if tags:
        remove = menu.addMenu(translate("Actions", "Remove Tag"))
        for tag in tags:
            remove.addAction(plain.action_text(tag), lambda t=tag: controller.remove_tags([t]))
    menu.addSeparator()
    menu.addAction(actions.delete_papers)
    menu.addAction(actions.merge_papers)
    menu.addSeparator()
    menu.addAction(actions.copy_citation)
    menu.addAction(actions.copy_bibtex)
    menu.addAction(actions.open_link)
    return menu
