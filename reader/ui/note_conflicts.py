"""The note's conflicting versions: written on another computer before the two synced.

Shown under the note editor while the shown paper has any: whose version, when,
its text (plain text, read-only), and the ways to settle it. Nothing is dropped
until the user chooses: "Add to my note" puts their text under the note (both
kept), "Use theirs" makes theirs the note, "Keep mine" discards theirs. The choice
is an edit like any other, seen by every computer: the conflict is gone there too.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import Qt, Signal
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


def _when(stamp: str) -> str:
    ms = wall_ms_of(stamp)
    if not ms:
        return "at an unknown time"
    when = dt.datetime.fromtimestamp(ms / 1000).astimezone()
    return when.strftime("%Y-%m-%d %H:%M")


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
        self.setAccessibleName("Conflicting version of the note")
        self._versions: list[Any] = []
        self._mine = ""
        self.title = QLabel(self)
        self.title.setWordWrap(True)
        self.title.setTextFormat(Qt.TextFormat.PlainText)
        self.text = QPlainTextEdit(self)
        self.text.setReadOnly(True)
        self.text.setMaximumHeight(120)
        self.text.setAccessibleName("Their version of the note")
        self.add_button = QPushButton("Add to my note", self)
        self.use_button = QPushButton("Use theirs", self)
        self.keep_button = QPushButton("Keep mine", self)
        self.add_button.setToolTip("Put their text under your note; both are kept")
        self.use_button.setToolTip("Replace your note by their version")
        self.keep_button.setToolTip("Discard their version")
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
        self.hide()

    def show_versions(self, versions: Sequence[Any], mine: str) -> None:
        """The conflicting versions (each with .device, .at, .text) of the shown note,
        whose text is `mine`; hidden when there are none."""
        self._versions, self._mine = list(versions), mine
        if not self._versions:
            self.hide()
            return
        if len(self._versions) == 1:
            first = self._versions[0]
            self.title.setText(
                f"This note was also edited on {first.device}, {_when(first.at)}, before the "
                "computers synced. Their version:"
            )
        else:
            self.title.setText(
                f"This note was also edited on other computers before they synced: "
                f"{len(self._versions)} other versions, below."
            )
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
