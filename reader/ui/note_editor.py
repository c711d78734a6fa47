"""Markdown note editor with a live, safe preview; saves on a short debounce.

Qt lays a line (a block) of the editor out whole on every key typed in it, and
looks along the whole of a word with no place to break for each line it wraps
(quadratic: 40,000 characters of one word took 0.1 s a key, a million minutes).
So long words break anywhere (WrapAnywhere once a note has a run longer than
MAX_WORD_WRAP_RUN, linear), and a note that cannot be edited without freezing
the window (a line over MAX_EDIT_LINE characters, or over MAX_EDIT_CHARS in all)
is shown read-only, its start only, until the user asks to edit it anyway. Its
whole text is kept and saved: only what is laid out is cut."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase, QTextOption
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QSplitter, QVBoxLayout, QWidget

from reader.core.cleaning import MAX_NOTE_CHARS
from reader.core.text import shown_part
from reader.ui.browser import SafeBrowser
from reader.ui.i18n import fill, number

if TYPE_CHECKING:
    from PySide6.QtCore import QMimeData
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtWidgets import QCompleter, QPushButton

SAVE_DEBOUNCE_MS = 500
PREVIEW_DEBOUNCE_MS = 150
PREVIEW_CSS = """
table { border-collapse: collapse; margin: 4px 0; }
th, td { border: 1px solid #9aa0a6; padding: 3px 8px; }
pre, code { font-family: monospace; }
pre { background: rgba(127, 127, 127, 0.12); padding: 6px; }
"""

#: a note with a longer line is shown read-only (see the module's docstring): a line
#: of 100,000 characters costs 15-40 ms a key, a million 0.2-0.3 s
MAX_EDIT_LINE = 100_000
#: a longer note is shown read-only too (a million characters of short lines load in
#: ~30 ms; the library holds no longer note, see reader.core.cleaning)
MAX_EDIT_CHARS = MAX_NOTE_CHARS
#: a note with a longer run of characters without a space wraps anywhere, not at
#: word boundaries (a 100,000-character line of 500-character words: ~40 ms a key)
MAX_WORD_WRAP_RUN = 500
#: what a note too long to edit shows of itself
LONG_NOTE_SHOWN = 20_000
_WORD_WRAP = QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere
_ANYWHERE = QTextOption.WrapMode.WrapAnywhere
# (one pass each: a pattern starting at every character would look along every line)
_LONG_LINE = re.compile(rf"\n[^\n]{{{MAX_EDIT_LINE + 1}}}")
_LONG_LINE_FIRST = re.compile(rf"[^\n]{{{MAX_EDIT_LINE + 1}}}")
_LONG_RUN = re.compile(rf"\s\S{{{MAX_WORD_WRAP_RUN + 1}}}")
_LONG_RUN_FIRST = re.compile(rf"\S{{{MAX_WORD_WRAP_RUN + 1}}}")

#: keys an open completion popup handles itself (choose, dismiss)
_POPUP_KEYS = frozenset(
    {Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape, Qt.Key.Key_Tab, Qt.Key.Key_Backtab}
)


class NoteTextEdit(QPlainTextEdit):
    """The note's text. While `completer`'s popup is open, the keys that choose or
    dismiss a completion are left to it (they would otherwise type or move focus).
    Pasted or dropped text is offered to `paste_guard` first: True, it took it."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.completer: QCompleter | None = None
        self.paste_guard: Callable[[str], bool] | None = None

    def insertFromMimeData(self, source: QMimeData) -> None:  # noqa: N802 (Qt override)
        guard = self.paste_guard
        if guard is not None and source.hasText() and guard(source.text()):
            return
        super().insertFromMimeData(source)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        popup = self.completer.popup() if self.completer else None
        if popup is not None and popup.isVisible() and event.key() in _POPUP_KEYS:
            event.ignore()
            return
        super().keyPressEvent(event)


class NoteEditor(QWidget):
    """Edits one paper's note at a time.

    The editor never writes by itself: `note_committed` carries the text to save,
    emitted after a pause in typing, when focus leaves the editor, and whenever
    `flush()` is called (paper change, window close, quit).

    Signals:
        note_committed(str, str, str): paper id, previously saved text, new text.
    """

    note_committed = Signal(str, str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._paper_id = ""
        self._saved = ""
        #: the whole note while it is too long to edit (the editor shows its start)
        self._long: str | None = None
        #: the user asked to edit this paper's long note anyway
        self._forced = False
        self._notice: QWidget | None = None
        self._notice_label: QLabel | None = None
        self._edit_anyway: QPushButton | None = None
        # made inside the splitter that holds them (moved in later, each would be
        # restyled: the reader pane's lower half, the note's parent, has a style sheet)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.editor = NoteTextEdit(splitter)
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.editor.setTabChangesFocus(True)
        self.editor.setWordWrapMode(_WORD_WRAP)
        self.editor.paste_guard = self._paste
        self.editor.installEventFilter(self)
        self.preview = SafeBrowser(splitter)
        self.preview.document().setDefaultStyleSheet(PREVIEW_CSS)
        self._label = label = QLabel(self)
        label.setObjectName("sectionLabel")
        label.setBuddy(self.editor)

        splitter.addWidget(self.editor)
        splitter.addWidget(self.preview)
        splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(label)
        layout.addWidget(splitter, 1)
        self._layout = layout

        self._save_timer = QTimer(self, singleShot=True, interval=SAVE_DEBOUNCE_MS)
        self._save_timer.timeout.connect(self.flush)
        self._preview_timer = QTimer(self, singleShot=True, interval=PREVIEW_DEBOUNCE_MS)
        self._preview_timer.timeout.connect(self._render_preview)
        self.editor.textChanged.connect(self._on_text_changed)
        self.setEnabled(False)
        self.retranslate()

    def retranslate(self) -> None:
        """The editor's texts in the language in use (again after a switch)."""
        self.editor.setPlaceholderText(
            self.tr("Your notes in Markdown: **bold**, lists, tables, $math$…")
        )
        self.editor.setAccessibleName(self.tr("Note editor"))
        self.preview.setAccessibleName(self.tr("Note preview"))
        self.preview.setPlaceholderText(self.tr("The rendered note appears here."))
        self._label.setText(self.tr("Note"))
        if self._edit_anyway is not None:
            self._edit_anyway.setText(self.tr("Edit Anyway"))
            self._edit_anyway.setToolTip(
                self.tr("Load the whole note to edit (the window may pause)")
            )

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    @property
    def paper_id(self) -> str:
        return self._paper_id

    def text(self) -> str:
        """The note's whole text (also while only its start is shown: is_long())."""
        return self._long if self._long is not None else self.editor.toPlainText()

    def is_long(self) -> bool:
        """Whether the note is too long to edit here, and shown read-only, in part."""
        return self._long is not None

    def is_dirty(self) -> bool:
        return bool(self._paper_id) and self.text() != self._saved

    def set_paper(self, paper_id: str, text: str) -> None:
        """Show `paper_id`'s note; whatever was typed for the previous paper is
        committed first, to that paper."""
        self.flush()
        self._paper_id = paper_id
        self._saved = text
        self._forced = False
        self._load(text)
        self.setEnabled(bool(paper_id))
        self._preview_soon()

    def show_saved(self, text: str) -> None:
        """The note changed in the library (undo, another process): show it unless
        the user has unsaved typing, which always wins."""
        if self.is_dirty():
            return
        if text == self.text():
            self._saved = text
            return
        self._saved = text
        cursor_pos = self.editor.textCursor().position()
        self._load(text)
        cursor = self.editor.textCursor()
        cursor.setPosition(min(cursor_pos, self.editor.document().characterCount() - 1))
        self.editor.setTextCursor(cursor)
        self._preview_soon()

    def _load(self, text: str) -> None:
        """Put `text` in the editor (no textChanged): all of it to edit, or, too long
        for that, its start, read-only, under a notice that offers to edit it anyway."""
        editable = self._forced or (len(text) <= MAX_EDIT_CHARS and not _has_long_line(text))
        editor = self.editor
        editor.blockSignals(True)
        try:
            mode = _ANYWHERE if not editable or _has_long_run(text) else _WORD_WRAP
            if mode != editor.wordWrapMode():
                editor.clear()  # (not the old text laid out again in the new mode)
                editor.setWordWrapMode(mode)
            if editable:
                self._long = None
                editor.setReadOnly(False)
                editor.setPlainText(text)
                self._hide_notice()
            else:
                self._long = text
                editor.setReadOnly(True)
                shortened = self.tr("… (note shortened for display: %1 characters in total)")
                editor.setPlainText(
                    shown_part(text, LONG_NOTE_SHOWN) + "\n\n" + fill(shortened, number(len(text)))
                )
                if "\n" in text:
                    why = self.tr(
                        "This note has %1 characters: too long to edit here without the "
                        "window freezing. Its start is shown; all of it is kept."
                    )
                else:
                    why = self.tr(
                        "This note has %1 characters on one line: too long to edit here "
                        "without the window freezing. Its start is shown; all of it is kept."
                    )
                self._say(fill(why, number(len(text))), edit_anyway=True)
        finally:
            editor.blockSignals(False)
        editor.document().clearUndoRedoStacks()

    def edit_anyway(self) -> None:
        """Load the whole of a note too long to edit into the editor (the window may
        pause for a while on loading it and on each key)."""
        if self._long is None:
            return
        self._forced = True
        self._load(self._long)
        self.editor.setFocus()

    def _paste(self, text: str) -> bool:
        """A paste (or drop) of `text` about to go in: True if it was dealt with here
        (refused, or taken into a note now too long to edit), False to let it in."""
        cursor = self.editor.textCursor()
        doc = self.editor.document()
        length = doc.characterCount() - 1 - (cursor.selectionEnd() - cursor.selectionStart())
        if length + len(text) > MAX_NOTE_CHARS:
            refused = self.tr(
                "Not pasted: the note would have %1 characters, and a note holds at most %2."
            )
            self._say(fill(refused, number(length + len(text)), number(MAX_NOTE_CHARS)))
            return True
        if self._long is not None or self._forced:
            if self._forced and _has_long_run(text):
                self.editor.setWordWrapMode(_ANYWHERE)
            return self._long is not None  # (read-only: nothing to paste into)
        line = cursor.block().length() + max(map(len, text.split("\n")))
        if length + len(text) <= MAX_EDIT_CHARS and line <= MAX_EDIT_LINE:
            if _has_long_run(text):  # (a run it makes with the text typed: _on_text_changed)
                self.editor.setWordWrapMode(_ANYWHERE)
            return False  # Qt inserts it (and its undo)
        # too long to edit once pasted: the note takes it, and is shown in part
        start, end = cursor.selectionStart(), cursor.selectionEnd()
        units = self.editor.toPlainText().encode("utf-16-le", "surrogatepass")
        pasted = text.encode("utf-16-le", "surrogatepass")
        whole = units[: 2 * start] + pasted + units[2 * end :]
        self._load(whole.decode("utf-16-le", "surrogatepass"))
        self._on_text_changed()
        return True

    def _say(self, message: str, *, edit_anyway: bool = False) -> None:
        """A notice over the note (made when first needed)."""
        if self._notice is None:
            from PySide6.QtWidgets import QHBoxLayout, QPushButton

            self._notice = QWidget(self)
            self._notice.setObjectName("noteNotice")
            row = QHBoxLayout(self._notice)
            row.setContentsMargins(0, 2, 0, 2)
            self._notice_label = QLabel(self._notice)
            self._notice_label.setWordWrap(True)
            self._notice_label.setTextFormat(Qt.TextFormat.PlainText)
            self._edit_anyway = QPushButton(self.tr("Edit Anyway"), self._notice)
            self._edit_anyway.setToolTip(
                self.tr("Load the whole note to edit (the window may pause)")
            )
            self._edit_anyway.clicked.connect(self.edit_anyway)
            row.addWidget(self._notice_label, 1)
            row.addWidget(self._edit_anyway)
            self._layout.insertWidget(1, self._notice)
        assert self._notice_label is not None and self._edit_anyway is not None
        self._notice_label.setText(message)
        self._edit_anyway.setVisible(edit_anyway)
        self._notice.show()

    def _hide_notice(self) -> None:
        if self._notice is not None:
            self._notice.hide()

    def notice(self) -> str:
        """The notice shown over the note ("" if none)."""
        shown = self._notice is not None and not self._notice.isHidden()
        return self._notice_label.text() if shown and self._notice_label is not None else ""

    def flush(self) -> None:
        """Commit unsaved text now."""
        self._save_timer.stop()
        if not self.is_dirty():
            return
        old, new = self._saved, self.text()
        self._saved = new
        self.note_committed.emit(self._paper_id, old, new)

    def mark_unsaved(self, saved_text: str) -> None:
        """A commit failed to reach the disk: keep the text dirty so it is retried."""
        self._saved = saved_text
        self._save_timer.start()

    def _on_text_changed(self) -> None:
        self._save_timer.start()
        self._preview_timer.start(PREVIEW_DEBOUNCE_MS)
        if self._long is not None:
            return
        self._hide_notice()  # ("not pasted": typing goes on)
        if self.editor.wordWrapMode() != _ANYWHERE:
            block = self.editor.textCursor().block()  # typing makes a long word: wrap anywhere
            if block.length() > MAX_WORD_WRAP_RUN and _has_long_run(block.text()):
                self.editor.setWordWrapMode(_ANYWHERE)

    def _preview_soon(self) -> None:
        """Render the preview on the next event-loop turn, after the abstract is painted
        (Markdown takes 1-20 ms a note, and a paper change must show in one frame).
        Meanwhile the preview is blank, never another paper's note."""
        if self.text().strip():
            self.preview.clear()
            self._preview_timer.start(0)
        else:
            self._render_preview()

    def hold_preview(self) -> bool:
        """Cancel a preview render waiting for its turn; True if one was. At start-up
        that turn comes before the window's first paint, and the first note's
        Markdown would cost it ~150 ms (loading Markdown): the window renders it
        right after its first paint (render_preview) instead."""
        waiting = self._preview_timer.isActive()
        self._preview_timer.stop()
        return waiting

    def render_preview(self) -> None:
        """Render the preview of the note shown, now."""
        self._render_preview()

    def _render_preview(self) -> None:
        self._preview_timer.stop()
        text = self.text()
        if text.strip():
            from reader.render.notes import note_html

            self.preview.setHtml(note_html(text))
        else:
            self.preview.clear()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        if watched is self.editor and event.type() == QEvent.Type.FocusOut:
            self.flush()
        return super().eventFilter(watched, event)


def _has_long_run(text: str) -> bool:
    """Whether `text` has more than MAX_WORD_WRAP_RUN characters with no space between."""
    if len(text) <= MAX_WORD_WRAP_RUN:
        return False
    return bool(_LONG_RUN_FIRST.match(text) or _LONG_RUN.search(text))


def _has_long_line(text: str) -> bool:
    """Whether `text` has a line of more than MAX_EDIT_LINE characters."""
    if len(text) <= MAX_EDIT_LINE:
        return False
    return bool(_LONG_LINE_FIRST.match(text) or _LONG_LINE.search(text))
