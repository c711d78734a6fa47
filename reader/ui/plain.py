"""Text from papers, notes, tags, files and errors shown as text: never as HTML.

Qt guesses. A string that looks like HTML (`Qt.mightBeRichText`: a tag in its first
line) is rendered as rich text by a tooltip, a QLabel in its default AutoText format,
a QMessageBox, a QInputDialog's or QProgressDialog's label; and rich text loads what
it names, at once, on the GUI thread: `<img src="/dev/zero">` in a title aborted the
app on hover, `<img src="/etc/passwd">` read that file, a FIFO froze the window.

So every widget that shows such text gets it through here:

- ``tooltip(text)``: a tooltip. Qt always guesses for tooltips (QToolTip has no
  format), so the safe form is HTML we build: the text escaped in a paragraph that
  keeps its spaces and line breaks (no tag in it is the user's). Item models return
  it for ToolTipRole.
- ``html(text)``: the same escaped HTML for any other surface Qt guesses about and
  whose format we cannot set: the label of QInputDialog.getText/getItem/... and of
  the static QMessageBox.question/warning/... functions.
- ``PlainLabel`` / ``plain_label(label)``: a QLabel that shows its text as typed.
- ``message(...)``: a QMessageBox of ours, its text plain (the rest in its details).
- ``action_text(text)``: user text as a menu item, button or chip (a `&` is shown,
  not made a mnemonic; a tab does not start a shortcut column).
- ``one_line(text)``: a status-bar line; ``window_title(text)``: a window title.

Each caps what it lays out (a tooltip of a megabyte of authors took seconds).
Views draw DisplayRole, status bars, menus, buttons and window titles as plain text
already: only the caps and `&` matter there. tests/ui/test_plain_text.py walks the
whole window with hostile text and fails on any resource load."""

from __future__ import annotations

import html as _html
import re
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as _QtGui  # (Qt.mightBeRichText is QtGui's)
from PySide6.QtWidgets import QLabel, QMessageBox, QWidget

from reader.core.text import shown_part

if TYPE_CHECKING:
    from collections.abc import Iterable

#: the most of a text a tooltip lays out, and its most lines
MAX_TOOLTIP_CHARS = 2_000
MAX_TOOLTIP_LINES = 30
#: the most of a text a message box or dialog label lays out, and its most lines
MAX_MESSAGE_CHARS = 4_000
MAX_MESSAGE_LINES = 40
#: the most of a message box's details (a scrolling plain text box)
MAX_DETAILS_CHARS = 200_000
#: a status-bar line, a menu item or button, a window title
MAX_LINE_CHARS = 300
MAX_ACTION_CHARS = 80
#: how the escaped HTML starts: a paragraph keeping the text's spaces and breaks
HTML_OPEN = "<p style='white-space:pre-wrap'>"
HTML_CLOSE = "</p>"
_SPACES = re.compile(r"\s+")
_MNEMONIC = re.compile(r"&(.)", re.DOTALL)
#: a mnemonic after a translated text, in brackets: "导入(&I)…" -> "导入…"
_BRACKETED_MNEMONIC = re.compile(r"\s*\(&\w\)")


def capped(text: str, limit: int, lines: int | None = None) -> str:
    """`text` cut to at most `limit` characters and `lines` lines (then "…")."""
    shown = text
    if lines is not None and shown.count("\n") >= lines:
        shown = "\n".join(shown.split("\n", lines)[:lines])
    shown = shown_part(shown, limit)
    return shown if len(shown) == len(text) else shown.rstrip() + "…"


def html(text: str, limit: int = MAX_MESSAGE_CHARS, lines: int | None = MAX_MESSAGE_LINES) -> str:
    """`text` (capped) as HTML we built: escaped, every tag in it ours ("" stays "")."""
    if not text:
        return ""
    return HTML_OPEN + _html.escape(capped(text, limit, lines), quote=False) + HTML_CLOSE


def tooltip(text: str) -> str:
    """`text` as a tooltip shows it, whatever it holds ("" stays "": no tooltip)."""
    return html(text, MAX_TOOLTIP_CHARS, MAX_TOOLTIP_LINES)


def might_be_rich(text: str) -> bool:
    """Whether Qt guesses `text` is HTML (and renders it so in AutoText)."""
    return bool(_QtGui.mightBeRichText(text))


def is_safe_html(text: str) -> bool:
    """True for text Qt shows as plain, or HTML made by html()/tooltip() (tests, checks)."""
    if not might_be_rich(text):
        return True
    return (
        text.startswith(HTML_OPEN)
        and text.endswith(HTML_CLOSE)
        and "<" not in text[len(HTML_OPEN) : -len(HTML_CLOSE)]
    )


def one_line(text: str, limit: int = MAX_LINE_CHARS) -> str:
    """`text` on one line (whitespace runs made one space), capped."""
    return capped(_SPACES.sub(" ", text).strip(), limit)


def action_text(text: str, limit: int = MAX_ACTION_CHARS) -> str:
    """User text as the text of a QAction, button or tool button: one line, capped,
    `&` doubled (shown, not a mnemonic; a tab would start the shortcut column)."""
    return one_line(text, limit).replace("&", "&&")


def strip_mnemonics(text: str) -> str:
    """An action's text as shown: "&Undo" -> "Undo", "R&&D" -> "R&D", "撤销(&U)" -> "撤销"."""
    return _MNEMONIC.sub(r"\1", _BRACKETED_MNEMONIC.sub("", text))


def window_title(text: str, limit: int = MAX_LINE_CHARS) -> str:
    """User text in a window title: one line, capped, "[*]" shown as typed (alone,
    Qt takes it for the "modified" mark)."""
    return one_line(text, limit).replace("[*]", "[*][*]")


def plain_label(label: QLabel) -> QLabel:
    """Make `label` show its text as typed, never as HTML; returns it."""
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


class PlainLabel(QLabel):
    """A QLabel that shows its text as typed, never as HTML (QLabel guesses)."""

    def __init__(self, text: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setTextFormat(Qt.TextFormat.PlainText)
        if text:
            self.setText(text)


def message(
    parent: QWidget | None,
    icon: QMessageBox.Icon,
    title: str,
    text: str,
    details: str | Iterable[str] | None = None,
    buttons: QMessageBox.StandardButton = QMessageBox.StandardButton.Ok,
) -> QMessageBox:
    """A message box (not shown yet) whose text is plain, whatever it holds: the
    first MAX_MESSAGE_CHARS of it; all of it, and `details`, in its details box (a
    plain text box)."""
    box = QMessageBox(parent)
    box.setIcon(icon)
    box.setWindowTitle(window_title(title))
    box.setTextFormat(Qt.TextFormat.PlainText)
    shown = capped(text, MAX_MESSAGE_CHARS, MAX_MESSAGE_LINES)
    box.setText(shown)
    more = [text] if shown != text else []
    if details is not None:
        more.append(details if isinstance(details, str) else "\n".join(details))
    if more:
        box.setDetailedText(capped("\n\n".join(more), MAX_DETAILS_CHARS))
    box.setStandardButtons(buttons)
    return box
