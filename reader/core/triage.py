"""Triage: one key per decision while working through a list of papers."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reader.core.edits import NO_EDIT, Edit
from reader.core.library import Library
from reader.core.models import Status
from reader.core.normalise import normalise_tag
from reader.core.prefs import TRIAGE_DECISIONS


@dataclass(frozen=True)
class Decision:
    """A triage choice: pressing `key` sets a status or adds a tag."""

    key: str
    label: str
    kind: str  # "status" or "tag"
    value: str

    def applies_to(self, lib: Library, paper_id: str) -> bool:
        if self.kind == "status":
            return lib.status(paper_id).value == self.value
        return self.value.casefold() in (t.casefold() for t in lib.tags(paper_id))

    def to_dict(self) -> dict[str, str]:
        return {"key": self.key, "label": self.label, "kind": self.kind, "value": self.value}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Decision:
        kind = str(data.get("kind", "tag"))
        value = str(data.get("value", ""))
        if kind == "status":
            value = Status.parse(value).value
        elif kind == "tag":
            value = normalise_tag(value)
        else:
            raise ValueError(f"unknown decision kind {kind!r}")
        key = str(data.get("key", ""))[:1]
        if not key or not value:
            raise ValueError("a decision needs a key and a value")
        return cls(key, str(data.get("label") or value), kind, value)


DEFAULT_DECISIONS: tuple[Decision, ...] = (
    Decision("i", "Interesting", "tag", "interesting"),
    Decision("l", "Read later", "status", "reading"),
    Decision("s", "Skip", "tag", "skip"),
)


def is_triaged(lib: Library, paper_id: str, decisions: Sequence[Decision]) -> bool:
    """A paper is triaged once a decision applies to it or the user changed its status."""
    return lib.status(paper_id) is not Status.UNREAD or any(
        d.applies_to(lib, paper_id) for d in decisions
    )


def next_untriaged(
    lib: Library, ids: Sequence[str], after: str | None, decisions: Sequence[Decision]
) -> str | None:
    """The first untriaged paper after `after` in `ids`, wrapping round; None when done."""
    start = ids.index(after) + 1 if after in ids else 0
    for pid in [*ids[start:], *ids[:start]]:
        if not is_triaged(lib, pid, decisions):
            return pid
    return None


@dataclass(frozen=True)
class TriageProgress:
    triaged: int
    total: int
    by_decision: Mapping[str, int]

    def summary(self, decisions: Sequence[Decision]) -> str:
        parts = [f"{self.triaged:,} / {self.total:,} triaged"]
        parts += [f"{self.by_decision.get(d.label, 0):,} {d.label.lower()}" for d in decisions]
        return " · ".join(parts)


def progress(lib: Library, ids: Iterable[str], decisions: Sequence[Decision]) -> TriageProgress:
    """How many of `ids` are triaged, and by which decision. (The whole library in
    view: its triaged papers are among those with an annotation, looked at alone.)"""
    ids = ids if isinstance(ids, Sequence) else list(ids)
    total = len(ids)
    pool: Iterable[str] = ids
    if total == len(lib):
        papers = lib.papers_by_id()
        pool = [pid for pid in lib.annotations() if pid in papers]
    counts: Counter[str] = Counter()
    triaged = 0
    for pid in pool:
        if is_triaged(lib, pid, decisions):
            triaged += 1
            for d in decisions:
                if d.applies_to(lib, pid):
                    counts[d.label] += 1
    return TriageProgress(triaged, total, counts)


def apply_decision(
    lib: Library, paper_id: str, decision: Decision, decisions: Sequence[Decision]
) -> Edit:
    """Record `decision` on a paper as triage does, in the window and on the command
    line alike: the decisions are exclusive, so the other decisions' tags go, then the
    decision's tag is added or its status set. What it changed, as one Edit (to undo)."""
    ids = [paper_id]
    others = [d.value for d in decisions if d.kind == "tag" and d != decision]
    edit = lib.remove_tags(ids, others) if others else NO_EDIT
    if decision.kind == "status":
        return edit.then(lib.set_status(ids, Status(decision.value)))
    return edit.then(lib.add_tags(ids, [decision.value]))


#: tag values of decisions that say "not interested" (the others say "interested")
NEGATIVE_VALUES = frozenset({"skip", "skipped", "not-interested", "not interested", "irrelevant"})


def is_negative(decision: Decision) -> bool:
    """Whether a decision says "not interested" (Skip); any other says "interested"."""
    return decision.kind == "tag" and decision.value.casefold() in NEGATIVE_VALUES


def find_decision(decisions: Sequence[Decision], word: str) -> Decision | None:
    """The decision named by `word`: its key, label or value, or the last word of its
    label ("later" for "Read later"), case-insensitive."""
    key = word.strip().casefold()
    for d in decisions:
        label = d.label.casefold()
        if key in (d.key.casefold(), label, d.value.casefold(), *label.split()[-1:]):
            return d
    return None


def stored_decisions(lib: Library) -> list[Decision]:
    """The decisions kept in the library's preferences (as the window shows them), or
    the defaults."""
    data = lib.prefs.get(TRIAGE_DECISIONS)
    if isinstance(data, list):
        try:
            decisions = [Decision.from_dict(d) for d in data if isinstance(d, Mapping)]
        except ValueError:
            decisions = []
        if decisions:
            return decisions
    return list(DEFAULT_DECISIONS)
