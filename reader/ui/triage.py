"""Triage mode: the next untriaged paper, one key per decision, auto-advance, progress."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QHBoxLayout, QProgressBar, QPushButton, QWidget

from reader.core.triage import DEFAULT_DECISIONS, Decision, next_untriaged, progress
from reader.ui import plain
from reader.ui.commands import TriageDecisionCommand
from reader.ui.controller import PaperController

TRIAGE_PREF = "triage_decisions"


def stored_decisions(data: object) -> list[Decision]:
    """The decisions kept in the library's preferences, or the defaults."""
    if isinstance(data, list):
        try:
            decisions = [Decision.from_dict(d) for d in data if isinstance(d, dict)]
        except ValueError:
            decisions = []
        if decisions:
            return decisions
    return list(DEFAULT_DECISIONS)


def parse_decisions(text: str) -> list[Decision]:
    """Lines of `KEY tag|status VALUE LABEL`; ValueError naming the bad line."""
    decisions = []
    for n, line in enumerate(text.splitlines(), start=1):
        parts = line.split(maxsplit=3)
        if not parts:
            continue
        if len(parts) < 3 or len(parts[0]) != 1:
            raise ValueError(f"line {n}: expected KEY tag|status VALUE LABEL, got {line!r}")
        key, kind, value = parts[:3]
        label = parts[3] if len(parts) > 3 else value
        try:
            decisions.append(
                Decision.from_dict({"key": key, "kind": kind, "value": value, "label": label})
            )
        except ValueError as exc:
            raise ValueError(f"line {n}: {exc}") from None
    keys = [d.key.casefold() for d in decisions]
    if not decisions or len(set(keys)) != len(keys):
        raise ValueError("give at least one decision, each with its own key")
    return decisions


class TriageBar(QWidget):
    """The strip above the reader pane in triage mode: progress and decision buttons."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("triageBar")
        self.setAccessibleName("Triage")
        self.progress = QProgressBar(self)
        self.progress.setTextVisible(False)
        self.progress.setMaximumWidth(180)
        self.label = plain.PlainLabel(parent=self)
        self.label.setAccessibleName("Triage progress")
        self.buttons: list[QPushButton] = []
        self.exit_button = QPushButton("Done (Esc)", self)
        self._layout = QHBoxLayout(self)
        self._layout.setContentsMargins(8, 4, 8, 4)
        self._layout.addWidget(self.progress)
        self._layout.addWidget(self.label, 1)
        self._layout.addWidget(self.exit_button)
        self.hide()

    def set_actions(self, actions: Sequence[QAction]) -> None:
        for button in self.buttons:
            button.deleteLater()
        self.buttons = []
        for pos, action in enumerate(actions):
            button = QPushButton(f"{action.text()}  ({action.shortcut().toString()})", self)
            button.clicked.connect(action.trigger)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            self._layout.insertWidget(2 + pos, button)
            self.buttons.append(button)


class Triage(QObject):
    """Drives triage mode over the papers the list shows, in its order.

    Signals:
        mode_changed(bool): triage mode turned on or off.
    """

    mode_changed = Signal(bool)

    def __init__(
        self,
        controller: PaperController,
        bar: TriageBar,
        decisions: Sequence[Decision] = DEFAULT_DECISIONS,
    ) -> None:
        super().__init__(bar)
        self.controller = controller
        self.bar = bar
        self.active = False
        self.decision_actions: list[QAction] = []
        self._decisions: list[Decision] = []
        view = controller.sidebar.view
        self.exit_action = QAction("Leave triage", view)
        self.exit_action.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        self.exit_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.exit_action.setEnabled(False)
        self.exit_action.triggered.connect(lambda: self.set_active(False))
        view.addAction(self.exit_action)
        bar.exit_button.clicked.connect(lambda: self.set_active(False))
        controller.library_changed.connect(lambda _change: self.update_progress())
        controller.sidebar.filtered.connect(self.update_progress)
        self.set_decisions(decisions)

    @property
    def decisions(self) -> list[Decision]:
        return list(self._decisions)

    def set_decisions(self, decisions: Sequence[Decision]) -> None:
        view = self.controller.sidebar.view
        for action in self.decision_actions:
            view.removeAction(action)
            action.deleteLater()
        self._decisions = list(decisions)
        self.decision_actions = []
        for decision in self._decisions:
            action = QAction(plain.action_text(decision.label), view)
            action.setShortcut(QKeySequence(decision.key.upper()))
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            action.setEnabled(self.active)
            action.triggered.connect(lambda _c=False, d=decision: self.decide(d))
            view.addAction(action)
            self.decision_actions.append(action)
        self.bar.set_actions(self.decision_actions)
        self.update_progress()

    def set_active(self, on: bool) -> None:
        if on == self.active:
            return
        self.active = on
        for action in [*self.decision_actions, self.exit_action]:
            action.setEnabled(on)
        self.bar.setVisible(on)
        if on:
            self.update_progress()
            self.controller.sidebar.view.setFocus()
            current = self.controller.sidebar.current_id()
            if not current or self._is_triaged(current):
                self.advance(None)
        self.mode_changed.emit(on)

    def toggle(self) -> None:
        self.set_active(not self.active)

    def _is_triaged(self, pid: str) -> bool:
        from reader.core.triage import is_triaged

        return is_triaged(self.controller.library, pid, self._decisions)

    def decide(self, decision: Decision) -> None:
        """Apply `decision` to the paper shown, then move on to the next untriaged one."""
        pid = self.controller.pane.paper_id
        if not self.active or not pid:
            return
        self.controller.push(
            TriageDecisionCommand(self.controller.library, pid, decision, self._decisions)
        )
        self.advance(pid)

    def advance(self, after: str | None) -> None:
        sidebar = self.controller.sidebar
        nxt = next_untriaged(self.controller.library, sidebar.model.ids(), after, self._decisions)
        if nxt is not None:
            sidebar.select_paper(nxt)
        self.update_progress()

    def update_progress(self) -> None:
        if not self.active:
            return
        ids = self.controller.sidebar.model.ids()
        p = progress(self.controller.library, ids, self._decisions)
        self.bar.progress.setRange(0, max(p.total, 1))
        self.bar.progress.setValue(p.triaged)
        done = " — all done!" if p.total and p.triaged == p.total else ""
        self.bar.label.setText(p.summary(self._decisions) + done)
