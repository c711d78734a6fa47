"""What the ranking learns from a library, and what triage shows next.

Read on the library's own thread (the GUI thread in the window): training_labels(),
undecided(), next_paper(), skipped_since_interesting() read the Library, which is not
thread-safe. Features.build() and Features.train() (reader.core.ranking) read nothing
of it and are for a worker thread.

The window's triage, in predicted-interest order:

1. once (and after an import): Features.build(library.completed(papers)) on a worker thread
   (the Paper records are immutable; the list is a copy);
2. after each decision (reader.core.triage.apply_decision, as `paper-reader triage`):
   labels = training_labels(library, decisions) on the GUI thread, then
   features.train(labels) on a worker, the latest request winning;
3. at once, without waiting: next_paper(library, model, view_ids, after, decisions)
   with the last model trained (None before the first): the previous ranking;
4. the bar: interest_progress(library, model, view_ids, decisions).summary().
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from reader.core.library import Library
from reader.core.models import Status
from reader.core.normalise import normalise_tag
from reader.core.ranking import EXPLORATION, MANY, Model, can_learn, pick, rng_for
from reader.core.triage import DEFAULT_DECISIONS, Decision, is_negative, is_triaged, next_untriaged

#: a rating at least this is "interested", one from 1 to LOW_RATING "not interested"
HIGH_RATING = 4
LOW_RATING = 2


def training_labels(
    lib: Library,
    decisions: Sequence[Decision] = DEFAULT_DECISIONS,
    *,
    tag: str | None = None,
    like: Sequence[str] = (),
) -> dict[str, bool]:
    """What the model learns from, paper id -> interested, read from the library the
    same way for the window and the command line:

    - "not interested": a negative triage decision (Skip), or a rating of 1..LOW_RATING;
    - "interested": any other triage decision (Interesting; Read later, which sets the
      status reading), the status reading or read, a rating of HIGH_RATING or more, or
      any tag of the user's own;
    - a negative decision wins over the rest, save a high rating.

    With `tag` ("papers like my tag"), the papers tagged `tag` (or `tag/...`) are the
    positives, and only the negative decisions count beside them; `like`: these
    papers are positives too ("more like this")."""
    negative_tags = {d.value.casefold() for d in decisions if is_negative(d)}
    positive = [d for d in decisions if not is_negative(d)]
    papers = lib.papers_by_id()
    labels: dict[str, bool] = {}
    for pid, ann in lib.annotations().items():
        if pid not in papers:
            continue
        tags = {t.casefold() for t in ann.tags}
        rated = ann.rating
        if rated >= HIGH_RATING:
            wanted: bool | None = True
        elif tags & negative_tags or 1 <= rated <= LOW_RATING:
            wanted = False
        elif tag is not None:
            wanted = None
        elif (
            ann.status is not Status.UNREAD or tags or any(d.applies_to(lib, pid) for d in positive)
        ):
            wanted = True
        else:
            wanted = None
        if wanted is not None:
            labels[pid] = wanted
    if tag is not None:
        for pid in lib.papers_with_tag(tag):
            labels[pid] = True
    for pid in like:
        lib.paper(pid)
        labels[pid] = True
    return labels


def can_sort(lib: Library, decisions: Sequence[Decision] = DEFAULT_DECISIONS) -> bool:
    """Whether the sort order "Predicted interest" can be offered: some paper says what
    interests the user (a decision, a status, a rating or a tag); the order is then
    features.train(training_labels(lib, decisions)).order(view_ids)."""
    return any(training_labels(lib, decisions).values())


def undecided(
    lib: Library,
    ids: Sequence[str],
    decisions: Sequence[Decision] = DEFAULT_DECISIONS,
    *,
    tag: str | None = None,
) -> list[str]:
    """The papers of `ids` triage has yet to show (and, with `tag`, not tagged so)."""
    anns = lib.annotations()  # (a paper without one is untriaged: 100,000 in ~10 ms)
    out = [pid for pid in ids if pid not in anns or not is_triaged(lib, pid, decisions)]
    if tag is not None:
        tagged = set(lib.papers_with_tag(normalise_tag(tag)))
        out = [pid for pid in out if pid not in tagged]
    return out


def next_paper(
    lib: Library,
    model: Model | None,
    ids: Sequence[str],
    after: str | None,
    decisions: Sequence[Decision] = DEFAULT_DECISIONS,
    *,
    exploration: float = EXPLORATION,
    seed: int = 0,
) -> str | None:
    """The paper triage shows next among `ids` (the papers in view, in view order).

    Until the library holds one "interested" and one other decision (and while
    `model` is None), the next untriaged one after `after`, as before. Then the model's
    pick among the undecided ones (reader.core.ranking.pick, its random share drawn
    from `seed` and the number of decided papers in view). `model` may be the one
    trained before the last decision: the paper just decided is no longer undecided,
    so the previous ranking's next best comes."""
    if model is None or not can_learn(training_labels(lib, decisions)):
        return next_untriaged(lib, ids, after, decisions)
    triaged = _triaged_of_all(lib, ids, decisions)
    if triaged is not None and rng_for(seed, len(triaged)).random() >= exploration:
        # the whole library in view: the best of them not triaged, walked from the top
        # (pick()'s own choice, without a pass over every id)
        papers = lib.papers_by_id()
        for pid in model.ranked():
            if pid in papers and pid not in triaged:
                return pid
    todo = undecided(lib, ids, decisions)
    return pick(model, todo, len(ids) - len(todo), exploration=exploration, seed=seed)


def _triaged_of_all(
    lib: Library, ids: Sequence[str], decisions: Sequence[Decision]
) -> set[str] | None:
    """The papers triaged, read from the annotations alone, if `ids` are the whole
    library and many (else None: the caller looks at `ids` themselves)."""
    if len(ids) < MANY or len(ids) != len(lib):
        return None
    papers = lib.papers_by_id()
    return {pid for pid in lib.annotations() if pid in papers and is_triaged(lib, pid, decisions)}


def skipped_since_interesting(
    lib: Library, ids: Sequence[str], decisions: Sequence[Decision] = DEFAULT_DECISIONS
) -> int:
    """How many papers of `ids` were decided "not interested" since the last one
    decided otherwise (by the annotations' modified time): when this grows long, the
    interesting ones are probably all found."""
    labels = training_labels(lib, decisions)
    anns = lib.annotations()
    decided = [(anns[pid].modified, labels[pid]) for pid in ids if pid in labels]
    decided.sort(key=lambda pair: pair[0])
    count = 0
    for _, wanted in reversed(decided):
        if wanted:
            break
        count += 1
    return count


@dataclass(frozen=True)
class InterestProgress:
    """What the triage bar says in predicted-interest order."""

    decided: int
    interesting: int
    #: Model.expected_interesting() of the undecided papers (NaN: not yet known)
    expected_left: float
    skipped_since: int

    def summary(self) -> str:
        parts = [f"{self.decided:,} decided", f"{self.interesting:,} interesting"]
        if not math.isnan(self.expected_left):
            parts.append(f"about {round(self.expected_left):,} more expected")
        parts.append(f"{self.skipped_since:,} skipped since the last interesting one")
        return " · ".join(parts)


def interest_progress(
    lib: Library,
    model: Model | None,
    ids: Sequence[str],
    decisions: Sequence[Decision] = DEFAULT_DECISIONS,
) -> InterestProgress:
    """The triage bar's numbers for the papers `ids` in view. The estimate of the
    interesting papers left is the sum of the undecided papers' probabilities, the
    model's scores mapped to probabilities by a logistic fit to the decisions so far
    (see Model.expected_interesting); a few ms at 3,300 papers, on the GUI thread."""
    labels = training_labels(lib, decisions)
    triaged = _triaged_of_all(lib, ids, decisions)
    if triaged is not None:  # the whole library: from the decisions, not every id
        papers = lib.papers_by_id()
        decided: Collection[str] = triaged
        left = model.expected_interesting_except(triaged) if model is not None else math.nan
        view: Sequence[str] = [pid for pid in labels if pid in papers]
    else:
        todo = undecided(lib, ids, decisions)
        left = model.expected_interesting(todo) if model is not None else math.nan
        waiting = set(todo)
        decided = [pid for pid in ids if pid not in waiting]
        view = ids
    # the interesting ones among those decided (a paper tagged or read elsewhere teaches
    # the model too, but was not decided here: "6 decided, 7 interesting" read wrong)
    interesting = sum(1 for pid in decided if labels.get(pid))
    return InterestProgress(
        len(decided), interesting, left, skipped_since_interesting(lib, view, decisions)
    )
