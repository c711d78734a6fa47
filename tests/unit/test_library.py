"""Library on real TinyDB files: edits, persistence, seeding, two processes."""

import enum
import json
import sys
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest

from reader.core import crdt
from reader.core.library import MAX_NOTE_CHARS, MAX_TAG_CHARS, SaveFailed, UnknownPaper
from reader.core.models import Annotation, Highlight, Status
from reader.opening import open_library
from tests.helpers.libraries import DEVICE, own_file

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "helpers"))
from store_harness import make_library, synthetic_papers


def test_empty_folder_is_seeded_with_the_bundled_sample(library_dir):
    opened = open_library(library_dir)
    assert len(opened.library) == 19
    assert any("bundled sample" in m for m in opened.notices) and opened.messages == []
    titles = {p.title for p in opened.library.papers()}
    assert (
        "DA-KD: Difficulty-Aware Knowledge Distillation for Efficient Large Language Models"
        in titles
    )
    # reopening does not seed twice
    again = open_library(library_dir)
    assert len(again.library) == 19 and again.messages == [] and again.notices == []


def test_edits_persist_across_reopen(library, library_dir):
    pid = library.paper_ids()[3]
    library.set_status([pid], Status.READING)
    library.add_tags([pid], ["rl", "to-read", "rl"])
    library.set_note(pid, "# Idea\n\nTry $\\alpha$.")
    lib2 = open_library(library_dir).library
    ann = lib2.annotation(pid)
    assert ann.status is Status.READING
    assert ann.tags == ("rl", "to-read")
    assert ann.note == "# Idea\n\nTry $\\alpha$."
    assert ann.created and ann.modified


def test_annotation_write_never_rewrites_papers_file(library, library_dir):
    [papers] = library_dir.glob("devices/*/papers/*.jsonl")
    before = (papers.read_bytes(), papers.stat().st_mtime_ns, papers.stat().st_ino)
    library.set_status([library.paper_ids()[0]], Status.READ)
    after = (papers.read_bytes(), papers.stat().st_mtime_ns, papers.stat().st_ino)
    assert before == after
    assert list(library_dir.glob("devices/*/papers/*.jsonl")) == [papers]


def test_remove_tags_is_case_insensitive(library):
    pid = library.paper_ids()[0]
    library.add_tags([pid], ["Method/Diffusion", "rl"])
    library.remove_tags([pid], ["method/diffusion"])
    assert library.tags(pid) == ("rl",)


def test_unknown_paper(library):
    with pytest.raises(UnknownPaper, match="nope"):
        library.set_status(["nope"], Status.READ)


def test_listeners_hear_what_changed(library):
    heard = []
    library.subscribe(heard.append)
    a, b = library.paper_ids()[:2]
    library.set_status([a, b], Status.READ)
    library.set_status([a], Status.READ)  # no change: no event, no write
    assert len(heard) == 1
    assert heard[0].paper_ids == {a, b} and heard[0].fields == {"status"}


def test_two_libraries_on_one_folder_lose_no_update(library_dir):
    one = open_library(library_dir).library
    two = open_library(library_dir).library
    a, b = one.paper_ids()[:2]
    one.set_status([a], Status.READ)
    two.add_tags([b], ["from-two"])  # two never saw one's edit; it must survive
    one.set_note(a, "note from one")
    fresh = open_library(library_dir).library
    assert fresh.status(a) is Status.READ
    assert fresh.tags(b) == ("from-two",)
    assert fresh.annotation(a).note == "note from one"
    assert two.refresh() is not None
    assert two.status(a) is Status.READ


def test_annotations_file_is_readable_json(library, library_dir):
    pid = library.paper_ids()[0]
    library.set_note(pid, "hello")
    # a save is appended to this device's annotations.journal; closing folds it into
    # its annotations.json, where the record of the paper holds the note (stamped)
    assert "hello" in own_file(library_dir, "annotations.journal").read_text("utf-8")
    library._store.close()
    data = json.loads(own_file(library_dir).read_text("utf-8"))
    assert crdt.view([(DEVICE, data["annotations"][pid])])["note"] == "hello"
    assert data["_meta"]["schema"]["version"] >= 1


# -- values JSON cannot hold -------------------------------------------------------


@pytest.fixture
def small(tmp_path):
    folder = tmp_path / "small"
    make_library(folder, synthetic_papers(3))
    return open_library(folder)


def on_disk(opened, pid):
    return open_library(opened.folder.folder).library.annotation(pid)


def test_lone_surrogates_become_replacement_characters_and_pairs_are_joined(small):
    small.library.set_note("p000000", "bad \ud800 end, pair \ud83d\ude00")
    assert on_disk(small, "p000000").note == "bad \ufffd end, pair \U0001f600"


def test_control_characters_are_dropped_from_notes_tags_and_highlights(small):
    lib = small.library
    lib.set_note("p000000", "a\x00b\x07c\td\r\ne\x1b")
    lib.set_tags("p000000", ["rl\x01", "ok\x0btag"])
    lib.set_highlights("p000000", [Highlight(id="h1", quote="x\x00y\ud800", comment="c\x08")])
    ann = on_disk(small, "p000000")
    assert ann.note == "abc\td\r\ne"
    assert ann.tags == ("rl", "ok tag")
    assert ann.highlights[0].quote == "xy\ufffd" and ann.highlights[0].comment == "c"


def test_a_ten_megabyte_note_is_refused_before_anything_is_written(small):
    lib = small.library
    lib.set_note("p000000", "kept")
    path = small.folder.annotations_path
    before = path.read_bytes()
    heard = []
    lib.subscribe(heard.append)
    with pytest.raises(ValueError, match="over the limit"):
        lib.set_note("p000000", "x" * 10_000_000)
    assert path.read_bytes() == before
    assert lib.annotation("p000000").note == "kept" and lib.pending_count() == 0 and heard == []


def test_a_note_at_the_limit_is_saved(small):
    small.library.set_note("p000001", "y" * MAX_NOTE_CHARS)
    assert len(on_disk(small, "p000001").note) == MAX_NOTE_CHARS
    with pytest.raises(ValueError):
        small.library.set_note("p000001", "y" * (MAX_NOTE_CHARS + 1))
    with pytest.raises(ValueError):
        small.library.add_tags(["p000001"], ["t" * (MAX_TAG_CHARS + 1)])


@pytest.mark.parametrize("rating", [float("nan"), float("inf"), 2.5, "3", 10**30])
def test_ratings_json_cannot_hold_are_refused_whole(small, rating):
    lib = small.library
    path = small.folder.annotations_path
    before = path.read_bytes()
    bad = {
        "p000000": Annotation("p000000", note="fine", rating=rating),
        "p000001": Annotation("p000001", note="also fine"),
    }
    with pytest.raises(ValueError):
        lib.fill_if_empty(bad.values())
    assert path.read_bytes() == before
    assert lib.annotation("p000001").note == "" and lib.pending_count() == 0


def test_annotations_an_import_restores_are_cleaned(small):
    small.library.fill_if_empty([Annotation("p000002", note="n\x00", tags=("a\x02",), rating=3.0)])
    ann = on_disk(small, "p000002")
    assert (ann.note, ann.tags, ann.rating) == ("n", ("a",), 3)


def test_cli_refuses_a_ten_megabyte_note_with_a_reason(small, tmp_path, capsys):
    from reader.cli import main

    big = tmp_path / "big.md"
    big.write_text("z" * 10_000_000, "utf-8")
    with pytest.raises(SystemExit) as info:
        main(["--data-dir", str(small.folder.folder), "note", "p000000", "--file", str(big)])
    assert info.value.code != 0
    assert "not saved" in capsys.readouterr().err
    assert on_disk(small, "p000000").note == ""


def test_created_stays_the_first_time_when_two_processes_create_one_annotation(small):
    one = small.library
    two = open_library(small.folder.folder).library
    one.set_note("p000000", "first")
    created = one.annotation("p000000").created
    two.set_tags("p000000", ["second"])  # two never saw one's edit
    ann = on_disk(small, "p000000")
    assert ann.created == created and ann.note == "first" and ann.tags == ("second",)


def test_count_status_agrees_with_the_status_of_every_paper(library):
    ids = library.paper_ids()
    library.set_status(ids[:3], Status.READ)
    library.set_status(ids[3:5], Status.READING)
    library.set_status(ids[5:6], Status.UNREAD)  # an annotation saying unread
    library.add_tags(ids[6:8], ["rl"])  # annotations without a status change
    counts = library.status_counts()
    assert counts == {Status.READ: 3, Status.READING: 2, Status.UNREAD: 14}
    assert {s: library.count_status(s) for s in Status} == counts


# -- bulk edits and their undo ----------------------------------------------------------


def test_undoing_a_first_edit_removes_the_annotation_it_made(library, library_dir):
    ids = library.paper_ids()
    library.set_note(ids[0], "kept")
    before = library.annotations_of(ids[:5])
    assert before[ids[0]].note == "kept" and [before[pid] for pid in ids[1:5]] == [None] * 4
    edit = library.set_status(ids[:5], Status.READ)
    assert len(library.annotations()) == 5
    assert library.revert(edit) == []  # what undo does
    assert dict(library.annotations()) == {ids[0]: before[ids[0]]}
    reopened = open_library(library_dir).library
    assert dict(reopened.annotations()) == {ids[0]: before[ids[0]]}  # none left on disk either
    assert reopened.status(ids[1]) is Status.UNREAD


def test_an_edit_after_an_unsaved_removal_is_saved_whole(library, library_dir, monkeypatch):
    pid = library.paper_ids()[0]
    made = library.set_note(pid, "old note").then(library.set_tags(pid, ["old"]))
    store = library._store
    real = store.write_annotations

    def disk_full(changes):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store, "write_annotations", disk_full)
    with pytest.raises(SaveFailed):
        library.revert(made)  # removed (undone), not yet on disk
    with pytest.raises(SaveFailed):
        library.set_status([pid], Status.READ)  # then edited: only the status is new
    monkeypatch.setattr(store, "write_annotations", real)
    assert library.retry_pending()
    ann = open_library(library_dir).library.annotation(pid)
    assert (ann.status, ann.note, ann.tags) == (Status.READ, "", ())  # not the old note and tag


def test_bulk_tag_edits_merge_each_papers_own_tags(library):
    ids = library.paper_ids()
    library.add_tags(ids[:2], ["a"])
    library.add_tags(ids[2:4], ["b", "c"])
    library.add_tags(ids[:6], ["c", "d"])
    assert [library.tags(pid) for pid in ids[:6]] == [
        ("a", "c", "d"),
        ("a", "c", "d"),
        ("b", "c", "d"),
        ("b", "c", "d"),
        ("c", "d"),
        ("c", "d"),
    ]
    library.remove_tags(ids[:6], ["C"])
    assert [library.tags(pid) for pid in ids[:6]] == [("a", "d")] * 2 + [("b", "d")] * 2 + [
        ("d",)
    ] * 2


def test_a_bulk_edit_saves_each_paper_with_its_own_times(library, library_dir):
    ids = library.paper_ids()
    library.set_note(ids[0], "first")
    created = library.annotation(ids[0]).created
    library.set_status(ids[:3], Status.READING)
    fresh = open_library(library_dir).library
    assert [fresh.annotation(pid).paper_id for pid in ids[:3]] == ids[:3]
    assert fresh.annotation(ids[0]).created == created and fresh.annotation(ids[0]).note == "first"
    assert all(
        fresh.annotation(pid).created and fresh.status(pid) is Status.READING for pid in ids[:3]
    )


class NotANumber(enum.Enum):
    NAN = float("nan")


@pytest.mark.parametrize(
    "value",
    [
        {"x": float("nan")},
        {"x": [1, {"y": float("-inf")}]},
        ("ok", float("inf")),
        {"x": "\ud800"},
        {"x": object()},
        {"x": {1, 2}},
        {1: "a key JSON has not"},
        {"x": datetime.now()},
        {"x": NotANumber.NAN},
    ],
)
def test_preferences_json_cannot_hold_are_refused_before_anything_is_written(
    library, library_dir, value
):
    path = own_file(library_dir)
    before = path.read_bytes() if path.exists() else None
    with pytest.raises(ValueError, match="cannot be saved"):
        library.prefs.set("view", value)
    assert (path.read_bytes() if path.exists() else None) == before
    assert library.prefs.get("view") is None


@pytest.mark.parametrize(
    "value", [{"note": "null", "n": None, "f": 2.5}, ["null", None, [1.0, "x"]], None]
)
def test_preferences_with_nulls_and_finite_numbers_are_saved(library, library_dir, value):
    library.prefs.set("view", value)
    assert open_library(library_dir).library.prefs.get("view") == value


def test_an_annotation_already_clean_is_kept_as_it_is():
    from reader.core.cleaning import clean_annotation

    clean = Annotation(
        "p", Status.READ, ("a", "b/c"), "note", (Highlight("h", "q"),), 2, "t0", "t1"
    )
    assert clean_annotation(clean) is clean
    for dirty in (
        replace(clean, rating=2.0),
        replace(clean, tags=("a", " b / c ")),
        replace(clean, note="n\x00"),
    ):
        cleaned = clean_annotation(dirty)
        assert cleaned is not dirty and type(cleaned.rating) is int and cleaned.tags == ("a", "b/c")


def test_papers_are_put_in_the_library_order_those_entered_last_found_from_the_end():
    from reader.core.library import Library
    from reader.core.models import Paper
    from tests.helpers.libraries import MemoryStore

    lib = Library(MemoryStore([Paper(id=f"p{i:03}", title=f"Paper {i}") for i in range(200)]))
    assert lib.in_order({"p199", "p003", "p198", "nobody"}) == ["p003", "p198", "p199"]
    assert lib.in_order({"p197", "p199", "p198"}) == ["p197", "p198", "p199"]
    every = lib.paper_ids()
    assert lib.in_order(set(every[::-1])) == every  # (many: one pass in order)
    assert lib.in_order(set()) == []
