"""Tag chips with a remove button each, and an entry with completion."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QStringListModel, Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QLineEdit, QToolButton, QWidget

from reader.ui import plain
from reader.ui.flow import FlowLayout
from reader.ui.i18n import fill

if TYPE_CHECKING:
    from PySide6.QtWidgets import QCompleter


class TagEditor(QWidget):
    """Shows a paper's tags as chips; type a tag and press Enter to add it
    (several separated by commas), click a chip's ✕ (or focus it and press
    Delete) to remove it, Backspace in the empty entry removes the last one.

    Signals:
        tags_added(list): tags to add to the current paper.
        tag_removed(str): a tag to remove from the current paper.
    """

    tags_added = Signal(list)
    tag_removed = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._tags: list[str] = []
        self._chips: list[QToolButton] = []
        #: tag -> "#rrggbb"
        self.tag_colours: dict[str, str] = {}
        # chips wrap onto more lines: many tags make the row taller, never the pane
        # wider (which squeezed the list and the facets)
        self._layout = FlowLayout(self)
        self.entry = QLineEdit(self)
        self.entry.setClearButtonEnabled(True)
        self.entry.setMinimumWidth(120)
        self.entry.installEventFilter(self)
        self._completion_model = QStringListModel(self)
        self.entry.returnPressed.connect(self._on_return)
        self._layout.addWidget(self.entry)
        self.retranslate()

    def retranslate(self) -> None:
        """The entry's and chips' texts in the language in use (again after a switch)."""
        self.entry.setPlaceholderText(self.tr("Add tag…"))
        self.entry.setAccessibleName(self.tr("Add tag"))
        for tag, chip in zip(self._tags, self._chips, strict=False):
            chip.setToolTip(plain.tooltip(fill(self.tr("Remove tag “%1”"), tag)))
            chip.setAccessibleName(fill(self.tr("Tag %1, press to remove"), tag))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def tags(self) -> list[str]:
        return list(self._tags)

    def chips(self) -> list[QToolButton]:
        return list(self._chips)

    def set_tags(self, tags: Sequence[str]) -> None:
        if list(tags) == self._tags:
            return
        self._tags = list(tags)
        for chip in self._chips:
            self._layout.removeWidget(chip)
            chip.deleteLater()
        self._chips = []
        for pos, tag in enumerate(self._tags):
            chip = QToolButton(self)
            chip.setObjectName("tagChip")
            chip.setText(plain.action_text(tag) + "  ✕")
            chip.setToolTip(plain.tooltip(fill(self.tr("Remove tag “%1”"), tag)))
            chip.setAccessibleName(fill(self.tr("Tag %1, press to remove"), tag))
            chip.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
            chip.clicked.connect(lambda _=False, t=tag: self.tag_removed.emit(t))
            chip.installEventFilter(self)
            self._layout.insert_widget(pos, chip)
            self._chips.append(chip)
        self.repaint_chips()

    def repaint_chips(self) -> None:
        for tag, chip in zip(self._tags, self._chips, strict=False):
            colour = self.tag_colours.get(tag)
            # the colour is validated (#rrggbb) before it is stored
            chip.setStyleSheet(
                f"QToolButton#tagChip {{ border-color: {colour}; border-width: 2px; }}"
                if colour
                else ""
            )

    def completer(self) -> QCompleter:
        """The entry's completer, made when first needed: on the entry's first focus
        (nobody types in it before), not for the first paint."""
        completer = self.entry.completer()
        if completer is None:
            from PySide6.QtWidgets import QCompleter

            completer = QCompleter(self._completion_model, self)
            completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
            completer.setFilterMode(Qt.MatchFlag.MatchContains)
            completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
            self.entry.setCompleter(completer)
        return completer

    def set_known_tags(self, tags: Sequence[str]) -> None:
        self._completion_model.setStringList(sorted(tags, key=str.casefold))

    def _on_return(self) -> None:
        popup = self.completer().popup()
        if popup.isVisible():
            popup.hide()
        tags = [t.strip() for t in self.entry.text().split(",") if t.strip()]
        self.entry.clear()
        if tags:
            self.tags_added.emit(tags)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.FocusIn and watched is self.entry:
            self.completer()
        if event.type() == QEvent.Type.KeyPress and isinstance(event, QKeyEvent):
            key = event.key()
            if watched is self.entry and key == Qt.Key.Key_Backspace and not self.entry.text():
                if self._tags:
                    self.tag_removed.emit(self._tags[-1])
                    return True
            if watched in self._chips and key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
                self.tag_removed.emit(self._tags[self._chips.index(watched)])  # type: ignore[arg-type]
                return True
        return super().eventFilter(watched, event)
