"""Triage by predicted interest on the screening sets of tests/data/screening (their
README.md defines the measures), beside a random order and ASReview LAB's published
figures for the same sets (ELAS u4, asreview_elas_u4.json), and the time of one
retrain + rescore at each set's size, at 3,300 and at 100,000 generated papers.

Each simulation starts, as ASReview's, from 1 relevant and 1 irrelevant paper drawn
with the seed, runs through reader.core.screening.simulate (triage's own code) and
stops once every relevant paper is found (the measures need no more): always taking
the best ranked (`paper-reader simulate`'s default, ASReview's max query) and, beside
it, with triage's default share of random picks (EXPLORATION).

The time per retrain at a set's size is one whole step of the simulation (retrain,
rescore, pick, record); at 3,300 and 100,000 papers a retrain and rescore alone.

Budgets: mean WSS@95 and recall@10 % above ASReview's; a retrain under 0.1 s at 3,300
papers and under 1 s at 100,000.
"""

# Progress goes to stderr; the LAST line of stdout is one JSON object:
#   python bench/ranking.py            (5 seeds per set, 100k papers timed: a few minutes)
#   python bench/ranking.py --quick    (2 seeds, 3,300 papers timed: about a minute)

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "bench")]

from reader.core.ranking import EXPLORATION, Features
from reader.core.screening import Oracle, metrics, read_labelled_csv, simulate

SETS = REPO / "tests" / "data" / "screening"
MEASURES = ("wss95", "recall10", "atd")


def say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def mean_of(runs: list[dict[str, float]], keys: tuple[str, ...] = MEASURES) -> dict[str, float]:
    return {k: round(statistics.fmean(r[k] for r in runs), 3) for k in keys}


def one_set(name: str, seeds: list[int], explorations: list[float]) -> dict[str, Any]:
    papers, labels = read_labelled_csv(SETS / f"{name}.csv")
    started = time.perf_counter()
    features = Features.build(papers)
    build_s = time.perf_counter() - started
    out: dict[str, Any] = {"papers": len(papers), "relevant": sum(labels)}
    for exploration in explorations:
        runs, randoms, retrains = simulations(name, papers, labels, features, seeds, exploration)
        key = "ours" if exploration == 0 else f"ours_exploring_{exploration}"
        out[key] = mean_of(runs)
        out.setdefault("random", mean_of(randoms))
        out.setdefault("features_s", round(build_s, 3))
        out.setdefault("retrain_s", round(statistics.median(retrains[1:] or retrains), 4))
        out[f"runs_{key}"] = runs
    return out


def simulations(
    name: str,
    papers: list[Any],
    labels: list[bool],
    features: Features,
    seeds: list[int],
    exploration: float,
) -> tuple[list[dict[str, Any]], list[dict[str, float]], list[float]]:
    """One simulation per seed (and a random order); the seconds of each step."""
    runs: list[dict[str, Any]] = []
    randoms, retrains = [], []
    for seed in seeds:
        oracle = Oracle(labels)
        priors = oracle.priors(1, 1, seed)
        clock = [time.perf_counter()]

        def trained(_model: object, clock: list[float] = clock) -> None:
            now = time.perf_counter()
            retrains.append(now - clock[0])
            clock[0] = now

        started = time.perf_counter()
        order = simulate(
            papers,
            oracle,
            priors,
            exploration=exploration,
            seed=seed,
            stop_when_found=True,
            features=features,
            trained=trained,
        )
        secs = time.perf_counter() - started
        rest = len(papers) - len(priors)
        relevant = sum(labels) - sum(labels[i] for i in priors)
        run = metrics([labels[i] for i in order], rest, relevant)
        runs.append({**run, "seed": seed, "screened": len(order), "secs": round(secs, 2)})
        shuffled = [i for i in range(len(papers)) if i not in priors]
        random.Random(seed).shuffle(shuffled)
        randoms.append(metrics([labels[i] for i in shuffled], rest, relevant))
        say(f"{name} seed {seed} exploration {exploration}: {mean_of([run])} in {secs:.1f} s")
    return runs, randoms, retrains


def retrain_at(n: int) -> dict[str, float]:
    """Seconds to build the features of n generated papers, and per retrain + rescore
    after one more decision (median of 5) with 20 decisions made."""
    from generate import make_papers

    papers = make_papers(n)
    started = time.perf_counter()
    features = Features.build(papers)
    build_s = time.perf_counter() - started
    rng = random.Random(n)
    decided = rng.sample(range(n), 21)
    labels = {papers[i].id: k % 4 == 0 for k, i in enumerate(decided[:20])}
    times = []
    for k in range(5):
        labels[papers[decided[20]].id] = k % 2 == 0
        started = time.perf_counter()
        model = features.train(labels)
        model.best(features.ids)
        model.calibrate()
        times.append(time.perf_counter() - started)
    return {
        "papers": n,
        "features_s": round(build_s, 2),
        "retrain_s": round(min(times), 4),
        "gui_thread_ms": gui_thread_ms(papers, decided, model),
    }


def gui_thread_ms(papers: list[Any], decided: list[int], model: Any) -> float:
    """What the window's GUI thread does of the model's work after one decision (the
    decision written aside): the library's decisions read for the trainer, the next
    paper chosen with the last model, the triage bar's numbers (the whole library in
    view). Median of 5, ms."""
    from reader.core.interest import interest_progress, next_paper, training_labels
    from reader.core.library import Library
    from reader.core.screening import MemoryStore
    from reader.core.triage import DEFAULT_DECISIONS, apply_decision, progress

    lib = Library(MemoryStore(papers))
    interesting, _later, skip = DEFAULT_DECISIONS
    for k, i in enumerate(decided[:20]):
        apply_decision(lib, papers[i].id, interesting if k % 4 == 0 else skip, DEFAULT_DECISIONS)
    ids = [p.id for p in papers]
    times = []
    for _ in range(5):
        started = time.perf_counter()
        training_labels(lib)
        next_paper(lib, model, ids, None, exploration=0.0)
        progress(lib, ids, DEFAULT_DECISIONS)
        interest_progress(lib, model, ids).summary()
        times.append((time.perf_counter() - started) * 1000)
    return round(statistics.median(times), 2)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--quick", action="store_true", help="2 seeds, no exploration; 3,300 papers timed only"
    )
    parser.add_argument("--seeds", type=int, default=5)
    parser.add_argument("--sets", nargs="*", help="set names (default: all in sets.json)")
    args = parser.parse_args(argv)
    seeds = list(range(1, (2 if args.quick else args.seeds) + 1))
    names = args.sets or [s["set"] for s in json.loads((SETS / "sets.json").read_text())]
    published = json.loads((SETS / "asreview_elas_u4.json").read_text())["summary"]
    # 0: `paper-reader simulate`'s default, always the best ranked (ASReview's max
    # query); EXPLORATION: triage's default in the window and `rank`
    explorations = [0.0] if args.quick else [0.0, EXPLORATION]
    result: dict[str, Any] = {"seeds": seeds, "sets": {}}
    for name in names:
        got = one_set(name, seeds, explorations)
        got["asreview"] = {k: published[name][k] for k in MEASURES if name in published}
        result["sets"][name] = got
        say(json.dumps({name: {k: v for k, v in got.items() if not k.startswith("runs")}}))
    sets = list(result["sets"].values())
    result["mean"] = {
        who: {k: round(statistics.fmean(s[who][k] for s in sets), 3) for k in MEASURES}
        for who in sets[0]
        if isinstance(sets[0][who], dict) and all(s.get(who) for s in sets)
    }
    result["retrain"] = [retrain_at(n) for n in ([3300] if args.quick else [3300, 100_000])]
    say(json.dumps({"mean": result["mean"], "retrain": result["retrain"]}))
    print(json.dumps(result))


if __name__ == "__main__":
    main()
