"""Triage: one key per decision while working through a list of papers."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from reader.core.library import Library
from reader.core.models import Status
from reader.core.normalise import normalise_tag


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
    counts: Counter[str] = Counter()
    triaged = total = 0
    for pid in ids:
        total += 1
        if is_triaged(lib, pid, decisions):
            triaged += 1
            for d in decisions:
                if d.applies_to(lib, pid):
                    counts[d.label] += 1
    return TriageProgress(triaged, total, counts)
