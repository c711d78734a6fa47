"""Triage mode: the next untriaged paper, one key per decision, auto-advance, progress."""

from __future__ import annotations

import math
from collections.abc import Sequence

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, QObject, Qt, Signal
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
from reader.ui import names, plain
from reader.ui.commands import TriageDecisionCommand
from reader.ui.controller import PaperController
from reader.ui.i18n import fill, number
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


translate = QCoreApplication.translate


class TriageBar(QWidget):
    """The strip above the reader pane in triage mode: progress and decision buttons.

    Signals:
        language_changed(): the language in use changed (the bar's owner says it anew).
    """

    language_changed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("triageBar")
        self.progress = QProgressBar(self)
        self.progress.setFormat("%p%")  # (empty, a bar without text looked like a text box)
        self.progress.setFixedWidth(140)
        self.label = plain.PlainLabel(parent=self)
        # the numbers wrap rather than widen the bar: a longer text ("10 / 19") must
        # never narrow the list or push the buttons out of the window
        self.label.setWordWrap(True)
        self.label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.label.setMinimumWidth(120)
        self.buttons: list[QPushButton] = []
        self.exit_button = QPushButton(self)
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
        self.retranslate()
        self.hide()

    def retranslate(self) -> None:
        self.setAccessibleName(self.tr("Triage"))
        self.label.setAccessibleName(self.tr("Triage progress"))
        self.exit_button.setText(self.tr("Done (Esc)"))

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
            self.language_changed.emit()
        super().changeEvent(event)

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
        self.exit_action = QAction(self.tr("Leave triage"), view)
        self.exit_action.setShortcut(QKeySequence(Qt.Key.Key_Escape))
        self.exit_action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
        self.exit_action.setEnabled(False)
        self.exit_action.triggered.connect(lambda: self.set_active(False))
        view.addAction(self.exit_action)
        bar.exit_button.clicked.connect(lambda: self.set_active(False))
        bar.language_changed.connect(self._retranslate)
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
            action = QAction(view)
            action.setShortcut(QKeySequence(decision.key.upper()))
            action.setShortcutContext(Qt.ShortcutContext.WidgetWithChildrenShortcut)
            action.setEnabled(self.active)
            action.triggered.connect(lambda _c=False, d=decision: self.decide(d))
            view.addAction(action)
            self.decision_actions.append(action)
        self._retranslate()

    def _retranslate(self) -> None:
        """The decisions' and the bar's texts in the language in use."""
        for decision, action in zip(self._decisions, self.decision_actions, strict=True):
            action.setText(plain.action_text(names.decision_label(decision.label)))
            action.setToolTip(plain.tooltip(_what_it_does(decision)))
        self.exit_action.setText(self.tr("Leave triage"))
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
        parts = [fill(self.tr("%1 / %2 triaged"), number(p.triaged), number(p.total))]
        for d in self._decisions:
            count = number(p.by_decision.get(d.label, 0))
            label = names.decision_label(d.label).lower()
            parts.append(
                fill(self.tr("%1 %2", "a count, then a triage decision's label"), count, label)
            )
        model = self.interest.model if self.interest is not None else None
        if model is not None and model.can_rank:
            from reader.core.interest import interest_progress

            told = interest_progress(lib, model, ids, self._decisions)
            parts = [
                fill(self.tr("%1 decided"), number(told.decided)),
                fill(self.tr("%1 interesting"), number(told.interesting)),
            ]
            if not math.isnan(told.expected_left):
                more = number(round(told.expected_left))
                parts.append(fill(self.tr("about %1 more expected"), more))
            since = number(told.skipped_since)
            parts.append(fill(self.tr("%1 skipped since the last interesting one"), since))
            self.bar.label.setToolTip(plain.tooltip(self.tr(ESTIMATE_TIP)))
        text = " · ".join(parts)
        if p.total and p.triaged == p.total:
            text = fill(self.tr("%1 — all done!"), text)
        self.bar.label.setText(text)


#: how the triage bar's estimate is made
ESTIMATE_TIP = QT_TRANSLATE_NOOP(
    "Triage",
    "Papers come in order of predicted interest, learnt from your decisions, tags and "
    "ratings on this computer. “About N more expected”: the undecided papers' scores "
    "turned into chances by a fit to your decisions so far, added up (rough, and high "
    "early on). Many skipped since the last interesting one: probably time to stop.",
)


def _what_it_does(decision: Decision) -> str:
    """A decision's tooltip: what pressing it records (a tag, or a reading status)."""
    label = names.decision_label(decision.label)
    if decision.kind == "status":
        what = translate("Triage", "%1: marks the paper %2 (its reading status)")
        return fill(what, label, names.status(decision.value).lower())
    return fill(translate("Triage", "%1: tags the paper “%2”"), label, decision.value)
