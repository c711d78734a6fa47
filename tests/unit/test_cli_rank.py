"""The command line of triage by predicted interest: rank, triage, simulate."""

import csv
import json

from reader.core import triage as core_triage
from reader.core.interest import training_labels
from reader.opening import open_library


def ids(run):
    out, _ = run("list", "--json")
    return [p["id"] for p in json.loads(out)]


def test_rank_needs_decisions_first(run):
    ids(run)  # (the first open says it made the library)
    _, err = run("rank", expect=2)
    assert err.startswith("paper-reader: error: nothing to learn from yet") and err.count("\n") == 1


def test_triage_records_as_the_window_does_and_rank_follows(run, library_dir, monkeypatch):
    pids = ids(run)
    applied = []
    real = core_triage.apply_decision
    monkeypatch.setattr(
        core_triage, "apply_decision", lambda *a: applied.append(a[1:3]) or real(*a)
    )
    out, _ = run("triage", pids[0], pids[1], "interesting")
    assert out.splitlines() == [f"{pids[0]}: interesting", f"{pids[1]}: interesting"]
    run("triage", pids[1], "skip")  # exclusive: the skip replaces interesting
    run("triage", pids[2], "later")
    assert [(pid, d.value) for pid, d in applied] == [
        (pids[0], "interesting"),
        (pids[1], "interesting"),
        (pids[1], "skip"),
        (pids[2], "reading"),
    ]
    lib = open_library(library_dir).library
    assert lib.tags(pids[1]) == ("skip",) and lib.status(pids[2]).value == "reading"
    assert training_labels(lib) == {pids[0]: True, pids[1]: False, pids[2]: True}

    out, _ = run("rank", "--json")
    ranked = json.loads(out)
    assert {r["id"] for r in ranked} == set(pids[3:])
    assert all({"id", "score", "title", "why"} <= set(r) for r in ranked)
    out, _ = run("rank", "--limit", "3")
    assert len(out.splitlines()) == 3 and all(line.count("\t") == 3 for line in out.splitlines())


def test_triage_refuses_unknown_ids_and_decisions_before_any_edit(run, library_dir):
    pids = ids(run)
    _, err = run("triage", pids[0], "nope-nope", "interesting", expect=2)
    assert "no paper with id 'nope-nope'" in err
    _, err = run("triage", pids[0], "maybe", expect=2)
    assert "unknown decision 'maybe'" in err and "interesting, read later, skip" in err
    assert open_library(library_dir).library.annotations() == {}


def test_rank_like_a_paper_and_like_a_tag(run):
    pids = ids(run)
    out, _ = run("rank", "--like", pids[4], "--json")
    ranked = json.loads(out)
    assert pids[4] not in {r["id"] for r in ranked} and len(ranked) == len(pids) - 1
    scores = [r["score"] for r in ranked]
    assert scores == sorted(scores, reverse=True)
    assert ranked[0]["why"] and ranked[0]["why"][0]["weight"] > 0
    run("tag", pids[5], "mine")
    out, _ = run("rank", "--tag", "mine", "--json")
    assert pids[5] not in {r["id"] for r in json.loads(out)}
    _, err = run("rank", "--tag", "nobody", expect=2)
    assert "no paper is tagged 'nobody'" in err


def write_csv(path, rows):
    with path.open("w", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(["title", "abstract", "authors", "label_included"])
        out.writerows(rows)


def test_simulate_prints_the_order_and_the_measures(run, tmp_path):
    rows = []
    for k in range(30):
        relevant = k % 5 == 0
        words = "denoising diffusion sampler" if relevant else f"graph network {k} kernel"
        rows.append([f"On {words}", f"We study {words} {k}.", f"A {k % 3}; B", int(relevant)])
    path = tmp_path / "set.csv"
    write_csv(path, rows)
    out, _ = run("simulate", str(path), "--prior-idx", "0", "1", "--json")
    got = json.loads(out)
    assert got["priors"] == [0, 1]
    assert sorted(got["order"]) == list(range(2, 30))
    assert {"wss95", "recall10", "atd"} <= set(got)
    assert sorted(got["order"][:5]) == [5, 10, 15, 20, 25]  # the model's first picks
    assert got["exploration"] == 0 and got["recall10"] == 2 / 5
    out, _ = run("simulate", str(path), "--prior-included", "1", "--seed", "3")
    assert out.startswith("order: ") and "WSS@95" in out


def test_simulate_errors_name_the_file_and_line(run, tmp_path):
    path = tmp_path / "bad.csv"
    path.write_text("title,abstract\nA,b\n")
    _, err = run("simulate", str(path), expect=2)
    assert "bad.csv: line 1: missing column(s) label_included" in err
    path.write_text("title,label_included\nA,1\nB,x\n")
    _, err = run("simulate", str(path), expect=2)
    assert "bad.csv: line 3: column label_included must be 0 or 1" in err
    _, err = run("simulate", str(tmp_path / "none.csv"), expect=2)
    assert "none.csv" in err
    path.write_text("title,label_included\nA,1\nB,0\n")
    _, err = run("simulate", str(path), "--prior-idx", "7", expect=2)
    assert "--prior-idx 7" in err
