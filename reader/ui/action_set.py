"""The window's actions by name, their menus, and their texts in the language in use."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from PySide6.QtCore import QCoreApplication, Qt
from PySide6.QtGui import QAction, QKeySequence, QUndoStack
from PySide6.QtWidgets import QMainWindow, QWidget

from reader.core.models import Status
from reader.ui import plain
from reader.ui.i18n import fill
from reader.ui.main_window import MENUS

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


def undo_actions(
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
