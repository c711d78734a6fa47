"""The sidebar list: PaperListModel over the library's ids, its delegate and view."""

from __future__ import annotations

import functools
from typing import Any, Sequence

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, QRect, QSize, Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPalette
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

    def refresh_papers(self, paper_ids: Sequence[str] | frozenset[str]) -> None:
        """Repaint the rows of these papers (their annotation changed)."""
        row_map = self._row_map()
        rows = [row_map[pid] for pid in paper_ids if pid in row_map]
        if rows:
            self.dataChanged.emit(self.index(min(rows)), self.index(max(rows)))


class PaperDelegate(QStyledItemDelegate):
    """Paints a row: status mark, title, first authors, tag chips."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        self.initStyleOption(option, index)
        style = option.widget.style() if option.widget else None
        painter.save()
        option.text = ""
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, option, painter, option.widget)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        palette: QPalette = option.palette
        fg = palette.color(QPalette.ColorRole.HighlightedText if selected else QPalette.ColorRole.Text)
        dim = QColor(fg)
        dim.setAlpha(170)
        rect = option.rect.adjusted(8, 4, -8, -4)
        metrics = QFontMetrics(option.font)
        line = metrics.lineSpacing()

        status = Status(index.data(PaperListModel.StatusRole))
        mark_w = metrics.horizontalAdvance("●") + 8
        painter.setPen(QColor(STATUS_COLOUR[status]) if not selected else fg)
        painter.drawText(QRect(rect.left(), rect.top(), mark_w, line), Qt.AlignmentFlag.AlignLeft,
                         STATUS_MARK[status])

        text_left = rect.left() + mark_w
        width = rect.right() - text_left
        title_font = QFont(option.font)
        title_font.setWeight(QFont.Weight.DemiBold if status is Status.UNREAD else QFont.Weight.Normal)
        painter.setFont(title_font)
        painter.setPen(fg)
        title_metrics = QFontMetrics(title_font)
        title = title_metrics.elidedText(index.data(), Qt.TextElideMode.ElideRight, width)
        model = index.model()
        terms = getattr(model, "highlight_terms", ())
        if terms:
            self._paint_matches(painter, title, terms, title_metrics,
                                QRect(text_left, rect.top(), width, line))
        painter.setPen(fg)
        painter.drawText(QRect(text_left, rect.top(), width, line), Qt.AlignmentFlag.AlignLeft, title)

        painter.setFont(option.font)
        painter.setPen(dim)
        authors = metrics.elidedText(index.data(PaperListModel.AuthorsRole), Qt.TextElideMode.ElideRight,
                                     width)
        painter.drawText(QRect(text_left, rect.top() + line, width, line), Qt.AlignmentFlag.AlignLeft,
                         authors)
        self._paint_tags(painter, option, index.data(PaperListModel.TagsRole),
                         QRect(text_left, rect.top() + 2 * line, width, line), selected,
                         getattr(model, "tag_colours", {}))
        painter.restore()

    @staticmethod
    def _paint_matches(painter: QPainter, text: str, terms: Sequence[str], metrics: QFontMetrics,
                       rect: QRect) -> None:
        """Mark where the search's words occur in `text` (case-insensitive)."""
        lowered = text.casefold()
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QColor(255, 214, 10, 150))
        for term in terms:
            needle = term.casefold()
            start = lowered.find(needle) if needle else -1
            while start >= 0:
                x = rect.left() + metrics.horizontalAdvance(text[:start])
                w = metrics.horizontalAdvance(text[start:start + len(needle)])
                painter.drawRect(QRect(x, rect.top(), w, rect.height()))
                start = lowered.find(needle, start + len(needle))

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
