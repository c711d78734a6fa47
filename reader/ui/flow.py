"""A layout that places its widgets left to right and wraps onto a new line when the
width runs out (tag chips): it asks for no more width than its widest item, so many
chips make the row taller, never the window wider."""

from __future__ import annotations

from PySide6.QtCore import QMargins, QPoint, QRect, QSize, Qt
from PySide6.QtWidgets import QLayout, QLayoutItem, QWidget


class FlowLayout(QLayout):
    """Items in reading order, wrapped to the width; the last one given `stretch`
    (an entry box) takes the rest of its line."""

    def __init__(self, parent: QWidget | None = None, spacing: int = 4) -> None:
        super().__init__(parent)
        self._items: list[QLayoutItem] = []
        self._spacing = spacing
        self.setContentsMargins(QMargins(0, 0, 0, 0))

    # -- QLayout ----------------------------------------------------------------

    def addItem(self, item: QLayoutItem) -> None:  # noqa: N802 (Qt override)
        self._items.append(item)

    def insert_widget(self, pos: int, widget: QWidget) -> None:
        """Put `widget` before the item at `pos`."""
        self.addChildWidget(widget)
        self.addWidget(widget)  # (appends its item: moved to `pos` below)
        self._items.insert(pos, self._items.pop())
        self.invalidate()

    def count(self) -> int:
        return len(self._items)

    def itemAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 (Qt override)
        return self._items[index] if 0 <= index < len(self._items) else None

    def takeAt(self, index: int) -> QLayoutItem | None:  # noqa: N802 (Qt override)
        return self._items.pop(index) if 0 <= index < len(self._items) else None

    def expandingDirections(self) -> Qt.Orientation:  # noqa: N802 (Qt override)
        return Qt.Orientation(0)

    def hasHeightForWidth(self) -> bool:  # noqa: N802 (Qt override)
        return True

    def heightForWidth(self, width: int) -> int:  # noqa: N802 (Qt override)
        return self._place(QRect(0, 0, width, 0), move=False)

    def setGeometry(self, rect: QRect) -> None:  # noqa: N802 (Qt override)
        super().setGeometry(rect)
        self._place(rect, move=True)

    def sizeHint(self) -> QSize:  # noqa: N802 (Qt override)
        return self.minimumSize()

    def minimumSize(self) -> QSize:  # noqa: N802 (Qt override)
        size = QSize()
        for item in self._items:
            size = size.expandedTo(item.minimumSize())
        margins = self.contentsMargins()
        return size + QSize(margins.left() + margins.right(), margins.top() + margins.bottom())

    # -- placing ----------------------------------------------------------------

    def _place(self, rect: QRect, *, move: bool) -> int:
        """Lay the items out in `rect` (only measure unless `move`); the height used."""
        margins = self.contentsMargins()
        area = rect.adjusted(margins.left(), margins.top(), -margins.right(), -margins.bottom())
        x, y, line = area.x(), area.y(), 0
        visible = [item for item in self._items if not item.isEmpty()]
        for n, item in enumerate(visible):
            hint = item.sizeHint()
            last = n == len(visible) - 1
            width = min(hint.width(), area.width())
            if x > area.x() and x + width > area.right() + 1:  # no room left: a new line
                x, y, line = area.x(), y + line + self._spacing, 0
            if last:  # the entry: the rest of its line, at least its minimum
                width = max(item.minimumSize().width(), area.right() + 1 - x)
                if x > area.x() and x + width > area.right() + 1:
                    x, y, line = area.x(), y + line + self._spacing, 0
                    width = area.width()
            if move:
                item.setGeometry(QRect(QPoint(x, y), QSize(width, hint.height())))
            x += width + self._spacing
            line = max(line, hint.height())
        return y + line - rect.y() + margins.bottom()
