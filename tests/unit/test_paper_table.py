"""The library's papers read from the catalogue's SQLite index when asked for
(reader.core.paper_table.PaperTable), on real library folders: the index in the
cache folder (a large library's) and in memory (a small one's, made at each open)."""

from __future__ import annotations

import dataclasses
import gc
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from reader.core import paper_table
from reader.core.library import Library, UnknownPaper
from reader.core.models import NOT_LOADED, Paper
from reader.core.paper_table import COLUMNS
from reader.core.sorting import sort_ids
from reader.opening import open_library
from reader.store import catalogue_db
from reader.store.catalogue_db import CatalogueDB


def _paper(n: int, **changes: object) -> Paper:
    """A paper with every field filled (an abstract for the odd ones only)."""
    paper = Paper(
        id=f"p{n:03}",
        title=f"Paper number {n}",
        authors=(f"Ann Author{n}", "Bo Second"),
        abstract=f"The abstract of paper {n}." if n % 2 else "",
        venue=f"Venue {n % 3}",
        year=2000 + n % 25,
        url=f"https://example.org/{n}",
        presentation="Oral",
        track="main",
        doi=f"10.1234/{n}",
        arxiv=f"2401.{n:05}",
        source="test list",
        title_derived=False,
        added=f"2025-01-{1 + n % 28:02}T00:00:00+00:00",
        pdf=f"https://example.org/{n}.pdf",
        keywords=("kw one", f"kw {n}"),
        primary_area="Deep Learning->Theory",
    )
    return dataclasses.replace(paper, **changes)


def _listed(paper: Paper) -> Paper:
    """`paper` as a library lists it: its abstract left in the index."""
    return dataclasses.replace(paper, abstract=NOT_LOADED if paper.abstract else "")


PAPERS = [_paper(n) for n in range(12)]


@pytest.fixture(params=["index on disk", "index in memory"])
def folder(request, tmp_path, monkeypatch) -> Path:
    """An empty library folder; its catalogue's index in the cache folder, or (as a
    small library's) in memory."""
    size = 0 if request.param == "index on disk" else 1 << 30
    monkeypatch.setattr(catalogue_db, "SMALL_LIBRARY_BYTES", size)
    return tmp_path / "lib"


def _open(folder: Path) -> Library:
    return open_library(folder, seed=False).library


def _imported(folder: Path, papers: list[Paper] = PAPERS) -> Library:
    """The library of `folder` as opened after `papers` were imported into it."""
    _open(folder).add_papers(papers)
    return _open(folder)


def _reads(lib: Library, monkeypatch) -> list[str]:
    """The ids the library reads from its catalogue's index from now on (a list
    that grows)."""
    db = lib._store.catalogue
    real = db.rows
    read: list[str] = []

    def rows(ids):
        read.extend(ids)
        return real(ids)

    monkeypatch.setattr(db, "rows", rows)
    return read


# -- reading ---------------------------------------------------------------------------


def test_the_index_is_where_the_fixture_says(folder):
    lib = _imported(folder)
    on_disk = catalogue_db.SMALL_LIBRARY_BYTES == 0
    assert (lib._store.catalogue.path is not None) == on_disk


def test_papers_are_listed_in_import_order_with_their_fields_and_no_abstract(folder):
    later = [_paper(20), _paper(3, title="Paper three, retitled"), _paper(21)]
    lib = _open(folder)
    lib.add_papers(PAPERS)
    lib.add_papers(later)  # (p003 written anew: it keeps its place)
    imported = {p.id: p for p in [*PAPERS, *later]}
    for current in (lib, _open(folder)):  # as written, and as the next program reads it
        assert current.paper_ids() == [p.id for p in PAPERS] + ["p020", "p021"]
        assert len(current) == 14
        for pid, paper in imported.items():
            assert current.paper(pid) == _listed(paper)
            assert current.full_paper(pid) == paper
        assert current.papers() == [_listed(imported[pid]) for pid in current.paper_ids()]
        assert current.papers()[3].title == "Paper three, retitled"
        assert current.listed_papers(["p021", "p001", "nope"]) == {
            "p021": _listed(imported["p021"]),
            "p001": _listed(imported["p001"]),
        }
        assert list(current.papers_in_order(["p005", "p000"])) == [
            _listed(imported["p005"]),
            _listed(imported["p000"]),
        ]
        with pytest.raises(UnknownPaper):
            current.paper("nope")


def test_a_paper_read_again_soon_is_not_read_from_the_index_again(folder, monkeypatch):
    monkeypatch.setattr(paper_table, "KEPT", 8)
    many = [_paper(n) for n in range(40)]
    lib = _imported(folder, many)
    read = _reads(lib, monkeypatch)
    assert lib.paper("p004").title == "Paper number 4"
    assert read == ["p004"]
    assert lib.paper("p004").title == "Paper number 4"
    lib.listed_papers(["p004", "p005"])
    assert read == ["p004", "p005"]
    # a scan of every paper (an export, a ranking) reads them without pushing out
    # the papers just shown
    assert lib.papers() == list(map(_listed, many))
    scanned = len(read)
    lib.paper("p004")
    lib.paper("p005")
    assert len(read) == scanned


def test_no_more_than_kept_papers_are_kept_once_many_more_were_read(folder, monkeypatch):
    monkeypatch.setattr(paper_table, "KEPT", 8)
    many = [_paper(n) for n in range(40)]
    lib = _imported(folder, many)
    read = _reads(lib, monkeypatch)
    for paper in many:
        assert lib.paper(paper.id) == _listed(paper)
    assert read == [p.id for p in many]
    del read[:]
    assert lib.paper("p039") == _listed(many[39])  # the latest read: kept
    assert read == []
    for paper in many:  # read all again: all but KEPT at most come from the index
        assert lib.paper(paper.id) == _listed(paper)
    assert len(read) >= len(many) - 8
    assert "p000" in read


# -- columns ---------------------------------------------------------------------------


@pytest.mark.parametrize("field", sorted(COLUMNS))
def test_a_column_holds_each_papers_value_of_the_field(folder, field):
    lib = _imported(folder)
    every = {pid: getattr(lib.paper(pid), field) for pid in lib.paper_ids()}
    assert lib.column(field) == every
    some = ["p007", "p002", "nope", "p011"]
    assert lib.column(field, some) == {pid: every[pid] for pid in some if pid != "nope"}
    assert lib.column(field, []) == {}
    fresh = _open(folder)  # (nothing read yet: all from the column)
    assert fresh.column(field) == every
    assert fresh.column(field, some) == {pid: every[pid] for pid in some if pid != "nope"}


def test_columns_hold_the_imported_values(folder):
    lib = _imported(folder)
    assert lib.column("title", ["p003"]) == {"p003": "Paper number 3"}
    assert lib.column("authors", ["p003"]) == {"p003": ("Ann Author3", "Bo Second")}
    assert lib.column("year", ["p003"]) == {"p003": 2003}
    assert lib.column("venue", ["p003"]) == {"p003": "Venue 0"}
    assert lib.column("added", ["p003"]) == {"p003": "2025-01-04T00:00:00+00:00"}
    assert lib.column("abstract", ["p003", "p004"]) == {"p003": NOT_LOADED, "p004": ""}


def test_a_column_read_before_a_write_gets_the_papers_written_since(folder, monkeypatch):
    lib = _imported(folder)
    lib.add_papers([_paper(40), _paper(5, title="Rewritten")])
    db = lib._store.catalogue
    real = db.column

    def read_before_the_write(field):  # (as a column read on one thread while another writes)
        return ((pid, value) for pid, value in real(field) if pid != "p040")

    monkeypatch.setattr(db, "column", read_before_the_write)
    assert lib.column("title", ["p040", "p005"]) == {"p040": "Paper number 40", "p005": "Rewritten"}
    assert lib.column("year")["p040"] == 2015


@pytest.mark.parametrize("field", ["doi", "nope", "id", "has_abstract", ""])
def test_a_field_that_is_no_column_is_refused(folder, field):
    lib = _imported(folder)
    with pytest.raises(ValueError, match="not a column"):
        lib.column(field)


def test_a_column_follows_what_the_library_writes(folder):
    lib = _imported(folder)
    lib.add_papers([_paper(3, title="Renamed"), _paper(50)])
    titles = lib.column("title")
    assert titles["p003"] == "Renamed" and titles["p050"] == "Paper number 50"
    lib.delete_papers(["p004"])
    assert "p004" not in lib.column("title")
    assert "p004" not in lib.column("year", ["p004", "p005"])
    assert sort_ids(lib, lib.paper_ids(), "title")[-1] == "p003"  # (R after P)


# -- writing ---------------------------------------------------------------------------


def test_deleting_and_restoring_keeps_the_order_and_the_membership(folder):
    lib = _imported(folder)
    order = lib.paper_ids()
    gone = lib.delete_papers(["p002", "p009", "nope"])
    assert [p.id for p in gone] == ["p002", "p009"]
    assert gone == [PAPERS[2], PAPERS[9]]  # whole, abstracts and all
    without = [pid for pid in order if pid not in {"p002", "p009"}]
    assert lib.paper_ids() == without
    assert "p002" not in lib and len(lib) == len(PAPERS) - 2
    with pytest.raises(UnknownPaper):
        lib.paper("p002")
    assert [p.id for p in lib.papers()] == without
    assert _open(folder).paper_ids() == without
    assert {p.id for p in lib.trash()} == {"p002", "p009"}
    back = lib.restore_papers(gone)
    assert {p.id for p in back} == {"p002", "p009"}
    for current in (lib, _open(folder)):
        assert current.paper_ids() == order  # each in its place again
        assert current.full_paper("p009") == PAPERS[9]
        assert current.paper("p002") == _listed(PAPERS[2])
        assert current.column("title")["p009"] == "Paper number 9"


def test_a_reimported_paper_shows_its_new_title_not_the_one_kept(folder):
    lib = _imported(folder)
    assert lib.paper("p006").title == "Paper number 6"  # (read, and kept)
    assert lib.listed_papers(["p006"])["p006"].title == "Paper number 6"
    lib.add_papers([_paper(6, title="A new title", abstract="A new abstract.")])
    assert lib.paper("p006").title == "A new title"
    assert lib.listed_papers(["p006"])["p006"].title == "A new title"
    assert lib.papers()[6].title == "A new title"
    assert lib.full_paper("p006").abstract == "A new abstract."
    assert lib.column("title", ["p006"]) == {"p006": "A new title"}
    assert _open(folder).paper("p006").title == "A new title"


def test_written_says_which_write_last_wrote_a_paper(folder):
    lib = _imported(folder)
    assert lib.written("p001") == 0  # (not written by this program)
    lib.add_papers([_paper(1, title="Again")])
    first = lib.written("p001")
    assert first > 0 and lib.written("p002") == 0
    lib.add_papers([_paper(1, title="Once more"), _paper(2)])
    assert lib.written("p001") > first
    assert lib.written("p002") == lib.written("p001")
    lib.add_papers([_paper(60)])
    assert lib.written("p060") > lib.written("p001")
    assert lib.written("nope") == 0


def test_an_import_finds_papers_by_their_keys_and_reads_whole_only_those_it_meets(
    folder, monkeypatch
):
    # each way of matching (DOI, arXiv id, title, abstract of a derived title, title
    # with math, the short form of a venue): the keys kept in the index, so that only
    # the library papers an incoming one meets are read whole
    from reader.importing import import_files

    derived = Paper("d1", "Quokkas hop", abstract="Quokkas hop about the island all day.",
                    title_derived=True)  # fmt: skip
    math = Paper("m1", r"Bounds of $\sqrt{T}$ regret for online learners", ("Zed Math",))
    short = Paper("v1", "At ICML", venue="ICML 2019", year=2019)
    lib = _imported(folder, [*PAPERS, derived, math, short])
    reads = _reads(lib, monkeypatch)
    scans: list[str] = []  # (nor is any field read for every paper)
    column = lib._store.catalogue.column
    monkeypatch.setattr(lib._store.catalogue, "column", lambda f: scans.append(f) or column(f))
    source = folder.parent / "incoming.json"
    incoming = [
        {"id": "x-doi", "title": "Another title", "doi": " 10.1234/3 "},
        {"id": "x-arxiv", "title": "Other", "arxiv": "2401.00004", "abstract": "Now one."},
        {"id": "x-title", "title": "PAPER  number 5!", "track": "findings"},
        {"id": "x-abs", "title": "Quokkas on Rottnest", "abstract": derived.abstract.upper()},
        {"id": "x-math", "title": r"Bounds of $\sqrtT$ regret for online learners",
         "authors": ["Z. Math"], "venue": "COLT"},
        {"id": "x-new", "title": "Brand new", "doi": "10.9/new", "year": 2019,
         "venue": "Proceedings of the 36th International Conference on Machine Learning"},
    ]  # fmt: skip
    source.write_text(json.dumps(incoming), encoding="utf-8")
    report = import_files(lib, [source])
    assert (report.added, report.updated, report.unchanged) == (1, 3, 2)
    assert sorted(set(reads)) == ["d1", "m1", "p003", "p004", "p005"] and not scans
    lib = _open(folder)
    assert lib.full_paper("p004").abstract == "Now one."
    assert lib.full_paper("p005").track == "main"  # (filled only where empty)
    assert lib.full_paper("d1").title == "Quokkas on Rottnest"
    assert lib.full_paper("m1").venue == "COLT"
    assert lib.paper_ids()[-1] == "x-new"
    assert lib.full_paper("x-new").venue == "ICML 2019"


def _work(db, call) -> int:
    """How much SQLite's machine does for `call` on the connection `db` (a count of
    its steps: the same on any machine, whatever else runs)."""
    steps = [0]

    def step():
        steps[0] += 1
        return 0

    db.set_progress_handler(step, 50)
    try:
        call()
    finally:
        db.set_progress_handler(None, 50)
    return steps[0]


def test_papers_looked_up_by_id_or_key_cost_the_same_in_a_library_ten_times_bigger(folder):
    # (without statistics SQLite took `deleted = ''` for the narrower term: it went
    # through every listed paper for a few, 0.15 s a look at 1M papers)
    def costs(n: int) -> list[int]:
        papers = [_paper(i, doi=f"10.1/{i}" if i % 2 else "") for i in range(n)]
        lib = _imported(folder.with_name(f"lib{n}"), papers)
        db = lib._store.catalogue
        conn = db._read_connection() or db._connection()
        wanted = [p.id for p in papers[:: n // 20]]
        words = lib.search_words()
        words.word_papers(wanted)  # (worded: what is left is finding them)
        return [
            _work(conn, lambda: db.rows(wanted)),
            _work(conn, lambda: db.find("doi", "10.1/3")),
            _work(conn, lambda: db.holds("math-title")),  # (none has one)
            _work(conn, lambda: db.holds("abstract-derived")),  # (no title derived)
            _work(conn, lambda: words.word_papers(wanted)),
        ]

    small, big = costs(300), costs(3000)
    assert all(b <= 2 * s + 2 for s, b in zip(small, big, strict=True)), (small, big)


# -- another program -------------------------------------------------------------------


def test_papers_another_program_imports_are_listed_after_reopening(folder):
    mine = _imported(folder)
    before = mine.paper_ids()
    other = _open(folder)
    other.add_papers([_paper(70), _paper(71)])
    assert mine.paper_ids() == before
    assert "p070" not in mine
    assert mine.listed_papers(["p070", "p001"]).keys() == {"p001"}
    assert [p.id for p in mine.papers()] == before
    assert mine.column("title").keys() == set(before)
    assert mine.column("year", ["p070", "p000"]).keys() == {"p000"}
    with pytest.raises(UnknownPaper):
        mine.paper("p070")
    mine.add_papers([_paper(72)])  # (its own import: listed at once)
    assert mine.paper_ids() == [*before, "p072"]
    assert _open(folder).paper_ids() == [*before, "p070", "p071", "p072"]


def test_a_paper_another_program_deletes_does_not_break_reading(folder):
    mine = _imported(folder)
    other = _open(folder)
    other.delete_papers(["p004"])
    # the library may still list p004 until it is reopened, but what reads every
    # paper (an export, a sort, a facet) must not fail on it
    papers = {p.id: p for p in mine.papers()}
    assert papers["p005"] == _listed(PAPERS[5])
    titles = mine.column("title")
    assert titles["p005"] == "Paper number 5"
    assert sort_ids(mine, mine.paper_ids(), "title")
    assert sort_ids(mine, mine.paper_ids(), "added")
    assert "p004" not in _open(folder)


def test_the_command_line_importing_meanwhile_changes_nothing_listed(tmp_path):
    """Another process, the real command line, on a library large enough to have its
    index in the cache folder (no setting changed: both programs decide alike)."""
    folder = tmp_path / "lib"
    big = [_paper(n, abstract="x" * 2_000 + f" {n}") for n in range(600)]
    mine = _imported(folder, big)
    assert mine._store.catalogue.path is not None  # (over SMALL_LIBRARY_BYTES)
    source = tmp_path / "more.json"
    source.write_text(json.dumps([{"id": "cli-1", "title": "From the command line"}]))
    done = subprocess.run(
        [sys.executable, "-m", "reader", "--data-dir", str(folder), "import", str(source)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "cli-1" not in mine and len(mine) == 600
    assert len(mine.papers()) == 600
    assert mine.column("title").keys() == {p.id for p in big}
    assert mine.paper("p599").title == "Paper number 599"
    again = _open(folder)
    assert again.paper_ids()[-1] == "cli-1"
    assert again.paper("cli-1").title == "From the command line"


# -- an index of an earlier version ------------------------------------------------------


def test_an_index_of_schema_3_is_made_anew_quietly(tmp_path, monkeypatch):
    """An index of an earlier version of ours is made anew at once, without a word to
    the user and without a copy (it is not damaged: a copy of a million papers' index
    would only fill the cache folder)."""
    monkeypatch.setattr(catalogue_db, "SMALL_LIBRARY_BYTES", 0)
    folder = tmp_path / "lib"
    _open(folder).add_papers(PAPERS)
    path = CatalogueDB.for_library(folder).path
    assert path is not None and path.exists()
    gc.collect()  # (the libraries opened above let go of it)
    # the index as version 3 had it: each abstract in its paper's row; it took in the
    # same files (so nothing but its version says it cannot be read as it is)
    old = sqlite3.connect(path)
    old.executescript(
        """
        ALTER TABLE papers ADD COLUMN abstract TEXT NOT NULL DEFAULT '';
        UPDATE papers SET abstract = coalesce(
            (SELECT text FROM abstracts WHERE abstracts.rowid = papers.rowid), '');
        ALTER TABLE papers DROP COLUMN has_abstract;
        DROP TABLE abstracts;
        UPDATE papers SET title = 'Planted' WHERE id = 'p001';
        PRAGMA user_version = 3;
        """
    )
    old.close()
    opened = open_library(folder, seed=False)
    lib = opened.library
    assert lib.paper_ids() == [p.id for p in PAPERS]
    assert [lib.full_paper(pid) for pid in lib.paper_ids()] == PAPERS
    assert lib.column("title") == {p.id: p.title for p in PAPERS}
    assert lib.column("abstract") == {p.id: _listed(p).abstract for p in PAPERS}
    assert not list(path.parent.glob(path.name + ".damaged-*"))
    assert not [m for m in opened.messages if "index" in m]
    made = sqlite3.connect(path)
    assert made.execute("PRAGMA user_version").fetchone()[0] == catalogue_db.SCHEMA
    made.close()
    lib.add_papers([_paper(80)])
    assert _open(folder).paper_ids() == [*(p.id for p in PAPERS), "p080"]
