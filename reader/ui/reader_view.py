"""The reader pane: the paper (title, authors, venue, link, abstract), its status,
tags, note and highlights; an empty state when nothing is selected."""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from itertools import accumulate
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, QLocale, QPoint, Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QHBoxLayout,
    QLabel,
    QMenu,
    QSplitter,
    QStackedWidget,
    QTextBrowser,
    QTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from reader.core.models import Annotation, Paper, Status
from reader.core.text import shown_part
from reader.render import abstract_html, title_html
from reader.render.html import MAX_ABSTRACT_CHARS, breakable, escape
from reader.ui import names, plain, resources
from reader.ui.browser import ReadingBrowser
from reader.ui.i18n import fill, number
from reader.ui.note_editor import NoteEditor
from reader.ui.tag_editor import TagEditor
from reader.ui.theme import flat_scroll_bars

if TYPE_CHECKING:
    from reader.ui.highlight_list import HighlightPanel
    from reader.ui.note_conflicts import NoteConflicts

translate = QCoreApplication.translate

READING_MEASURE_PX = 720
#: what the pane shows with no paper selected (translated when shown)
EMPTY_STATE = QT_TRANSLATE_NOOP(
    "ReaderPane",
    """
<div align="center" style="margin-top: 48px">
<p style="font-size: x-large">Select a paper to read its abstract</p>
<p>↑/↓ or <b>j</b>/<b>k</b> move · <b>1</b> <b>2</b> <b>3</b> mark unread / reading / read<br>
<b>t</b> add a tag · <b>n</b> write a note · <b>/</b> or <b>Ctrl+F</b> search ·
<b>Ctrl+Z</b> undo<br>
in the abstract: select text, then <b>1</b>–<b>4</b> highlight · <b>h</b> colours ·
<b>c</b> comment</p>
</div>
""",
)


#: longer abstracts are shown cut (a 10 MB one took 9 s to lay out)
MAX_SHOWN_ABSTRACT = MAX_ABSTRACT_CHARS
MAX_SHOWN_AUTHORS = 200
#: the most of the authors' names laid out, and of one name, of the venue, the
#: presentation (imports may bring megabytes in any field)
MAX_SHOWN_AUTHORS_CHARS = 5_000
MAX_SHOWN_FIELD_CHARS = 300
#: a longer link is not a paper page (and is no link we would follow: see safe_href)
MAX_LINK_CHARS = 4_096
#: the most places a search's words are marked in the pane (a mark costs ~15 µs to
#: lay out, and a one-letter search in a shown part of 50,000 letters found each one)
MAX_MARKS = 1_000
#: the search's words in the abstract: a translucent orange, as browsers find on a
#: page, apart from every highlight colour (the yellow of "claim" above all)
SEARCH_MARK = "#78ff8c1a"


#: rendered papers kept: the neighbours prepared while idle, and j/k back and forth
HTML_CACHE = 64


def paper_html(paper: Paper) -> str:
    """The header and abstract of a paper as a safe HTML fragment, in the language in
    use. Kept per Paper value (an edited or re-imported paper is another value); what
    the user adds (highlights, search marks) is drawn over it, never written into it."""
    return _paper_html(paper, QLocale().name())


@functools.lru_cache(maxsize=HTML_CACHE)
def _paper_html(paper: Paper, _language: str) -> str:
    year = str(paper.year or "")
    if year and year in paper.venue:
        year = ""  # "ICML 2025 · 2025" says it twice
    shown = (paper.venue, year, paper.presentation, paper.primary_area)
    meta = [breakable(escape(_field(x))) for x in shown if x]
    links = (
        (paper.url, translate("ReaderPane", "Paper page ↗")),
        (paper.pdf, translate("ReaderPane", "PDF ↗")),
    )
    for link, label in links:
        if link.lower().startswith(("http://", "https://")) and len(link) <= MAX_LINK_CHARS:
            meta.append(f'<a href="{escape(link, quote=True)}">{escape(label)}</a>')
    unknown = escape(translate("ReaderPane", "Unknown authors"))
    authors = breakable(escape(_authors(paper.authors))) or f"<i>{unknown}</i>"
    text = paper.abstract
    if len(text) > MAX_SHOWN_ABSTRACT:
        # laying out megabytes freezes the window for seconds: show the start only
        shown = shown_part(text, MAX_SHOWN_ABSTRACT)
        more = translate(
            "ReaderPane",
            "… the abstract goes on for %1 more characters (text shortened for display: "
            "%2 characters in total; right-click → Copy Abstract for all of it).",
        )
        more = fill(more, number(len(text) - len(shown)), number(len(text)))
        abstract = abstract_html(shown) + f"<p><i>{escape(more)}</i></p>"
    else:
        none = escape(translate("ReaderPane", "No abstract."))
        abstract = abstract_html(text) if text.strip() else f"<p><i>{none}</i></p>"
    derived = (
        ' <span style="color: gray; font-size: small">'
        + escape(translate("ReaderPane", "(title derived from abstract)"))
        + "</span>"
        if paper.title_derived
        else ""
    )
    words = breakable(escape(_field(", ".join(paper.keywords))))
    said = escape(translate("ReaderPane", "Keywords: %1"))
    keywords = f'<p style="color: gray">{fill(said, words)}</p>' if words else ""
    return (
        f'<h2 style="margin-bottom: 4px">{title_html(paper.title)}{derived}</h2>'
        f'<p style="margin-top: 0">{authors}</p>'
        f'<p style="color: gray">{" · ".join(meta)}</p>'
        f'<div style="line-height: 145%">{abstract}</div>{keywords}'
    )


def _field(text: str) -> str:
    """A field of the header as shown: at most MAX_SHOWN_FIELD_CHARS of it."""
    shown = shown_part(text, MAX_SHOWN_FIELD_CHARS)
    return shown if len(shown) == len(text) else shown.rstrip() + "…"


def _authors(names: Sequence[str]) -> str:
    """The authors as shown: the first MAX_SHOWN_AUTHORS names (each one cut, as
    fields are), as many as fit in MAX_SHOWN_AUTHORS_CHARS, then how many more."""
    shown: list[str] = []
    size = 0
    for full in names[:MAX_SHOWN_AUTHORS]:
        name = _field(full)
        size += len(name) + 2
        if shown and size > MAX_SHOWN_AUTHORS_CHARS:
            break
        shown.append(name)
    out = ", ".join(shown)
    if len(names) > len(shown):
        out = fill(translate("ReaderPane", "%1 and %2 more"), out, number(len(names) - len(shown)))
    return out


class ReaderPane(QStackedWidget):
    """Shows one paper and lets the user set its status, tags and note.

    Signals:
        status_chosen(object): a Status picked with the status buttons.
        tags_added(list), tag_removed(str): from the tag editor.
        paper_shown(str): a paper (its id; "" for none) was shown or re-shown.
        browser_menu_requested(QMenu, int): the abstract's context menu is about to
            open (document position under the mouse): add entries to it.
        note_settled(str, str): paper id, the note text the user chose to settle its
            conflicting versions (see show_note_conflicts).
    The note editor is `note_editor` (its note_committed signal carries saves); the
    highlights are listed by `highlight_panel`; `backlinks` says which notes link here.
    The empty state (`empty`) and the highlight list are made when first needed.
    """

    status_chosen = Signal(object)
    tags_added = Signal(list)
    tag_removed = Signal(str)
    paper_shown = Signal(str)
    browser_menu_requested = Signal(QMenu, int)
    note_settled = Signal(str, str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        #: the query the empty state says nothing matches (None: none chosen yet)
        self._unmatched: str | None = None
        self._empty: QTextBrowser | None = None
        self._highlight_panel: HighlightPanel | None = None
        self._conflicts: NoteConflicts | None = None
        # every widget is made inside the one that holds it: one moved in later is
        # polished again with all its children (the lower half has a style sheet)
        page = QWidget(self)
        self.splitter = QSplitter(Qt.Orientation.Vertical, page)
        self.browser = ReadingBrowser(READING_MEASURE_PX, self.splitter)
        self.browser.setObjectName("abstract")
        self.browser.document().setDocumentMargin(18)
        # a caret and Shift+arrows, so text can be chosen for a highlight without a mouse
        self.browser.setTextInteractionFlags(
            self.browser.textInteractionFlags() | Qt.TextInteractionFlag.TextSelectableByKeyboard
        )
        # but no blinking caret in a text that cannot be edited: what Shift+arrows
        # choose shows as the selection
        self.browser.setCursorWidth(0)
        self.browser.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.browser.customContextMenuRequested.connect(self._browser_menu)
        self._paper: Paper | None = None
        self._search_marks: list[QTextEdit.ExtraSelection] = []
        self._terms: Sequence[str] = ()

        lower = QWidget(self.splitter)
        self.status_buttons = QButtonGroup(page)
        self.status_buttons.setExclusive(True)
        status_row = QHBoxLayout()
        status_row.setSpacing(2)
        for key, status in enumerate(Status, start=1):
            button = QToolButton(lower)
            button.setCheckable(True)
            button.setObjectName(f"status_{status.value}")
            self.status_buttons.addButton(button, key)
            status_row.addWidget(button)
        self.status_buttons.idClicked.connect(
            lambda key: self.status_chosen.emit(list(Status)[key - 1])
        )
        self.tag_editor = TagEditor(lower)
        self.tag_editor.tags_added.connect(self.tags_added)
        self.tag_editor.tag_removed.connect(self.tag_removed)
        status_row.addStretch(1)
        # the tags on a line of their own: its chips wrap across the pane's width
        tags_row = QHBoxLayout()
        self._tags_label = tags_label = QLabel(lower)
        tags_row.addWidget(tags_label, 0, Qt.AlignmentFlag.AlignTop)
        tags_row.addWidget(self.tag_editor, 1)

        self.backlinks = QLabel(lower)
        self.backlinks.setObjectName("backlinks")
        self.backlinks.setTextFormat(Qt.TextFormat.RichText)
        self.backlinks.setOpenExternalLinks(False)
        self.backlinks.setWordWrap(True)
        self.backlinks.hide()
        #: why the paper shown stands where it does in a learnt order (see set_reason)
        self.reason = plain.PlainLabel(parent=lower)
        self.reason.setObjectName("reason")
        self.reason.setWordWrap(True)
        self.reason.hide()
        self.note_editor = NoteEditor(lower)
        self._lower = lower
        lower.setStyleSheet(resources.stylesheet())  # the only one: see the file
        self._lower_layout = QVBoxLayout(lower)
        self._lower_layout.setContentsMargins(8, 4, 8, 8)
        self._lower_layout.addLayout(status_row)
        self._lower_layout.addLayout(tags_row)
        self._lower_layout.addWidget(self.reason)
        self._lower_layout.addWidget(self.note_editor, 1)
        # under the note: a paper mentioned in notes moves no note's first line down
        self._lower_layout.addWidget(self.backlinks)

        self.splitter.addWidget(self.browser)
        self.splitter.addWidget(lower)
        # the abstract is what is read: two thirds of the height, the status, tags and
        # note below (an empty note needs no half of the pane); the window remembers
        # where the user moved the handle
        self.splitter.setStretchFactor(0, 2)
        self.splitter.setStretchFactor(1, 1)
        self.splitter.setSizes([2000, 1000])
        self.splitter.setHandleWidth(8)  # (a line of space between the text and the notes)
        self.splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(page)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.splitter)
        self.addWidget(page)
        self._page = page
        self._paper_id = ""
        self.retranslate()

    def retranslate(self) -> None:
        """The pane's texts in the language in use (again after a switch)."""
        self.setAccessibleName(self.tr("Reader"))
        self.browser.setAccessibleName(self.tr("Abstract"))
        for key, status in enumerate(Status, start=1):
            button = self.status_buttons.button(key)
            button.setText(names.status(status.value))
            button.setToolTip(fill(self.tr("%1 (%2)"), names.mark_status(status.value), str(key)))
            button.setAccessibleName(names.mark_status(status.value))
        self._tags_label.setText(self.tr("Tags:"))
        self.backlinks.setAccessibleName(self.tr("Notes linking here"))
        self.reason.setAccessibleName(self.tr("Why this paper"))
        if self._empty is not None:
            self._empty.setAccessibleName(self.tr("No paper selected"))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
            if self._paper is not None:
                self.browser.set_page(paper_html(self._paper))
                if self._highlight_panel is not None:  # (found again: the header's words moved)
                    rows = self._highlight_panel.model.rows()
                    text = self.browser.toPlainText()
                    self._highlight_panel.set_highlights([r.highlight for r in rows], text)
                self.mark_terms(self._terms)
            elif self._empty is not None and self.currentWidget() is self._empty:
                self.empty.setHtml(self._empty_page())
        super().changeEvent(event)

    @property
    def paper_id(self) -> str:
        return self._paper_id

    @property
    def empty(self) -> QTextBrowser:
        """What the pane shows when no paper is selected."""
        if self._empty is None:
            self._empty = QTextBrowser(self)
            self._empty.setObjectName("emptyState")
            self._empty.setAccessibleName(self.tr("No paper selected"))
            flat_scroll_bars(self._empty)
            self.addWidget(self._empty)
        return self._empty

    @property
    def highlight_panel(self) -> HighlightPanel:
        """The shown paper's highlights, under the note (hidden while there are none)."""
        if self._highlight_panel is None:
            from reader.ui.highlight_list import HighlightPalette, HighlightPanel

            self._highlight_panel = HighlightPanel(HighlightPalette(parent=self), self._lower)
            self._highlight_panel.highlight_chosen.connect(self.show_highlight)
            self._lower_layout.addWidget(self._highlight_panel)
        return self._highlight_panel

    def show_note_conflicts(self, versions: Sequence[Any]) -> None:
        """The shown note's conflicting versions (written on other computers before
        they synced), under the note; none: hidden. Settling one emits note_settled."""
        if not versions and self._conflicts is None:
            return
        if self._conflicts is None:
            from reader.ui.note_conflicts import NoteConflicts

            self._conflicts = NoteConflicts(self._lower)
            self._conflicts.settled.connect(
                lambda text: self.note_settled.emit(self._paper_id, text)
            )
            self._lower_layout.insertWidget(
                self._lower_layout.indexOf(self.note_editor) + 1, self._conflicts
            )
        self._conflicts.show_versions(versions, self.note_editor.text())

    @property
    def note_conflicts(self) -> NoteConflicts | None:
        """The conflicting versions' panel (None until a note had one)."""
        return self._conflicts

    def show_nothing_matches(self, query: str) -> None:
        """The empty state when the search and facets leave no paper."""
        self.note_editor.flush()
        self._paper = None
        self._unmatched = query
        self._show_empty()

    def _empty_page(self) -> str:
        """The empty state: how to start, or that nothing matches the query."""
        if self._unmatched is None:
            return self.tr(EMPTY_STATE)
        shown = breakable(escape(_field(self._unmatched)))  # (a megabyte may be pasted)
        return (
            '<div align="center" style="margin-top: 48px">'
            '<p style="font-size: x-large">'
            + fill(escape(self.tr("No paper matches “%1”")), shown)
            + "</p><p>"
            + escape(self.tr("Clear the search box or the chosen facets to see every paper."))
            + "</p></div>"
        )

    def _show_empty(self) -> None:
        """No paper: the empty state (the note the last paper's, flushed already)."""
        self._paper_id = ""
        self.note_editor.set_paper("", "")
        if self._highlight_panel is not None:
            self._highlight_panel.set_highlights((), "")
        self.empty.setHtml(self._empty_page())
        self.setCurrentWidget(self.empty)
        self.paper_shown.emit("")

    def show_paper(
        self, paper: Paper | None, annotation: Annotation | None, terms: Sequence[str] = ()
    ) -> None:
        """Show `paper` (None: the empty state). Unsaved note text goes to the
        paper it was typed for before anything else changes."""
        self.note_editor.flush()
        before, self._paper = self._paper, paper
        if paper is None or annotation is None:
            self._unmatched = None
            self._show_empty()
            return
        changed = paper.id != self._paper_id
        self._paper_id = paper.id
        if changed or paper != before:  # another paper, or this one re-imported
            self.browser.set_page(paper_html(paper))
        if changed:
            self.note_editor.set_paper(paper.id, annotation.note)
        else:
            self.note_editor.show_saved(annotation.note)
        self.show_annotation(annotation)
        self.mark_terms(terms)
        self.setCurrentWidget(self._page)
        self.paper_shown.emit(paper.id)

    def set_reason(self, text: str) -> None:
        """Say why the paper shown stands where it does ("": nothing to say)."""
        self.reason.setText(text)
        self.reason.setVisible(bool(text))

    def restyle(self) -> None:
        """Read the shown page and note preview again (a new theme): their links took
        the palette's link colour when their HTML was read."""
        if self._paper is not None:
            self.browser.set_page(paper_html(self._paper))
            self.mark_terms(self._terms)
        self.note_editor.render_preview()

    def mark_terms(self, terms: Sequence[str]) -> None:
        """Mark where the search's words occur in the title and abstract."""
        self._terms = terms
        marks = []
        if terms:  # (the text classes load with the first search, not at start-up)
            from PySide6.QtGui import QColor, QTextCharFormat, QTextCursor

            from reader.core.search_text import joined_spans, mark_spans

            doc = self.browser.document()
            fmt = QTextCharFormat()
            fmt.setBackground(QColor(SEARCH_MARK))
            text = doc.toRawText()  # a character a position, as cursors count them (UTF-16)
            position = _utf16_positions(text)
            for start, end in joined_spans(mark_spans(text, terms, MAX_MARKS)):
                mark = QTextEdit.ExtraSelection()
                mark.cursor = QTextCursor(doc)
                mark.cursor.setPosition(position(start))
                mark.cursor.setPosition(position(end), QTextCursor.MoveMode.KeepAnchor)
                mark.format = fmt
                marks.append(mark)
        self._search_marks = marks
        self.refresh_marks()

    def refresh_marks(self) -> None:
        self.browser.setExtraSelections([*self._search_marks, *self.extra_marks()])

    def extra_marks(self) -> list[QTextEdit.ExtraSelection]:
        """The paper's highlights, drawn over the abstract in their colours."""
        if self._highlight_panel is None:
            return []
        from PySide6.QtGui import QTextCharFormat, QTextCursor

        from reader.ui.highlight_list import MARK_ALPHA

        marks = []
        palette = self.highlight_panel.highlight_palette
        doc = self.browser.document()
        for row in self.highlight_panel.model.rows():
            if row.span is None:
                continue
            color = palette.color_of(row.highlight.color)
            color.setAlpha(MARK_ALPHA)
            mark = QTextEdit.ExtraSelection()
            mark.cursor = QTextCursor(doc)
            mark.cursor.setPosition(row.span[0])
            mark.cursor.setPosition(row.span[1], QTextCursor.MoveMode.KeepAnchor)
            mark.format = QTextCharFormat()
            mark.format.setBackground(color)
            marks.append(mark)
        return marks

    def show_highlight(self, highlight_id: str) -> None:
        """Scroll the abstract to a highlight and put the cursor at its start."""
        row = self.highlight_panel.model.row_of(highlight_id)
        span = self.highlight_panel.model.rows()[row].span if row >= 0 else None
        if span is None:
            return
        from PySide6.QtGui import QTextCursor

        cursor = QTextCursor(self.browser.document())
        cursor.setPosition(span[1])
        self.browser.setTextCursor(cursor)
        self.browser.ensureCursorVisible()  # the end first, so the whole quote shows
        cursor.setPosition(span[0])
        self.browser.setTextCursor(cursor)
        self.browser.ensureCursorVisible()

    def _browser_menu(self, pos: QPoint) -> None:
        from PySide6.QtGui import QGuiApplication

        from reader.core.text import plain

        menu = self.browser.createStandardContextMenu(pos)
        paper = self._paper
        if paper is not None:
            menu.addSeparator()
            clipboard = QGuiApplication.clipboard()
            menu.addAction(
                self.tr("Copy Abstract as Text"), lambda: clipboard.setText(plain(paper.abstract))
            )
            menu.addAction(
                self.tr("Copy Abstract as LaTeX Source"), lambda: clipboard.setText(paper.abstract)
            )
            menu.addAction(
                self.tr("Copy Title as LaTeX Source"), lambda: clipboard.setText(paper.title)
            )
            self.browser_menu_requested.emit(menu, self.browser.cursorForPosition(pos).position())
        menu.popup(self.browser.viewport().mapToGlobal(pos))

    def show_annotation(self, annotation: Annotation) -> None:
        self.status_buttons.button(list(Status).index(annotation.status) + 1).setChecked(True)
        self.tag_editor.set_tags(annotation.tags)
        if annotation.highlights or self._highlight_panel is not None:
            text = self.browser.toPlainText() if annotation.highlights else ""
            self.highlight_panel.set_highlights(annotation.highlights, text)


def _utf16_positions(text: str) -> Callable[[int], int]:
    """Index in `text` -> position in Qt's UTF-16 text (characters past U+FFFF, like
    the math letters 𝒳, take two)."""
    if text.isascii() or max(text) <= "\uffff":
        return int
    units = list(accumulate((1 + (c > "\uffff") for c in text), initial=0))
    return units.__getitem__
