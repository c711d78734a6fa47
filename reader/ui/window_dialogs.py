"""The window's small dialogs: a search saved or deleted as a smart list, the triage
keys, papers like a facet's, the command palette and the shortcut sheet."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QInputDialog, QMainWindow

from reader.ui import plain
from reader.ui.action_set import Actions
from reader.ui.i18n import fill
from reader.ui.main_window import MainWindow

if TYPE_CHECKING:
    from reader.ui.interest import Interest
    from reader.ui.triage import Triage

translate = QCoreApplication.translate


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
