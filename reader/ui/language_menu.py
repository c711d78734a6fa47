"""View → Language: the window's language, chosen there, remembered and used at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QAction, QActionGroup

from reader.language import LANGUAGES

if TYPE_CHECKING:
    from PySide6.QtWidgets import QMenu

    from reader.ui.actions import Actions

translate = QCoreApplication.translate


def add_language_menu(
    menu: QMenu,
    actions: Actions,
    chosen: str | None,
    choose: Callable[[str | None], None],
) -> QMenu:
    """A Language menu at the end of `menu`: the system's language, then each language
    by its own name (English, 简体中文: never translated, so that anyone finds theirs);
    `chosen` is the one remembered (None: the system's). `choose` is called with the
    code chosen (None: the system's)."""
    menu.addSeparator()
    sub = menu.addMenu("")
    group = QActionGroup(sub)
    system = QAction(sub)
    for code in (None, *LANGUAGES):
        action = system if code is None else QAction(LANGUAGES[code], sub)
        action.setCheckable(True)
        action.setChecked(code == chosen)
        action.triggered.connect(lambda _checked=False, c=code: choose(c))
        group.addAction(action)
        sub.addAction(action)
        actions.put(f"language_{code or 'system'}", action)

    def say() -> None:
        sub.setTitle(translate("Actions", "&Language"))
        system.setText(translate("Actions", "&System Language"))

    actions.on_language_change(say)
    return sub
