"""A query word typed in capitals is an acronym: `AUC` finds "AUC" and "AUCs", not
"auctions" (reader.core.words), in the SQLite index as in the reference, in what the
user wrote, and in the marks of the reader pane; `auc` finds both as before."""

from __future__ import annotations

import sqlite3

import pytest

from reader.core.index import SearchIndex
from reader.core.library import Library
from reader.core.models import Annotation, Highlight, Paper
from reader.core.query import parse
from reader.core.search_text import make_record, mark_spans
from reader.core.words import MARK, is_acronym, marks
from reader.store import catalogue_db
from reader.store.files import LibraryFolder
from reader.store.search_db import SearchDB
from tests.helpers.libraries import MemoryStore

PAPERS = [
    Paper("auc", "Stochastic online AUC maximization", ("A. Author",), "We bound the regret."),
    Paper("auction", "Learning in combinatorial auctions", ("B. Author",), "Auction design."),
    Paper("aucs", "Calibration", ("C. Author",), "The AUCs of ten models, and AUROC."),
    Paper("rlhf", "RLHF for dialogue", ("D. Author",), "Reward models from human feedback."),
    Paper("rl", "Offline RL", ("E. Author",), "Q-learning, conservatively."),
    Paper("world", "World models", ("F. Author",), "Planning in a Curl of curl."),
    Paper("deep", "DeepRL at scale", ("G. Author",), "An Rl agent."),
    Paper("theta", "Bounds in $\\Theta(n)$", ("H. Author",), "A $\\mathrm{KL}$ bound."),
    Paper("gpt", "GPT4o and GPT-4", ("I. Author",), "3D scenes, 3d meshes."),
]
NOTES = [
    Annotation("world", note="we used AUC here"),
    Annotation("rl", note="auction theory", tags=("method/RL",)),
    Annotation("theta", highlights=(Highlight("h1", "the ROC curve"),)),
]


def _found(text, papers=PAPERS, notes=NOTES, folder=None):
    """What the index finds for `text`, checked against the one-paper reference (the
    papers in memory, or in a library `folder`: their words in its catalogue's index)."""
    if folder is None:
        lib = Library(MemoryStore(papers, notes))
    else:
        lib = Library(LibraryFolder(folder))
        lib.add_papers(papers)
        lib.fill_if_empty(notes)
    index = SearchIndex(lib, lib.search_words() or SearchDB.in_memory())
    query = parse(text)
    found = index.filter(query)
    reference = [p.id for p in papers if query.matches(make_record(p, lib.annotation(p.id)))]
    assert found == reference, text
    assert sorted(index.ranked(query, found)) == sorted(found)  # BM25 over the marks too
    return found


@pytest.mark.parametrize(
    "text, expected",
    [
        ("AUC", ["auc", "aucs", "world"]),  # "AUC", "AUCs", the note; not "auctions"
        ("auc", ["auc", "auction", "aucs", "rl", "world"]),  # lower case: as ever
        ("Auc", ["auc", "auction", "aucs", "rl", "world"]),  # mixed case: as ever
        ("AUCS", []),  # "AUCs" does not begin with the capitals AUCS
        ("AU", ["auc", "aucs", "world"]),  # a prefix of the capitals: "AUROC" too
        ("AUR", ["aucs"]),
        ("RL", ["rlhf", "rl"]),  # "RL", "RLHF", the tag method/RL; not "world", "DeepRL", "Rl"
        ("rl", ["rlhf", "rl", "deep"]),  # ("Rl agent")
        ("CURL", []),
        ("curl", ["world"]),
        ("ROC", ["theta"]),  # a highlight's quote
        ("KL", ["theta"]),  # inside TeX, as written
        ("Theta", ["theta"]),  # TeX-aware matching is kept
        ("Θ", ["theta"]),
        ("\\Theta", ["theta"]),
        ("GPT4", ["gpt"]),
        ("GPT", ["gpt"]),
        ("3D", ["gpt"]),  # one capital: not an acronym, both "3D" and "3d"
        ('"online AUC maximization"', ["auc"]),  # per word in a phrase
        ('"online AUC"', ["auc"]),
        ('"combinatorial AUC"', []),
        ('"combinatorial auc"', ["auction"]),
        ('"AUC maximization" OR auction', ["auc", "auction", "rl"]),
        ("title:AUC", ["auc"]),
        ("title:auc", ["auc", "auction"]),
        ("AUC -title:AUC", ["aucs", "world"]),
        ("RL-based", []),
        ("author:AUTHOR", [p.id for p in PAPERS]),  # a name typed in capitals: no acronym
        ("AUCTIONS", ["auction"]),  # a long word typed in capitals: no acronym
    ],
)
def test_acronyms_typed_in_capitals(text, expected):
    assert _found(text) == expected


def test_the_users_own_words():
    notes = [
        Annotation("auc", note="we used AUC"),
        Annotation("auction", note="auction theory"),
        Annotation("rl", tags=("AUCs/ranking",)),
    ]
    assert _found("AUC", PAPERS[:5], notes) == ["auc", "aucs", "rl"]
    assert _found("auc", PAPERS[:5], notes) == ["auc", "auction", "aucs", "rl"]
    assert _found('"used AUC"', PAPERS[:5], notes) == ["auc"]
    assert _found('"auction theory"', PAPERS[:5], notes) == ["auction"]


def test_a_phrase_asks_for_its_acronyms_in_the_same_part():
    """The phrase's words in order, the acronym's capitals in the same title, abstract
    or note (not checked word for word: the index keeps no case of its words)."""
    papers = [
        Paper("same", "Pairwise AUC maximization", ("A. Author",), "Losses."),
        Paper("apart", "AUC bounds", ("B. Author",), "Pairwise auc maximization."),
        Paper("lower", "Pairwise auc maximization", ("C. Author",), "Losses."),
    ]
    notes = [Annotation("lower", tags=("AUC",), note="auc maximization")]
    assert _found('"AUC maximization"', papers, notes) == ["same"]
    assert _found('"auc maximization"', papers, notes) == ["same", "apart", "lower"]
    assert _found('title:"AUC maximization"', papers, notes) == ["same"]


def test_in_the_catalogues_index_in_a_file(tmp_path, monkeypatch):
    monkeypatch.setattr(catalogue_db, "SMALL_LIBRARY_BYTES", 0)
    assert _found("AUC", folder=tmp_path / "library") == ["auc", "aucs", "world"]


def test_an_index_made_by_the_old_rules_is_made_anew(tmp_path, monkeypatch):
    """A catalogue's index of the version before its words (4) would find nothing: it
    is set aside and made anew."""
    monkeypatch.setattr(catalogue_db, "SMALL_LIBRARY_BYTES", 0)
    folder = tmp_path / "library"
    path = LibraryFolder(folder).catalogue.path
    assert path is not None
    path.parent.mkdir(parents=True, exist_ok=True)
    old = sqlite3.connect(path)
    old.executescript("CREATE TABLE papers (id TEXT); PRAGMA user_version=4;")
    old.close()
    assert _found("AUC", folder=folder) == ["auc", "aucs", "world"]
    assert list(path.parent.glob(path.name + ".damaged-*"))


@pytest.mark.parametrize(
    "word, acronym",
    [("AUC", True), ("RL", True), ("GPT4", True), ("3DGS", True), ("3D", False)]
    + [("A", False), ("Auc", False), ("auc", False), ("AUCs", False), ("ΔΣ", False)]
    + [("AUROC", True), ("SPLADE", True), ("DIFFUSION", False)],  # (caps lock: a word)
)
def test_what_is_an_acronym(word, acronym):
    assert is_acronym(word) == acronym


def test_the_marks_of_a_text():
    text = "AUCs of DeepRL, RL-based GPT4o (3D, Auction), 中文AUC_RL"
    assert marks(text) == "".join(f" {MARK}{m}" for m in ("auc", "rl", "gpt4", "auc", "rl"))
    assert marks("Auction of auctions, 3D") == ""


def test_the_reader_pane_marks_what_the_search_finds():
    text = "AUC maximization beats auctions; an Auction of AUCs, not aUC."

    def marked(*terms):
        return [text[a:b] for a, b in mark_spans(text, terms)]

    assert marked("AUC") == ["AUC", "AUC"]
    assert marked("auc") == ["AUC", "auc", "Auc", "AUC", "aUC"]
    assert marked("AUC maximization") == ["AUC maximization"]
    assert marked("of AUC") == ["of AUC"]
    assert marked("an AUC") == []
