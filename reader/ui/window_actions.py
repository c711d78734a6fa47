"""The window's own actions: triage, themes, table and zoom, tags, smart lists, More
Like This, the command palette and the shortcut sheet."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QInputDialog, QMainWindow, QMessageBox

from reader.ui import names, plain
from reader.ui.action_set import Actions
from reader.ui.i18n import fill
from reader.ui.main_window import MainWindow

if TYPE_CHECKING:
    from pathlib import Path

    from reader.ui.interest import Interest
    from reader.ui.triage import Triage

translate = QCoreApplication.translate

#: View → theme actions' texts
THEME_NAMES = {
    "system": QT_TRANSLATE_NOOP("Actions", "System Theme"),
    "light": QT_TRANSLATE_NOOP("Actions", "Light Theme"),
    "dark": QT_TRANSLATE_NOOP("Actions", "Dark Theme"),
}


def add_window_actions(
    window: MainWindow,
    actions: Actions,
    triage: Triage,
    interest: Interest | None,
    folder: Path | None = None,
) -> None:
    """Triage keys, themes, zoom, tag keys, smart lists, the palette, the cheat sheet
    and the About box (which names the library `folder`)."""
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
        QT_TRANSLATE_NOOP("Actions", "T&wo-Line Titles"),
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
        QT_TRANSLATE_NOOP("Actions", "Delete Smart &List…"),
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
            QT_TRANSLATE_NOOP("Actions", "More &Like This"),
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
    actions.separator("&Help")
    add(
        "about",
        QT_TRANSLATE_NOOP("Actions", "&About Paper Reader"),
        [],
        lambda: show_about(window, folder),
        menu="&Help",
    )


def show_about(window: QMainWindow, folder: Path | None) -> QMessageBox:
    """Help → About Paper Reader: what it is, its version, where the library is."""
    from reader import __version__

    lines = [
        fill(translate("Actions", "Paper Reader %1"), __version__),
        translate(
            "Actions",
            "Read, triage and annotate research paper lists: your reading status, tags, "
            "notes and highlights kept in a library folder of your own.",
        ),
    ]
    if folder is not None:
        lines.append(fill(translate("Actions", "Library: %1"), str(folder)))
    box = plain.message(
        window, QMessageBox.Icon.Information, translate("Actions", "About Paper Reader"),
        "\n\n".join(lines),
    )  # fmt: skip
    box.setModal(False)
    box.show()
    return box


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


def more_like_facet(window: MainWindow, interest: Interest, key: tuple[str, str]) -> None:
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

    # (the default decisions' labels as the bar says them, in the window's language)
    current = "\n".join(
        f"{d.key} {d.kind} {d.value} {names.decision_label(d.label)}" for d in triage.decisions
    )
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
