"""Every action of the window with its shortcut, its menus and the list's context menu
(the actions' register: reader.ui.action_set; the dialogs they open: window_dialogs)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QPoint, Qt, QUrl
from PySide6.QtGui import QActionGroup, QKeySequence
from PySide6.QtWidgets import QInputDialog, QMainWindow, QMenu, QWidget

from reader.core.models import Status
from reader.ui import plain
from reader.ui.action_set import Actions, undo_actions
from reader.ui.controller import PaperController
from reader.ui.i18n import Counted
from reader.ui.main_window import MainWindow
from reader.ui.transfer import Transfers
from reader.ui.window_dialogs import (
    configure_triage,
    delete_search,
    more_like_facet,
    save_search,
    show_cheatsheet,
    show_palette,
)

if TYPE_CHECKING:
    from reader.ui.interest import Interest
    from reader.ui.triage import Triage

translate = QCoreApplication.translate


#: the marking actions' texts by status
MARK = {
    Status.UNREAD: QT_TRANSLATE_NOOP("Actions", "Mark Unread"),
    Status.READING: QT_TRANSLATE_NOOP("Actions", "Mark Reading"),
    Status.READ: QT_TRANSLATE_NOOP("Actions", "Mark Read"),
}
#: View → theme actions' texts
THEME_NAMES = {
    "system": QT_TRANSLATE_NOOP("Actions", "System Theme"),
    "light": QT_TRANSLATE_NOOP("Actions", "Light Theme"),
    "dark": QT_TRANSLATE_NOOP("Actions", "Dark Theme"),
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
            QApplication.clipboard().setText(cite(controller.library.papers(), ids, fmt))
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


def add_window_actions(
    window: MainWindow, actions: Actions, triage: Triage, interest: Interest | None
) -> None:
    """Triage keys, themes, zoom, tag keys, smart lists, the palette and the cheat sheet."""
    from reader.ui.tag_manager import install_tag_actions
    from reader.ui.theme import THEMES

    add = actions.add
    for decision, action in zip(triage.decisions, triage.decision_actions, strict=True):
        actions.put(f"triage_{decision.key}", action)
    actions.put("triage_exit", triage.exit_action)
    look = window.appearance
    group = QActionGroup(window)
    for theme in THEMES:
        action = add(
            f"theme_{theme}",
            THEME_NAMES.get(theme, theme),
            [],
            lambda t=theme: look.set_theme(t),
            menu="&View",
        )
        action.setCheckable(True)
        action.setChecked(theme == look.theme)
        group.addAction(action)
    look.theme_applied.connect(
        lambda _mode: actions.by_name[f"theme_{look.theme}"].setChecked(True)
    )
    actions.separator("&View")
    table = add(
        "table_view",
        QT_TRANSLATE_NOOP("Actions", "&Table View"),
        ["Ctrl+Alt+T"],
        lambda: window.show_table(actions.by_name["table_view"].isChecked()),
        menu="&View",
        tip=QT_TRANSLATE_NOOP(
            "Actions", "The papers as a table: title, first author, venue, year, status, tags"
        ),
    )
    table.setCheckable(True)
    table.setChecked(window.sidebar.model.table)
    lines = add(
        "two_line_titles",
        QT_TRANSLATE_NOOP("Actions", "Two-Line &Titles"),
        [],
        lambda: window.sidebar.view.set_title_lines(
            2 if actions.by_name["two_line_titles"].isChecked() else 1
        ),
        menu="&View",
    )
    lines.setCheckable(True)
    lines.setChecked(window.sidebar.view.title_lines() == 2)
    actions.separator("&View")
    add(
        "zoom_in",
        QT_TRANSLATE_NOOP("Actions", "Zoom &In"),
        ["Ctrl++", "Ctrl+="],
        look.zoom_in,
        menu="&View",
    )
    add(
        "zoom_out",
        QT_TRANSLATE_NOOP("Actions", "Zoom &Out"),
        ["Ctrl+-"],
        look.zoom_out,
        menu="&View",
    )
    add(
        "zoom_reset",
        QT_TRANSLATE_NOOP("Actions", "&Actual Size"),
        ["Ctrl+0"],
        look.zoom_reset,
        menu="&View",
    )
    install_tag_actions(window, window.controller, actions)
    add(
        "save_search",
        QT_TRANSLATE_NOOP("Actions", "&Save Search as Smart List…"),
        ["Ctrl+S"],
        lambda: save_search(window),
        menu="&Go",
    )
    add(
        "delete_search",
        QT_TRANSLATE_NOOP("Actions", "&Delete Smart List…"),
        [],
        lambda: delete_search(window),
        menu="&Go",
    )
    add(
        "triage_setup",
        QT_TRANSLATE_NOOP("Actions", "Triage &Keys…"),
        [],
        lambda: configure_triage(window, triage),
        menu="&Go",
    )
    add(
        "triage",
        QT_TRANSLATE_NOOP("Actions", "&Triage Mode"),
        ["Ctrl+Shift+T"],
        triage.toggle,
        menu="&Go",
    )
    actions.by_name["triage"].setCheckable(True)
    triage.mode_changed.connect(actions.by_name["triage"].setChecked)
    if interest is not None:

        def more_like() -> None:
            ids = window.controller.target_ids()
            if ids:
                interest.more_like(paper_ids=ids)
                told = translate("Actions", "Finding papers like these…")
                window.statusBar().showMessage(told, 5_000)

        add(
            "more_like",
            QT_TRANSLATE_NOOP("Actions", "&More Like This"),
            ["Shift+M"],  # (plain letters may be triage keys the user chose)
            more_like,
            menu="&Paper",
            list_only=True,
            tip=QT_TRANSLATE_NOOP(
                "Actions",
                "The list sorted by likeness to the paper shown (or the papers selected), "
                "learnt on this computer: each paper's score, and in the pane why",
            ),
        )
        window.sidebar.facets.like_requested.connect(
            lambda key: more_like_facet(window, interest, key)
        )
    add(
        "palette",
        QT_TRANSLATE_NOOP("Actions", "Command &Palette…"),
        ["Ctrl+K", "Ctrl+Shift+P"],
        lambda: show_palette(window, actions),
        menu="&Help",
    )
    add(
        "cheatsheet",
        QT_TRANSLATE_NOOP("Actions", "&Keyboard Shortcuts"),
        ["?", "Shift+?", "F1"],
        lambda: show_cheatsheet(window, actions, triage),
        menu="&Help",
    )


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
