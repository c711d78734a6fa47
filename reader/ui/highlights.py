"""Making highlights: keys and menus in the abstract, comments, removal, renaming
the colours; every edit one undoable command."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QObject, Qt
from PySide6.QtGui import QAction, QColor, QIcon, QKeySequence, QPixmap
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QInputDialog,
    QLineEdit,
    QMenu,
    QWidget,
)

from reader.core.anchor import make_anchor, trim_span
from reader.core.library import Library, now_iso
from reader.core.models import Highlight
from reader.core.prefs import HIGHLIGHT_NAMES
from reader.ui import plain
from reader.ui.commands import EditCommand
from reader.ui.highlight_list import DEFAULT_NAMES, HighlightPalette, shown_name
from reader.ui.i18n import fill

if TYPE_CHECKING:
    from reader.ui.actions import Actions
    from reader.ui.controller import PaperController
    from reader.ui.main_window import MainWindow

__all__ = [
    "HighlightPalette",
    "Highlighter",
    "RenameColoursDialog",
    "SetHighlightsCommand",
    "build_highlighter",
]

MAX_NAME_CHARS = 40
#: the colours' names (Highlight.color keys) as the rename dialog says them
COLOUR_NAMES = {
    "yellow": QT_TRANSLATE_NOOP("RenameColoursDialog", "yellow"),
    "blue": QT_TRANSLATE_NOOP("RenameColoursDialog", "blue"),
    "green": QT_TRANSLATE_NOOP("RenameColoursDialog", "green"),
    "pink": QT_TRANSLATE_NOOP("RenameColoursDialog", "pink"),
}


class SetHighlightsCommand(EditCommand):
    """Make one paper's highlights these: each one added, changed or removed. Undo
    takes back each of those, highlight by highlight, where nobody changed it since."""

    def __init__(
        self, library: Library, paper_id: str, highlights: Sequence[Highlight], text: str
    ) -> None:
        super().__init__(library, text)
        self.paper_id = paper_id
        self._after = tuple(highlights)

    def first(self) -> None:
        self.record(lambda: self._library.set_highlights(self.paper_id, self._after))


def new_highlight(text: str, start: int, end: int, color: str) -> Highlight | None:
    """A highlight of text[start:end] (None if blank), anchored by quote and context."""
    anchor = make_anchor(text, start, end)
    if anchor is None:
        return None
    return Highlight(
        id=uuid.uuid4().hex[:12],
        quote=anchor.quote,
        prefix=anchor.prefix,
        suffix=anchor.suffix,
        color=color,
        created=now_iso(),
    )


def swatch(color: QColor, size: int = 12) -> QIcon:
    pixmap = QPixmap(size, size)
    pixmap.fill(color)
    return QIcon(pixmap)


class RenameColoursDialog(QDialog):
    """Names for the highlight colours: what each colour means to the user."""

    def __init__(self, palette: HighlightPalette, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Rename Highlight Colours"))
        form = QFormLayout(self)
        self.fields: list[QLineEdit] = []
        rows = zip(palette.keys(), palette.names(), DEFAULT_NAMES, strict=True)
        for n, (key, name, default) in enumerate(rows, 1):
            field = QLineEdit(shown_name(name), self)  # (a default name: as the window says it)
            field.setPlaceholderText(shown_name(default))
            field.setMaxLength(MAX_NAME_CHARS)
            field.addAction(swatch(palette.color_of(key)), QLineEdit.ActionPosition.LeadingPosition)
            field.setAccessibleName(fill(self.tr("Name of colour %1"), str(n)))
            label = fill(self.tr("Colour &%1 (%2):"), str(n), self.tr(COLOUR_NAMES.get(key, key)))
            form.addRow(label, field)
            self.fields.append(field)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        form.addRow(buttons)
        self.accepted.connect(lambda: palette.rename(self.names()))

    def names(self) -> list[str]:
        """The names typed, a default one as the library keeps it (not its translation)."""
        shown = {shown_name(d): d for d in DEFAULT_NAMES}
        return [shown.get(f.text().strip(), f.text()) for f in self.fields]


def build_highlighter(
    window: MainWindow, controller: PaperController, actions: Actions
) -> Highlighter:
    """Highlighting in the window, its colours named as the library's preferences say."""
    prefs = controller.library.prefs
    palette = HighlightPalette(prefs.get(HIGHLIGHT_NAMES) or [])
    palette.renamed.connect(lambda names: prefs.set_highlight_names(list(names)))
    controller.library_changed.connect(
        lambda change: (
            "prefs" in change.fields and palette.set_names(prefs.get(HIGHLIGHT_NAMES) or [])
        )
    )
    return Highlighter(window, controller, actions, palette)


class Highlighter(QObject):
    """Highlights of the shown paper. In the abstract: 1-4 highlight the selection in
    that colour (the same span again: recolour), H opens the palette, C comments on
    the highlight at the cursor; its context menu offers the same. In the list under
    the note: Delete removes one, Return or double-click comments on it."""

    def __init__(
        self,
        window: MainWindow,
        controller: PaperController,
        actions: Actions,
        palette: HighlightPalette,
    ) -> None:
        super().__init__(window)
        self._window = window
        self._controller = controller
        self._library = controller.library
        self._pane = controller.pane
        self.palette = palette
        self.palette_menu: QMenu | None = None
        self._last_id = ""
        panel = self._pane.highlight_panel
        panel.set_palette(palette)
        self.colour_actions = [
            self._browser_action(str(n), lambda i=n - 1: self.highlight_selection(i))
            for n in range(1, len(palette.keys()) + 1)
        ]
        self.palette_action = self._browser_action("H", self.show_palette_menu)
        self.comment_action = self._browser_action("C", lambda: self.comment())
        self.rename_action = QAction(window)
        self.rename_action.triggered.connect(lambda _checked=False: self.rename_colours())
        self._menu: QMenu | None = None  # Paper ▸ Highlight
        palette.changed.connect(self._retitle)
        self._pane.browser_menu_requested.connect(self._extend_menu)
        panel.delete_requested.connect(self.remove)
        panel.comment_requested.connect(self.comment)
        self._add_to_menus(actions)
        actions.on_language_change(self._retitle)

    # -- set-up -------------------------------------------------------------

    def _browser_action(self, key: str, slot: Callable[[], object]) -> QAction:
        browser = self._pane.browser
        action = QAction(browser)
        action.setShortcut(QKeySequence(key))
        # only while the abstract has focus: in the list 1-3 set the status
        action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        action.triggered.connect(lambda _checked=False: slot())
        browser.addAction(action)
        return action

    def _retitle(self) -> None:
        """The actions' texts in the language in use, with the colours' names."""
        for action, key in zip(self.colour_actions, self.palette.keys(), strict=True):
            name = self.palette.name_of(key)
            action.setText(plain.action_text(fill(self.tr("Highlight as %1"), name)))
            action.setIcon(swatch(self.palette.color_of(key)))
        self.palette_action.setText(self.tr("Highlight With…"))
        self.comment_action.setText(self.tr("Comment on Highlight…"))
        self.rename_action.setText(self.tr("Rename Highlight Colours…"))
        if self._menu is not None:
            self._menu.setTitle(self.tr("&Highlight"))
        self._pane.highlight_panel.model.repaint()

    def _add_to_menus(self, actions: Actions) -> None:
        named = [
            *((f"highlight_{n}", a) for n, a in enumerate(self.colour_actions, 1)),
            ("highlight_palette", self.palette_action),
            ("highlight_comment", self.comment_action),
            ("rename_highlight_colours", self.rename_action),
        ]
        menu = self._window.menus.get("&Paper")
        sub = self._menu = menu.addMenu("") if isinstance(menu, QMenu) else None
        for name, action in named:
            # listed under Paper in the cheat sheet; in the menu bar under Paper ▸ Highlight
            # (or, if the menus are not built yet, by build_menus under Paper)
            actions.put(name, action, "&Paper")
            if sub is not None:
                if action is self.rename_action or action is self.palette_action:
                    sub.addSeparator()
                sub.addAction(action)

    # -- edits ----------------------------------------------------------------

    def highlight_selection(self, index: int) -> str:
        """Highlight the abstract's selection in colour `index` (0-based); its id, or ''."""
        pid = self._pane.paper_id
        cursor = self._pane.browser.textCursor()
        key = self.palette.keys()[index]
        name = self.palette.name_of(key)
        if not pid or not cursor.hasSelection():
            self._say(self.tr("Select text in the abstract first, then press 1–4 to highlight it"))
            return ""
        text = self._pane.browser.toPlainText()
        start, end = trim_span(text, cursor.selectionStart(), cursor.selectionEnd())
        highlights = list(self._library.annotation(pid).highlights)
        same = self._highlight_at(start, end, exact=True)
        if same is not None:
            made = replace(same, color=key)
            highlights = [made if h.id == same.id else h for h in highlights]
        else:
            new = new_highlight(text, start, end, key)
            if new is None:
                return ""
            made = new
            highlights.append(made)
        self._push(pid, highlights, fill(self.tr("Highlight as %1"), name))
        self._last_id = made.id
        self._say(fill(self.tr("Highlighted as %1 · C adds a comment"), name))
        return made.id

    def comment(self, highlight_id: str | None = None) -> None:
        """Ask for a comment on a highlight (default: the one at the abstract's cursor,
        else the one chosen in the list, else the one just made)."""
        pid = self._pane.paper_id
        if not pid:
            return
        if highlight_id is None:
            highlight_id = self._target_id()
        highlights = list(self._library.annotation(pid).highlights)
        target = next((h for h in highlights if h.id == highlight_id), None)
        if target is None:
            self._say(
                self.tr(
                    "Put the cursor in a highlight, or choose one in the list, to comment on it"
                )
            )
            return
        quote = " ".join(target.quote.split())
        short = quote if len(quote) <= 60 else quote[:57] + "…"
        # (a box of lines: a one-line field holds at most 32,767 characters, and would
        # cut a longer comment, an imported one say, when saved)
        text, ok = QInputDialog.getMultiLineText(
            self._pane,
            self.tr("Highlight Comment"),
            plain.html(fill(self.tr("Comment on “%1”:"), short)),
            target.comment,
        )
        if ok and text != target.comment:
            changed = replace(target, comment=text.strip())
            self._push(
                pid,
                [changed if h.id == target.id else h for h in highlights],
                self.tr("Comment on highlight"),
            )

    def remove(self, highlight_id: str) -> None:
        pid = self._pane.paper_id
        highlights = self._library.annotation(pid).highlights if pid else ()
        kept = [h for h in highlights if h.id != highlight_id]
        if len(kept) != len(highlights):
            self._push(pid, kept, self.tr("Remove highlight"))

    def _push(self, paper_id: str, highlights: Sequence[Highlight], text: str) -> None:
        self._controller.push(SetHighlightsCommand(self._library, paper_id, highlights, text))

    # -- choosing ---------------------------------------------------------------

    def _highlight_at(self, start: int, end: int, *, exact: bool = False) -> Highlight | None:
        """The topmost highlight on the span (or at the caret when start == end)."""
        for row in reversed(self._pane.highlight_panel.model.rows()):
            if row.span is None:
                continue
            s, e = row.span
            if exact:
                hit = row.span == (start, end)
            elif start == end:
                hit = s <= start <= e
            else:
                hit = s < end and start < e
            if hit:
                return row.highlight
        return None

    def _target_id(self) -> str:
        cursor = self._pane.browser.textCursor()
        at = self._highlight_at(cursor.selectionStart(), cursor.selectionEnd())
        return at.id if at else self._pane.highlight_panel.current_id() or self._last_id

    def show_palette_menu(self) -> QMenu:
        """The colours as a small menu at the abstract's cursor (key H)."""
        browser = self._pane.browser
        menu = QMenu(browser)
        menu.addActions(self.colour_actions)
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.palette_menu = menu
        menu.popup(browser.viewport().mapToGlobal(browser.cursorRect().bottomLeft()))
        return menu

    def _extend_menu(self, menu: QMenu, position: int) -> None:
        """Add highlight entries to the abstract's context menu."""
        if not self._pane.paper_id:
            return
        menu.addSeparator()
        if self._pane.browser.textCursor().hasSelection():
            sub = menu.addMenu(self.tr("Highlight as"))
            sub.addActions(self.colour_actions)
        at = self._highlight_at(position, position)
        if at is not None:
            menu.addAction(self.tr("Comment on Highlight…"), lambda: self.comment(at.id))
            menu.addAction(self.tr("Remove Highlight"), lambda: self.remove(at.id))
        menu.addAction(self.rename_action)

    def rename_colours(self) -> RenameColoursDialog:
        dialog = RenameColoursDialog(self.palette, self._window)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.open()
        return dialog

    def _say(self, message: str) -> None:
        self._window.statusBar().showMessage(plain.one_line(message), 6_000)
