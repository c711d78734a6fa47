"""Ctrl+K command palette (fuzzy-matched actions) and the `?` shortcut cheat-sheet."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt
from PySide6.QtGui import QAction, QKeySequence, QPainter, QPalette
from PySide6.QtWidgets import (
    QDialog,
    QHeaderView,
    QLineEdit,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from reader.ui import plain
from reader.ui.theme import flat_scroll_bars

Index = QModelIndex | QPersistentModelIndex
_BRACKETED_MNEMONIC = re.compile(r"\(&(\w)\)")


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
    """What an action is called in the palette and the shortcut sheet: its icon text
    where one was set (Undo and Redo keep theirs while their text says what they undo)."""
    text = action.text()
    label = action.iconText() or text
    # a translated text's mnemonic in brackets ("导入(&I)…"): Qt's icon text keeps "(I)"
    bracketed = _BRACKETED_MNEMONIC.search(text)
    if bracketed is not None:
        label = label.replace(f"({bracketed[1]})", "")
    return plain.strip_mnemonics(label).rstrip("…").strip()


def shortcut_text(action: QAction) -> str:
    return ", ".join(s.toString(QKeySequence.SequenceFormat.NativeText) for s in action.shortcuts())


def _one_per_name(actions: Sequence[QAction]) -> list[QAction]:
    """One action per name: "Search" is Ctrl+F anywhere and / in the list, one command
    (the palette runs it; it shows both keys, see KeysRole)."""
    out: dict[str, QAction] = {}
    for action in actions:
        name = action_label(action)
        if name and name not in out:
            out[name] = action
    return list(out.values())


class ActionListModel(QAbstractListModel):
    """Actions matching the palette's text, best first."""

    #: the keys of a row's command (every action of its name), drawn at the right
    KeysRole = Qt.ItemDataRole.UserRole + 1

    def __init__(self, actions: Sequence[QAction], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._keys: dict[str, list[str]] = {}
        for action in actions:
            keys = self._keys.setdefault(action_label(action), [])
            keys += [k for k in shortcut_text(action).split(", ") if k and k not in keys]
        self._all = _one_per_name(actions)
        self._shown: list[QAction] = list(self._all)

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802 (Qt override)
        return 0 if parent.isValid() else len(self._shown)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> object:
        if not index.isValid() or index.row() >= len(self._shown):
            return None
        action = self._shown[index.row()]
        keys = ", ".join(self._keys.get(action_label(action), ()))
        if role == Qt.ItemDataRole.DisplayRole:
            return action_label(action)
        if role == self.KeysRole:
            return keys
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return f"{action_label(action)}, {keys}" if keys else action_label(action)
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
        self.setWindowTitle(self.tr("Command palette"))
        self.setAccessibleName(self.tr("Command palette"))
        self.resize(520, 380)
        self.entry = QLineEdit(self)
        self.entry.setPlaceholderText(self.tr("Type a command…"))
        self.entry.setAccessibleName(self.tr("Command"))
        self.model = ActionListModel(actions, self)
        self.list = QListView(self)
        self.list.setModel(self.model)
        self.list.setItemDelegate(_KeysAtRight(self.list))
        self.list.setAccessibleName(self.tr("Matching commands"))
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


class _KeysAtRight(QStyledItemDelegate):
    """A palette row: the command's name at the left, its keys in a column at the right."""

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        keys = index.data(ActionListModel.KeysRole) or ""
        super().paint(painter, option, index)
        if keys:
            painter.save()
            selected = option.state & QStyle.StateFlag.State_Selected  # type: ignore[operator]
            role = (
                QPalette.ColorRole.HighlightedText
                if selected
                else QPalette.ColorRole.PlaceholderText
            )
            painter.setPen(option.palette.color(role))
            rect = option.rect.adjusted(0, 0, -8, 0)
            flags = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
            painter.drawText(rect, int(flags), keys)
            painter.restore()


class CheatSheet(QDialog):
    """Every key, grouped by menu: the command, its keys and where they act (1 marks a
    paper unread in the list, and highlights chosen text as "claim" in the abstract)."""

    def __init__(
        self,
        groups: dict[str, Sequence[QAction]],
        parent: QWidget | None = None,
        where: Callable[[QAction], str] = lambda _action: "",
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Keyboard shortcuts"))
        self.setAccessibleName(self.tr("Keyboard shortcuts"))
        self.tree = QTreeWidget(self)
        self.tree.setColumnCount(3)
        self.tree.setHeaderLabels([self.tr("Command"), self.tr("Keys"), self.tr("Where")])
        self.tree.setRootIsDecorated(False)
        self.tree.setUniformRowHeights(True)
        self.tree.setSelectionMode(QTreeWidget.SelectionMode.NoSelection)
        self.tree.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        for group, actions in groups.items():
            listed = [a for a in actions if shortcut_text(a)]
            if not listed:
                continue
            heading = QTreeWidgetItem(self.tree, [group])
            font = heading.font(0)
            font.setBold(True)
            heading.setFont(0, font)
            heading.setFirstColumnSpanned(True)
            for action in listed:
                QTreeWidgetItem(
                    heading, [action_label(action), shortcut_text(action), where(action)]
                )
            heading.setExpanded(True)
        # sized to what they hold whenever shown (at the first show its fonts are final:
        # sized here, a Chinese command ran into the keys' column)
        header = self.tree.header()
        for column in (0, 1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        flat_scroll_bars(self.tree)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tree)
        self.resize(640, 560)

    def rows(self) -> list[tuple[str, str, str, str]]:
        """(group, command, keys, where) of every row, in order."""
        out = []
        for g in range(self.tree.topLevelItemCount()):
            heading = self.tree.topLevelItem(g)
            for r in range(heading.childCount()):
                row = heading.child(r)
                out.append((heading.text(0), row.text(0), row.text(1), row.text(2)))
        return out
