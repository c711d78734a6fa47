"""Triage by predicted interest: the model, what it learns from, the simulation."""

import math
import subprocess
import sys

import pytest

from reader.core import ranking, screening
from reader.core.interest import (
    can_sort,
    interest_progress,
    next_paper,
    skipped_since_interesting,
    training_labels,
    undecided,
)
from reader.core.library import Library
from reader.core.models import Annotation, Paper, Status
from reader.core.ranking import Features, can_learn, pick, triage_order
from reader.core.screening import MemoryStore, Oracle, metrics, read_labelled_csv, simulate
from reader.core.triage import DEFAULT_DECISIONS, apply_decision, find_decision

INTERESTING, LATER, SKIP = DEFAULT_DECISIONS

TOPICS = {
    "diffusion": ("denoising diffusion", "score matching sampler for image generation"),
    "graphs": ("graph neural network", "message passing over molecular graphs"),
    "bandits": ("contextual bandit", "regret bounds for online exploration"),
}


def topic_papers(per_topic=6):
    """Papers of three topics, each topic with its own words and its own authors."""
    papers = []
    for t, (title, abstract) in enumerate(TOPICS.items()):
        name, (words, more) = title, abstract
        for k in range(per_topic):
            papers.append(
                Paper(
                    f"{name}-{k}",
                    f"A {words} study {k}",
                    (f"Author {name} {k % 2}", f"Shared {k}"),
                    abstract=f"We study {words}: {more}, part {k} of {t}.",
                    venue="ICML",
                )
            )
    return papers


def library(papers, annotations=()):
    store = MemoryStore(papers)
    store.load_annotations = lambda: {a.paper_id: a for a in annotations}  # type: ignore[method-assign]
    return Library(store)


def test_learned_positives_come_first_and_explain_names_their_words():
    papers = topic_papers()
    features = Features.build(papers)
    model = features.train({"diffusion-0": True, "graphs-0": False, "bandits-0": False})
    rest = [p.id for p in papers if not p.id.endswith("-0")]
    order = model.order(rest)
    assert set(order[:5]) == {f"diffusion-{k}" for k in range(1, 6)}
    words = [name for name, _ in model.explain("diffusion-3", 5)]
    assert "diffusion" in words or "denoising" in words
    assert all(weight > 0 for _, weight in model.explain("diffusion-3"))
    assert model.best(rest) == order[0]
    assert [pid for pid, _ in model.rank(rest)] == order


def test_positives_only_rank_by_likeness_and_authors_count():
    papers = topic_papers()
    model = Features.build(papers).train({"bandits-1": True})
    assert model.can_rank and model.negatives == 0
    order = model.order([p.id for p in papers if p.id != "bandits-1"])
    assert set(order[:5]) == {f"bandits-{k}" for k in (0, 2, 3, 4, 5)}
    assert "author: Author bandits 1" in [f for f, _ in model.explain("bandits-3", 20)]


def test_a_tiny_or_empty_library_still_ranks():
    papers = [Paper("a", "neural"), Paper("b", "")]
    model = Features.build(papers).train({"a": True, "b": False})
    assert model.order(["b", "a", "unknown"]) == ["a", "b", "unknown"]
    assert model.explain("unknown") == []
    no_words = Features.build([Paper("a", "x"), Paper("b", "")]).train({"a": True})
    assert no_words.order(["b", "a"]) == ["b", "a"]  # nothing to tell them apart: as given


def test_can_learn_needs_one_of_each():
    assert not can_learn({})
    assert not can_learn({"a": True})
    assert can_learn({"a": True, "b": False})


def test_triage_order_follows_pick_one_decision_after_another():
    papers = topic_papers()
    model = Features.build(papers).train({"diffusion-0": True, "graphs-0": False})
    todo = [p.id for p in papers if p.id not in ("diffusion-0", "graphs-0")]
    for exploration in (0.0, 0.5, 1.0):
        order = triage_order(model, todo, 2, exploration=exploration, seed=3)
        assert sorted(order) == sorted(todo)
        rest = list(todo)
        for step, expected in enumerate(order, start=2):
            got = pick(model, rest, step, exploration=exploration, seed=3)
            assert got == expected
            rest.remove(got)
    assert triage_order(model, todo, 2, exploration=0.0) == model.order(todo)


def test_what_it_learns_from():
    papers = topic_papers()
    anns = [
        Annotation("diffusion-0", tags=("interesting",)),
        Annotation("diffusion-1", status=Status.READING),  # read later
        Annotation("diffusion-2", tags=("mine",)),
        Annotation("graphs-0", tags=("skip",)),
        Annotation("graphs-1", rating=1),
        Annotation("graphs-2", tags=("skip",), rating=5),
        Annotation("bandits-0", status=Status.READ, tags=("skip",)),
    ]
    lib = library(papers, anns)
    assert training_labels(lib) == {
        "diffusion-0": True,
        "diffusion-1": True,
        "diffusion-2": True,
        "graphs-0": False,
        "graphs-1": False,
        "graphs-2": True,
        "bandits-0": False,
    }
    by_tag = training_labels(lib, tag="mine")
    assert by_tag == {
        "diffusion-2": True,
        "graphs-0": False,
        "graphs-1": False,
        "graphs-2": True,
        "bandits-0": False,
    }
    assert "diffusion-2" not in undecided(lib, [p.id for p in papers], tag="mine")
    assert can_sort(lib)
    assert not can_sort(library(papers, [Annotation("graphs-0", tags=("skip",))]))


def test_apply_decision_is_exclusive_and_undoable():
    lib = library(topic_papers())
    apply_decision(lib, "graphs-1", INTERESTING, DEFAULT_DECISIONS)
    edit = apply_decision(lib, "graphs-1", SKIP, DEFAULT_DECISIONS)
    assert lib.tags("graphs-1") == ("skip",)
    lib.revert(edit)
    assert lib.tags("graphs-1") == ("interesting",)
    apply_decision(lib, "graphs-1", LATER, DEFAULT_DECISIONS)
    assert lib.tags("graphs-1") == () and lib.status("graphs-1") is Status.READING
    assert find_decision(DEFAULT_DECISIONS, "later") is LATER
    assert find_decision(DEFAULT_DECISIONS, "I") is INTERESTING
    assert find_decision(DEFAULT_DECISIONS, "Skip") is SKIP
    assert find_decision(DEFAULT_DECISIONS, "maybe") is None


def test_next_paper_follows_the_view_until_it_can_learn():
    papers = topic_papers()
    ids = [p.id for p in papers]
    lib = library(papers)
    features = Features.build(papers)
    apply_decision(lib, "bandits-0", INTERESTING, DEFAULT_DECISIONS)
    model = features.train(training_labels(lib))
    assert next_paper(lib, model, ids, None) == "diffusion-0"  # one kind only: view order
    apply_decision(lib, "diffusion-0", SKIP, DEFAULT_DECISIONS)
    model = features.train(training_labels(lib))
    assert next_paper(lib, model, ids, "diffusion-0", exploration=0).startswith("bandits-")
    assert skipped_since_interesting(lib, ids) in (0, 1)  # (same second: order unknown)


def test_skipped_since_interesting_counts_by_time():
    anns = [
        Annotation("diffusion-0", tags=("interesting",), modified="2026-01-01T00:00:01+00:00"),
        Annotation("graphs-0", tags=("skip",), modified="2026-01-01T00:00:02+00:00"),
        Annotation("graphs-1", tags=("skip",), modified="2026-01-01T00:00:03+00:00"),
        Annotation("graphs-2", tags=("skip",), modified="2026-01-01T00:00:00+00:00"),
    ]
    lib = library(topic_papers(), anns)
    assert skipped_since_interesting(lib, [p.id for p in topic_papers()]) == 2


class SpyOracle(Oracle):
    """Notes, at each question, the rows the ranking had been told of so far."""

    def __init__(self, labels, told):
        super().__init__(labels)
        self.told = told
        self.told_at_ask = []

    def ask(self, row):
        self.told_at_ask.append(set(self.told[-1]) if self.told else set())
        return super().ask(row)


def test_the_simulation_asks_only_the_row_just_picked(monkeypatch):
    papers = topic_papers()
    labels = [p.id.startswith("diffusion") for p in papers]
    row_of = {p.id: i for i, p in enumerate(papers)}
    told, picked = [], []
    real_train, real_pick = Features.train, ranking.pick

    def train(self, given):
        told.append({row_of[pid] for pid in given})
        return real_train(self, given)

    def spy_pick(*args, **kwargs):
        got = real_pick(*args, **kwargs)
        picked.append(row_of[got])
        return got

    monkeypatch.setattr(Features, "train", train)
    monkeypatch.setattr("reader.core.interest.pick", spy_pick)
    oracle = SpyOracle(labels, told)
    priors = [row_of["diffusion-2"], row_of["graphs-4"]]
    order = simulate(papers, oracle, priors, exploration=0.2, seed=1)
    assert sorted(order + priors) == list(range(len(papers)))
    assert oracle.asked == priors + order
    assert picked == order  # each question is the paper triage just showed
    for k, row in enumerate(order):  # the model had seen exactly the rows asked before it
        assert told[k] == set(oracle.asked[: len(priors) + k])
        assert row not in told[k]
    assert (
        order[:5] == [row_of[f"diffusion-{k}"] for k in (0, 1, 3, 4, 5)]
        or sum(labels[r] for r in order[:5]) >= 4
    )


def test_the_simulation_stops_once_all_are_found():
    papers = topic_papers()
    labels = [p.id.startswith("graphs") for p in papers]
    oracle = Oracle(labels)
    order = simulate(papers, oracle, oracle.priors(1, 1, seed=2), stop_when_found=True)
    assert sum(labels[r] for r in order) == 5 and labels[order[-1]]
    assert len(order) < len(papers) - 2


def test_metrics_of_a_hand_made_order():
    # 20 papers after the priors, 4 relevant, found at positions 1, 2, 5 and 12
    found = [False] * 20
    for pos in (1, 2, 5, 12):
        found[pos - 1] = True
    got = metrics(found, 20, 4)
    assert got["wss95"] == pytest.approx(1 - 12 / 20 - 0.05)  # ceil(0.95 * 4) = 4th at 12
    assert got["recall10"] == pytest.approx(2 / 4)  # the first 2 papers hold 2
    assert got["atd"] == pytest.approx((1 + 2 + 5 + 12) / 4)
    assert math.isclose(metrics(found[:12], 20, 4)["wss95"], got["wss95"])  # stopped early
    with pytest.raises(ValueError, match="found 3 of the 4"):
        metrics(found[:6], 20, 4)


def test_oracle_priors_are_drawn_by_label():
    oracle = Oracle([True, False, False, True, False])
    rows = oracle.priors(1, 2, seed=4)
    assert [oracle._labels[r] for r in rows] == [True, False, False]
    assert oracle.asked == []
    with pytest.raises(ValueError, match="3 relevant"):
        oracle.priors(3, 0, seed=1)


def test_read_labelled_csv_and_its_errors(tmp_path):
    good = tmp_path / "good.csv"
    good.write_text('title,abstract,authors,label_included\nA,"x, y",P Q; R S,1\nB,,,0\n')
    papers, labels = read_labelled_csv(good)
    assert [p.title for p in papers] == ["A", "B"] and labels == [True, False]
    assert papers[0].authors == ("P Q", "R S") and papers[0].abstract == "x, y"
    bad = tmp_path / "bad.csv"
    bad.write_text("title,abstract\nA,x\n")
    with pytest.raises(ValueError, match=r"bad.csv: line 1: missing column\(s\) label_included"):
        read_labelled_csv(bad)
    bad.write_text("title,label_included\nA,1\nB,yes\n")
    with pytest.raises(ValueError, match="line 3: column label_included must be 0 or 1"):
        read_labelled_csv(bad)


def test_screening_module_is_what_simulate_uses():
    assert screening.next_paper is next_paper and screening.training_labels is training_labels


def test_interest_progress_for_the_triage_bar():
    papers = topic_papers()
    ids = [p.id for p in papers]
    anns = [
        Annotation("diffusion-0", tags=("interesting",), modified="2026-01-01T00:00:01+00:00"),
        Annotation("graphs-0", tags=("skip",), modified="2026-01-01T00:00:02+00:00"),
        Annotation("bandits-0", tags=("skip",), modified="2026-01-01T00:00:03+00:00"),
    ]
    lib = library(papers, anns)
    model = Features.build(papers).train(training_labels(lib))
    got = interest_progress(lib, model, ids)
    assert (got.decided, got.interesting, got.skipped_since) == (3, 1, 2)
    assert 0 < got.expected_left < len(ids) - 3
    assert got.summary().startswith("3 decided · 1 interesting · about ")
    assert got.summary().endswith("2 skipped since the last interesting one")
    assert "expected" not in interest_progress(lib, None, ids).summary()


def test_the_command_line_and_the_ranking_modules_load_no_numeric_library():
    code = (
        "import sys, reader.cli, reader.cli_rank, reader.core.ranking, reader.core.interest,"
        " reader.core.screening; reader.cli.build_parser();"
        " print([m for m in ('sklearn', 'scipy', 'numpy') if m in sys.modules])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "[]"
