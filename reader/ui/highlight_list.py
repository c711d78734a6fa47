"""The highlight colour palette and the list of a paper's highlights under its note."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QAbstractListModel,
    QCoreApplication,
    QEvent,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSignalBlocker,
    Qt,
    Signal,
)
from PySide6.QtGui import QColor, QKeyEvent
from PySide6.QtWidgets import QLabel, QListView, QVBoxLayout, QWidget

from reader.core.anchor import locate
from reader.core.models import Highlight
from reader.ui import plain
from reader.ui.i18n import fill

#: the most of a highlight's comment its row shows (the whole is kept)
MAX_SHOWN_COMMENT = 500

#: colour keys as stored in Highlight.color, with how they are drawn
COLOURS: tuple[tuple[str, str], ...] = (
    ("yellow", "#f5c211"),
    ("blue", "#4fa3f7"),
    ("green", "#3fbf5f"),
    ("pink", "#f0609e"),
)
DEFAULT_NAMES: tuple[str, ...] = ("claim", "method", "result", "question")
#: the default names as the window shows them (translated; the library keeps them as above)
_DEFAULT_SHOWN = (
    QT_TRANSLATE_NOOP("HighlightPalette", "claim"),
    QT_TRANSLATE_NOOP("HighlightPalette", "method"),
    QT_TRANSLATE_NOOP("HighlightPalette", "result"),
    QT_TRANSLATE_NOOP("HighlightPalette", "question"),
)
#: how opaque a highlight is drawn over the text (0-255)
MARK_ALPHA = 110
ORPHAN_TEXT = QT_TRANSLATE_NOOP("HighlightModel", "not found in the current abstract")
Index = QModelIndex | QPersistentModelIndex


class HighlightPalette(QObject):
    """The highlight colours and what each means to the user.

    Signals:
        renamed(list): the user renamed the colours (names in colour order): persist them.
        changed(): the names changed by any means (views repaint).
    """

    renamed = Signal(list)
    changed = Signal()

    def __init__(self, names: Sequence[str] = DEFAULT_NAMES, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._names = self._complete(names)

    @staticmethod
    def _complete(names: Sequence[str]) -> list[str]:
        given = [" ".join(str(n).split()) for n in names]
        return [(given[i] if i < len(given) else "") or d for i, d in enumerate(DEFAULT_NAMES)]

    def keys(self) -> list[str]:
        return [key for key, _ in COLOURS]

    def names(self) -> list[str]:
        return list(self._names)

    def name_of(self, key: str) -> str:
        """A colour's name as shown (a default name in the language in use)."""
        keys = self.keys()
        return shown_name(self._names[keys.index(key)]) if key in keys else key

    def color_of(self, key: str) -> QColor:
        drawn = dict(COLOURS).get(key)
        color = QColor(drawn or key)
        return color if color.isValid() else QColor(COLOURS[0][1])

    def set_names(self, names: Sequence[str]) -> None:
        """Show these names (loaded from the library); not announced as a rename."""
        names = self._complete(names)
        if names != self._names:
            self._names = names
            self.changed.emit()

    def rename(self, names: Sequence[str]) -> None:
        """The user's new names; blank ones fall back to the defaults."""
        names = self._complete(names)
        if names != self._names:
            self._names = names
            self.changed.emit()
            self.renamed.emit(list(names))


def shown_name(name: str) -> str:
    """A highlight colour's name as shown: a default one translated, the user's as is."""
    if name in DEFAULT_NAMES:
        return QCoreApplication.translate("HighlightPalette", name)
    return name


@dataclass(frozen=True)
class HighlightRow:
    """A highlight and where it is in the shown document (None: not found)."""

    highlight: Highlight
    span: tuple[int, int] | None


class HighlightModel(QAbstractListModel):
    """The shown paper's highlights: swatch, quote and comment per row."""

    IdRole = Qt.ItemDataRole.UserRole
    CommentRole = Qt.ItemDataRole.UserRole + 1
    FoundRole = Qt.ItemDataRole.UserRole + 2

    def __init__(self, palette: HighlightPalette, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.palette = palette
        self._rows: list[HighlightRow] = []

    def set_rows(self, rows: Sequence[HighlightRow]) -> None:
        self.beginResetModel()
        self._rows = list(rows)
        self.endResetModel()

    def rows(self) -> list[HighlightRow]:
        return list(self._rows)

    def row_of(self, highlight_id: str) -> int:
        return next((i for i, r in enumerate(self._rows) if r.highlight.id == highlight_id), -1)

    def repaint(self) -> None:
        if self._rows:
            self.dataChanged.emit(self.index(0), self.index(len(self._rows) - 1))

    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008, N802 (Qt override)
        return 0 if parent.isValid() else len(self._rows)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not 0 <= index.row() < len(self._rows):
            return None
        row = self._rows[index.row()]
        h = row.highlight
        if role == Qt.ItemDataRole.DisplayRole:
            quote = " ".join(h.quote.split())
            lines = [f"“{quote[:157]}…”" if len(quote) > 160 else f"“{quote}”"]
            if h.comment.strip():  # (its start: a comment may hold 100,000 characters)
                comment = " ".join(h.comment[:MAX_SHOWN_COMMENT].split())
                cut = len(h.comment) > MAX_SHOWN_COMMENT
                # (flush with the quote: spaces put it out of line with it)
                lines.append(fill(self.tr("Comment: %1"), comment + ("…" if cut else "")))
            if row.span is None:
                lines.append(fill(self.tr("(%1)"), self.tr(ORPHAN_TEXT)))
            return "\n".join(lines)
        if role == Qt.ItemDataRole.DecorationRole:
            return self.palette.color_of(h.color)
        if role in (Qt.ItemDataRole.ToolTipRole, Qt.ItemDataRole.AccessibleTextRole):
            parts = [self.palette.name_of(h.color).capitalize(), h.comment.strip()]
            if row.span is None:
                parts.append(self.tr(ORPHAN_TEXT).capitalize())
            text = " · ".join(p for p in parts if p)
            return plain.tooltip(text) if role == Qt.ItemDataRole.ToolTipRole else text
        if role == self.IdRole:
            return h.id
        if role == self.CommentRole:
            return h.comment
        if role == self.FoundRole:
            return row.span is not None
        return None


class _HighlightList(QListView):
    def __init__(self, panel: HighlightPanel) -> None:
        super().__init__(panel)
        self._panel = panel

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802 (Qt override)
        hid = self._panel.current_id()
        key = event.key()
        if hid and key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            row = self.currentIndex().row()
            self._panel.delete_requested.emit(hid)
            count = self.model().rowCount()
            if count and not self.currentIndex().isValid():  # on to the next one
                self.setCurrentIndex(self.model().index(min(row, count - 1), 0))
        elif hid and key in (Qt.Key.Key_Return, Qt.Key.Key_Enter, Qt.Key.Key_C):
            self._panel.comment_requested.emit(hid)
        else:
            super().keyPressEvent(event)


class HighlightPanel(QWidget):
    """The paper's highlights, listed under its note; hidden while there are none.

    Signals:
        highlight_chosen(str): a highlight became current (show it in the abstract).
        delete_requested(str): Delete pressed on one.
        comment_requested(str): double-click, Return or C on one.
    """

    highlight_chosen = Signal(str)
    delete_requested = Signal(str)
    comment_requested = Signal(str)

    def __init__(self, palette: HighlightPalette, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.model = HighlightModel(palette, self)
        self._label = label = QLabel(self)
        label.setObjectName("sectionLabel")
        self.view = _HighlightList(self)
        self.view.setModel(self.model)
        self.view.setWordWrap(True)
        self.view.setEditTriggers(QListView.EditTrigger.NoEditTriggers)
        self.view.setMaximumHeight(110)  # the note keeps most of the room
        label.setBuddy(self.view)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addWidget(label)
        layout.addWidget(self.view)
        self.view.doubleClicked.connect(
            lambda index: self.comment_requested.emit(index.data(HighlightModel.IdRole))
        )
        self.view.selectionModel().currentChanged.connect(self._on_current)
        palette.changed.connect(self.model.repaint)
        self.retranslate()
        self.hide()

    def retranslate(self) -> None:
        """The panel's texts in the language in use (again after a switch)."""
        self._label.setText(self.tr("Highlights"))
        self.view.setAccessibleName(self.tr("Highlights"))
        self.view.setToolTip(
            self.tr("Delete removes a highlight · Return or double-click comments on it")
        )

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
            self.model.repaint()
        super().changeEvent(event)

    @property
    def highlight_palette(self) -> HighlightPalette:
        return self.model.palette

    def set_palette(self, palette: HighlightPalette) -> None:
        old = self.model.palette
        if palette is old:
            return
        old.changed.disconnect(self.model.repaint)
        self.model.palette = palette
        palette.changed.connect(self.model.repaint)
        self.model.repaint()

    def set_highlights(self, highlights: Sequence[Highlight], text: str) -> None:
        """List `highlights`, each located in `text` (the shown document's plain text)."""
        current = self.current_id()
        self.model.set_rows([HighlightRow(h, locate(text, h)) for h in highlights])
        row = self.model.row_of(current)
        if row >= 0:
            with QSignalBlocker(self.view.selectionModel()):
                self.view.setCurrentIndex(self.model.index(row))
        self.setVisible(bool(highlights))

    def current_id(self) -> str:
        index = self.view.currentIndex()
        return index.data(HighlightModel.IdRole) if index.isValid() else ""

    def _on_current(self, index: QModelIndex, _previous: QModelIndex) -> None:
        if index.isValid():
            self.highlight_chosen.emit(index.data(HighlightModel.IdRole))
