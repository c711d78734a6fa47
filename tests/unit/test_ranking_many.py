"""At scale (a whole library of 5,000 papers and more in view) triage's next paper and
its bar's numbers come from the decisions and the model's ranking, not a pass over
every id: the same answers as the pass over every id."""

from __future__ import annotations

import math
import random

import pytest

from reader.core.interest import interest_progress, next_paper, undecided
from reader.core.library import Library
from reader.core.models import Paper
from reader.core.ranking import MANY, Features, pick
from reader.core.screening import MemoryStore
from reader.core.triage import DEFAULT_DECISIONS, apply_decision

INTERESTING, LATER, SKIP = DEFAULT_DECISIONS
WORDS = "graph diffusion bandit kernel transformer theorem policy causal sparse robust".split()


@pytest.fixture(scope="module")
def conference():
    rng = random.Random(5)
    papers = [
        Paper(
            f"p{i:05d}",
            " ".join(rng.sample(WORDS, 3)),
            (f"A{i % 97}",),
            " ".join(rng.sample(WORDS, 6)),
        )
        for i in range(MANY + 200)
    ]
    return papers, Features.build(papers)


def test_the_next_paper_and_the_numbers_are_those_of_every_id(conference):
    papers, features = conference
    lib = Library(MemoryStore(papers))
    ids = lib.paper_ids()
    rng = random.Random(1)
    for n, pid in enumerate(rng.sample(ids, 30)):
        apply_decision(lib, pid, (INTERESTING, SKIP, LATER)[n % 3], DEFAULT_DECISIONS)
    from reader.core.interest import training_labels

    model = features.train(training_labels(lib))
    for seed in range(12):  # (some of them the random share: the pass over every id)
        todo = undecided(lib, ids)
        expected = pick(model, todo, len(ids) - len(todo), exploration=0.2, seed=seed)
        assert next_paper(lib, model, ids, None, exploration=0.2, seed=seed) == expected
    fast = interest_progress(lib, model, ids)
    slow = interest_progress(lib, model, ids[:-1] + ids[-1:][:0])  # (one fewer: every id)
    todo = undecided(lib, ids)
    assert fast.decided == len(ids) - len(todo) == 30
    assert fast.interesting == slow.interesting
    assert math.isclose(fast.expected_left, model.expected_interesting(todo), rel_tol=1e-6)
    assert fast.skipped_since == slow.skipped_since


@pytest.mark.parametrize("whole", [True, False])
def test_the_interesting_counted_are_among_those_decided(conference, whole):
    """A paper tagged or read outside triage teaches the model, but the bar's
    "N decided · M interesting" counts only decisions: M is never more than N."""
    from reader.core.models import Status

    papers, _features = conference
    lib = Library(MemoryStore(papers))
    ids = lib.paper_ids() if whole else lib.paper_ids()[:300]
    lib.set_tags(ids[0], ["my-own-tag"])  # (labels: interested)
    lib.set_status([ids[1]], Status.READ)
    apply_decision(lib, ids[2], SKIP, DEFAULT_DECISIONS)
    apply_decision(lib, ids[3], INTERESTING, DEFAULT_DECISIONS)
    told = interest_progress(lib, None, ids)
    assert (told.decided, told.interesting) == (3, 2)  # the read one is decided (reading/read)
