"""A big catalogue's search index is saved once built and taken up again the next
time the same papers are opened: never for other papers, never from a damaged copy."""

from __future__ import annotations

import tempfile
import time

import pytest

from reader.core import index as index_module
from reader.core import index_saving
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
    """These small catalogues get token indexes (and so saved ones) as a big one does;
    what is checked is what searches find, and the files in the cache folder."""
    monkeypatch.setattr(index_module, "TOKEN_INDEX_MIN", 0)


def open_index(lib, cache, steps=None):
    index = SearchIndex(lib, spill=tempfile.TemporaryFile, saved=cache)
    if steps is None:
        assert index.warm()
    return index


def saved_files(cache):
    """The files in the cache's folder, each with its inode and time: a file saved again
    (written to a temporary file and renamed into place) is another inode."""
    return {
        path.name: (path.stat().st_ino, path.stat().st_mtime_ns)
        for path in cache.index_path.parent.iterdir()
    }


def test_taken_up_by_the_next_open_of_the_same_papers(tmp_path):
    cache = SearchCache(tmp_path / "papers.json", tmp_path)
    open_index(Library(MemoryStore(papers())), cache)
    saved = saved_files(cache)
    assert cache.index_path.name in saved and len(saved) == 2  # the index and its texts
    lib = Library(MemoryStore(papers(), [Annotation("p4", Status.READ, note="quokka")]))
    index = open_index(lib, cache)
    for text in QUERIES:
        assert index.filter(parse(text), lib.paper_ids()) == reference(lib, text), text
    assert saved_files(cache) == saved  # taken up, not built and saved again
    lib.subscribe(lambda change: index.update(change.paper_ids))
    lib.add_papers(
        [Paper("p7", "Quokka flow", ("Zoë",), "new text"), Paper("new", "Theta quokka", (), "")]
    )
    for text in QUERIES:  # the saved texts are copied before anything is written
        assert index.filter(parse(text), lib.paper_ids()) == reference(lib, text), text
    assert index.warm()


def test_a_search_before_warming_finds_what_it_should_and_the_saved_index_is_kept(tmp_path):
    cache = SearchCache(tmp_path / "papers.json", tmp_path)
    open_index(Library(MemoryStore(papers())), cache)
    saved = saved_files(cache)
    lib = Library(MemoryStore(papers()))
    index = SearchIndex(lib, spill=tempfile.TemporaryFile, saved=cache)
    assert index.filter(parse("diffusion"), lib.paper_ids()) == reference(lib, "diffusion")
    assert index.warm()
    for text in QUERIES:
        assert index.filter(parse(text), lib.paper_ids()) == reference(lib, text), text
    assert saved_files(cache) == saved


def test_other_papers_build_and_save_their_own(tmp_path):
    cache = SearchCache(tmp_path / "papers.json", tmp_path)
    open_index(Library(MemoryStore(papers())), cache)
    for changed in (papers(word="quokka"), papers(121), papers()[:-1]):
        before = saved_files(cache)
        lib = Library(MemoryStore(changed))
        index = open_index(lib, cache)
        for text in QUERIES:
            assert index.filter(parse(text), lib.paper_ids()) == reference(lib, text), text
        after = saved_files(cache)
        assert len(after) == 2 and after[cache.index_path.name] != before[cache.index_path.name]
        assert set(after) != set(before)  # texts of other papers: another name


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


def test_a_saved_index_read_in_parts_is_searched_right_and_not_taken_up_if_edited_meanwhile(
    tmp_path, monkeypatch
):
    # LOAD_STEP: the saved index is read in 5 parts here too; the reads are counted only
    # to bring an edit in between two of them
    cache = SearchCache(tmp_path / "papers.json", tmp_path)
    open_index(Library(MemoryStore(papers())), cache)
    saved = saved_files(cache)
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
        while not index.prepare(0):
            if edit and len(reads) == 2:
                lib.add_papers([Paper("p1", "Quokka", (), "")])
        assert reads  # (the saved index was read)
        for text in QUERIES:
            assert index.filter(parse(text), lib.paper_ids()) == reference(lib, text), text
        assert index.warm()
        for text in QUERIES:
            assert index.filter(parse(text), lib.paper_ids()) == reference(lib, text), text
        assert saved_files(cache) == saved  # taken up, or given up after the edit


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


def test_an_index_warmed_in_slices_is_saved_and_searched_right_after_edits(tmp_path):
    # (on POSIX another process builds the token indexes and saves them: the window takes
    # them up from the save)
    cache = SearchCache(tmp_path / "papers.json", tmp_path)
    lib = Library(MemoryStore(papers(), [Annotation("p4", Status.READ, note="quokka")]))
    index = SearchIndex(lib, spill=tempfile.TemporaryFile, saved=cache)
    lib.subscribe(lambda change: index.update(change.paper_ids))
    warm_in_slices(index)
    assert cache.index_path.exists()
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


def test_taken_up_token_tables_match_as_the_built_ones_and_save_the_same():
    from reader.core.tokens import TokenIndex

    texts = [
        b"paper %d on flow matching%s" % (i, b" diffusion" if i % 3 else b"") for i in range(300)
    ]
    built = TokenIndex(len(texts), texts.__getitem__)
    assert built.step(None) and built.frequent
    loaded = TokenIndex.from_state(built.state())

    def scan(term, bits):
        return sum(1 << r for r in range(len(texts)) if bits >> r & 1 and term in texts[r])

    everything = (1 << len(texts)) - 1
    for term in (b"flow", b"diff", b"paper", b"7", b"zz"):
        assert (
            loaded.match(term, everything, scan)
            == built.match(term, everything, scan)
            == scan(term, everything)
        )
    assert loaded.state() == built.state()  # saved again just the same
