"""An import finds a library's papers by the keys they are matched on (DOI, arXiv id,
title, abstract, title with math, venue), kept in the catalogue's index: it plans what
a plan against the papers held in memory plans, whatever the spelling of the keys."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reader.core.merge import MappingMatcher, plan_import, stable_key
from reader.core.models import Paper
from reader.opening import open_library
from reader.store import catalogue_db

TITLES = [
    "Deep Nets",
    "deep  nets!",
    "Théta bounds",
    r"$\Theta$ bounds for $\sqrt{T}$ learners",
    r"$\Theta$ bounds for $\sqrtT$ learners",
    "AUCμ metric",
    "AUC{\\textmu} metric",
    "",
]
ABSTRACTS = ["", "We study nets.", "WE STUDY NETS", "Bounds, at last.", "bounds at last"]
DOIS = ["", "10.1/a", " 10.1/A ", "10.1/b"]
ARXIVS = ["", "2401.1", "2401.1 ", "2401.2"]
VENUES = ["", "ICML 2019", "Proceedings of the 36th International Conference on Machine Learning"]


@st.composite
def papers(draw, prefix):
    n = draw(st.integers(0, 8))
    out = []
    for i in range(n):
        out.append(
            Paper(
                id=f"{prefix}{draw(st.integers(0, 10))}" if prefix == "x" else f"{prefix}{i}",
                title=draw(st.sampled_from(TITLES)),
                authors=draw(st.sampled_from([(), ("Ann Lee",), ("A. Lee", "Bo")])),
                abstract=draw(st.sampled_from(ABSTRACTS)),
                venue=draw(st.sampled_from(VENUES)),
                year=2019,
                doi=draw(st.sampled_from(DOIS)),
                arxiv=draw(st.sampled_from(ARXIVS)),
                title_derived=draw(st.booleans()),
            )
        )
    return out


def _plan_shape(plan):
    return (
        sorted(p.id for p in plan.added),
        sorted(p.id for p in plan.updated),
        plan.unchanged,
        plan.id_map,
        [str(s) for s in plan.skipped],
        sorted(p.venue for p in plan.added),
    )


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(library=papers("k"), incoming=papers("x"))
def test_the_catalogues_keys_find_what_papers_in_memory_do(monkeypatch, library, incoming):
    monkeypatch.setattr(catalogue_db, "SMALL_LIBRARY_BYTES", 0)  # (its index a file)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "lib"
        open_library(folder, seed=False).library.add_papers(library)
        lib = open_library(folder, seed=False).library  # (the keys as the index keeps them)
        in_memory = {p.id: p for p in lib.papers()}
        matcher = MappingMatcher(in_memory, lib.abstracts)
        expected = plan_import(in_memory, incoming, lib.abstracts, matcher)
        found = plan_import(lib.papers_by_id(), incoming, lib.abstracts, lib.matcher())
        assert _plan_shape(found) == _plan_shape(expected)


def test_stable_keys_are_the_same_in_every_process():
    # (kept in a file: Python's own hash() of bytes changes from one run to the next)
    import os
    import subprocess
    import sys

    code = "from reader.core.merge import stable_key; print(stable_key(b'deepnets'))"
    keys = {
        subprocess.run(
            [sys.executable, "-c", code], env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True, text=True, check=True,
        ).stdout
        for seed in ("1", "2", "3")
    }  # fmt: skip
    assert keys == {f"{stable_key(b'deepnets')}\n"}
    assert stable_key(b"") != 0


def test_the_keys_follow_a_paper_written_anew_deleted_and_restored(monkeypatch, tmp_path):
    import dataclasses

    monkeypatch.setattr(catalogue_db, "SMALL_LIBRARY_BYTES", 0)
    folder = tmp_path / "lib"
    paper = Paper("k1", "Deep Nets", venue="ICML 2019", doi="10.1/A")
    open_library(folder, seed=False).library.add_papers([paper])
    lib = open_library(folder, seed=False).library
    lib.add_papers([dataclasses.replace(paper, doi="10.1/B", venue="COLT")])
    for again in (False, True):  # (as written, then as the next open takes the files in)
        matcher = open_library(folder, seed=False).library.matcher() if again else lib.matcher()
        assert matcher.find("doi", "10.1/b") == "k1" and matcher.find("doi", "10.1/a") is None
        assert matcher.find("venue", "COLT") == "k1" and matcher.find("venue", "ICML 2019") is None
    gone = lib.delete_papers(["k1"])
    assert lib.matcher().find("doi", "10.1/b") is None and not lib.matcher().holds("doi")
    lib.restore_papers(gone)
    assert lib.matcher().find("doi", "10.1/b") == "k1" and lib.matcher().holds("doi")
