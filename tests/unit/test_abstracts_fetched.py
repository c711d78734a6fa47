"""A library lists its papers without their abstracts (most of its memory at 100k papers)
and fetches an abstract from the catalogue's index when it is shown, exported, searched,
ranked, matched by an import or written back."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reader.core.index import SearchIndex
from reader.core.library import Library
from reader.core.merge import duplicate_groups
from reader.core.models import NOT_LOADED, Paper
from reader.core.query import parse
from reader.core.ranking import Features
from reader.exporting import export_text
from reader.formats.citing import cite
from reader.importing import import_files
from reader.store import catalogue_db
from reader.store.files import LibraryFolder
from tests.helpers.libraries import catalogue_files


@pytest.fixture(params=["on disk", "in memory"])
def folder(request, tmp_path, monkeypatch) -> Path:
    """A library of three papers; its catalogue's index in the cache folder or (a small
    library's) in memory."""
    size = 0 if request.param == "on disk" else 1 << 20
    monkeypatch.setattr(catalogue_db, "SMALL_LIBRARY_BYTES", size)
    folder = tmp_path / "lib"
    store = LibraryFolder(folder)
    store.add_papers(
        [
            Paper("a", "Spin glasses", ("Ann Lee",), "The quokka lattice of the Ising model."),
            Paper("b", "Nothing said", ("Bo Chen",)),
            Paper("c", "Wombat burrows", ("Cy Diaz",), "Burrows of the numbat, mapped."),
        ]
    )
    store.close()
    return folder


def _open(folder: Path) -> Library:
    return Library(LibraryFolder(folder))


def test_the_open_library_holds_no_abstract_and_fetches_each_by_id(folder):
    lib = _open(folder)
    assert {p.id: p.abstract for p in lib.papers()} == {"a": NOT_LOADED, "b": "", "c": NOT_LOADED}
    assert lib.abstract("a") == "The quokka lattice of the Ising model."
    assert lib.abstract("b") == ""
    assert lib.full_paper("c").abstract == "Burrows of the numbat, mapped."
    assert lib.abstracts(["c", "a", "nope"]) == {
        "c": "Burrows of the numbat, mapped.",
        "a": "The quokka lattice of the Ising model.",
    }


def test_exports_and_citations_carry_the_abstracts(folder):
    lib = _open(folder)
    exported = json.loads(export_text(lib, ["a", "b", "c"], "json"))
    papers = exported["papers"] if isinstance(exported, dict) else exported
    abstracts = {p["id"]: p["abstract"] for p in papers}
    assert abstracts == {
        "a": "The quokka lattice of the Ising model.",
        "b": "",
        "c": "Burrows of the numbat, mapped.",
    }
    for fmt in ("bibtex", "csv", "markdown"):
        text = export_text(lib, ["a"], fmt)
        assert "quokka lattice" in text and NOT_LOADED not in text, fmt
    assert "quokka lattice" in cite(lib.papers(), ["a"], "bibtex", lib.abstracts)
    # given no way to fetch, an entry goes without its abstract rather than with a stand-in
    assert NOT_LOADED not in cite(lib.papers(), ["a"], "bibtex")


def test_a_word_of_an_abstract_is_found_and_has_abstract_knows_which_have_one(folder):
    lib = _open(folder)
    index = SearchIndex(lib, lib.search_words())
    assert index.filter(parse("quokka")) == ["a"]
    assert index.filter(parse("numbat")) == ["c"]
    assert index.filter(parse("has:abstract")) == ["a", "c"]
    assert index.filter(parse("-has:abstract")) == ["b"]


def test_the_words_of_the_abstracts_are_kept_from_one_open_to_the_next(folder):
    first = _open(folder)
    index = SearchIndex(first, first.search_words())
    index.warm()
    index.close()
    again = _open(folder)
    index = SearchIndex(again, again.search_words())  # (worded before, or anew in memory)
    assert index.filter(parse("quokka")) == ["a"]
    index.close()


def test_an_import_fills_an_empty_abstract_and_never_replaces_one(folder, tmp_path):
    source = tmp_path / "again.json"
    source.write_text(
        json.dumps(
            [
                {"id": "a", "title": "Spin glasses", "abstract": "Another text entirely."},
                {"id": "b", "title": "Nothing said", "abstract": "Now it has one."},
            ]
        )
    )
    lib = _open(folder)
    report = import_files(lib, [source])
    assert (report.updated, report.unchanged) == (1, 1)
    again = _open(folder)
    assert again.abstract("a") == "The quokka lattice of the Ising model."
    assert again.abstract("b") == "Now it has one."
    assert {p.abstract for p in again.papers()} == {NOT_LOADED}


def test_a_paper_is_matched_by_its_abstract_when_its_title_was_derived(folder, tmp_path):
    source = tmp_path / "abstracts.json"  # (no title: one is derived from the abstract)
    source.write_text(json.dumps([{"abstract": "The quokka lattice of the ISING model!"}]))
    lib = _open(folder)
    report = import_files(lib, [source])
    assert (report.added, report.unchanged, len(lib)) == (0, 1, 3)
    lib.add_papers(
        [Paper("e", "Burrows", (), "Burrows of the numbat, mapped.", title_derived=True)]
    )
    assert duplicate_groups(lib.papers(), lib.abstracts) == [["c", "e"]]


def test_papers_written_back_are_written_whole(folder):
    lib = _open(folder)
    listed = lib.paper("a")
    assert listed.abstract == NOT_LOADED
    lib.add_papers([listed])  # (as an undo or a restore may)
    lines = [json.loads(line) for line in list(catalogue_files(folder).values())[-1].splitlines()]
    assert lines[1]["abstract"] == "The quokka lattice of the Ising model."
    assert _open(folder).abstract("a") == "The quokka lattice of the Ising model."
    gone = lib.delete_papers(["c"])
    assert gone[0].abstract == "Burrows of the numbat, mapped."
    lib.restore_papers(gone)
    assert _open(folder).abstract("c") == "Burrows of the numbat, mapped."


def test_the_ranking_reads_the_abstracts(folder):
    lib = _open(folder)
    features = Features.build(lib.completed(lib.papers()))
    assert "quokka" in features.names and "numbat" in features.names


def test_an_abstract_is_read_while_an_import_writes_the_index(tmp_path, monkeypatch):
    # an import's worker holds the index for its whole write (seconds at 100k papers):
    # the paper the user selects meanwhile is read on a connection of its own
    import threading

    monkeypatch.setattr(catalogue_db, "SMALL_LIBRARY_BYTES", 0)
    store = LibraryFolder(tmp_path / "lib")
    store.add_papers([Paper("a", "Spin glasses", (), "The quokka lattice.")])
    found: dict[str, str] = {}
    with store.catalogue._mutex:  # (as CatalogueDB.add holds it while it writes)
        reader = threading.Thread(target=lambda: found.update(store.abstracts(["a"])))
        reader.start()
        reader.join(timeout=10)
        assert found == {"a": "The quokka lattice."}
    store.close()
