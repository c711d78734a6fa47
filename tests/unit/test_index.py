"""SearchIndex finds exactly what the one-paper-at-a-time reference (make_record) finds."""

from __future__ import annotations

import contextlib
import itertools
import string

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reader.core import index as index_module
from reader.core import user_texts
from reader.core.bitsets import groups, pack, rids, unpack
from reader.core.index import SearchIndex
from reader.core.library import Library
from reader.core.models import Annotation, Highlight, Paper, Status
from reader.core.query import parse
from reader.core.search_text import make_record, with_symbols
from reader.store import catalogue_db, search_db
from reader.store import catalogue_words as catalogue_words_module
from reader.store.catalogue_words import IndexWords
from reader.store.files import LibraryFolder
from reader.store.search_db import SearchDB
from tests.helpers.libraries import MemoryStore

#: makes a library folder in "file" mode (see `mode`); None: libraries in memory
_FOLDERS = {"make": None}


def make_library(papers, annotations=()):
    """A library of `papers`: in memory, or (in "file" mode) a library folder whose
    catalogue's index, with its words, is a file."""
    make = _FOLDERS["make"]
    if make is None:
        return Library(MemoryStore(papers, annotations))
    lib = Library(LibraryFolder(make()))
    lib.add_papers(papers)
    if annotations:
        lib.fill_if_empty(annotations)
    return lib


def reference(lib, text, ids=None):
    """The straightforward filter: every paper through make_record and the query's
    predicate. Ids not in the library match only the empty query."""
    query = parse(text)
    ids = lib.paper_ids() if ids is None else ids
    if query.is_empty:
        return list(ids)
    return [
        pid
        for pid in ids
        if pid in lib and query.matches(make_record(lib.full_paper(pid), lib.annotation(pid)))
    ]


@pytest.fixture(params=["memory", "file"])
def mode(request, monkeypatch, tmp_path):
    """Each test runs with papers in memory (their words in a database in memory), and
    in a library folder (their words in the catalogue's index, a file: a new one for
    each library, its words' rows read through numpy)."""
    if request.param == "file":
        made = itertools.count()
        monkeypatch.setattr(catalogue_db, "SMALL_LIBRARY_BYTES", 0)
        # (a word's rows taken through numpy, as a big library's broad words are)
        monkeypatch.setattr(catalogue_words_module, "NUMPY_FROM", 0)
        monkeypatch.setitem(_FOLDERS, "make", lambda: tmp_path / f"library-{next(made)}")
    return request.param


def catalogue_words(lib):
    """The catalogue's words as the library's store keeps them (else in memory)."""
    return lib.search_words() or SearchDB.in_memory()


def make_index(lib):
    index = SearchIndex(lib, catalogue_words(lib))
    assert index.warm()
    return index


PAPERS = [
    Paper(
        "kd",
        "DA-KD: Difficulty-Aware Knowledge Distillation",
        ("Changyi He", "Yoshua Bengio"),
        "Surpass the teacher with 4.7$\\times$ compression at $\\Theta(1/\\sqrt{N})$ cost.",
        "ICML 2025",
        2025,
    ),
    Paper(
        "flow",
        "Flow Matching for Rocktäschel Models",
        ("Tim Rocktäschel",),
        "We study flow matching and diffusion.",
        "NeurIPS 2023",
        2023,
    ),
    Paper(
        "diff",
        "Diffusion without flow",
        ("Ana Núñez",),
        "Plain diffusion; matching flow.",
        "ICLR",
        2021,
    ),
    Paper("k2", "$K^2$VAE: a TeX title", ("Zoë Ünal",), "", "", None),
]
ANNOTATIONS = [
    Annotation("kd", Status.READING, ("method/distillation", "rl"), "Great **idea**\nsecond line"),
    Annotation("flow", Status.READ, ("skip",), ""),
    Annotation("diff", highlights=(Highlight("h1", "Plain diffusion", comment="key claim"),)),
]


@pytest.mark.parametrize(
    "text, expected",
    [
        ("diffusion", ["flow", "diff"]),
        ('"flow matching"', ["flow"]),
        ("Theta", ["kd"]),
        ("Θ", ["kd"]),
        ("\\Theta", ["kd"]),
        ("4.7× compression", ["kd"]),
        ("diff", ["kd", "flow", "diff"]),  # a word's start: "Difficulty", "diffusion"
        ("usion", []),  # not inside a word
        ("rl", ["kd"]),  # the tag "rl"
        ("match flow", ["flow", "diff"]),
        ("k2vae", ["k2"]),
        ("title:rocktaschel", ["flow"]),
        ("title:plain", []),  # in the abstract, not the title
        ("author:zoe", ["k2"]),
        ("author:bengio diffusion", []),
        ("tag:method", ["kd"]),
        ("-tag:skip -has:abstract", ["k2"]),
        ("has:abstract status:unread", ["diff"]),
        ("year:<2024 OR venue:icml", ["kd", "flow", "diff"]),
        ("year:2020..2022", ["diff"]),
        ("idea second", ["kd"]),
        ('"line second"', []),
        ('"**idea** second"', ["kd"]),  # a note's line break is a space
        ("key claim", ["diff"]),
        ("(flow OR k2vae) -diffusion", ["k2"]),
    ],
)
def test_filter_table(mode, text, expected):
    lib = make_library(PAPERS, ANNOTATIONS)
    index = make_index(lib)
    assert reference(lib, text) == expected
    assert index.filter(parse(text), lib.paper_ids()) == expected


def test_an_index_made_in_parts_finds_what_one_made_at_once_does(monkeypatch):
    # MAKE_PART: a part is one paper or one annotation here, so that this small library is
    # made in several parts; what is checked is what the two indexes find
    monkeypatch.setattr(index_module, "MAKE_PART", 1)
    lib = make_library(PAPERS, ANNOTATIONS)
    making, parts = SearchIndex.in_steps(lib, catalogue_words(lib)), 0
    while True:
        try:
            next(making)
        except StopIteration as made:
            index = made.value
            break
        parts += 1
    assert parts > 1  # (made in parts: else this compares an index with itself)
    assert index.warm()
    at_once = make_index(lib)
    for text in (
        "diffusion",
        "status:reading",
        "tag:method",
        "has:note",
        "-status:unread",
        "key claim",
        "",
    ):
        assert index.filter(parse(text)) == at_once.filter(parse(text)), text
    assert index.tally(lib.paper_ids(), "status") == at_once.tally(lib.paper_ids(), "status")


def test_filter_keeps_the_given_order_and_skips_unknown_ids(mode):
    lib = make_library(PAPERS, ANNOTATIONS)
    index = make_index(lib)
    assert index.filter(parse("flow"), ["diff", "nope", "kd", "flow"]) == ["diff", "flow"]
    assert index.filter(parse(""), ["b", "a"]) == ["b", "a"]
    assert index.filter(parse("flow")) == ["flow", "diff"]


def test_typing_and_deleting_characters(mode):
    lib = make_library(PAPERS, ANNOTATIONS)
    index = make_index(lib)
    typed = "diffusion -flow"
    steps = [typed[:i] for i in range(1, len(typed) + 1)]
    steps += steps[::-1] + ["diffusion", "difference", "diff", "iff", "fusion m", "flow"]
    for text in steps:
        assert index.filter(parse(text), lib.paper_ids()) == reference(lib, text), text


def test_edits_are_seen_after_update(mode):
    lib = make_library(PAPERS, ANNOTATIONS)
    index = make_index(lib)
    lib.subscribe(lambda change: index.update(change.paper_ids))
    for text in ("xylophone", "tag:music", "status:read", "has:note", "great"):
        index.filter(parse(text), lib.paper_ids())  # fill the cache
    lib.set_note("diff", "A xylophone solo")
    lib.add_tags(["k2"], ["Music/Jazz"])
    lib.set_status(["kd", "diff"], Status.READ)
    lib.set_note("kd", "")
    assert index.filter(parse("xylophone"), lib.paper_ids()) == ["diff"]
    assert index.filter(parse("tag:music"), lib.paper_ids()) == ["k2"]
    assert index.filter(parse("jazz"), lib.paper_ids()) == ["k2"]
    assert index.filter(parse("status:read"), lib.paper_ids()) == ["kd", "flow", "diff"]
    assert index.filter(parse("has:note"), lib.paper_ids()) == ["diff"]
    assert index.filter(parse("great"), lib.paper_ids()) == []
    assert index.count_status(index.filter(parse("")), Status.READ) == 3


def test_count_is_the_length_of_what_filter_returns(mode):
    lib = make_library(PAPERS, ANNOTATIONS)
    index = make_index(lib)
    for text in (
        "",
        "diffusion",
        "tag:method",
        "-tag:skip -has:abstract",
        "year:<2024 OR venue:icml",
        "quokka",
    ):
        assert index.count(parse(text)) == len(reference(lib, text)), text


def test_new_and_changed_papers_are_seen(mode):
    store = MemoryStore(PAPERS, ANNOTATIONS)
    lib = Library(store)
    index = make_index(lib)
    lib.subscribe(lambda change: index.update(change.paper_ids))
    index.filter(parse("quokka"), lib.paper_ids())
    lib.add_papers(
        [
            Paper("new", "Quokka networks", ("A B",), "", "", 2020),
            Paper("flow", "Flow for quokkas", ("Tim Rocktäschel",), "", "NeurIPS 2023", 2023),
        ]
    )
    assert index.filter(parse("quokka"), lib.paper_ids()) == ["flow", "new"]
    assert index.filter(parse("year:2020"), lib.paper_ids()) == ["new"]
    assert index.filter(parse("diffusion"), lib.paper_ids()) == ["diff"]


def test_warming_in_slices_while_papers_change(mode, monkeypatch):
    monkeypatch.setattr(search_db, "STEP_PAPERS", 7)
    monkeypatch.setattr(catalogue_words_module, "STEP_ROWS", 7)
    monkeypatch.setattr(catalogue_words_module, "POSITION_STEP", 50)
    papers = [
        Paper(
            f"p{i}",
            f"Paper {i} on {'diffusion' if i % 3 else 'flow'}",
            ("Ana Núñez",),
            f"Abstract {i}",
        )
        for i in range(300)
    ]
    lib = Library(MemoryStore(papers))
    index = SearchIndex(lib, catalogue_words(lib))
    lib.subscribe(lambda change: index.update(change.paper_ids))
    queries_ = [
        "diffusion",
        "flow",
        "paper 1",
        "abstract 29",
        "author:nunez",
        "title:on flow",
        "quokka",
    ]
    step = 0
    while not index.warm(0):
        step += 1
        if step % 5 == 0:
            pid = f"p{step % 300}"
            lib.set_note(pid, f"quokka {step}")
        if step % 7 == 0:
            lib.add_papers([Paper(f"n{step}", "Quokka flow", ("B",), "")])
        text = queries_[step % len(queries_)]
        assert index.filter(parse(text), lib.paper_ids()) == reference(lib, text), (step, text)
    for text in queries_:
        assert index.filter(parse(text), lib.paper_ids()) == reference(lib, text)
    lib.add_papers([Paper(f"m{i}", f"Many {i}", (), "quokka") for i in range(20)])
    for text in queries_:
        assert index.filter(parse(text), lib.paper_ids()) == reference(lib, text)
    assert index.warm()


def test_catalogue_edits_while_and_after_the_words_are_brought_in_step(mode, monkeypatch):
    """Papers re-imported with new text, a few and many, while the index is prepared
    and after: their old words are found no more, their new ones are (many, as an
    import's, in steps of prepare(): a search meanwhile does the rest first)."""
    monkeypatch.setattr(search_db, "STEP_PAPERS", 7)
    monkeypatch.setattr(catalogue_words_module, "STEP_ROWS", 7)
    monkeypatch.setattr(index_module, "REWORD_AT_ONCE", 3)
    papers = [
        Paper(
            f"p{i}",
            f"Paper {i} on {'diffusion' if i % 3 else 'flow'}",
            (f"Author {i % 7}",),
            f"Abstract {i} of flow matching",
        )
        for i in range(100)
    ]
    lib = Library(MemoryStore(papers))
    index = SearchIndex(lib, catalogue_words(lib))
    lib.subscribe(lambda change: index.update(change.paper_ids))
    texts = [
        "diffusion",
        '"flow matching"',
        "quokka",
        "title:quokka",
        "author:author 3",
        '"of quokka"',
        "author:zebra",
        "matching -quokka",
    ]

    def renamed(i, word):
        return Paper(f"p{i}", f"Paper {i} on {word}", ("Zebra Author",), f"Abstract {i} of {word}")

    def check(where):
        for text in texts:
            assert index.filter(parse(text), lib.paper_ids()) == reference(lib, text), (where, text)

    step = 0
    while not index.warm(0):
        step += 1
        if step % 3 == 0:
            lib.add_papers([renamed(step % 100, "quokka")])
        check(step)
    check("warm")
    lib.add_papers([renamed(i, "quokka") for i in (5, 6)])
    check("a few")
    lib.add_papers([renamed(i, "quokka matching") for i in range(40, 60)])
    assert not index.prepare(deadline=0)  # (in steps)
    check("many")
    lib.add_papers([renamed(i, "zebra") for i in range(60, 80)])
    while not index.prepare(deadline=0):
        check("many, while in steps")
    assert index.warm()
    check("warm again")


def _sql(path, script):
    """Run `script` on the database at `path` as another program would."""
    import contextlib
    import sqlite3

    with contextlib.closing(sqlite3.connect(path)) as db:
        db.executescript(script)


def _file_library(tmp_path, monkeypatch, papers=PAPERS, name="library"):
    """A library folder of `papers` whose catalogue's index is a file, and its path."""
    monkeypatch.setattr(catalogue_db, "SMALL_LIBRARY_BYTES", 0)
    store = LibraryFolder(tmp_path / name)
    lib = Library(store)
    lib.add_papers(papers)
    assert store.catalogue.path is not None
    return lib, store.catalogue.path


def test_words_damaged_while_open_are_made_anew(tmp_path, monkeypatch):
    lib, path = _file_library(tmp_path, monkeypatch)
    index = SearchIndex(lib, catalogue_words(lib))
    assert index.filter(parse("diffusion"), lib.paper_ids()) == ["flow", "diff"]

    _sql(path, "DROP TABLE words")  # another program empties it under us
    assert index.filter(parse("flow"), lib.paper_ids()) == reference(lib, "flow")
    assert index.filter(parse("Theta"), lib.paper_ids()) == ["kd"]


def test_a_second_open_words_only_what_was_written_since(tmp_path, monkeypatch):
    """The words of an earlier open are kept: papers written anew, added or gone since
    are worded again or dropped, the rest is not read again."""
    import dataclasses

    lib, path = _file_library(tmp_path, monkeypatch)
    SearchIndex(lib, catalogue_words(lib)).warm()
    folder = tmp_path / "library"
    again = Library(LibraryFolder(folder))
    again.add_papers(
        [
            dataclasses.replace(PAPERS[0], title="Quokka distillation"),
            Paper("new", "Quokka networks", ("A B",), "", "", 2020),
        ]
    )
    again.delete_papers(["k2"])
    unworded = _sql_rows(path, "SELECT id FROM papers WHERE worded = 0 ORDER BY id")
    assert unworded == [("k2",), ("kd",), ("new",)]  # (k2: its words to drop)
    lib = Library(LibraryFolder(folder))
    index = SearchIndex(lib, catalogue_words(lib))
    for text in ("quokka", "knowledge", "k2vae", "title:distillation", "flow"):
        assert index.filter(parse(text), lib.paper_ids()) == reference(lib, text), text
    assert _sql_rows(path, "SELECT count(*) FROM papers WHERE worded = 0") == [(0,)]
    assert _sql_rows(path, "SELECT count(*) FROM words") == [(len(lib),)]


def _sql_rows(path, query):
    import sqlite3

    with contextlib.closing(sqlite3.connect(path)) as db:
        return db.execute(query).fetchall()


def test_what_the_user_wrote_is_found_before_any_warming():
    """Annotations are taken in when first needed (statuses at once): a search, the
    counts and an edit straight after opening all see them."""
    for first in ("search", "count", "tally", "edit"):
        lib = make_library(PAPERS, ANNOTATIONS)
        index = SearchIndex(lib, catalogue_words(lib))
        lib.subscribe(lambda change, index=index: index.update(change.paper_ids))
        if first == "count":
            assert index.count_status(lib.paper_ids(), Status.READ) == 1
        elif first == "tally":
            assert index.tally(lib.paper_ids(), "tag") == {
                "method": 1,
                "method/distillation": 1,
                "rl": 1,
                "skip": 1,
            }
        elif first == "edit":
            lib.set_note("flow", "quokka")
        for text in ("tag:method", "has:note", "key claim", "idea", "status:reading", "quokka"):
            assert index.filter(parse(text), lib.paper_ids()) == reference(lib, text), (first, text)


def test_annotations_taken_in_a_slice_at_a_time_and_edits_between_slices(monkeypatch):
    """prepare() takes the annotations in a few at a time: edits between its slices,
    and searches before it is done, see what the user wrote last."""
    monkeypatch.setattr(user_texts, "SETTLE_CHUNK", 1)
    for edit in ("note", "tags", "status"):
        lib = make_library(PAPERS, ANNOTATIONS)
        index = SearchIndex(lib, catalogue_words(lib))
        lib.subscribe(lambda change, index=index: index.update(change.paper_ids))
        assert not index.prepare(deadline=0)  # one annotation taken in, others left
        pending = [a.paper_id for a in ANNOTATIONS if not a.is_empty]
        assert len(pending) > 2
        pid = pending[0]
        if edit == "note":
            lib.set_note(pid, "quokka")
        elif edit == "tags":
            lib.set_tags(pid, ["marsupial"])
        else:
            lib.set_status([pid], Status.READ)
        while not index.prepare(deadline=0):
            pass
        for text in (
            "tag:method",
            "tag:marsupial",
            "has:note",
            "key claim",
            "idea",
            "status:reading",
            "status:read",
            "quokka",
        ):
            assert index.filter(parse(text), lib.paper_ids()) == reference(lib, text), (edit, text)


def test_tallies_follow_edits_of_what_the_user_wrote_and_of_the_catalogue():
    """Marking a paper read while triaging, retagging it, then a re-import that changes
    its venue and year: the facet counts and the searches follow each."""
    import dataclasses

    lib = make_library(PAPERS, ANNOTATIONS)
    index = SearchIndex(lib, catalogue_words(lib))
    lib.subscribe(lambda change: index.update(change.paper_ids))
    ids = lib.paper_ids()
    assert index.tally(ids, "venue") == {"ICML 2025": 1, "NeurIPS 2023": 1, "ICLR": 1}
    assert index.tally(ids, "tag")["rl"] == 1
    lib.set_status(["k2"], Status.READ)
    assert index.tally(ids, "status")["read"] == 2 and index.tally(ids, "tag")["rl"] == 1
    lib.set_tags("diff", ["later"])
    assert index.tally(ids, "venue") == {"ICML 2025": 1, "NeurIPS 2023": 1, "ICLR": 1}
    assert index.tally(ids, "tag")["later"] == 1 and index.tally(ids, "status")["read"] == 2
    for text in ("venue:icml", "year:>=2023", "status:read", "tag:later", "tag:rl", "-tag:later"):
        assert index.filter(parse(text), ids) == reference(lib, text), text
    lib.add_papers([dataclasses.replace(lib.paper("diff"), venue="ICML 2025", year=2025)])
    assert index.tally(ids, "venue") == {"ICML 2025": 2, "NeurIPS 2023": 1}
    assert index.tally(ids, "year") == {2025: 2, 2023: 1}
    for text in ("venue:icml", "year:>=2023", "year:2021"):
        assert index.filter(parse(text), ids) == reference(lib, text), text


def test_tag_groups_outlive_new_untagged_papers_and_follow_tagged_ones(mode, monkeypatch):
    # an import into a big library: its tags' groups (~0.15 s at 1M papers) are not
    # made again for papers that bring no tags; those that do bring tags count
    lib = make_library(PAPERS, ANNOTATIONS)
    index = make_index(lib)
    lib.subscribe(lambda change: index.update(change.paper_ids))
    made = []
    real = user_texts.UserTexts.tag_nodes
    monkeypatch.setattr(user_texts.UserTexts, "tag_nodes", lambda *a: made.append(1) or real(*a))
    ids = lib.paper_ids()
    assert index.tally(ids, "tag")["rl"] == 1 and len(made) == 1
    lib.add_papers([Paper("new1", "Quokka maps", ("A B",), "", "ICML 2025", 2025)])
    ids = lib.paper_ids()
    assert index.tally(ids, "tag")["rl"] == 1 and len(made) == 1
    assert index.tally(ids, "venue")["ICML 2025"] == 2  # (the catalogue's groups follow)
    lib.add_papers([Paper("new2", "Quokka roads", ("C D",), "", "ICLR", 2024)])
    lib.fill_if_empty([Annotation("new2", tags=("rl",))])
    ids = lib.paper_ids()
    assert index.tally(ids, "tag")["rl"] == 2 and len(made) == 2
    assert index.filter(parse("tag:rl"), ids) == reference(lib, "tag:rl")
    assert index.filter(parse("tag:rl quokka"), ids) == ["new2"]


def test_count_status(mode):
    lib = make_library(PAPERS, ANNOTATIONS)
    index = make_index(lib)
    shown = index.filter(parse("flow"), lib.paper_ids())
    assert index.count_status(shown, Status.READ) == 1
    assert index.count_status(list(shown), Status.UNREAD) == 1
    assert index.count_status(["kd", "nope"], Status.READING) == 1


def test_bitsets_round_trip():
    for n in (0, 1, 7, 8, 64, 1000):
        for members in ([], list(range(0, n, 3)), list(range(n))[-5:]):
            bits = sum(1 << r for r in members)
            assert rids(bits, n) == members
            assert pack(unpack(bits, n)) == bits


def test_records_of_big_sparse_and_dense_sets():
    n = 100_000
    for members in (
        list(range(5, n, 997)),
        list(range(0, n, 3)),
        list(range(64, 104)),
        [0, 7, 8, 9] + list(range(n - 40, n)),
        list(range(n - 2000, n, 61)),
    ):
        assert rids(sum(1 << r for r in members), n) == members


def test_with_symbols_renders_the_tex_around_each_macro():
    assert with_symbols("plain") == "plain"
    assert (
        with_symbols("a 4.7$\\times$ faster model") == "a 4.7$\\times$ faster model a 4.7× faster"
    )
    assert with_symbols("$\\Theta(1/\\sqrt{N})$") == "$\\Theta(1/\\sqrt{N})$ Θ(1/√N)"


# -- random libraries and random queries -----------------------------------------------

ALPHABET = "abcdeθΘéü ×\\$-"
words = st.text(ALPHABET, min_size=1, max_size=5).map(str.strip).filter(bool)
texts = st.lists(
    st.sampled_from(["ab", "abc", "b$c", "\\Theta", "dé", "ü", "θ", "x y", "a\nb"]) | words,
    max_size=6,
).map(" ".join)
tags = st.lists(st.sampled_from(["a", "a/b", "b", "Ab/c", "é"]), max_size=3, unique=True)


@st.composite
def libraries(draw):
    n = draw(st.integers(0, 12))
    papers, annotations = [], []
    for i in range(n):
        papers.append(
            Paper(
                f"p{i}",
                draw(texts),
                tuple(draw(st.lists(words, max_size=3))),
                draw(texts),
                draw(st.sampled_from(["", "ICML", "icml 2024", "NeurIPS"])),
                draw(st.sampled_from([None, 2021, 2023, 2025])),
            )
        )
        if draw(st.booleans()):
            annotations.append(
                Annotation(
                    f"p{i}",
                    draw(st.sampled_from(list(Status))),
                    tuple(draw(tags)),
                    draw(texts),
                    tuple(Highlight(f"h{i}", q) for q in draw(st.lists(words, max_size=1))),
                )
            )
    return papers, annotations


terms = words | st.sampled_from(["ab", "b c", "θ", "\\theta", "dé", "de", "x", "a b"]).map(
    lambda w: f'"{w}"'
)
fields = st.sampled_from(
    [
        "tag:a",
        "tag:a/b",
        "tag:é",
        "status:read",
        "status:unread",
        "has:note",
        "has:tags",
        "has:abstract",
        "has:highlight",
        "year:2023",
        "year:>=2023",
        "year:2021..2023",
        "venue:icml",
        "author:a",
        "author:é",
        "title:ab",
        "title:θ",
    ]
)


@st.composite
def queries(draw, depth=2):
    parts = []
    for _ in range(draw(st.integers(1, 3))):
        atom = draw(terms | fields)
        if depth and draw(st.integers(0, 4)) == 0:
            atom = f"({draw(queries(depth=depth - 1))})"
        parts.append(("-" if draw(st.integers(0, 3)) == 0 else "") + atom)
        if draw(st.integers(0, 3)) == 0:
            parts.append("OR")
    return " ".join(parts)


@settings(
    max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(library=libraries(), texts_=st.lists(queries(), min_size=1, max_size=4))
def test_filter_agrees_with_the_reference(mode, library, texts_):
    lib = make_library(*library)
    index = make_index(lib)
    for text in texts_:
        for prefix in (text, text[: len(text) // 2], text):  # cached and narrowed paths too
            assert index.filter(parse(prefix), lib.paper_ids()) == reference(lib, prefix), prefix


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(library=libraries(), first=queries(), second=queries(), data=st.data())
def test_filter_agrees_in_any_order_and_over_its_own_results(mode, library, first, second, data):
    lib = make_library(*library)
    index = make_index(lib)
    known = lib.paper_ids()
    order = data.draw(st.permutations(known)) + data.draw(
        st.lists(st.sampled_from(known + ["ghost"]), max_size=3)
    )
    for _ in range(2):  # the second time the order is remembered
        shown = index.filter(parse(first), order)
        assert shown == reference(lib, first, order)
        assert index.filter(parse(second), shown) == reference(lib, second, shown)
        assert index.filter(parse(second), list(shown)) == reference(lib, second, shown)
    assert index.count_status(shown, Status.READ) == sum(
        lib.status(pid) is Status.READ for pid in shown if pid in lib
    )


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(library=libraries(), text=queries(), note=texts, tag_list=tags)
def test_filter_agrees_after_edits(mode, library, text, note, tag_list):
    lib = make_library(*library)
    if not len(lib):
        return
    index = make_index(lib)
    lib.subscribe(lambda change: index.update(change.paper_ids))
    index.filter(parse(text), lib.paper_ids())
    pid = lib.paper_ids()[0]
    lib.set_note(pid, note)
    lib.set_tags(pid, tag_list)
    lib.set_status([pid], Status.READ)
    assert index.filter(parse(text), lib.paper_ids()) == reference(lib, text)


TRICKY = "θΘéüßẞİΐǅﬃ×√ℓΣςꭰᏸ한Ωµ\u0301\u0323\u05b0\u0591\u093c\u00a0\u2028𝒪"


@settings(max_examples=500)
@given(st.text(string.printable + TRICKY, max_size=40) | st.text(max_size=20))
def test_key_bytes_is_search_key(text):
    from reader.core.search_text import key_bytes
    from reader.core.text import search_key

    assert key_bytes(text) == search_key(text).encode("utf-8", "surrogatepass")


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(library=libraries(), text=queries(), data=st.data())
def test_tally_agrees_with_count_facets(mode, library, text, data):
    from reader.core.facets import count_facets

    lib = make_library(*library)
    index = make_index(lib)
    order = data.draw(st.permutations(lib.paper_ids()))
    for ids in (index.filter(parse(text), order), lib.paper_ids(), order[: len(order) // 2]):
        facets = count_facets(lib, ids)
        assert index.tally(ids, "status") == facets.status
        assert index.tally(ids, "tag") == facets.tags
        assert index.tally(ids, "venue") == facets.venue
        assert index.tally(ids, "year") == facets.year


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.one_of(
            st.none(), st.integers(2015, 2026), st.sampled_from(["ICML", "NeurIPS", "", "ICLR"])
        ),
        max_size=300,
    ),
    st.integers(0, 80),
)
def test_groups_are_the_records_of_each_value(values, spread):
    values = values + [f"venue {i}" for i in range(spread)]  # past FEW_VALUES distinct, sometimes
    alive = (1 << len(values)) - 1 & ~0b101  # two records gone
    expected = {v: sum(1 << r for r, w in enumerate(values) if w == v) & alive for v in set(values)}
    assert groups(values, alive) == expected


def test_tallies_prepared_a_step_at_a_time_are_the_facet_counts():
    from reader.core.facets import count_facets

    lib = make_library(PAPERS, ANNOTATIONS)
    index = make_index(lib)
    for _ in range(10):  # (a field a step: the window's idle steps)
        if index.prepare_tallies():
            break
    else:
        raise AssertionError("the tallies were never prepared")
    ids = lib.paper_ids()
    facets = count_facets(lib, ids)
    assert (
        index.tally(ids, "tag")
        == facets.tags
        == {
            "method": 1,
            "method/distillation": 1,
            "rl": 1,
            "skip": 1,
        }
    )
    assert index.tally(ids, "year") == facets.year == {2025: 1, 2023: 1, 2021: 1}
    assert index.tally(ids, "venue") == facets.venue
    assert index.tally(ids, "status") == facets.status


def test_the_tags_groups_made_a_part_at_a_time_follow_tags_edited_meanwhile(monkeypatch):
    # (at 1M papers the tags' groups take ~60 ms: made TAG_PART records a step, so
    # that the window is never held that long; an edit of tags meanwhile starts anew)
    from reader.core.facets import count_facets

    monkeypatch.setattr(user_texts, "TAG_PART", 1)
    lib = make_library(PAPERS, ANNOTATIONS)
    index = make_index(lib)
    lib.subscribe(lambda change: index.update(change.paper_ids))
    steps = []
    index.prepare_tallies()  # (one record's tags grouped)
    lib.set_tags("diff", ["later/now"])  # (retagged: grouped anew)
    lib.set_status(["kd"], Status.READ)  # (tags left alone: the grouping goes on)
    for _ in range(30):
        steps.append(1)
        if index.prepare_tallies():
            break
    else:
        raise AssertionError("the tallies were never prepared")
    assert len(steps) > 4  # (a tagged record a step, then the venues and years)
    ids = lib.paper_ids()
    assert index.tally(ids, "tag") == count_facets(lib, ids).tags
    assert index.tally(ids, "tag")["later/now"] == 1


_ANNOTATIONS = st.builds(
    lambda status, tags, note, quotes: Annotation(
        "", status, tags, note, tuple(Highlight(q, q) for q in quotes)
    ),
    st.sampled_from(list(Status)),
    st.sampled_from([(), ("a",), ("a", "b/c"), ("Ünï",)]),
    st.sampled_from(["", " ", "a note", "Θ"]),
    st.sampled_from([(), ("quoted",)]),
)


@given(st.lists(st.tuples(st.integers(0, 3), _ANNOTATIONS), max_size=12))
def test_what_the_user_wrote_follows_edits_as_if_read_afresh(edits):
    papers = [Paper(f"p{i}", f"Title {i}") for i in range(4)]
    texts = user_texts.UserTexts(len(papers))
    final: dict[int, Annotation] = {}
    for r, ann in edits:
        texts.annotate(r, ann)
        final[r] = ann
    fresh = user_texts.UserTexts(len(papers))
    fresh.take_statuses(
        ((f"p{r}", ann) for r, ann in final.items()), {f"p{i}": i for i in range(4)}
    )
    fresh.settle()
    assert texts.status == fresh.status
    assert (texts.notes, texts.tags, texts.has) == (fresh.notes, fresh.tags, fresh.has)


@given(st.lists(st.integers(0, 30)))
def test_runs_cover_exactly_the_rows_given(rows):
    from reader.core.orders import runs

    found = list(runs(sorted(rows)))
    assert [r for first, last in found for r in range(first, last + 1)] == sorted(set(rows))
    assert all(b[0] > a[1] + 1 for a, b in itertools.pairwise(found))  # runs apart, never touching


@settings(max_examples=300)
@given(st.integers(1, 700), st.data())
def test_select_picks_the_records_in_the_order_given_sparse_or_dense(n, data):
    """The ids of a set of records in an order: few of them (picked one by one) or
    many (a mask of every record), in the library's order or any other, with ids the
    index does not know and ids given twice, and again after papers were added."""
    from reader.core.bitsets import SPARSE_SHIFT
    from reader.core.orders import Orders

    given = [f"p{r}" for r in range(n)]
    ids = [(pid + " ")[:-1] for pid in given]
    rid = {pid: r for r, pid in enumerate(ids)}
    orders = Orders(ids, given, rid)
    few = st.sets(st.integers(0, n - 1), max_size=max(0, (n >> SPARSE_SHIFT) - 1))
    for _ in range(3):
        chosen = data.draw(few | st.sets(st.integers(0, n - 1)))
        bits = sum(1 << r for r in chosen)
        listed = data.draw(st.permutations(given)) if data.draw(st.booleans()) else list(given)
        listed = listed[: data.draw(st.integers(0, n))]
        listed += data.draw(st.lists(st.sampled_from([*given, "ghost"]), max_size=3))
        order = None if listed == given else orders.order(listed)
        expected = [
            pid for pid in (listed if order else given) if pid in given and int(pid[1:]) in chosen
        ]
        assert orders.select(bits, order) == expected
        assert orders.select(bits, order) == expected  # the order's places, made once
        if data.draw(st.booleans()):
            given.append(f"p{n}")
            ids.append(given[-1])
            rid[ids[-1]] = n
            n += 1
            orders.forget_orders()


@given(
    st.dictionaries(
        st.integers(0, 9),
        st.sampled_from([("a",), ("a/b",), ("a/b", "a/c"), ("x/y/z", "a"), ("A/b",)]),
    )
)
def test_tag_nodes_hold_each_records_tags_and_their_parents(tagged):
    papers = [Paper(f"p{i}", f"Title {i}") for i in range(10)]
    texts = user_texts.UserTexts(len(papers))
    for r, tags in tagged.items():
        texts.annotate(r, Annotation(f"p{r}", tags=tags))
    expected: dict[str, set[int]] = {}
    for r, tags in tagged.items():
        for tag in tags:
            parts = tag.split("/")
            for i in range(len(parts)):
                expected.setdefault("/".join(parts[: i + 1]), set()).add(r)
    nodes = texts.tag_nodes(lambda r: tagged[r])
    assert {node: set(rids(bits, 10)) for node, bits in nodes.items()} == expected


def test_words_found_on_a_thread_of_their_own_are_what_filter_would_find(tmp_path, monkeypatch):
    import threading

    lib, _path = _file_library(tmp_path, monkeypatch)
    index = SearchIndex(lib, catalogue_words(lib))
    lib.subscribe(lambda change: index.update(change.paper_ids))
    assert index.fetch_words([("diffusion", None)]) is None  # not in step yet
    assert index.warm()
    text = 'diffusion author:zoe title:flow "key claim" -idea'
    wanted = index.words_wanted(parse(text))
    assert sorted(wanted, key=str) == sorted(
        [("diffusion", None), ("zoe", 0), ("flow", 1), ("key claim", None), ("idea", None)],
        key=str,
    )
    where = []
    find = IndexWords.find

    def spied(self, words, column, n):
        where.append(threading.current_thread() is threading.main_thread())
        return find(self, words, column, n)

    monkeypatch.setattr(IndexWords, "find", spied)
    assert index.take_words(index.fetch_words(wanted).result())
    assert where and not any(where)  # looked up off the main thread
    assert index.words_wanted(parse(text)) == []
    where.clear()
    for query in (text, "diffusion", '"key claim"', "-idea"):
        assert index.filter(parse(query), lib.paper_ids()) == reference(lib, query), query
    assert where == []  # all found before: nothing looked up on this thread
    fetched = index.fetch_words(index.words_wanted(parse("quokka")))
    lib.add_papers([Paper("q", "Quokka networks", ("A B",), "", "", 2020)])  # meanwhile
    assert not index.take_words(fetched.result())  # stale: not taken
    assert index.filter(parse("quokka"), lib.paper_ids()) == ["q"]
    lib.set_note("flow", "a quokka")  # what the user wrote is the index's own
    fetched = index.fetch_words(index.words_wanted(parse("quok")))
    assert index.take_words(fetched.result())
    assert index.filter(parse("quok"), lib.paper_ids()) == ["flow", "q"]
    # typed a key at a time: what the user wrote looked for only where a start of the
    # words was (the notes of the papers the catalogue's words lack), never fewer
    lib.set_note("diff", "a quoll, then a quokka")
    lib.set_note("kd", "a quoll")
    for typed in ("qu", "quo", "quol", "quo", "quok", "quokk", "q"):
        fetched = index.fetch_words(index.words_wanted(parse(typed)))
        assert fetched is None or index.take_words(fetched.result())
        assert index.filter(parse(typed), lib.paper_ids()) == reference(lib, typed), typed
    index.close()
    memory = SearchIndex(lib, SearchDB.in_memory())
    memory.warm()
    assert memory.fetch_words([("diffusion", None)]) is None  # (no twin: found on this thread)


def test_words_wait_while_the_catalogue_takes_files_in_and_a_search_waits_for_them(
    tmp_path, monkeypatch
):
    # an index made anew takes the library's files in on a thread of its own: the
    # words are made after (no idle step competes with it for the index), a search
    # that needs them all waits
    import threading
    import time

    lib, path = _file_library(tmp_path, monkeypatch)
    taking = threading.Event()
    taking.set()
    monkeypatch.setattr(catalogue_db.CatalogueDB, "taking", lambda self: taking.is_set())
    index = SearchIndex(lib, catalogue_words(lib))
    assert not index.prepare(0.5) and index.waiting  # (at once: it does not spin)
    assert _sql_rows(path, "SELECT count(*) FROM papers WHERE worded = 1") == [(0,)]
    threading.Timer(0.2, taking.clear).start()
    start = time.perf_counter()
    assert index.filter(parse("diffusion"), lib.paper_ids()) == ["flow", "diff"]
    assert time.perf_counter() - start >= 0.15  # (it waited for the files)
    assert index.prepare() and not index.waiting


def test_positions_looked_up_while_another_program_adds_papers(tmp_path, monkeypatch):
    # the ids are not the rows in their order, so each row's position is looked up;
    # papers written between its reads (an import's worker) must not break it
    lib, path = _file_library(tmp_path, monkeypatch)
    added = iter(range(1000))

    class Writing:
        """A connection that has another program add a paper before each query."""

        def __init__(self, db):
            self._db = db

        def execute(self, *args):
            n = next(added)
            _sql(
                path,
                "INSERT INTO papers (id, rank, title, authors, has_abstract, venue, url,"
                " presentation, track, doi, arxiv, source, title_derived, added, pdf,"
                f" keywords, primary_area) VALUES ('new{n}', 'z', 'Quokka', '', 0, '', '',"
                " '', '', '', '', '', 0, '', '', '', '')",
            )
            return self._db.execute(*args)

    reading = catalogue_db.CatalogueDB.reading

    @contextlib.contextmanager
    def writing_between(self):
        with reading(self) as db:
            yield Writing(db)

    monkeypatch.setattr(catalogue_db.CatalogueDB, "reading", writing_between)
    ids = list(reversed(lib.paper_ids()))
    index = SearchIndex(lib, catalogue_words(lib))
    assert index.filter(parse("diffusion"), ids) == ["diff", "flow"]
    assert index.filter(parse("quokka"), ids) == []  # (papers not among `ids`)
    assert next(added) > 3
