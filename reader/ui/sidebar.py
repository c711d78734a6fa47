"""The sidebar: search box, status and tag filters, the paper list and its counts."""

from __future__ import annotations

from PySide6.QtCore import QTimer, Signal
from PySide6.QtWidgets import QAbstractItemView, QComboBox, QHBoxLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

from reader.core.index import SearchIndex
from reader.core.library import Library
from reader.core.models import Status
from reader.core.query import parse
from reader.ui.paper_list import PaperListModel, PaperListView

ALL = ""


class Sidebar(QWidget):
    """Narrows the list by a query, a status and a tag, and counts what it shows.

    Signals:
        filtered(): the list was refilled (the selection may have changed).
    """

    filtered = Signal()

    def __init__(self, library: Library, index: SearchIndex, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._library = library
        self._index = index
        self.search = QLineEdit(self)
        self.search.setPlaceholderText("Search  (tag:x  status:unread  author:…  year:>=2024)")
        self.search.setClearButtonEnabled(True)
        self.search.setAccessibleName("Search papers")
        self.status_filter = QComboBox(self)
        self.status_filter.setAccessibleName("Filter by status")
        self.status_filter.addItem("All statuses", ALL)
        for status in Status:
            self.status_filter.addItem(status.value.capitalize(), status.value)
        self.tag_filter = QComboBox(self)
        self.tag_filter.setAccessibleName("Filter by tag")
        self.tag_filter.setMinimumContentsLength(10)
        self.model = PaperListModel(library, self)
        self.view = PaperListView(self)
        self.view.setModel(self.model)
        self.count_label = QLabel(self)
        self.count_label.setObjectName("countLabel")
        self.count_label.setAccessibleName("Paper count")
        self.hint = QLabel(self)
        self.hint.setObjectName("queryHint")
        self.hint.setWordWrap(True)
        self.hint.hide()

        filters = QHBoxLayout()
        filters.addWidget(self.status_filter)
        filters.addWidget(self.tag_filter, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 0, 6)
        layout.addWidget(self.search)
        layout.addWidget(self.hint)
        layout.addLayout(filters)
        layout.addWidget(self.view, 1)
        layout.addWidget(self.count_label)

        self._typing = QTimer(self, singleShot=True, interval=0)
        self._typing.timeout.connect(self.apply_filters)
        self.search.textChanged.connect(lambda _text: self._typing.start())
        self.status_filter.currentIndexChanged.connect(lambda _i: self.apply_filters())
        self.tag_filter.currentIndexChanged.connect(lambda _i: self.apply_filters())
        self.refresh_tags()
        self.apply_filters()

    def query_text(self) -> str:
        parts = [self.search.text().strip()]
        status = self.status_filter.currentData()
        if status:
            parts.append(f"status:{status}")
        tag = self.tag_filter.currentData()
        if tag:
            parts.append(f'tag:"{tag}"')
        return " ".join(p for p in parts if p)

    def apply_filters(self) -> None:
        """Refill the list from the current filters, keeping the selected papers."""
        selected = self.selected_ids()
        current = self.current_id()
        query = parse(self.query_text())
        self.hint.setText(query.warning)
        self.hint.setVisible(bool(query.warning))
        ids = self._index.filter(query, self._library.paper_ids())
        self.model.set_ids(ids)
        self.select_ids(selected, current)
        self.update_counts()
        self.filtered.emit()

    def update_counts(self) -> None:
        ids = self.model.ids()
        read = sum(1 for pid in ids if self._library.status(pid) is Status.READ)
        total = len(self._library)
        shown = f"{len(ids):,} papers" if len(ids) == total else f"{len(ids):,} of {total:,} papers"
        self.count_label.setText(f"{shown} · {read:,} read")

    def refresh_tags(self) -> None:
        """Refill the tag filter from the tags in use, keeping the choice."""
        chosen = self.tag_filter.currentData()
        counts = self._library.tag_counts()
        self.tag_filter.blockSignals(True)
        self.tag_filter.clear()
        self.tag_filter.addItem("All tags", ALL)
        for tag in sorted(counts, key=str.casefold):
            self.tag_filter.addItem(f"{tag} ({counts[tag]})", tag)
        pos = self.tag_filter.findData(chosen) if chosen else 0
        self.tag_filter.setCurrentIndex(max(pos, 0))
        self.tag_filter.blockSignals(False)
        if chosen and pos < 0:
            self.apply_filters()

    # -- selection --------------------------------------------------------

    def current_id(self) -> str:
        index = self.view.currentIndex()
        return self.model.id_at(index.row()) if index.isValid() else ""

    def selected_ids(self) -> list[str]:
        rows = sorted(i.row() for i in self.view.selectionModel().selectedRows())
        return [self.model.id_at(r) for r in rows]

    def select_ids(self, ids: list[str], current: str = "") -> None:
        from PySide6.QtCore import QItemSelection, QItemSelectionModel

        selection = QItemSelection()
        for pid in ids:
            row = self.model.row_of(pid)
            if row >= 0:
                index = self.model.index(row)
                selection.select(index, index)
        sm = self.view.selectionModel()
        flags = QItemSelectionModel.SelectionFlag.ClearAndSelect | QItemSelectionModel.SelectionFlag.Rows
        row = self.model.row_of(current) if current else -1
        if row >= 0:
            sm.setCurrentIndex(self.model.index(row), QItemSelectionModel.SelectionFlag.NoUpdate)
        sm.select(selection, flags)
        if row >= 0:
            self.view.scrollTo(self.model.index(row))

    def select_paper(self, paper_id: str) -> bool:
        row = self.model.row_of(paper_id)
        if row < 0:
            return False
        self.view.setCurrentIndex(self.model.index(row))
        self.view.scrollTo(self.model.index(row), QAbstractItemView.ScrollHint.PositionAtCenter)
        return True

    def move(self, step: int) -> None:
        """Select the next (step 1) or previous (-1) paper."""
        count = self.model.rowCount()
        if not count:
            return
        row = self.view.currentIndex().row()
        row = 0 if row < 0 else max(0, min(count - 1, row + step))
        self.view.setCurrentIndex(self.model.index(row))
