"""Markdown note editor with a live, safe preview; saves on a short debounce."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, Qt, QTimer, Signal
from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import QLabel, QPlainTextEdit, QSplitter, QVBoxLayout, QWidget

from reader.ui.browser import SafeBrowser

if TYPE_CHECKING:
    from PySide6.QtGui import QKeyEvent
    from PySide6.QtWidgets import QCompleter

SAVE_DEBOUNCE_MS = 500
PREVIEW_DEBOUNCE_MS = 150
PREVIEW_CSS = """
table { border-collapse: collapse; margin: 4px 0; }
th, td { border: 1px solid #9aa0a6; padding: 3px 8px; }
pre, code { font-family: monospace; }
pre { background: rgba(127, 127, 127, 0.12); padding: 6px; }
"""

#: keys an open completion popup handles itself (choose, dismiss)
_POPUP_KEYS = frozenset(
    {Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_Escape, Qt.Key.Key_Tab, Qt.Key.Key_Backtab}
)


class NoteTextEdit(QPlainTextEdit):
    """The note's text. While `completer`'s popup is open, the keys that choose or
    dismiss a completion are left to it (they would otherwise type or move focus)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.completer: QCompleter | None = None

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
        # made inside the splitter that holds them (moved in later, each would be
        # restyled: the reader pane's lower half, the note's parent, has a style sheet)
        splitter = QSplitter(Qt.Orientation.Horizontal, self)
        self.editor = NoteTextEdit(splitter)
        self.editor.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
        self.editor.setPlaceholderText("Your notes in Markdown: **bold**, lists, tables, $math$…")
        self.editor.setAccessibleName("Note editor")
        self.editor.setTabChangesFocus(True)
        self.editor.installEventFilter(self)
        self.preview = SafeBrowser(splitter)
        self.preview.setAccessibleName("Note preview")
        self.preview.setPlaceholderText("The rendered note appears here.")
        self.preview.document().setDefaultStyleSheet(PREVIEW_CSS)
        label = QLabel("Note", self)
        label.setObjectName("sectionLabel")
        label.setBuddy(self.editor)

        splitter.addWidget(self.editor)
        splitter.addWidget(self.preview)
        splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(label)
        layout.addWidget(splitter, 1)

        self._save_timer = QTimer(self, singleShot=True, interval=SAVE_DEBOUNCE_MS)
        self._save_timer.timeout.connect(self.flush)
        self._preview_timer = QTimer(self, singleShot=True, interval=PREVIEW_DEBOUNCE_MS)
        self._preview_timer.timeout.connect(self._render_preview)
        self.editor.textChanged.connect(self._on_text_changed)
        self.setEnabled(False)

    @property
    def paper_id(self) -> str:
        return self._paper_id

    def text(self) -> str:
        return self.editor.toPlainText()

    def is_dirty(self) -> bool:
        return bool(self._paper_id) and self.text() != self._saved

    def set_paper(self, paper_id: str, text: str) -> None:
        """Show `paper_id`'s note; whatever was typed for the previous paper is
        committed first, to that paper."""
        self.flush()
        self._paper_id = paper_id
        self._saved = text
        self.editor.blockSignals(True)
        self.editor.setPlainText(text)
        self.editor.blockSignals(False)
        self.editor.document().clearUndoRedoStacks()
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
        self.editor.blockSignals(True)
        self.editor.setPlainText(text)
        self.editor.blockSignals(False)
        cursor = self.editor.textCursor()
        cursor.setPosition(min(cursor_pos, len(text)))
        self.editor.setTextCursor(cursor)
        self._preview_soon()

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
