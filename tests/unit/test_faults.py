"""Disk full, I/O error, permission denied at every step of a save: nothing on disk is
damaged, the edit stays in memory and is written by the next successful save."""

import errno
import os
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "helpers"))
from store_harness import make_library, synthetic_papers

from reader.core import crdt
from reader.core.library import SaveFailed
from reader.core.models import Status
from reader.opening import open_library
from reader.store import journal
from reader.store.backups import Backups
from reader.store.journal import scan
from reader.store.storage import StorageError, parse_document
from tests.helpers.libraries import DEVICE, catalogue_files, own_backups, own_file

ERRORS = {"disk-full": errno.ENOSPC, "io-error": errno.EIO, "permission": errno.EACCES}


class Faults:
    """Makes the n-th call to any OS step of a save raise `err` (then no more)."""

    STEPS = ("write", "fsync", "fchmod", "replace", "rename", "ftruncate")

    def __init__(self, patch, n, err):
        self.n, self.err, self.calls = n, err, 0
        self.fired: str | None = None
        self.replaced = False
        self.appended = False  # a journal line written and synced
        self.targets: list[Path] = []  # the folders of files replaced
        for name in self.STEPS:
            patch.setattr(os, name, self._wrap(name, getattr(os, name)))
        patch.setattr(tempfile, "mkstemp", self._wrap("mkstemp", tempfile.mkstemp))

    def _wrap(self, name, real):
        def call(*args, **kwargs):
            self.calls += 1
            if self.calls == self.n:
                self.fired = name
                raise OSError(self.err, os.strerror(self.err))
            result = real(*args, **kwargs)
            self.replaced |= name == "replace"
            if name == "replace":
                self.targets.append(Path(args[1]).parent.resolve())
            self.appended |= name == "fsync" and not self.replaced and self.calls == 2
            return result

        return call


@pytest.fixture
def lib_dir(tmp_path):
    folder = tmp_path / "library"
    make_library(folder, synthetic_papers(3))
    return folder


def temp_files(folder):
    """Temporary files left in the library: its folder, this device's, the backups'."""
    return [
        *folder.glob(".tmp-*"),
        *folder.glob("backups/.tmp-*"),
        *own_file(folder).parent.glob(".tmp-*"),
        *own_file(folder, "papers").glob(".tmp-*"),
        *own_backups(folder).glob(".tmp-*"),
    ]


def note_in(path, pid="p000000"):
    """The note of paper `pid` in the annotations file (or backup) `path` alone."""
    record = parse_document(path, path.read_bytes())["annotations"][pid]
    return crdt.view([(DEVICE, record)])["note"]


def journal_is_whole(folder):
    """The journal holds only whole, good lines (or none)."""
    path = own_file(folder, "annotations.journal")
    raw = path.read_bytes() if path.exists() else b""
    found = scan(raw)
    return found.damaged is None and found.clean


@pytest.mark.parametrize("fold", [False, True], ids=["journal", "fold-every-save"])
@pytest.mark.parametrize("err", ERRORS.values(), ids=ERRORS.keys())
def test_a_fault_at_every_step_of_a_save_loses_nothing(lib_dir, monkeypatch, err, fold):
    # A save appends a line to the journal (write, fsync); with `fold` every save
    # also folds the journal into annotations.json (temp file, write, fsync, chmod,
    # rename, folder fsync, then the journal emptied).
    if fold:
        monkeypatch.setattr(journal, "FOLD_BYTES", 0)
    lib = open_library(lib_dir).library
    lib.set_note("p000000", "before any fault")
    path = own_file(lib_dir)
    heard = []
    lib.subscribe(heard.append)
    n = 0
    while True:
        n += 1
        before = path.read_bytes()
        papers_before = catalogue_files(lib_dir)
        with monkeypatch.context() as patch:
            faults = Faults(patch, n, err)
            try:
                lib.set_note("p000000", f"edit {n}")
                failed = None
            except SaveFailed as exc:
                failed = exc
        if faults.fired is None:  # n is past the last step: the save went through
            assert failed is None
            break
        if failed is None:
            # only the fold after the save failed: the save is in the journal
            assert fold and faults.appended, f"a fault in {faults.fired} went unreported"
            assert lib.pending_count() == 0
        else:
            assert lib.annotation("p000000").note == f"edit {n}"  # kept in memory
            assert heard[-1].paper_ids == {"p000000"}  # and shown
            assert lib.pending_count() == 1
        if faults.replaced:  # the new annotations.json is whole
            assert note_in(path) == f"edit {n}"
        else:
            assert path.read_bytes() == before, f"fault in {faults.fired} changed the file"
        assert journal_is_whole(lib_dir), f"fault in {faults.fired} left a torn journal"
        assert catalogue_files(lib_dir) == papers_before
        assert temp_files(lib_dir) == []
        # the disk recovers: an explicit retry, or simply the next edit, writes it
        if n % 2:
            assert lib.retry_pending()
        else:
            lib.set_status(["p000001"], Status.READ if n % 4 else Status.READING)
        assert lib.pending_count() == 0
        assert open_library(lib_dir).library.annotation("p000000").note == f"edit {n}"
    # the journal: write, fsync; the fold: temp file, write, fsync, chmod, rename,
    # folder fsync, truncate, fsync
    assert n > (9 if fold else 2)


def test_edits_made_while_the_disk_is_full_are_saved_together_by_the_retry(lib_dir, monkeypatch):
    lib = open_library(lib_dir).library
    with monkeypatch.context() as patch:
        patch.setattr(os, "fsync", lambda fd: (_ for _ in ()).throw(OSError(errno.ENOSPC, "full")))
        for text in ("one", "two", "three"):
            with pytest.raises(SaveFailed, match="disk is full"):
                lib.set_note("p000000", text)
        with pytest.raises(SaveFailed):
            lib.add_tags(["p000001"], ["later"])
        assert lib.pending_count() == 2
        assert not lib.retry_pending() and lib.pending_count() == 2
    path = own_file(lib_dir, "annotations.journal")
    lines = scan(path.read_bytes() if path.exists() else b"").changes
    assert lib.retry_pending() and lib.pending_count() == 0
    after = scan(path.read_bytes()).changes
    # one journal line for both papers' edits: on disk together, or not at all
    assert len(after) == len(lines) + 1 and set(after[-1]) == {"p000000", "p000001"}
    fresh = open_library(lib_dir).library
    assert fresh.annotation("p000000").note == "three"
    assert fresh.tags("p000001") == ("later",)


def test_pending_edits_stay_on_top_of_outside_changes(lib_dir, monkeypatch):
    lib = open_library(lib_dir).library
    with monkeypatch.context() as patch:
        patch.setattr(os, "fsync", lambda *a: (_ for _ in ()).throw(OSError(errno.EIO, "I/O")))
        with pytest.raises(SaveFailed):
            lib.set_note("p000000", "mine, unsaved")
    open_library(lib_dir).library.set_tags("p000000", ["theirs"])  # another process
    assert lib.refresh() is not None
    ann = lib.annotation("p000000")
    assert ann.note == "mine, unsaved" and ann.tags == ("theirs",)
    assert lib.retry_pending()
    fresh = open_library(lib_dir).library.annotation("p000000")
    assert fresh.note == "mine, unsaved" and fresh.tags == ("theirs",)


@pytest.mark.parametrize("err", ERRORS.values(), ids=ERRORS.keys())
def test_a_fault_while_taking_a_backup_keeps_the_older_ones(lib_dir, monkeypatch, err):
    # taking a backup first folds the journal into annotations.json: faults there too
    lib = open_library(lib_dir).library
    # this device's backups, as a Backups of its own takes them
    backups = Backups(lib_dir, keep=2, source=own_file(lib_dir), into=own_backups(lib_dir))
    for text in ("a", "b"):
        lib.set_note("p000000", text)
        backups.take("close")
    n = 0
    while True:
        n += 1
        lib.set_note("p000000", f"c{n}")  # in the journal
        source = own_file(lib_dir).read_bytes()
        kept = {i.name: i.path.read_bytes() for i in backups.list()}
        with monkeypatch.context() as patch:
            faults = Faults(patch, n, err)
            try:
                backups.take("close", force=True)
                failed = False
            except StorageError:
                failed = True
        if faults.fired is None:
            assert not failed
            break
        assert failed
        # else a backup was written, only the folder's sync failed after
        if own_backups(lib_dir).resolve() not in faults.targets:
            assert {i.name: i.path.read_bytes() for i in backups.list()} == kept
        assert temp_files(lib_dir) == []
        assert journal_is_whole(lib_dir)
        if not faults.replaced:
            assert own_file(lib_dir).read_bytes() == source
        assert open_library(lib_dir).library.annotation("p000000").note == f"c{n}"
    assert len(backups.list()) == 2
    [newest] = [i for i in backups.list() if i.reason == "close"][:1]
    assert note_in(newest.path) == f"c{n}"


def test_a_fault_while_importing_leaves_the_catalogue_as_it_was(lib_dir, monkeypatch):
    lib = open_library(lib_dir).library
    before = catalogue_files(lib_dir)
    with monkeypatch.context() as patch:
        patch.setattr(
            os, "replace", lambda *a: (_ for _ in ()).throw(OSError(errno.ENOSPC, "full"))
        )
        with pytest.raises(StorageError, match="disk is full"):
            lib.add_papers(synthetic_papers(2, prefix="new"))
    assert catalogue_files(lib_dir) == before
    assert len(lib) == 3 and temp_files(lib_dir) == []
    assert len(open_library(lib_dir).library) == 3
