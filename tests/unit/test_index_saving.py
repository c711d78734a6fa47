"""A big catalogue's search index is saved once built and taken up again the next
time the same papers are opened: never for other papers, never from a damaged copy."""

from __future__ import annotations

import tempfile
import time

import pytest

from reader.core import index as index_module
from reader.core import index_saving, record_texts
from reader.core.index import SearchIndex
from reader.core.library import Library
from reader.core.models import Annotation, Paper, Status
from reader.core.query import parse
from reader.store import search_cache
from reader.store.search_cache import SearchCache
from tests.unit.test_index import MemoryStore, reference

QUERIES = [
    "diffusion",
    '"flow matching"',
    "author:nunez",
    "title:paper 1",
    "quokka",
    "theta -flow",
    "status:read",
    "zz",
]


def papers(count=120, word="diffusion"):
    return [
        Paper(
            f"p{i}",
            f"Paper {i} on {word if i % 3 else 'flow'}",
            ("Ana Núñez", f"B{i % 5}"),
            f"Abstract {i} of flow matching with $\\Theta({i})$",
        )
        for i in range(count)
    ]


@pytest.fixture(autouse=True)
def small_is_big(monkeypatch):
    monkeypatch.setattr(index_module, "TOKEN_INDEX_MIN", 0)


def open_index(lib, cache, steps=None):
    index = SearchIndex(lib, spill=tempfile.TemporaryFile, saved=cache)
    if steps is None:
        assert index.warm()
    return index


def forbid_keying(monkeypatch):
    def keyed(paper):
        raise AssertionError("texts were made again")

    monkeypatch.setattr(record_texts, "catalogue_key", keyed)


def test_taken_up_by_the_next_open_of_the_same_papers(tmp_path, monkeypatch):
    cache = SearchCache(tmp_path / "papers.json", tmp_path)
    open_index(Library(MemoryStore(papers())), cache)
    assert cache.index_path.exists()
    lib = Library(MemoryStore(papers(), [Annotation("p4", Status.READ, note="quokka")]))
    with monkeypatch.context() as patch:
        forbid_keying(patch)
        index = open_index(lib, cache)
        for text in QUERIES:
            assert index.filter(parse(text), lib.paper_ids()) == reference(lib, text), text
    lib.subscribe(lambda change: index.update(change.paper_ids))
    lib.add_papers(
        [Paper("p7", "Quokka flow", ("Zoë",), "new text"), Paper("new", "Theta quokka", (), "")]
    )
    for text in QUERIES:  # the saved texts are copied before anything is written
        assert index.filter(parse(text), lib.paper_ids()) == reference(lib, text), text
    assert index.warm()


def test_a_search_before_warming_takes_up_the_saved_index_rather_than_build(tmp_path, monkeypatch):
    cache = SearchCache(tmp_path / "papers.json", tmp_path)
    open_index(Library(MemoryStore(papers())), cache)
    lib = Library(MemoryStore(papers()))
    index = SearchIndex(lib, spill=tempfile.TemporaryFile, saved=cache)
    forbid_keying(monkeypatch)
    assert index.filter(parse("diffusion"), lib.paper_ids()) == reference(lib, "diffusion")


def test_other_papers_build_their_own(tmp_path, monkeypatch):
    cache = SearchCache(tmp_path / "papers.json", tmp_path)
    open_index(Library(MemoryStore(papers())), cache)
    made = []
    keyed = record_texts.catalogue_key
    monkeypatch.setattr(record_texts, "catalogue_key", lambda p: made.append(p) or keyed(p))
    for changed in (papers(word="quokka"), papers(121), papers()[:-1]):
        made.clear()
        lib = Library(MemoryStore(changed))
        index = open_index(lib, cache)
        assert len(made) == len(changed)
        for text in QUERIES:
            assert index.filter(parse(text), lib.paper_ids()) == reference(lib, text), text


@pytest.mark.parametrize("damage", ["index byte", "index cut", "texts cut", "texts gone", "length"])
def test_a_damaged_copy_is_not_used(tmp_path, damage):
    cache = SearchCache(tmp_path / "papers.json", tmp_path)
    open_index(Library(MemoryStore(papers())), cache)
    (texts,) = cache.index_path.parent.glob("*.texts")
    if (
        damage == "length"
    ):  # the header's length of what follows: 2**62 bytes, no such buffer is made
        data = bytearray(cache.index_path.read_bytes())
        at = search_cache._HEADER.size - 12
        data[at : at + 8] = (1 << 62).to_bytes(8, "little")
        cache.index_path.write_bytes(bytes(data))
    elif damage == "index byte":
        data = bytearray(cache.index_path.read_bytes())
        data[-100] ^= 0xFF
        cache.index_path.write_bytes(bytes(data))
    elif damage == "index cut":
        cache.index_path.write_bytes(cache.index_path.read_bytes()[:-10])
    elif damage == "texts cut":
        texts.write_bytes(texts.read_bytes()[:-1])
    else:
        texts.unlink()
    lib = Library(MemoryStore(papers()))
    index = open_index(lib, cache)
    for text in QUERIES:
        assert index.filter(parse(text), lib.paper_ids()) == reference(lib, text), text


def test_papers_changed_while_the_digest_is_made_are_not_taken_up(tmp_path, monkeypatch):
    monkeypatch.setattr(index_saving, "DIGEST_CHUNK", 10)
    cache = SearchCache(tmp_path / "papers.json", tmp_path)
    open_index(Library(MemoryStore(papers())), cache)
    lib = Library(MemoryStore(papers()))
    index = SearchIndex(lib, spill=tempfile.TemporaryFile, saved=cache)
    lib.subscribe(lambda change: index.update(change.paper_ids))
    assert not index.warm(0)  # p1 is in the part of the digest already made
    lib.add_papers([Paper("p1", "Quokka", (), "")])
    assert index.warm()
    for text in QUERIES:
        assert index.filter(parse(text), lib.paper_ids()) == reference(lib, text), text


def test_the_saved_index_is_read_a_part_per_step_and_not_taken_up_if_edited_meanwhile(
    tmp_path, monkeypatch
):
    cache = SearchCache(tmp_path / "papers.json", tmp_path)
    open_index(Library(MemoryStore(papers())), cache)
    monkeypatch.setattr(search_cache, "LOAD_STEP", 1 + cache.index_path.stat().st_size // 5)
    reads: list[int] = []
    real_open = open

    class Counted:  # the index file, its reads counted
        def __init__(self, file):
            self.file = file

        def __getattr__(self, name):
            return getattr(self.file, name)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.file.close()

        def readinto(self, view):
            reads.append(len(view))
            return self.file.readinto(view)

    monkeypatch.setattr(
        search_cache,
        "open",
        lambda path, mode="r": (
            Counted(real_open(path, mode)) if path == cache.index_path else real_open(path, mode)
        ),
        raising=False,
    )
    for edit in (False, True):
        reads.clear()
        lib = Library(MemoryStore(papers()))
        index = SearchIndex(lib, spill=tempfile.TemporaryFile, saved=cache)
        lib.subscribe(lambda change, index=index: index.update(change.paper_ids))
        steps = 0
        while not index.prepare(0):
            steps += 1
            if edit and len(reads) == 2:
                lib.add_papers([Paper("p1", "Quokka", (), "")])
        assert len(reads) == 5 and steps > 5  # read a part per step
        with monkeypatch.context() as patch:
            if not edit:  # taken up: no text made again
                forbid_keying(patch)
            for text in QUERIES:
                assert index.filter(parse(text), lib.paper_ids()) == reference(lib, text), text


class BuiltHere(SearchCache):
    """A cache that has no builder process (as on Windows)."""

    def build_elsewhere(self, *args):
        return None


def test_an_edit_while_saving_stops_the_save_and_leaves_no_file(tmp_path, monkeypatch):
    monkeypatch.setattr(search_cache, "COPY_STEP", 256)
    cache = BuiltHere(tmp_path / "papers.json", tmp_path)
    lib = Library(MemoryStore(papers()))
    index = SearchIndex(lib, spill=tempfile.TemporaryFile, saved=cache)
    lib.subscribe(lambda change: index.update(change.paper_ids))
    steps = 0
    while not list((tmp_path / "search").glob(".*")):  # the texts' temporary file
        assert not index.warm(0)
        steps += 1
        assert steps < 10_000
    assert not index.warm(0)
    lib.add_papers([Paper("p3", "Quokka", (), "")])
    assert index.warm()
    assert list((tmp_path / "search").iterdir()) == []
    assert index.filter(parse("quokka"), lib.paper_ids()) == ["p3"]


def test_a_cache_folder_that_cannot_be_written_costs_only_time(tmp_path):
    (tmp_path / "search").write_text("a file where the folder would be")
    cache = SearchCache(tmp_path / "papers.json", tmp_path)
    lib = Library(MemoryStore(papers()))
    index = open_index(lib, cache)
    assert index.filter(parse("diffusion"), lib.paper_ids()) == reference(lib, "diffusion")
    assert open_index(lib, cache).filter(parse("flow"), lib.paper_ids()) == reference(lib, "flow")


def warm_in_slices(index):
    for _ in range(3000):
        if index.warm(0.005):
            return
        time.sleep(0.005)
    raise AssertionError("never warm")


def test_a_builder_process_builds_and_saves_what_the_window_takes_up(tmp_path, monkeypatch):
    cache = SearchCache(tmp_path / "papers.json", tmp_path)
    lib = Library(MemoryStore(papers(), [Annotation("p4", Status.READ, note="quokka")]))
    index = SearchIndex(lib, spill=tempfile.TemporaryFile, saved=cache)
    lib.subscribe(lambda change: index.update(change.paper_ids))
    built_here = []
    monkeypatch.setattr(index_module.TokenIndex, "step", lambda *args: built_here.append(1))
    warm_in_slices(index)
    assert not built_here and cache.index_path.exists()
    for text in QUERIES:
        assert index.filter(parse(text), lib.paper_ids()) == reference(lib, text), text
    lib.add_papers(
        [Paper("p7", "Quokka flow", ("Zoë",), "new text"), Paper("new", "Theta quokka", (), "")]
    )
    for text in QUERIES:  # the texts lent to the builder are copied before anything is written
        assert index.filter(parse(text), lib.paper_ids()) == reference(lib, text), text


def test_edits_while_the_builder_works_are_searched_right_and_a_failed_builder_is_built_here(
    tmp_path, monkeypatch
):
    for builder in ("edited", "failing"):
        cache = SearchCache(tmp_path / builder / "papers.json", tmp_path / builder)
        if builder == "failing":
            monkeypatch.setattr(search_cache, "BUILDER", "reader.no_such_module")
        lib = Library(MemoryStore(papers()))
        index = SearchIndex(lib, spill=tempfile.TemporaryFile, saved=cache)
        lib.subscribe(lambda change, index=index: index.update(change.paper_ids))
        while index._saving._builder is None:
            assert not index.warm(0.005)
        lib.add_papers([Paper("p2", "Quokka", (), "")])
        for text in QUERIES:
            assert index.filter(parse(text), lib.paper_ids()) == reference(lib, text), (
                builder,
                text,
            )
        warm_in_slices(index)
        for text in QUERIES:
            assert index.filter(parse(text), lib.paper_ids()) == reference(lib, text), (
                builder,
                text,
            )


def test_taken_up_token_tables_become_bitsets_as_searches_read_them():
    from reader.core.tokens import TokenIndex

    texts = [
        b"paper %d on flow matching%s" % (i, b" diffusion" if i % 3 else b"") for i in range(300)
    ]
    built = TokenIndex(len(texts), texts.__getitem__)
    assert built.step(None) and built.frequent
    loaded = TokenIndex.from_state(built.state())
    assert all(type(b) is bytes for b in loaded.frequent_bits)  # nothing converted on taking up

    def scan(term, bits):
        return sum(1 << r for r in range(len(texts)) if bits >> r & 1 and term in texts[r])

    everything = (1 << len(texts)) - 1
    for term in (b"flow", b"diff", b"paper", b"7", b"zz"):
        assert (
            loaded.match(term, everything, scan)
            == built.match(term, everything, scan)
            == scan(term, everything)
        )
    assert {type(b) for b in loaded.frequent_bits} == {int, bytes}  # those read, and the rest
    assert loaded.state() == built.state()  # saved again just the same
