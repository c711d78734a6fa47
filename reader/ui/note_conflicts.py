"""The note's conflicting versions: written on another computer before the two synced.

Shown under the note editor while the shown paper has any: whose version, when,
its text (plain text, read-only), and the ways to settle it. Nothing is dropped
until the user chooses: "Add to my note" puts their text under the note (both
kept), "Use theirs" makes theirs the note, "Keep mine" discards theirs. The choice
is an edit like any other, seen by every computer: the conflict is gone there too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QDateTime, QEvent, QLocale, Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from reader.core.hlc import wall_ms_of
from reader.ui.i18n import fill


def _when(stamp: str) -> str | None:
    """When a version was written, in the language's short form (None: not known)."""
    ms = wall_ms_of(stamp)
    if not ms:
        return None
    return QLocale().toString(QDateTime.fromMSecsSinceEpoch(ms), QLocale.FormatType.ShortFormat)


def merged_text(mine: str, theirs: str) -> str:
    """The note with their version added under it."""
    if not mine.strip():
        return theirs
    return f"{mine.rstrip()}\n\n{theirs}"


class NoteConflicts(QFrame):
    """Signals:
    settled(str): the note text the user chose; the conflict shown is then gone."""

    settled = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("noteConflicts")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self._versions: list[Any] = []
        self._mine = ""
        self.title = QLabel(self)
        self.title.setWordWrap(True)
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.text = QPlainTextEdit(self)
        self.text.setReadOnly(True)
        self.text.setMaximumHeight(120)
        self.add_button = QPushButton(self)
        self.use_button = QPushButton(self)
        self.keep_button = QPushButton(self)
        self.add_button.clicked.connect(lambda: self._settle("add"))
        self.use_button.clicked.connect(lambda: self._settle("use"))
        self.keep_button.clicked.connect(lambda: self._settle("keep"))
        buttons = QHBoxLayout()
        buttons.addWidget(self.add_button)
        buttons.addWidget(self.use_button)
        buttons.addWidget(self.keep_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)
        layout.addWidget(self.title)
        layout.addWidget(self.text)
        layout.addLayout(buttons)
        self.retranslate()
        self.hide()

    def retranslate(self) -> None:
        """The panel's texts in the language in use (again after a switch)."""
        self.setAccessibleName(self.tr("Conflicting version of the note"))
        self.text.setAccessibleName(self.tr("Their version of the note"))
        self.add_button.setText(self.tr("Add to my note"))
        self.use_button.setText(self.tr("Use theirs"))
        self.keep_button.setText(self.tr("Keep mine"))
        self.add_button.setToolTip(self.tr("Put their text under your note; both are kept"))
        self.use_button.setToolTip(self.tr("Replace your note by their version"))
        self.keep_button.setToolTip(self.tr("Discard their version"))
        if self._versions:
            self._show_title()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def _show_title(self) -> None:
        if len(self._versions) == 1:
            first = self._versions[0]
            when = _when(first.at)
            if when is None:
                title = fill(
                    self.tr(
                        "This note was also edited on %1, at an unknown time, before the "
                        "computers synced. Their version:"
                    ),
                    first.device,
                )
            else:
                title = fill(
                    self.tr(
                        "This note was also edited on %1, %2, before the computers synced. "
                        "Their version:"
                    ),
                    first.device,
                    when,
                )
        else:
            title = self.tr(
                "This note was also edited on other computers before they synced: "
                "%n other versions, below.",
                "",
                len(self._versions),
            )
        self.title.setText(title)

    def show_versions(self, versions: Sequence[Any], mine: str) -> None:
        """The conflicting versions (each with .device, .at, .text) of the shown note,
        whose text is `mine`; hidden when there are none."""
        self._versions, self._mine = list(versions), mine
        if not self._versions:
            self.hide()
            return
        self._show_title()
        theirs = self.theirs()
        if self.text.toPlainText() != theirs:
            self.text.setPlainText(theirs)
        self.use_button.setVisible(len(self._versions) == 1)
        self.show()

    def theirs(self) -> str:
        """The conflicting versions' text (several: one after the other)."""
        return "\n\n".join(v.text for v in self._versions)

    def _settle(self, how: str) -> None:
        if not self._versions:
            return
        theirs = self.theirs()
        text = {"add": merged_text(self._mine, theirs), "use": theirs, "keep": self._mine}[how]
        self.settled.emit(text)
