"""A library file damaged, deleted or cut short while a library is open (the window):
what it holds is written back, the damaged copy kept aside, the user told once.

The annotations are this device's own files, devices/<device>/annotations.json and
annotations.journal (their damaged copies kept beside them), backed up into
backups/<device>/: tests/helpers/libraries.py's own_file() and own_backups()."""

import os
import shutil
from pathlib import Path

import pytest

from reader.core import crdt
from reader.core.models import Status
from reader.opening import open_library
from reader.store.files import LibraryFolder
from reader.store.storage import parse_document
from tests.helpers.libraries import DEVICE, own_backups, own_file

GARBAGE = b"garbage \x00\xff{ not json"
BIG_NOTE = "a 300 KB note written from the command line. " * 6700


def asides(path: Path) -> list[Path]:
    """The damaged copies of the file `path` kept aside beside it."""
    return sorted(path.parent.glob(f"{path.name}.damaged-*"))


@pytest.fixture
def window(library_dir):
    """A library open as the window has it, a backup taken, then edits of its own and
    of the command line (folded into annotations.json by the big note) taken in."""
    opened = open_library(library_dir)
    lib = opened.library
    ids = lib.paper_ids()
    opened.backups.take("hourly")
    lib.add_tags([ids[0]], ["mine"])
    lib.save_search("mine", "tag:mine")
    cli = open_library(library_dir).library
    cli.add_tags([ids[1]], ["cli-1", "cli-2"])
    cli.set_note(ids[2], BIG_NOTE)
    cli.set_note(ids[3], "a short note from the command line")
    assert lib.refresh() is not None
    assert lib.tags(ids[1]) == ("cli-1", "cli-2") and lib.annotation(ids[2]).note == BIG_NOTE
    assert opened.folder.take_problems() == []
    return opened


def held_everything(lib, ids):
    assert lib.tags(ids[0]) == ("mine",)
    assert lib.tags(ids[1]) == ("cli-1", "cli-2")
    assert lib.annotation(ids[2]).note == BIG_NOTE
    assert lib.annotation(ids[3]).note == "a short note from the command line"
    assert lib.prefs.saved_searches() == {"mine": "tag:mine"}


def reopened_clean(folder: Path):
    again = open_library(folder)
    assert again.messages == []
    return again.library


def test_garbage_over_annotations_json_is_kept_aside_and_what_is_held_written_back(window):
    folder, lib = window.folder.folder, window.library
    ids = lib.paper_ids()
    own_file(folder).write_bytes(GARBAGE)

    assert lib.refresh() is None  # nothing the window shows changed
    held_everything(lib, ids)
    [kept] = asides(own_file(folder))
    assert kept.read_bytes() == GARBAGE
    [told] = window.folder.take_problems()
    assert "annotations.json was damaged" in told.splitlines()[0] and str(kept) in told
    assert window.folder.take_problems() == []  # told once
    assert lib.refresh() is None and window.folder.take_problems() == []

    lib.add_tags([ids[4]], ["after"])  # saves go on as before
    again = reopened_clean(folder)
    held_everything(again, ids)
    assert again.tags(ids[4]) == ("after",)


def test_a_command_line_save_after_the_damage_is_kept_too(window):
    """Another program's recovery put an older backup back before the window looked;
    the window's copy goes back, with that program's save on top."""
    folder, lib = window.folder.folder, window.library
    ids = lib.paper_ids()
    own_file(folder).write_bytes(GARBAGE)
    cli = open_library(folder)
    assert "Restored the newest good backup" in cli.messages[0]
    cli.library.add_tags([ids[5]], ["cli-after"])

    lib.refresh()
    held_everything(lib, ids)
    assert lib.tags(ids[5]) == ("cli-after",)
    [told] = window.folder.take_problems()
    assert "another program" in told
    [kept] = asides(own_file(folder))  # (by the command line's recovery)
    assert kept.read_bytes() == GARBAGE and str(kept) in told
    held_everything(reopened_clean(folder), ids)


def test_a_journal_cut_short_keeps_the_saves_it_acknowledged(window):
    folder, lib = window.folder.folder, window.library
    ids = lib.paper_ids()
    lib.set_status([ids[6]], Status.READ)
    lib.set_note(ids[6], "acknowledged")
    journal = own_file(folder, "annotations.journal")
    raw = journal.read_bytes()
    journal.write_bytes(raw[: len(raw) // 3])  # (not at a line's end)

    lib.refresh()
    held_everything(lib, ids)
    assert lib.annotation(ids[6]).note == "acknowledged"
    [told] = window.folder.take_problems()
    assert "annotations.journal lost" in told.splitlines()[0]
    again = reopened_clean(folder)
    held_everything(again, ids)
    assert again.annotation(ids[6]).note == "acknowledged"
    assert again.status(ids[6]) is Status.READ


def test_a_damaged_journal_line_is_kept_aside_and_the_saves_after_it_kept(window):
    folder, lib = window.folder.folder, window.library
    ids = lib.paper_ids()
    lib.set_note(ids[6], "first")
    lib.set_note(ids[7], "second")
    journal = own_file(folder, "annotations.journal")
    raw = bytearray(journal.read_bytes())
    raw[12] ^= 0x55  # the first line fails its checksum: the replay would stop there
    journal.write_bytes(bytes(raw))

    lib.refresh()
    assert (lib.annotation(ids[6]).note, lib.annotation(ids[7]).note) == ("first", "second")
    [kept] = asides(own_file(folder, "annotations.journal"))
    assert kept.read_bytes() == bytes(raw)
    [told] = window.folder.take_problems()
    assert "annotations.journal was damaged" in told and str(kept) in told
    again = reopened_clean(folder)
    assert (again.annotation(ids[6]).note, again.annotation(ids[7]).note) == ("first", "second")
    held_everything(again, ids)


def test_annotations_json_deleted_while_open_is_written_back(window):
    folder, lib = window.folder.folder, window.library
    ids = lib.paper_ids()
    own_file(folder).unlink()
    lib.refresh()
    held_everything(lib, ids)
    assert "deleted" in window.folder.take_problems()[0]
    held_everything(reopened_clean(folder), ids)


def test_a_valid_older_copy_is_not_damage_it_is_taken_as_it_is(window):
    """A syncer (or `backup restore`) puts back an older, valid annotations.json: the
    window follows it, as for any other program's write; nothing is written over it."""
    folder, lib = window.folder.folder, window.library
    ids = lib.paper_ids()
    older = own_backups(folder).glob("annotations-*-hourly.json")
    raw = next(older).read_bytes()
    own_file(folder).write_bytes(raw)
    own_file(folder, "annotations.journal").write_bytes(b"")

    assert lib.refresh() is not None
    assert lib.tags(ids[1]) == ()  # the older copy's view
    assert window.folder.take_problems() == []
    assert own_file(folder).read_bytes() == raw
    assert asides(own_file(folder)) == []


def test_damage_found_by_a_save_is_repaired_before_it(window):
    """The window saves before its poll looks: the save folds (a big note), finds the
    file damaged, writes back what is held, then its own edit."""
    folder, lib = window.folder.folder, window.library
    ids = lib.paper_ids()
    own_file(folder).write_bytes(GARBAGE)
    lib.set_note(ids[8], BIG_NOTE + "again")  # past the fold size
    held_everything(lib, ids)
    assert any("annotations.json was damaged" in p for p in window.folder.take_problems())
    again = reopened_clean(folder)
    held_everything(again, ids)
    assert again.annotation(ids[8]).note == BIG_NOTE + "again"


def test_the_close_backup_repairs_a_damaged_file_first(window):
    folder, lib = window.folder.folder, window.library
    ids = lib.paper_ids()
    own_file(folder).write_bytes(GARBAGE)
    taken = window.backups.take("close")
    assert taken is not None and "mine" in taken.read_text()
    held_everything(reopened_clean(folder), ids)


def test_a_catalogue_file_damaged_while_open_is_told_by_line_at_the_next_open(window):
    folder, lib = window.folder.folder, window.library
    ids = lib.paper_ids()
    [path] = folder.glob("devices/*/papers/*.jsonl")
    lines = path.read_bytes().split(b"\n")
    lines[3] = GARBAGE[:40]  # another program wrote over one paper's line
    path.write_bytes(b"\n".join(lines))
    again = open_library(folder)
    told = "\n".join(again.messages)
    assert str(path) in told and "line 4" in told
    assert sorted(again.library.paper_ids()) == sorted(ids[:2] + ids[3:])
    assert again.library.papers_by_id()[ids[0]] == lib.paper(ids[0])


def test_looking_for_changes_does_not_wait_for_a_busy_lock(window):
    """Another program holds the lock: the window looks again next time."""
    import threading

    folder, lib = window.folder.folder, window.library
    own_file(folder).write_bytes(GARBAGE)
    other = LibraryFolder(folder)
    held, release = threading.Event(), threading.Event()

    def hold():
        with other.lock.acquire():
            held.set()
            release.wait(10)

    thread = threading.Thread(target=hold)
    thread.start()
    held.wait(5)
    try:
        assert lib.refresh() is None
        assert own_file(folder).read_bytes() == GARBAGE
    finally:
        release.set()
        thread.join()
    lib.refresh()
    held_everything(lib, lib.paper_ids())


# -- a file named backups -------------------------------------------------------------


@pytest.mark.parametrize("where", ["backups", "backups/<device>"])
@pytest.mark.parametrize("kind", ["file", "dangling symlink", "symlink to a file"])
def test_a_file_named_backups_does_not_stop_backups_nor_imports(library_dir, tmp_path, kind, where):
    from reader.core.models import Paper

    opened = open_library(library_dir)
    lib = opened.library
    lib.add_tags([lib.paper_ids()[0]], ["kept"])
    # the library's backups folder, or this device's folder in it, is not a folder
    backups = library_dir / "backups" if where == "backups" else own_backups(library_dir)
    if backups.exists():
        shutil.rmtree(backups)
    backups.parent.mkdir(parents=True, exist_ok=True)
    if kind == "file":
        backups.write_bytes(b"not a folder")
    elif kind == "dangling symlink":
        os.symlink(tmp_path / "nowhere", backups)
    else:
        (tmp_path / "a-file").write_bytes(b"x")
        os.symlink(tmp_path / "a-file", backups)

    lib.add_papers([Paper(id="new-one", title="Imported")])  # a backup first

    assert "new-one" in open_library(library_dir).library
    assert backups.is_dir() and not backups.is_symlink()
    [copy] = list(own_backups(library_dir).glob("annotations-*-before-import.json"))
    record = parse_document(copy, copy.read_bytes())["annotations"][lib.paper_ids()[0]]
    assert "kept" in crdt.view([(DEVICE, record)])["tags"]
    [aside] = list(backups.parent.glob(f"{backups.name}.not-a-folder-*"))
    if kind == "file":
        assert aside.read_bytes() == b"not a folder"
    else:
        assert aside.is_symlink()
    told = opened.folder.take_problems()
    assert any(str(aside) in t and "not a folder" in t for t in told)
