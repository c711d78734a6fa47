"""The sidebar list: PaperListModel over the library's ids, its delegate and view."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any, NamedTuple, Sequence

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, QPoint, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette, QStaticText, QTransform
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTableView,
    QWidget,
)

from reader.core.library import Library
from reader.core.models import Status
from reader.core.text import plain

STATUS_MARK = {Status.UNREAD: "●", Status.READING: "◐", Status.READ: "✓"}
STATUS_COLOUR = {Status.UNREAD: "#2f7de1", Status.READING: "#d9822b", Status.READ: "#6a737d"}
ROW_HEIGHT_LINES = 3

Index = QModelIndex | QPersistentModelIndex


@functools.lru_cache(maxsize=20_000)
def _plain_title(title: str) -> str:
    return plain(title)


def short_authors(authors: Sequence[str], limit: int = 3) -> str:
    if len(authors) <= limit:
        return ", ".join(authors)
    return ", ".join(authors[:limit]) + " et al."


class PaperListModel(QAbstractListModel):
    """The papers shown in the sidebar, in display order. Holds only ids; the
    text of a row is fetched from the library when Qt asks for it."""

    IdRole = Qt.ItemDataRole.UserRole
    StatusRole = Qt.ItemDataRole.UserRole + 1
    TagsRole = Qt.ItemDataRole.UserRole + 2
    AuthorsRole = Qt.ItemDataRole.UserRole + 3

    def __init__(self, library: Library, parent: Any = None) -> None:
        super().__init__(parent)
        self._library = library
        self._ids: list[str] = []
        #: id -> row, built only when needed: a 100k dict costs more than the search
        self._rows: dict[str, int] | None = None
        self._scans = 0
        #: the search's words, marked in the titles the delegate paints
        self.highlight_terms: tuple[str, ...] = ()
        #: tag -> "#rrggbb" for the chips
        self.tag_colours: dict[str, str] = {}

    # -- Qt interface -----------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._ids)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self._ids):
            return None
        pid = self._ids[index.row()]
        lib = self._library
        if role == Qt.ItemDataRole.DisplayRole:
            return _plain_title(lib.paper(pid).title)
        if role == self.IdRole:
            return pid
        if role == self.StatusRole:
            return lib.status(pid).value
        if role == self.TagsRole:
            return list(lib.tags(pid))
        if role == self.AuthorsRole:
            return short_authors(lib.paper(pid).authors)
        if role == Qt.ItemDataRole.ToolTipRole:
            paper = lib.paper(pid)
            return f"{_plain_title(paper.title)}\n{', '.join(paper.authors)}"
        if role == Qt.ItemDataRole.AccessibleTextRole:
            paper = lib.paper(pid)
            return f"{_plain_title(paper.title)}, {lib.status(pid).value}"
        return None

    # -- our interface ----------------------------------------------------

    def set_ids(self, ids: Sequence[str]) -> None:
        """Show exactly these papers, in this order."""
        self.beginResetModel()
        self._ids = list(ids)
        self._rows, self._scans = None, 0
        self.endResetModel()

    def ids(self) -> list[str]:
        return list(self._ids)

    def row_of(self, paper_id: str) -> int:
        if self._rows is None and self._scans < 8:  # a few look-ups: a C-speed scan
            self._scans += 1
            try:
                return self._ids.index(paper_id)
            except ValueError:
                return -1
        return self._row_map().get(paper_id, -1)

    def _row_map(self) -> dict[str, int]:
        if self._rows is None:
            self._rows = dict(zip(self._ids, range(len(self._ids))))
        return self._rows

    def id_at(self, row: int) -> str:
        return self._ids[row]

    def row(self, row: int) -> tuple[str, str, Status, list[str]]:
        """What the delegate paints of a row: title, short authors, status, tags."""
        pid = self._ids[row]
        lib = self._library
        paper = lib.paper(pid)
        return _plain_title(paper.title), short_authors(paper.authors), lib.status(pid), list(lib.tags(pid))

    def refresh_papers(self, paper_ids: Sequence[str] | frozenset[str]) -> None:
        """Repaint the rows of these papers (their annotation changed)."""
        row_map = self._row_map()
        rows = [row_map[pid] for pid in paper_ids if pid in row_map]
        if rows:
            self.dataChanged.emit(self.index(min(rows)), self.index(max(rows)))


class _RowText(NamedTuple):
    """A row's text laid out once: painting it again only draws glyphs."""

    title: QStaticText
    authors: QStaticText
    #: (x, width) of each search match in the title
    marks: tuple[tuple[int, int], ...]


#: laid-out rows kept (a screenful is ~20; typing brings the same papers back)
ROW_CACHE = 2_000


class PaperDelegate(QStyledItemDelegate):
    """Paints a row: status mark, title, first authors, tag chips. Text is laid out
    once per paper, width and font (QStaticText): at 100k papers a keystroke
    repaints a screenful of rows and shaping their text was most of its cost."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._rows: dict[tuple[Any, ...], _RowText] = {}

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        model = index.model()
        if isinstance(model, PaperListModel):
            title, authors, status, tags = model.row(index.row())
        else:
            title, authors = index.data() or "", index.data(PaperListModel.AuthorsRole) or ""
            status = Status(index.data(PaperListModel.StatusRole) or "unread")
            tags = index.data(PaperListModel.TagsRole) or []
        widget = option.widget
        style = widget.style() if widget else None
        painter.save()
        option.text = ""
        if style is not None:  # background, selection, focus
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, option, painter, widget)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        palette: QPalette = option.palette
        fg = palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
        rect = option.rect.adjusted(8, 4, -8, -4)
        metrics = QFontMetrics(option.font)
        line = metrics.lineSpacing()
        mark_w = metrics.horizontalAdvance("●") + 8
        painter.setPen(QColor(STATUS_COLOUR[status]) if not selected else fg)
        painter.drawText(QRect(rect.left(), rect.top(), mark_w, line), Qt.AlignmentFlag.AlignLeft,
                         STATUS_MARK[status])

        text_left = rect.left() + mark_w
        width = rect.right() - text_left
        title_font = QFont(option.font)
        title_font.setWeight(QFont.Weight.DemiBold if status is Status.UNREAD else QFont.Weight.Normal)
        terms = getattr(model, "highlight_terms", ())
        laid = self._laid_out(title, authors, width, title_font, option.font, terms)
        if laid.marks:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(QColor(255, 214, 10, 150))
            for x, w in laid.marks:
                painter.drawRect(QRect(text_left + x, rect.top(), w, line))
        painter.setFont(title_font)
        painter.setPen(fg)
        painter.drawStaticText(QPoint(text_left, rect.top()), laid.title)
        painter.setFont(option.font)
        dim = QColor(fg)
        dim.setAlpha(170)
        painter.setPen(dim)
        painter.drawStaticText(QPoint(text_left, rect.top() + line), laid.authors)
        self._paint_tags(painter, option, tags, QRect(text_left, rect.top() + 2 * line, width, line),
                         selected, getattr(model, "tag_colours", {}))
        painter.restore()

    def _laid_out(self, title: str, authors: str, width: int, title_font: QFont, font: QFont,
                  terms: Sequence[str]) -> _RowText:
        key = (title, authors, width, title_font.key(), font.key(), terms)
        laid = self._rows.get(key)
        if laid is None:
            if len(self._rows) >= ROW_CACHE:
                self._rows.clear()
            title_metrics = QFontMetrics(title_font)
            shown = title_metrics.elidedText(title, Qt.TextElideMode.ElideRight, width)
            laid = self._rows[key] = _RowText(
                _static(shown, title_font),
                _static(QFontMetrics(font).elidedText(authors, Qt.TextElideMode.ElideRight, width), font),
                tuple(_matches(shown, terms, title_metrics)),
            )
        return laid

    @staticmethod
    def _paint_tags(painter: QPainter, option: QStyleOptionViewItem, tags: list[str], rect: QRect,
                    selected: bool, colours: dict[str, str]) -> None:
        if not tags:
            return
        font = QFont(option.font)
        font.setPointSizeF(max(6.0, font.pointSizeF() * 0.85))
        painter.setFont(font)
        metrics = QFontMetrics(font)
        x = rect.left()
        chip_bg = option.palette.color(QPalette.ColorRole.Highlight)
        chip_bg.setAlpha(60 if not selected else 120)
        for tag in tags:
            w = metrics.horizontalAdvance(tag) + 10
            if x + w > rect.right():
                painter.drawText(QRect(x, rect.top(), rect.right() - x, rect.height()),
                                 Qt.AlignmentFlag.AlignVCenter, "…")
                break
            chip = QRect(x, rect.top() + 1, w, rect.height() - 2)
            painter.setPen(Qt.PenStyle.NoPen)
            if tag in colours:
                colour = QColor(colours[tag])
                colour.setAlpha(110 if not selected else 170)
                painter.setBrush(colour)
            else:
                painter.setBrush(chip_bg)
            painter.drawRoundedRect(chip, 4, 4)
            painter.setPen(option.palette.color(
                QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text))
            painter.drawText(chip, Qt.AlignmentFlag.AlignCenter, tag)
            x += w + 4

    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        return QSize(200, row_height(option.font))


def _static(text: str, font: QFont) -> QStaticText:
    laid = QStaticText(text)
    laid.setTextFormat(Qt.TextFormat.PlainText)
    laid.prepare(QTransform(), font)
    return laid


def _matches(text: str, terms: Sequence[str], metrics: QFontMetrics) -> Iterator[tuple[int, int]]:
    """(x, width) of each place a search word occurs in `text` (case-insensitive)."""
    lowered = text.casefold()
    for term in terms:
        needle = term.casefold()
        start = lowered.find(needle) if needle else -1
        while start >= 0:
            x = metrics.horizontalAdvance(text[:start])
            yield x, metrics.horizontalAdvance(text[start:start + len(needle)])
            start = lowered.find(needle, start + len(needle))


def row_height(font: QFont) -> int:
    return QFontMetrics(font).lineSpacing() * ROW_HEIGHT_LINES + 10


class PaperListView(QTableView):
    """A one-column table with fixed row heights: it stays fast at 100k rows,
    where QListView asks every row its size."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setItemDelegate(PaperDelegate(self))
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setShowGrid(False)
        self.setWordWrap(False)
        self.setAlternatingRowColors(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.setTabKeyNavigation(False)
        self.horizontalHeader().hide()
        self.horizontalHeader().setStretchLastSection(True)
        vertical = self.verticalHeader()
        vertical.hide()
        vertical.setSectionResizeMode(QHeaderView.ResizeMode.Fixed)
        vertical.setDefaultSectionSize(row_height(self.font()))
        self.setAccessibleName("Papers")
