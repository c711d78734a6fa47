"""The sidebar list: PaperListModel over the library's ids, and its view (the
delegate that paints a row is in paper_delegate.py)."""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QDate,
    QEvent,
    QItemSelectionModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
)
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFrame,
    QHeaderView,
    QMenu,
    QStyledItemDelegate,
    QTableView,
    QWidget,
)

from reader.core.library import Library
from reader.core.models import Status
from reader.core.tex import TEXISH_FIRST, maybe_tex
from reader.core.text import plain
from reader.ui import i18n, names
from reader.ui import plain as shown_plain
from reader.ui.paper_delegate import PaperDelegate, row_height, row_text

Index = QModelIndex | QPersistentModelIndex
#: how a view's type-ahead asks the model (QAbstractItemView.keyboardSearchFlags)
_TYPE_AHEAD = Qt.MatchFlag.MatchStartsWith | Qt.MatchFlag.MatchWrap


@functools.lru_cache(maxsize=20_000)
def _plain_title(title: str) -> str:
    return plain(title)


def shown_title(title: str) -> str:
    """A title as the list shows it (TeX rendered), cached only where TeX is: its
    start only when it is long (see row_text; a megabyte took 17 ms to look at)."""
    title = row_text(title)
    return _plain_title(title) if maybe_tex(title) else title


def short_authors(authors: Sequence[str], limit: int = 3) -> str:
    if len(authors) <= limit:
        return ", ".join(authors)
    return ", ".join(authors[:limit]) + " et al."


#: the table view's columns: (heading, the sort key a click on it chooses, or "")
COLUMNS: tuple[tuple[str, str], ...] = (
    ("Title", "title"),
    ("First author", "author"),
    ("Venue", "venue"),
    ("Year", "year"),
    ("Status", "status"),
    ("Tags", ""),
    ("Added", "added"),
)


class PaperListModel(QAbstractTableModel):
    """The papers shown in the sidebar, in display order. Holds only ids; the
    text of a row is fetched from the library when Qt asks for it. One column (the
    list: the delegate paints title, authors, status and tags) or, as a table,
    COLUMNS."""

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
        #: a paper's score in the order shown, written before its authors (the list
        #: sorted by predicted interest or likeness); None: no score shown
        self.score_of: Callable[[str], float] | None = None
        #: shown as a table (COLUMNS), else as the list (one column)
        self.table = False

    # -- Qt interface -----------------------------------------------------

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802 (Qt override)
        return 0 if parent.isValid() else len(self._ids)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802 (Qt override)
        return 0 if parent.isValid() else (len(COLUMNS) if self.table else 1)

    def index(  # (Qt override: column 0 unless said, as a list model's)
        self,
        row: int,
        column: int = 0,
        parent: Index = QModelIndex(),  # noqa: B008
    ) -> QModelIndex:
        return super().index(row, column, parent)

    def headerData(  # noqa: N802 (Qt override)
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if (
            role == Qt.ItemDataRole.DisplayRole
            and orientation == Qt.Orientation.Horizontal
            and 0 <= section < len(COLUMNS)
        ):
            return names.column(COLUMNS[section][0])
        return None

    def set_table(self, on: bool) -> None:
        """Show the papers as a table of COLUMNS (on) or as the list."""
        if on != self.table:
            self.beginResetModel()
            self.table = on
            self.endResetModel()

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self._ids):
            return None
        pid = self._ids[index.row()]
        lib = self._library
        if role == Qt.ItemDataRole.DisplayRole:
            if index.column():
                return self._cell(pid, index.column())
            return shown_title(lib.paper(pid).title)
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
            return shown_plain.tooltip(f"{shown_title(paper.title)}\n{', '.join(paper.authors)}")
        if role == Qt.ItemDataRole.AccessibleTextRole:
            paper = lib.paper(pid)
            return f"{shown_title(paper.title)}, {names.status(lib.status(pid).value)}"
        return None

    def _cell(self, pid: str, column: int) -> str:
        """The text of a table's cell (column 0, the title, is the list's)."""
        lib = self._library
        paper = lib.paper(pid)
        if column == 1:
            return shown_plain.one_line(paper.authors[0]) if paper.authors else ""
        if column == 2:
            return shown_plain.one_line(paper.venue)
        if column == 3:
            return str(paper.year or "")
        if column == 4:
            return names.status(lib.status(pid).value)
        if column == 5:
            return shown_plain.one_line(", ".join(lib.tags(pid)))
        added = QDate.fromString(paper.added[:10], Qt.DateFormat.ISODate)
        return i18n.day(added) if added.isValid() else paper.added[:10]  # (the locale's form)

    # -- our interface ----------------------------------------------------

    def set_ids(self, ids: Sequence[str]) -> None:
        """Show exactly these papers, in this order. A list is kept as it is, not
        copied (0.3 ms at 100k papers, a keystroke's): it must not change afterwards."""
        self.beginResetModel()
        self._ids = ids if isinstance(ids, list) else list(ids)
        self._rows, self._scans = None, 0
        self.endResetModel()

    def ids(self) -> list[str]:
        return list(self._ids)

    def ids_in(self, start: int, stop: int) -> list[str]:
        """The ids of rows start to stop - 1 (without copying the other rows')."""
        return self._ids[start:stop]

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
            self._rows = dict(zip(self._ids, range(len(self._ids)), strict=True))
        return self._rows

    def id_at(self, row: int) -> str:
        return self._ids[row]

    def match(
        self,
        start: Index,
        role: int,
        value: Any,
        hits: int = 1,  # noqa: D102
        flags: Qt.MatchFlag = _TYPE_AHEAD,
    ) -> list[QModelIndex]:
        # (Qt override) the view's type-ahead (keyboardSearch) asks this: through find_title
        if (role, hits, flags, type(value)) != (Qt.ItemDataRole.DisplayRole, 1, _TYPE_AHEAD, str):
            return super().match(start, role, value, hits, flags)
        if len(set(value)) == 1:  # "ss": the same key again goes on to the next "s" (the
            value = value[0]  # view starts past the current row then)
        row = self.find_title(value, start.row())
        return [self.index(row)] if row >= 0 else []

    def find_title(self, prefix: str, start: int) -> int:
        """The first row from `start` on (then from the top) whose title as shown
        starts with `prefix`, case-insensitive; -1 if none. One Python pass: Qt's own
        match() asks data() row by row, ~0.7 s a key at 100k papers when none does."""
        key, ids, paper = prefix.casefold(), self._ids, self._library.paper
        first = key[:1]
        start = min(max(start, 0), len(ids))
        for row in itertools.chain(range(start, len(ids)), range(start)):
            title = paper(ids[row]).title
            head = title[:1]
            if head.casefold()[:1] != first and head not in TEXISH_FIRST:  # most rows: ~0.4 us
                continue
            if shown_title(title)[: len(key) * 2].casefold().startswith(key):
                return row
        return -1

    def row(self, row: int) -> tuple[str, str, Status, tuple[str, ...]]:
        """What the delegate paints of a row: title, short authors, status, tags."""
        pid = self._ids[row]
        lib = self._library
        paper = lib.paper(pid)
        authors = short_authors(paper.authors)
        if self.score_of is not None and (score := self.score_of(pid)) != float("-inf"):
            authors = f"{score:.1f} · {authors}"
        return (shown_title(paper.title), authors, lib.status(pid), lib.tags(pid))

    def refresh_papers(self, paper_ids: Sequence[str] | frozenset[str]) -> None:
        """Repaint the rows of these papers (their annotation changed)."""
        row_map = self._row_map()
        rows = [row_map[pid] for pid in paper_ids if pid in row_map]
        if rows:
            last = self.columnCount() - 1
            self.dataChanged.emit(self.index(min(rows)), self.index(max(rows), last))


class PaperListView(QTableView):
    """A one-column table with fixed row heights: it stays fast at 100k rows,
    where QListView asks every row its size."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._rows_delegate = PaperDelegate(self)
        self._cells_delegate: QStyledItemDelegate | None = None  # (the table's: made then)
        self.setItemDelegate(self._rows_delegate)
        self.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setShowGrid(False)
        self.setFrameShape(QFrame.Shape.NoFrame)
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
        self.setAccessibleName(self.tr("Papers"))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        """Another language: the headings and the status column in it."""
        if event.type() == QEvent.Type.LanguageChange:
            self.setAccessibleName(self.tr("Papers"))
            model = self.model()
            if isinstance(model, PaperListModel) and model.columnCount():
                last = model.columnCount() - 1
                model.headerDataChanged.emit(Qt.Orientation.Horizontal, 0, last)
                self.viewport().update()
        super().changeEvent(event)

    def set_table(self, on: bool) -> None:
        """Show the papers as a table, a line each with sortable, resizable columns
        that the header's menu shows or hides (on), or as the list."""
        model = self.model()
        if isinstance(model, PaperListModel):
            model.set_table(on)
        header = self.horizontalHeader()
        header.setVisible(on)
        header.setStretchLastSection(not on)
        if on:
            if self._cells_delegate is None:
                self._cells_delegate = QStyledItemDelegate(self)
            self.setItemDelegate(self._cells_delegate)
            header.setSectionsClickable(True)
            header.setSectionsMovable(True)
            header.setSortIndicatorShown(True)
            header.setSectionResizeMode(QHeaderView.ResizeMode.Interactive)
            header.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
            if header.sectionSize(0) < 200:  # (the first time: widths for what they hold)
                chars = self.fontMetrics().averageCharWidth()
                for column, width in enumerate((44, 16, 12, 6, 9, 16, 11)):
                    header.resizeSection(column, width * chars + 12)
            height = self.fontMetrics().height() + 8
            self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAsNeeded)
        else:
            self.setItemDelegate(self._rows_delegate)
            height = row_height(self.font(), self._rows_delegate.title_lines)
            self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.verticalHeader().setDefaultSectionSize(height)

    def title_lines(self) -> int:
        return self._rows_delegate.title_lines

    def set_title_lines(self, lines: int) -> None:
        """Titles on one line (elided) or on two, in the list (not the table)."""
        self._rows_delegate.title_lines = lines
        if not self.horizontalHeader().isVisible():
            self.verticalHeader().setDefaultSectionSize(row_height(self.font(), lines))
        self.viewport().update()

    def column_menu(self) -> QMenu:
        """The header's menu: a column shown or hidden (the title always shown)."""
        menu = QMenu(self)
        header = self.horizontalHeader()
        for column, (heading, _key) in enumerate(COLUMNS):
            if column == 0:
                continue
            action = menu.addAction(names.column(heading))
            action.setCheckable(True)
            action.setChecked(not header.isSectionHidden(column))
            action.toggled.connect(lambda on, c=column: header.setSectionHidden(c, not on))
        return menu

    def moveCursor(  # noqa: N802 (Qt override)
        self, action: QAbstractItemView.CursorAction, modifiers: Qt.KeyboardModifier
    ) -> QModelIndex:
        # Home and End go to the first and last paper (a one-column table's own Home
        # and End go to the first and last column of the row: nowhere)
        model = self.model()
        ends = (QAbstractItemView.CursorAction.MoveHome, QAbstractItemView.CursorAction.MoveEnd)
        if action in ends and model is not None and model.rowCount():
            last = action == QAbstractItemView.CursorAction.MoveEnd
            return model.index(model.rowCount() - 1 if last else 0, 0)
        return super().moveCursor(action, modifiers)

    def selectionCommand(  # noqa: N802 (Qt override)
        self, index: Index, event: QEvent | None = None
    ) -> QItemSelectionModel.SelectionFlag:
        # Ctrl with a key that moves (Ctrl+End, Ctrl+Down) selects where it goes, as the
        # plain key does: the reader shows the paper moved to, and the keys must act on
        # what it shows (Qt's own moves the current row and leaves the selection behind)
        if (
            isinstance(event, QKeyEvent)
            and event.key() in _MOVING_KEYS
            and event.modifiers() & Qt.KeyboardModifier.ControlModifier
            and not event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        ):
            return (
                QItemSelectionModel.SelectionFlag.ClearAndSelect
                | QItemSelectionModel.SelectionFlag.Rows
            )
        return super().selectionCommand(index, event)


_MOVING_KEYS = frozenset(
    {
        Qt.Key.Key_Up,
        Qt.Key.Key_Down,
        Qt.Key.Key_Home,
        Qt.Key.Key_End,
        Qt.Key.Key_PageUp,
        Qt.Key.Key_PageDown,
    }
)
