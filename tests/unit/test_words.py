"""Search matches whole words and word prefixes (reader.core.words), in the SQLite
index as in the reference, on real abstracts."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from reader.core.index import SearchIndex
from reader.core.library import Library
from reader.core.models import Annotation, Paper
from reader.core.query import parse
from reader.core.search_text import make_record, mark_spans
from reader.core.text import search_key
from reader.core.words import contains, spaced, word_text
from reader.store.search_db import SearchDB
from tests.helpers.libraries import MemoryStore

SCREENING = Path(__file__).resolve().parents[1] / "data" / "screening"


def _index(papers, annotations=()):
    lib = Library(MemoryStore(papers, annotations))
    return lib, SearchIndex(lib, SearchDB.in_memory())


def _found(papers, text, annotations=()):
    lib, index = _index(papers, annotations)
    found = index.filter(parse(text))
    reference = [p.id for p in papers if parse(text).matches(make_record(p, lib.annotation(p.id)))]
    assert found == reference, text
    return found


@pytest.mark.parametrize(
    "key, words",
    [
        ("rl-based agents", "rl based agents"),
        ("k²vae", "k²vae"),
        ("4.7× faster", "4 7 × faster"),
        ("a_b", "a b"),
        ("扩散模型的研究", "扩散 散模 模型 型的 的研 研究"),
        ("gpt4中文", "gpt4 中文"),
        ("一", "一"),
        ("", ""),
        ("--", ""),
    ],
)
def test_word_text(key, words):
    assert word_text(key) == words


def test_contains_is_a_phrase_of_whole_words_the_last_a_prefix():
    hay = spaced("ising model of promising magnets", "flow matching")
    assert contains(hay, "ising") and contains(hay, "ising mod") and contains(hay, "prom")
    assert not contains(hay, "rising") and not contains(hay, "sing")
    assert not contains(hay, "model ising")  # order counts
    assert not contains(hay, "magnets flow")  # not across parts


PAPERS = [
    Paper("ising", "The Ising model revisited", ("A. Author",), "A promising result on spins."),
    Paper("rlhf", "RLHF for dialogue", ("B. Author",), "Reward models from human feedback."),
    Paper("world", "World models", ("C. Author",), "Raising the bar for planning."),
    Paper("tr", "Transformers are graph networks", ("D. Author",), "We transform graphs."),
    Paper("rl", "Offline RL", ("E. Author",), "Q-learning, conservatively."),
    Paper("zh", "扩散模型的研究", ("王小明",), "我们研究图像生成的扩散模型。"),
    Paper("mix", "Diffusion 扩散 policies", ("F. Author",), ""),
]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Ising", ["ising"]),  # not "promising", "raising"
        ("ising", ["ising"]),
        ('"Ising model"', ["ising"]),
        ('"model Ising"', []),  # a phrase keeps its order
        ("transform", ["tr"]),  # a prefix: "Transformers", "transform"
        ("RL", ["rlhf", "rl"]),  # "RLHF", "RL"; not "world"
        ("orld", []),
        ("title:world", ["world"]),
        ("扩散", ["zh", "mix"]),  # any run of two or more characters
        ("模型", ["zh"]),
        ("散模型", ["zh"]),
        ("图像生成", ["zh"]),
        ("小明", ["zh"]),  # in the authors
        ("扩散 diffusion", ["mix"]),  # a mixed query
        ("型图", []),  # not a run of the text
    ],
)
def test_words_found(text, expected):
    assert _found(PAPERS, text) == expected


def test_notes_and_tags_match_by_words_too():
    notes = [Annotation("rl", tags=("method/rl",), note="Compare with the promising one")]
    assert _found(PAPERS, "promising", notes) == ["ising", "rl"]
    assert _found(PAPERS, "mising", notes) == []
    assert _found(PAPERS, "method", notes) == ["rl"]


def test_marks_only_what_the_search_finds():
    text = "A promising Ising model; Ising-like."
    assert [text[a:b] for a, b in mark_spans(text, ["ising"])] == ["Ising", "Ising"]
    zh = "扩散模型"
    assert [zh[a:b] for a, b in mark_spans(zh, ["散模"])] == ["散模"]


def _real_papers() -> list[Paper]:
    with open(SCREENING / "ijcai21-kr.csv", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    return [
        Paper(f"p{i}", r["title"], tuple(r["authors"].split(", ")), r["abstract"])
        for i, r in enumerate(rows)
    ]


def test_on_real_abstracts_a_word_finds_words_not_their_insides():
    """IJCAI 2021's papers: "ising" occurs inside words ("promising", "raising")
    of dozens and as no word; "RL" inside "world", "control"... but only some
    papers say RL."""
    papers = _real_papers()
    lib, index = _index(papers)

    def inside(term):
        return [p.id for p in papers if term in f"{p.title} {p.abstract}".lower()]

    assert len(inside("ising")) > 30 and index.filter(parse("Ising")) == []
    rl = index.filter(parse("RL"))
    assert 0 < len(rl) < len(inside("rl")) / 4
    for pid in rl:
        paper = lib.paper(pid)
        assert contains(spaced(search_key(paper.title), search_key(paper.abstract)), "rl")
    found = index.filter(parse('"reinforcement learning"'))
    assert set(found) <= set(index.filter(parse("reinforcement")))
    assert found == [
        p.id for p in papers if parse('"reinforcement learning"').matches(make_record(p, None))
    ]


def test_relevance_puts_title_matches_and_the_users_own_words_first():
    papers = [
        Paper("abs", "Graph networks", ("A. Author",), "We use diffusion, as diffusion does."),
        Paper("title", "Diffusion models", ("B. Author",), "Generative models."),
        Paper("none", "Planning", ("C. Author",), "Search in graphs."),
        Paper("noted", "Policies", ("D. Author",), "Control."),
    ]
    notes = [Annotation("noted", note="compare with diffusion policies")]
    lib, index = _index(papers, notes)
    query = parse("diffusion")
    found = index.filter(query)
    assert found == ["abs", "title", "noted"]  # library order
    assert index.ranked(query, found) == ["noted", "title", "abs"]
    both = parse("diffusion graph")
    assert index.ranked(both, index.filter(both)) == ["abs"]
    assert index.ranked(parse("-diffusion"), ["none"]) == ["none"]  # no words: as given
    either = parse("diffusion OR planning")
    ranked = index.ranked(either, index.filter(either))
    assert ranked[0] == "noted" and set(ranked) == {"abs", "title", "none", "noted"}
