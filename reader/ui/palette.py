"""Ctrl+K command palette (fuzzy-matched actions) and the `?` shortcut cheat-sheet."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QDialog,
    QLineEdit,
    QListView,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from reader.ui import plain
from reader.ui.theme import flat_scroll_bars

Index = QModelIndex | QPersistentModelIndex


def fuzzy_score(query: str, text: str) -> int | None:
    """How well `query` matches `text` as a subsequence (higher is better), or None.
    Consecutive letters and word starts score more, as in editors' palettes."""
    query, text = query.casefold().replace(" ", ""), text.casefold()
    if not query:
        return 0
    score, pos, streak = 0, 0, 0
    for char in query:
        found = text.find(char, pos)
        if found < 0:
            return None
        streak = streak + 1 if found == pos else 0
        word_start = found == 0 or not text[found - 1].isalnum()
        score += 1 + 2 * streak + (3 if word_start else 0)
        pos = found + 1
    return score - len(text) // 10


def action_label(action: QAction) -> str:
    return plain.strip_mnemonics(action.text()).rstrip("…")


def shortcut_text(action: QAction) -> str:
    return ", ".join(s.toString(QKeySequence.SequenceFormat.NativeText) for s in action.shortcuts())


class ActionListModel(QAbstractListModel):
    """Actions matching the palette's text, best first."""

    def __init__(self, actions: Sequence[QAction], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._all = [a for a in actions if action_label(a)]
        self._shown: list[QAction] = list(self._all)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802 (Qt override)
        return 0 if parent.isValid() else len(self._shown)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or index.row() >= len(self._shown):
            return None
        action = self._shown[index.row()]
        if role == Qt.ItemDataRole.DisplayRole:
            keys = shortcut_text(action)
            return f"{action_label(action)}    {keys}" if keys else action_label(action)
        if role == Qt.ItemDataRole.ToolTipRole:
            return plain.tooltip(action.toolTip())
        return None

    def action_at(self, row: int) -> QAction:
        return self._shown[row]

    def set_filter(self, text: str) -> None:
        scored = []
        for n, action in enumerate(self._all):
            score = fuzzy_score(text, action_label(action))
            if score is not None and action.isEnabled():
                scored.append((-score, n, action))
        self.beginResetModel()
        self._shown = [a for _, _, a in sorted(scored)]
        self.endResetModel()


class CommandPalette(QDialog):
    """Type a few letters of any action, Enter runs the highlighted one."""

    def __init__(self, actions: Sequence[QAction], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Command palette")
        self.setAccessibleName("Command palette")
        self.resize(520, 380)
        self.entry = QLineEdit(self)
        self.entry.setPlaceholderText("Type a command…")
        self.entry.setAccessibleName("Command")
        self.model = ActionListModel(actions, self)
        self.list = QListView(self)
        self.list.setModel(self.model)
        self.list.setAccessibleName("Matching commands")
        flat_scroll_bars(self.list)
        layout = QVBoxLayout(self)
        layout.addWidget(self.entry)
        layout.addWidget(self.list)
        self.entry.textChanged.connect(self._filter)
        self.entry.returnPressed.connect(self._run_current)
        self.list.activated.connect(lambda index: self._run(index.row()))
        self.entry.installEventFilter(self)
        self._filter("")

    def _filter(self, text: str) -> None:
        self.model.set_filter(text)
        if self.model.rowCount():
            self.list.setCurrentIndex(self.model.index(0))

    def _run_current(self) -> None:
        index = self.list.currentIndex()
        if index.isValid():
            self._run(index.row())

    def _run(self, row: int) -> None:
        action = self.model.action_at(row)
        self.accept()
        action.trigger()

    def eventFilter(self, watched: object, event: object) -> bool:  # noqa: N802 (Qt override)
        from PySide6.QtCore import QEvent
        from PySide6.QtGui import QKeyEvent

        if (
            isinstance(event, QKeyEvent)
            and event.type() == QEvent.Type.KeyPress
            and event.key() in (Qt.Key.Key_Down, Qt.Key.Key_Up)
        ):
            row = self.list.currentIndex().row() + (1 if event.key() == Qt.Key.Key_Down else -1)
            if 0 <= row < self.model.rowCount():
                self.list.setCurrentIndex(self.model.index(row))
            return True
        return super().eventFilter(watched, event)  # type: ignore[arg-type]


class CheatSheet(QDialog):
    """Every action with its shortcut, grouped by menu."""

    def __init__(self, groups: dict[str, Sequence[QAction]], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Keyboard shortcuts")
        self.setAccessibleName("Keyboard shortcuts")
        rows = [
            (group, a) for group, actions in groups.items() for a in actions if shortcut_text(a)
        ]
        self.table = QTableWidget(len(rows), 3, self)
        self.table.setHorizontalHeaderLabels(["Where", "Action", "Keys"])
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        for row, (group, action) in enumerate(rows):
            for col, text in enumerate((group, action_label(action), shortcut_text(action))):
                self.table.setItem(row, col, QTableWidgetItem(text))
        self.table.resizeColumnsToContents()
        self.table.horizontalHeader().setStretchLastSection(True)
        flat_scroll_bars(self.table)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        self.resize(560, 520)
