"""Deleting papers: to the trash (what the user wrote about them kept), back again,
the trash emptied, two papers merged into one; on one computer and across several
(the deletion is a line of a new catalogue file, carried by the syncer)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from reader.core.library import Library
from reader.core.models import Highlight, Status
from reader.opening import open_library
from reader.store import catalogue_db
from reader.store.files import LibraryFolder
from tests.helpers.syncer import full_sync


@pytest.fixture(autouse=True)
def indexed_on_disk(monkeypatch):
    """These small libraries keep their catalogue's index in the cache folder, as a
    large one does: what is deleted must stay deleted there too."""
    monkeypatch.setattr(catalogue_db, "SMALL_LIBRARY_BYTES", 0)


def on(folder: Path, device: str = "laptop") -> Library:
    return Library(LibraryFolder(folder, device=device))


def test_a_deleted_paper_leaves_the_catalogue_and_comes_back_with_its_annotation(computers):
    lib = on(computers["laptop"])
    pid, other = lib.paper_ids()[:2]
    lib.set_note(pid, "my thoughts")
    lib.add_tags([pid], ["rl"])
    gone = lib.delete_papers([pid])
    assert [p.id for p in gone] == [pid] and pid not in lib and len(lib) == 18
    again = on(computers["laptop"])
    assert pid not in again and other in again
    assert [p.id for p in again.trash()] == [pid]
    assert again.annotations()[pid].note == "my thoughts"  # kept while in the trash
    again.restore_papers(again.trash())
    assert pid in again and again.trash() == []
    back = on(computers["laptop"])
    assert back.full_paper(pid) == gone[0] and gone[0].abstract  # (whole: its abstract too)
    assert back.annotation(pid).note == "my thoughts" and back.tags(pid) == ("rl",)


def test_a_deletion_reaches_the_other_computer_and_so_does_putting_it_back(computers):
    laptop = on(computers["laptop"])
    pid = laptop.paper_ids()[3]
    laptop.delete_papers([pid])
    full_sync(computers)
    desktop = on(computers["desktop"], "desktop")
    assert pid not in desktop and [p.id for p in desktop.trash()] == [pid]
    desktop.restore_papers(desktop.trash())
    full_sync(computers)
    assert pid in on(computers["laptop"])


def test_the_index_made_anew_from_the_files_keeps_a_paper_deleted(computers):
    lib = on(computers["laptop"])
    pid = lib.paper_ids()[5]
    lib.delete_papers([pid])
    lib._store.close()
    index = lib._store.catalogue.path
    for suffix in ("", "-wal", "-shm"):  # the index deleted: made anew from the files
        Path(f"{index}{suffix}").unlink(missing_ok=True)
    again = on(computers["laptop"])
    assert pid not in again and len(again) == 18


def test_a_deletion_that_arrives_before_the_paper_keeps_it_deleted(computers, tmp_path):
    """A syncer may bring the deleting file before the one that added the paper: the
    paper is never shown, and it is in the trash whole once its file comes."""
    from tests.helpers.libraries import catalogue_files

    laptop_dir = computers["laptop"]
    third = tmp_path / "third"
    open_library(third).folder.close()  # (its own copy of the sample: 000001.jsonl)
    laptop = on(laptop_dir)
    from reader.core.models import Paper

    new = Paper("new-paper", "A paper imported on the laptop", ("A. Author",), "Abstract.")
    laptop.add_papers([new])
    laptop.delete_papers(["new-paper"])
    adding, deleting = sorted(n for n in catalogue_files(laptop_dir) if "/laptop/" in n)
    (third / deleting).parent.mkdir(parents=True, exist_ok=True)
    shutil.copy2(laptop_dir / deleting, third / deleting)  # the deletion first
    early = on(third, "third")
    assert "new-paper" not in early and early.trash() == []
    shutil.copy2(laptop_dir / adding, third / adding)
    late = on(third, "third")
    assert "new-paper" not in late
    assert [p.title for p in late.trash()] == ["A paper imported on the laptop"]


def test_emptying_the_trash_forgets_the_papers_and_what_was_written(computers):
    lib = on(computers["laptop"])
    pid, kept = lib.paper_ids()[:2]
    lib.set_note(pid, "gone for good")
    lib.set_note(kept, "stays")
    lib.delete_papers([pid])
    assert lib.empty_trash() == 1
    again = on(computers["laptop"])
    assert again.trash() == [] and pid not in again
    assert pid not in again.annotations() and again.annotation(kept).note == "stays"


def test_merging_two_papers_combines_what_was_written_and_trashes_the_other(computers):
    lib = on(computers["laptop"])
    keep, other = lib.paper_ids()[:2]
    lib.add_tags([keep], ["rl"])
    lib.set_note(keep, "first")
    lib.add_tags([other], ["theory", "rl"])
    lib.set_status([other], Status.READ)
    lib.set_note(other, "second")
    lib.set_highlights(other, [Highlight("h1", "quote", color="green")])
    edit = lib.merge_papers(keep, other)
    ann = lib.annotation(keep)
    assert set(ann.tags) == {"rl", "theory"}
    assert ann.status is Status.READ
    assert ann.note == "first\n\nsecond"
    assert [h.id for h in ann.highlights] == ["h1"]
    assert other not in lib and [p.id for p in lib.trash()] == [other]
    lib.revert(edit)  # undone: keep as it was, the other back
    lib.restore_papers(lib.trash())
    assert lib.annotation(keep).note == "first" and lib.tags(keep) == ("rl",)
    assert lib.annotation(other).note == "second"
