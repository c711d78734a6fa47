"""Triage mode: the next untriaged paper, one key per decision, auto-advance, progress."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import (
    QHBoxLayout,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from reader.core.ranking import EXPLORATION
from reader.core.triage import DEFAULT_DECISIONS, Decision, next_untriaged, progress
from reader.ui import plain
from reader.ui.commands import TriageDecisionCommand
from reader.ui.controller import PaperController
from reader.ui.interest import INTEREST, Interest


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
        self.progress.setFormat("%p%")  # (empty, a bar without text looked like a text box)
        self.progress.setFixedWidth(140)
        self.label = plain.PlainLabel(parent=self)
        self.label.setAccessibleName("Triage progress")
        # the numbers wrap rather than widen the bar: a longer text ("10 / 19") must
        # never narrow the list or push the buttons out of the window
        self.label.setWordWrap(True)
        self.label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.label.setMinimumWidth(120)
        self.buttons: list[QPushButton] = []
        self.exit_button = QPushButton("Done (Esc)", self)
        # the numbers above, the buttons below: neither row asks for more width than
        # the reader pane has at 900 px
        numbers = QHBoxLayout()
        numbers.addWidget(self.progress)
        numbers.addWidget(self.label, 1)
        self._layout = QHBoxLayout()
        self._layout.addStretch(1)
        self._layout.addWidget(self.exit_button)
        rows = QVBoxLayout(self)
        rows.setContentsMargins(8, 4, 8, 4)
        rows.setSpacing(2)
        rows.addLayout(numbers)
        rows.addLayout(self._layout)
        self.hide()

    def set_actions(self, actions: Sequence[QAction]) -> None:
        for button in self.buttons:
            button.deleteLater()
        self.buttons = []
        for pos, action in enumerate(actions):
            button = QPushButton(f"{action.text()}  ({action.shortcut().toString()})", self)
            button.setToolTip(action.toolTip())
            button.clicked.connect(action.trigger)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            self._layout.insertWidget(pos, button)
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
        interest: Interest | None = None,
    ) -> None:
        super().__init__(bar)
        self.controller = controller
        self.bar = bar
        #: the next paper is the likeliest interesting once there is one "interesting"
        #: and one other decision (without it: the list's order)
        self.interest = interest
        #: the share of picks made at random among the undecided (so that it does not
        #: dwell on the first kind of paper it learnt), drawn from `seed`
        self.exploration = EXPLORATION
        self.seed = 0
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
        controller.undo_stack.indexChanged.connect(self._after_undo_redo)
        if interest is not None:
            interest.changed.connect(lambda which: which == INTEREST and self.update_progress())
        self.set_decisions(decisions)

    @property
    def decisions(self) -> list[Decision]:
        return list(self._decisions)

    def _after_undo_redo(self, index: int) -> None:
        """Undoing a decision in triage mode shows that paper again."""
        command = self.controller.undo_stack.command(index)
        if isinstance(command, TriageDecisionCommand) and self.active:
            self.controller.sidebar.select_paper(command.paper_id)

    def set_decisions(self, decisions: Sequence[Decision]) -> None:
        view = self.controller.sidebar.view
        for action in self.decision_actions:
            view.removeAction(action)
            action.deleteLater()
        self._decisions = list(decisions)
        self.decision_actions = []
        for decision in self._decisions:
            action = QAction(plain.action_text(decision.label), view)
            action.setToolTip(plain.tooltip(_what_it_does(decision)))
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
            if self.interest is not None:
                self.interest.refresh()  # (the features are built now, off the GUI thread)
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
        if self.interest is not None:
            self.interest.refresh()  # learnt off the GUI thread; the last model meanwhile
        self.advance(pid)

    def advance(self, after: str | None) -> None:
        """Show the next paper to decide: the likeliest interesting (the last model
        learnt) once the library says what interests the user, else the next in the
        list's order."""
        sidebar, lib = self.controller.sidebar, self.controller.library
        ids = sidebar.model.ids()
        if self.interest is not None:
            from reader.core.interest import next_paper

            model = self.interest.model
            nxt = next_paper(
                lib,
                model,
                ids,
                after,
                self._decisions,
                exploration=self.exploration,
                seed=self.seed,
            )
        else:
            nxt = next_untriaged(lib, ids, after, self._decisions)
        if nxt is not None:
            sidebar.select_paper(nxt)
        self.update_progress()

    def update_progress(self) -> None:
        if not self.active:
            return
        lib, ids = self.controller.library, self.controller.sidebar.model.ids()
        p = progress(lib, ids, self._decisions)
        self.bar.progress.setRange(0, max(p.total, 1))
        self.bar.progress.setValue(p.triaged)
        done = " — all done!" if p.total and p.triaged == p.total else ""
        text = p.summary(self._decisions) + done
        model = self.interest.model if self.interest is not None else None
        if model is not None and model.can_rank:
            from reader.core.interest import interest_progress

            text = interest_progress(lib, model, ids, self._decisions).summary() + done
            self.bar.label.setToolTip(plain.tooltip(ESTIMATE_TIP))
        self.bar.label.setText(text)


#: how the triage bar's estimate is made
ESTIMATE_TIP = (
    "Papers come in order of predicted interest, learnt from your decisions, tags and "
    "ratings on this computer. “About N more expected”: the undecided papers' scores "
    "turned into chances by a fit to your decisions so far, added up (rough, and high "
    "early on). Many skipped since the last interesting one: probably time to stop."
)


def _what_it_does(decision: Decision) -> str:
    """A decision's tooltip: what pressing it records (a tag, or a reading status)."""
    if decision.kind == "status":
        return f"{decision.label}: marks the paper {decision.value} (its reading status)"
    return f"{decision.label}: tags the paper “{decision.value}”"
