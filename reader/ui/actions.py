"""Every action of the window with its shortcut, its menus and the list's context menu."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QPoint, Qt, QUrl
from PySide6.QtGui import QAction, QActionGroup, QKeySequence, QUndoStack
from PySide6.QtWidgets import QInputDialog, QMainWindow, QMenu, QWidget

from reader.core.models import Status
from reader.ui import plain
from reader.ui.controller import PaperController
from reader.ui.i18n import Counted, fill
from reader.ui.main_window import MENUS, MainWindow
from reader.ui.transfer import Transfers

if TYPE_CHECKING:
    from reader.ui.interest import Interest
    from reader.ui.triage import Triage

Keys = list[str] | QKeySequence.StandardKey
translate = QCoreApplication.translate


class Actions:
    """The window's actions by name, and which menu each belongs to (in order).

    Single-letter shortcuts are `list_only`: they act only while the paper list
    has focus, so typing in the search box, tag entry or note never triggers them.
    Texts are given in English (marked for translation in the "Actions" context) and
    shown in the language in use, again by retranslate() after a switch."""

    def __init__(self, window: QMainWindow, view: QWidget) -> None:
        self._window = window
        self._view = view
        self.by_name: dict[str, QAction] = {}
        self.menus: dict[str, list[str | None]] = {m: [] for m in MENUS}
        self.mark: dict[Status, QAction] = {}
        #: name -> (English text, what fills its %1…, English tooltip)
        self._texts: dict[str, tuple[str, tuple[str, ...], str]] = {}
        #: what else says its texts again in another language (undo, redo, languages)
        self._retranslators: list[Callable[[], None]] = []

    def add(
        self,
        name: str,
        text: str,
        keys: Keys,
        slot: Callable[[], object],
        *,
        menu: str | None = None,
        list_only: bool = False,
        args: Sequence[str] = (),
        tip: str = "",
    ) -> QAction:
        """An action named `name`: `text` (English, %1… filled by `args`) and its
        tooltip `tip`, shown translated."""
        owner = self._view if list_only else self._window
        action = QAction(owner)
        self._texts[name] = (text, tuple(args), tip)
        self._say(action, name)
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

    def _say(self, action: QAction, name: str) -> None:
        text, args, tip = self._texts[name]
        action.setText(fill(translate("Actions", text), *args))
        if tip:
            action.setToolTip(translate("Actions", tip))

    def on_language_change(self, retranslate: Callable[[], None]) -> None:
        """Call `retranslate` when another language is in use (it is called now too)."""
        self._retranslators.append(retranslate)
        retranslate()

    def retranslate(self) -> None:
        """Every action's texts in the language now in use."""
        for name in self._texts:
            self._say(self.by_name[name], name)
        for retranslate in self._retranslators:
            retranslate()

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
            plain.strip_mnemonics(translate("MainWindow", m)): [self.by_name[n] for n in names if n]
            for m, names in self.menus.items()
        }
        listed = {n for names in self.menus.values() for n in names if n}
        other = translate("Actions", "Other keys")
        groups[other] = [a for n, a in self.by_name.items() if n not in listed]
        return groups


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


def _undo_actions(
    window: QMainWindow, stack: QUndoStack, actions: Actions
) -> tuple[QAction, QAction]:
    """Edit → Undo and Redo: enabled when there is something to undo or redo, their
    texts naming it in the language in use (the palette and the shortcut sheet call
    them by their icon texts, Undo and Redo)."""
    undo, redo = QAction(window), QAction(window)
    undo.triggered.connect(stack.undo)
    redo.triggered.connect(stack.redo)
    stack.canUndoChanged.connect(undo.setEnabled)
    stack.canRedoChanged.connect(redo.setEnabled)
    undo.setEnabled(stack.canUndo())
    redo.setEnabled(stack.canRedo())

    # what each would undo or redo, as the stack last said (not asked of it: it says
    # so as it is destroyed too)
    named = {"undo": stack.undoText(), "redo": stack.redoText()}

    def say() -> None:
        what = named["undo"]
        undo.setText(
            fill(translate("Actions", "&Undo %1"), what) if what else translate("Actions", "&Undo")
        )
        what = named["redo"]
        redo.setText(
            fill(translate("Actions", "&Redo %1"), what) if what else translate("Actions", "&Redo")
        )
        undo.setIconText(translate("Actions", "Undo"))
        redo.setIconText(translate("Actions", "Redo"))

    def told(which: str, text: str) -> None:
        named[which] = text
        say()

    stack.undoTextChanged.connect(lambda text: told("undo", text))
    stack.redoTextChanged.connect(lambda text: told("redo", text))
    actions.on_language_change(say)
    return undo, redo


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

    undo, redo = _undo_actions(window, controller.undo_stack, actions)
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
            lambda key: _more_like_facet(window, interest, key)
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


def show_palette(window: QMainWindow, actions: Actions) -> None:
    """Help → Command Palette…: the enabled actions, found by a few letters."""
    from reader.ui.palette import CommandPalette

    CommandPalette([a for a in actions.all() if a.isEnabled()], window).open()


def show_cheatsheet(window: MainWindow, actions: Actions, triage: Triage) -> None:
    """Help → Keyboard Shortcuts: every key, by menu, and where it acts."""
    from reader.ui.palette import CheatSheet

    def where(action: QAction) -> str:
        owner = action.parent()
        if action in (*triage.decision_actions, triage.exit_action):
            return translate("Actions", "in triage mode")
        if owner is window.sidebar.view:
            return translate("Actions", "in the list")
        if owner is window.pane.browser:
            return translate("Actions", "in the abstract, text chosen")
        return translate("Actions", "anywhere")

    CheatSheet(actions.by_menu(), window, where).open()


def _more_like_facet(window: MainWindow, interest: Interest, key: tuple[str, str]) -> None:
    """Papers like those of a tag, or of a smart list (the papers it matches)."""
    group, value = key
    if group == "tag":
        interest.more_like(tag=value)
    else:
        from reader.core.query import parse

        sidebar = window.sidebar
        query = sidebar.saved_searches.get(value, "")
        ids = sidebar.index.filter(parse(query), window.controller.library.paper_ids())
        if not ids:
            told = fill(translate("Actions", "No paper in %1 to learn from."), value)
            window.statusBar().showMessage(told, 5_000)
            return
        interest.more_like(paper_ids=ids)
        interest.like_what = value
    told = fill(translate("Actions", "Finding papers like %1…"), interest.like_what)
    window.statusBar().showMessage(told, 5_000)


def save_search(window: MainWindow) -> None:
    """Go → Save Search as Smart List…"""
    query = window.sidebar.query_text()
    if not query:
        told = translate("Actions", "Type a search or choose facets first.")
        window.statusBar().showMessage(told, 8_000)
        return
    name, ok = QInputDialog.getText(
        window,
        translate("Actions", "Save search"),
        plain.html(fill(translate("Actions", "Name for “%1”:"), query)),
    )
    if ok and name.strip():
        try:
            window.controller.library.save_search(name, query)
        except (ValueError, OSError) as exc:
            window.warn(fill(translate("Actions", "Smart list not saved: %1"), str(exc)))


def delete_search(window: MainWindow) -> None:
    """Go → Delete Smart List…"""
    names = sorted(window.controller.library.prefs.saved_searches(), key=str.casefold)
    if not names:
        return
    name, ok = QInputDialog.getItem(
        window,
        translate("Actions", "Delete smart list"),
        translate("Actions", "Smart list:"),
        names,
        0,
        False,
    )
    if ok and name:
        window.controller.library.delete_search(name)


def configure_triage(window: MainWindow, triage: Triage) -> None:
    """Go → Triage Keys…: one decision a line."""
    from reader.ui.triage import parse_decisions

    current = "\n".join(f"{d.key} {d.kind} {d.value} {d.label}" for d in triage.decisions)
    text, ok = QInputDialog.getMultiLineText(
        window,
        translate("Actions", "Triage keys"),
        translate(
            "Actions",
            "One decision a line: KEY tag|status VALUE LABEL\n"
            "(e.g. “i tag interesting Interesting”)",
        ),
        current,
    )
    if not ok:
        return
    try:
        decisions = parse_decisions(text)
        window.controller.library.prefs.set_triage_decisions([d.to_dict() for d in decisions])
    except (ValueError, OSError) as exc:
        window.warn(fill(translate("Actions", "Triage keys not changed: %1"), str(exc)))
        return
    triage.set_decisions(decisions)


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
