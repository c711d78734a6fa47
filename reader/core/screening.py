"""ASReview-style simulation of triage on a labelled list, through triage's own code.

A simulated user screens a list whose labels (relevant or not) are known: starting
from prior papers, triage shows the paper it would show (reader.core.interest
.next_paper on an in-memory Library), the Oracle reveals that paper's label, the
decision is recorded as triage records it (reader.core.triage.apply_decision), the
model is retrained from the library (training_labels), and so on. The labels sit
behind the Oracle, which notes every row asked: none is read before it is screened.
"""

from __future__ import annotations

import csv
import math
import random
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from reader.core.interest import next_paper, training_labels
from reader.core.library import NOTHING_NEW, CaughtUp, Changes, Library
from reader.core.models import Annotation, Paper
from reader.core.ranking import EXPLORATION, Features, Model
from reader.core.triage import DEFAULT_DECISIONS, apply_decision

INTERESTING, _LATER, SKIP = DEFAULT_DECISIONS
REQUIRED_COLUMNS = ("title", "label_included")


class Oracle:
    """The labels of a list, revealed one row at a time; `asked`: the rows asked, in order."""

    def __init__(self, labels: Sequence[bool]) -> None:
        self._labels = [bool(v) for v in labels]
        self.asked: list[int] = []

    def __len__(self) -> int:
        return len(self._labels)

    def ask(self, row: int) -> bool:
        self.asked.append(row)
        return self._labels[row]

    def priors(self, included: int, excluded: int, seed: int) -> list[int]:
        """Rows to start from, as ASReview's --n-prior-included/--n-prior-excluded: the
        prior knowledge a user brings, drawn by label with `seed` (the only labels read
        otherwise than by ask(); the rows drawn are then asked like any other)."""
        rng = random.Random(seed)
        yes = [i for i, v in enumerate(self._labels) if v]
        no = [i for i, v in enumerate(self._labels) if not v]
        if included > len(yes) or excluded > len(no):
            raise ValueError(
                f"asked for {included} relevant and {excluded} irrelevant priors;"
                f" the list has {len(yes)} and {len(no)}"
            )
        return rng.sample(yes, included) + rng.sample(no, excluded)

    def relevant(self) -> int:
        """How many rows are relevant: for the metrics once screening is over, never
        for the ranking."""
        return sum(self._labels)


class MemoryStore:
    """A library store in memory, nothing written (the simulation's library)."""

    def __init__(self, papers: Sequence[Paper]) -> None:
        self._papers = list(papers)

    def load_papers(self) -> list[Paper]:
        return list(self._papers)

    def load_annotations(self) -> dict[str, Annotation]:
        return {}

    def write_annotations(self, changes: Mapping[str, Mapping[str, Any] | None]) -> None:
        pass

    def add_papers(self, papers: Sequence[Paper]) -> None:
        pass

    def load_table(self, name: str) -> dict[str, dict[str, Any]]:
        return {}

    def write_table(self, name: str, changes: Mapping[str, Mapping[str, Any] | None]) -> None:
        pass

    def reload_annotations(self) -> dict[str, Annotation] | None:
        return None

    def update(
        self, compute: Callable[[CaughtUp], Changes]
    ) -> Mapping[str, Annotation | None] | None:
        compute(NOTHING_NEW)
        return None


def simulate(
    papers: Sequence[Paper],
    oracle: Oracle,
    priors: Sequence[int],
    *,
    exploration: float = EXPLORATION,
    seed: int = 0,
    stop_when_found: bool = False,
    features: Features | None = None,
    trained: Callable[[Model], None] | None = None,
) -> list[int]:
    """The rows in the order triage shows them after `priors` (rows of `papers`).
    `stop_when_found`: stop once every relevant row is found (the metrics need no
    more; the count is asked of the oracle to stop, never to rank). `trained` is told
    each model trained (the time of a retrain, in the bench)."""
    lib = Library(MemoryStore(papers))
    ids = [p.id for p in papers]
    rows = {pid: i for i, pid in enumerate(ids)}
    features = features or Features.build(papers)
    decisions = list(DEFAULT_DECISIONS)
    to_find = oracle.relevant() if stop_when_found else -1
    found = 0

    def screen(row: int) -> None:
        nonlocal found
        relevant = oracle.ask(row)
        found += relevant
        apply_decision(lib, ids[row], INTERESTING if relevant else SKIP, decisions)

    for row in priors:
        screen(row)
    order: list[int] = []
    after: str | None = None
    while len(order) + len(priors) < len(ids) and found != to_find:
        model = features.train(training_labels(lib, decisions))
        if trained is not None:
            trained(model)
        pid = next_paper(lib, model, ids, after, decisions, exploration=exploration, seed=seed)
        if pid is None:
            break
        after = pid
        order.append(rows[pid])
        screen(rows[pid])
    return order


def metrics(found: Sequence[bool], papers: int, relevant: int) -> dict[str, float]:
    """ASReview's measures of a screening, counted after the priors (as `asreview
    metrics` does): `found` are the labels in screening order, `papers` and `relevant`
    the counts without the priors. The order may stop early once all are found.

    - wss95: 1 - (papers screened to find 95 % of the relevant ones) / papers - 0.05;
    - recall10: share of the relevant ones found in the first 10 % (floor) of papers;
    - atd: mean position (1 = first screened) at which a relevant paper was found."""
    if relevant <= 0 or papers <= 0:
        raise ValueError("a screening needs relevant papers after the priors")
    target = math.ceil(0.95 * relevant)
    hits = [i + 1 for i, v in enumerate(found) if v]
    if len(hits) < relevant:
        raise ValueError(f"the order found {len(hits)} of the {relevant} relevant papers")
    cut = papers // 10
    return {
        "wss95": 1 - hits[target - 1] / papers - 0.05,
        "recall10": sum(1 for h in hits if h <= cut) / relevant,
        "atd": sum(hits) / len(hits),
    }


def read_labelled_csv(path: Path) -> tuple[list[Paper], list[bool]]:
    """Papers and labels of a CSV with columns title, abstract, authors ("; "
    between names) and label_included (0 or 1). ValueError naming the file and line or
    column on a bad one."""
    try:
        with path.open(encoding="utf-8-sig", newline="") as fh:
            reader = csv.DictReader(fh)
            columns = [c.strip() for c in reader.fieldnames or ()]
            missing = [c for c in REQUIRED_COLUMNS if c not in columns]
            if missing:
                raise ValueError(f"{path}: line 1: missing column(s) {', '.join(missing)}")
            papers: list[Paper] = []
            labels: list[bool] = []
            for row in reader:
                line = reader.line_num
                got = {k.strip(): (v or "") for k, v in row.items() if k is not None}
                flag = got["label_included"].strip()
                if flag not in ("0", "1"):
                    raise ValueError(
                        f"{path}: line {line}: column label_included must be 0 or 1, not {flag!r}"
                    )
                authors = tuple(a.strip() for a in got.get("authors", "").split(";") if a.strip())
                papers.append(
                    Paper(str(len(papers)), got["title"], authors, abstract=got.get("abstract", ""))
                )
                labels.append(flag == "1")
    except (OSError, UnicodeDecodeError, csv.Error) as exc:
        raise ValueError(f"{path}: {exc}") from None
    if not papers:
        raise ValueError(f"{path}: no rows")
    return papers, labels
