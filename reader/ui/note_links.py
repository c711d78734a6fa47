"""Note links in the window: `[[` title completion in the note editor, following a
`paper:` link in the preview, and which notes mention the shown paper."""

from __future__ import annotations

import html
import re
from typing import TYPE_CHECKING
from urllib.parse import quote, unquote

from PySide6.QtCore import QObject, QStringListModel
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QCompleter, QMainWindow

from reader.core.library import Change
from reader.core.links import Backlinks, TitleCatalogue, plain_title
from reader.ui import plain
from reader.ui.i18n import fill, number
from reader.ui.note_editor import NoteTextEdit

if TYPE_CHECKING:
    from reader.ui.controller import PaperController

#: the most linking notes named in the "Mentioned in" line
MAX_NAMED = 5
#: an unfinished link just before the cursor
OPEN_LINK = re.compile(r"\[\[([^\[\]\n|]{0,300})$")
_PAPER_ID_SCHEME = "paper-id:"
_LINK_SAFE = str.maketrans("[]|", "()/")


class TitleCompleter(QObject):
    """Offers paper titles after `[[` in a note editor; choosing one inserts `[[Title]]`."""

    def __init__(
        self, editor: NoteTextEdit, catalogue: TitleCatalogue, parent: QObject | None = None
    ) -> None:
        super().__init__(parent)
        self._editor = editor
        self._catalogue = catalogue
        self.model = QStringListModel(self)
        self.completer = QCompleter(self.model, self)
        self.completer.setWidget(editor)
        self.completer.setCompletionMode(QCompleter.CompletionMode.UnfilteredPopupCompletion)
        self.completer.setMaxVisibleItems(10)
        self.completer.activated[str].connect(self.insert)
        editor.completer = self.completer
        editor.textChanged.connect(self._update)
        editor.cursorPositionChanged.connect(self._on_cursor)

    def _open_link(self) -> tuple[int, str] | None:
        """Where the unfinished `[[` before the cursor starts, and what follows it."""
        cursor = self._editor.textCursor()
        if cursor.hasSelection():
            return None
        block = cursor.block()
        m = OPEN_LINK.search(block.text()[: cursor.positionInBlock()])
        return (block.position() + m.start(), m.group(1)) if m else None

    def _update(self) -> None:
        popup = self.completer.popup()
        link = self._open_link()
        titles = self._catalogue.matches(link[1]) if link else []
        if not titles:
            popup.hide()
            return
        self.model.setStringList(titles)
        rect = self._editor.cursorRect()
        rect.setWidth(max(320, min(640, self._editor.viewport().width())))
        self.completer.complete(rect)
        popup.setCurrentIndex(self.model.index(0, 0))

    def _on_cursor(self) -> None:
        if self.completer.popup().isVisible() and self._open_link() is None:
            self.completer.popup().hide()

    def insert(self, title: str) -> None:
        """Replace the unfinished link before the cursor with `[[title]]`."""
        link = self._open_link()
        if link is None:
            return
        cursor = self._editor.textCursor()
        end = cursor.position()
        if cursor.block().text()[cursor.positionInBlock() :].startswith("]]"):
            end += 2
        cursor.setPosition(link[0])
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        # a link cannot hold [ ] or |: "[MASK]" becomes "(MASK)", still found (punctuation ignored)
        cursor.insertText(f"[[{title.translate(_LINK_SAFE)}]]")
        self._editor.setTextCursor(cursor)
        self.completer.popup().hide()


class NoteLinks(QObject):
    """Wires note links into the window: completion in the note editor, clicks on
    `paper:` links in the preview, and "Mentioned in N notes" for the shown paper."""

    def __init__(self, window: QMainWindow, controller: PaperController) -> None:
        super().__init__(window)
        self._window = window
        self._library = controller.library
        self._sidebar = controller.sidebar
        self._pane = controller.pane
        # (the search index's words: made by its first use, if the window has not yet)
        self.catalogue = TitleCatalogue(
            self._library, lambda text, enough: controller.index.titled(text, enough)
        )
        self.backlinks = Backlinks(self._library)
        self.completer = TitleCompleter(self._pane.note_editor.editor, self.catalogue, self)
        self._pane.note_editor.preview.paper_link_activated.connect(self.follow)
        self._pane.backlinks.linkActivated.connect(self._on_backlink)
        self._pane.paper_shown.connect(self.show_backlinks)
        controller.library_changed.connect(self._on_change)
        self.show_backlinks(self._pane.paper_id)

    def follow(self, path: str) -> bool:
        """Select the paper a `paper:` link names (the url path: the quoted title)."""
        title = unquote(path)
        pid = self.catalogue.find(title)
        if not pid:
            self._say(fill(self.tr("No paper titled “%1” in this library"), title))
            return False
        return self.go(pid)

    def go(self, paper_id: str) -> bool:
        """Select a paper, clearing the search and facets if they hide it."""
        if self._sidebar.select_paper(paper_id):
            return True
        self._sidebar.search.clear()
        self._sidebar.facets.clear()
        self._sidebar.apply_filters()
        if self._sidebar.select_paper(paper_id):
            self._say(self.tr("Cleared the search to show the linked paper"))
            return True
        return False

    def show_backlinks(self, paper_id: str) -> None:
        label = self._pane.backlinks
        known = paper_id in self._library
        sources = self.backlinks.sources(self._library.paper(paper_id)) if known else []
        if not sources:
            label.hide()
            label.clear()
            return
        named = [
            f'<a href="{_PAPER_ID_SCHEME}{quote(src, safe="")}">'
            f"{html.escape(plain_title(self._library.paper(src).title))}</a>"
            for src in sources[:MAX_NAMED]
        ]
        listed = ", ".join(named)
        if len(sources) > MAX_NAMED:
            more = html.escape(self.tr("%1 and %2 more"))
            listed = fill(more, listed, number(len(sources) - MAX_NAMED))
        mentioned = html.escape(self.tr("Mentioned in %Ln note(s): %1", "", len(sources)))
        label.setText(fill(mentioned, listed))
        label.show()

    def _on_backlink(self, href: str) -> None:
        if href.startswith(_PAPER_ID_SCHEME):
            pid = unquote(href[len(_PAPER_ID_SCHEME) :])
            if pid in self._library:
                self.go(pid)

    def _on_change(self, change: Change) -> None:
        if "note" in change.fields:
            self.backlinks.update(change.paper_ids)
        if "note" in change.fields or "papers" in change.fields:
            self.show_backlinks(self._pane.paper_id)

    def _say(self, message: str) -> None:
        self._window.statusBar().showMessage(plain.one_line(message), 8_000)
