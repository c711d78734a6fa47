"""The actions on papers with their shortcuts, the menus they fill and the list's
context menu (the window's own actions: reader.ui.window_actions)."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QPoint, Qt, QUrl
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QInputDialog, QMainWindow, QMenu, QWidget

from reader.core.models import Status
from reader.ui import plain
from reader.ui.controller import PaperController
from reader.ui.main_window import MENUS
from reader.ui.transfer import Transfers

Keys = list[str] | QKeySequence.StandardKey


class Actions:
    """The window's actions by name, and which menu each belongs to (in order).

    Single-letter shortcuts are `list_only`: they act only while the paper list
    has focus, so typing in the search box, tag entry or note never triggers them."""

    def __init__(self, window: QMainWindow, view: QWidget) -> None:
        self._window = window
        self._view = view
        self.by_name: dict[str, QAction] = {}
        self.menus: dict[str, list[str | None]] = {m: [] for m in MENUS}
        self.mark: dict[Status, QAction] = {}

    def add(
        self,
        name: str,
        text: str,
        keys: Keys,
        slot: Callable[[], object],
        *,
        menu: str | None = None,
        list_only: bool = False,
    ) -> QAction:
        owner = self._view if list_only else self._window
        action = QAction(text, owner)
        if isinstance(keys, QKeySequence.StandardKey):
            action.setShortcut(keys)
        else:
            action.setShortcuts([QKeySequence(k) for k in keys])
        if list_only:
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        owner.addAction(action)
        action.triggered.connect(lambda _checked=False: slot())
        self.put(name, action, menu)
        return action

    def put(self, name: str, action: QAction, menu: str | None = None) -> None:
        self.by_name[name] = action
        if menu:
            self.menus[menu].append(name)

    def separator(self, menu: str) -> None:
        self.menus[menu].append(None)

    def __getattr__(self, name: str) -> QAction:
        try:
            return self.__dict__["by_name"][name]
        except KeyError:
            raise AttributeError(name) from None

    def all(self) -> list[QAction]:
        return list(self.by_name.values())

    def by_menu(self) -> dict[str, list[QAction]]:
        """Actions grouped by menu; those in no menu (triage keys, `/`) come last."""
        groups = {
            m.replace("&", ""): [self.by_name[n] for n in names if n]
            for m, names in self.menus.items()
        }
        listed = {n for names in self.menus.values() for n in names if n}
        groups["Other keys"] = [a for n, a in self.by_name.items() if n not in listed]
        return groups


def build_actions(
    window: QMainWindow, controller: PaperController, transfers: Transfers
) -> Actions:
    sidebar, pane = controller.sidebar, controller.pane
    view = sidebar.view
    actions = Actions(window, view)
    add = actions.add

    add("import_files", "&Import…", ["Ctrl+O"], transfers.choose_and_import, menu="&File")
    actions.separator("&File")
    add(
        "export_selection",
        "Export &Selection…",
        ["Ctrl+E"],
        lambda: transfers.choose_and_export(controller.target_ids(), "the selection"),
        menu="&File",
    )
    add(
        "export_view",
        "Export Current &View…",
        ["Ctrl+Shift+E"],
        lambda: transfers.choose_and_export(sidebar.model.ids(), "the current view"),
        menu="&File",
    )
    add(
        "export_all",
        "Export &Everything…",
        [],
        lambda: transfers.choose_and_export(controller.library.paper_ids(), "the whole library"),
        menu="&File",
    )
    actions.separator("&File")
    add("quit", "&Quit", QKeySequence.StandardKey.Quit, window.close, menu="&File")

    undo = controller.undo_stack.createUndoAction(window, "&Undo")
    undo.setIconText("Undo")  # (its text names what it undoes: the sheet and palette keep this)
    undo.setShortcut(QKeySequence.StandardKey.Undo)
    redo = controller.undo_stack.createRedoAction(window, "&Redo")
    redo.setIconText("Redo")
    redo.setShortcuts([QKeySequence("Ctrl+Shift+Z"), QKeySequence("Ctrl+Y")])
    window.addActions([undo, redo])
    actions.put("undo", undo, "&Edit")
    actions.put("redo", redo, "&Edit")

    for n, status in enumerate(Status, start=1):
        actions.mark[status] = add(
            f"mark_{status.value}",
            f"Mark {status.value.capitalize()}",
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
        tag, ok = QInputDialog.getText(window, "Add tag", f"Tag for {len(ids)} paper(s):")
        if ok and tag.strip():
            controller.add_tags([t for t in tag.split(",") if t.strip()], ids)

    def open_link() -> None:
        pid = pane.paper_id
        if pid:
            url = controller.library.paper(pid).url
            if url.lower().startswith(("http://", "https://")):
                pane.browser.anchorClicked.emit(QUrl(url))

    add("add_tag", "Add Tag to Selection…", ["Ctrl+T"], add_tag_dialog, menu="&Paper")
    add(
        "focus_tags",
        "Edit Tags",
        ["T"],
        lambda: focus(pane.tag_editor.entry),
        menu="&Paper",
        list_only=True,
    )
    add(
        "focus_note",
        "Edit Note",
        ["N"],
        lambda: focus(pane.note_editor.editor),
        menu="&Paper",
        list_only=True,
    )
    add(
        "open_link",
        "Open Paper Page",
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
            one, many = (
                ("citation", "citations") if fmt == "text" else ("BibTeX entry", "BibTeX entries")
            )
            count = f"{len(ids):,} {one if len(ids) == 1 else many}"
            window.statusBar().showMessage(f"Copied {count}", 5_000)

    def delete() -> None:
        from reader.ui.hygiene import delete_chosen

        n = delete_chosen(controller)
        if n:
            what = f"{n:,} paper{'' if n == 1 else 's'}"
            window.statusBar().showMessage(
                f"Moved {what} to the Trash (Edit → Undo puts them back)", 8_000
            )

    def merge_chosen() -> None:
        from reader.ui.hygiene import merge_group

        ids = controller.target_ids()
        if len(ids) < 2:
            window.statusBar().showMessage("Select two or more papers to merge", 5_000)
            return
        shown = pane.paper_id
        keep = shown if shown in ids else ids[0]  # the paper shown keeps everything
        merge_group(controller, [keep, *(pid for pid in ids if pid != keep)])

    def open_dialog(kind: str) -> None:
        from reader.ui.hygiene import DuplicatesDialog, TrashDialog

        dialog = (TrashDialog if kind == "trash" else DuplicatesDialog)(controller, window)
        dialog.open()

    actions.separator("&Paper")
    add("delete_papers", "Move to &Trash", ["Delete"], delete, menu="&Paper", list_only=True)
    add("merge_papers", "&Merge Selected Papers", [], merge_chosen, menu="&Paper")
    add("show_trash", "T&rash…", [], lambda: open_dialog("trash"), menu="&Go")
    add("show_duplicates", "Possible &Duplicates…", [], lambda: open_dialog("dups"), menu="&Go")
    actions.separator("&Paper")
    add(
        "copy_citation",
        "Copy &Citation",
        ["Ctrl+Shift+C"],
        lambda: copy_cited("text"),
        menu="&Paper",
    )
    add(
        "copy_bibtex",
        "Copy as &BibTeX",
        ["Ctrl+Alt+C"],
        lambda: copy_cited("bibtex"),
        menu="&Paper",
    )

    add("next_paper", "Next Paper", ["J"], lambda: sidebar.move(1), menu="&Go", list_only=True)
    add("prev_paper", "Previous Paper", ["K"], lambda: sidebar.move(-1), menu="&Go", list_only=True)
    add("focus_search", "Search", ["Ctrl+F"], focus_search, menu="&Go")
    add("slash_search", "Search", ["/"], focus_search, list_only=True)
    add("focus_list", "Go to List", ["Ctrl+L"], lambda: focus(view, needs_paper=False), menu="&Go")

    def context_menu(pos: QPoint) -> None:
        list_context_menu(controller, actions, pos).popup(view.viewport().mapToGlobal(pos))

    view.customContextMenuRequested.connect(context_menu)
    return actions


def build_menus(window: QMainWindow, actions: Actions) -> None:
    """Fill the menu bar (its menus may be there already, empty, from the first paint)."""
    bar = window.menuBar()
    existing = {a.text(): a.menu() for a in bar.actions()}
    for title, names in actions.menus.items():
        if not names:
            continue
        menu = existing.get(title)
        if not isinstance(menu, QMenu):
            menu = bar.addMenu(title)
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
        remove = menu.addMenu("Remove Tag")
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
