"""Damaged, unreadable and read-only files at start: never deleted, never fatal, always told.

The annotations are this device's own files (devices/<device>/annotations.json and
its journal, their damaged copies kept beside them) and its backups (backups/<device>/):
tests/helpers/libraries.py's own_file() and own_backups()."""

import datetime as dt
import json
import os
import shutil
import sys
from pathlib import Path

import pytest
from filelock import FileLock

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "helpers"))
from store_harness import device_backups, make_library, synthetic_papers

from reader.cli import main
from reader.core import crdt
from reader.core.library import SaveFailed
from reader.core.models import Status
from reader.opening import open_library
from reader.store.files import LibraryFolder
from tests.helpers.libraries import DEVICE, own_backups, own_file

DAMAGED = {
    "empty": b"",
    "truncated": b'{"annotations": {"p000000": {"note": "hal',
    "garbage": b"\x00\x01\x02 garbage \xfe",
    "wrong-shape": b"[1, 2, 3]",
    "wrong-table": b'{"annotations": [1]}',
    "bad-utf8": b'{"annotations": {"p000000": {"note": "\xff\xfe"}}}',
    "nul-filled": b"\x00" * 4096,  # what a crash on some file systems leaves
}


@pytest.fixture
def lib_dir(tmp_path):
    folder = tmp_path / "library"
    make_library(folder, synthetic_papers(4))
    return folder


def annotated(folder, note="precious"):
    lib = open_library(folder).library
    lib.set_note("p000000", note)
    lib.set_status(["p000001"], Status.READ)
    return lib


def damaged_asides(path):
    """The damaged copies of the file `path` kept aside beside it."""
    return sorted(path.parent.glob(f"{path.name}.damaged-*"))


@pytest.mark.parametrize("content", DAMAGED.values(), ids=DAMAGED.keys())
def test_damaged_annotations_are_kept_aside_and_the_newest_backup_restored(lib_dir, content):
    annotated(lib_dir, "older")
    device_backups(lib_dir).take("close")
    annotated(lib_dir, "newest")
    good = device_backups(lib_dir).take("close", force=True)
    own_file(lib_dir).write_bytes(content)

    opened = open_library(lib_dir)

    [aside] = damaged_asides(own_file(lib_dir))
    assert aside.read_bytes() == content  # never deleted, never changed
    assert opened.library.annotation("p000000").note == "newest"
    assert opened.library.status("p000001") is Status.READ
    [message] = [m for m in opened.messages if "damaged" in m]
    assert str(aside) in message and good.name in message
    again = open_library(lib_dir)  # recovered for good: nothing more to say
    assert again.messages == [] and len(damaged_asides(own_file(lib_dir))) == 1


def test_a_damaged_newest_backup_is_skipped(lib_dir):
    annotated(lib_dir, "from the good backup")
    device_backups(lib_dir).take("close")
    annotated(lib_dir, "later")
    bad = device_backups(lib_dir).take("close")
    bad.write_bytes(b"{")
    own_file(lib_dir).write_bytes(b"")
    opened = open_library(lib_dir)
    assert opened.library.annotation("p000000").note == "from the good backup"
    assert bad.read_bytes() == b"{"


def at(when):
    return lambda: when


NOW = dt.datetime(2026, 3, 1, 12, 0, tzinfo=dt.UTC)
DAY = dt.timedelta(days=1)


def test_a_future_dated_older_backup_loses_to_the_highest_sequence(lib_dir):
    annotated(lib_dir, "older, taken before the clock was set back")
    device_backups(lib_dir, clock=at(NOW + 30 * DAY)).take("close")
    annotated(lib_dir, "newest")
    good = device_backups(lib_dir, clock=at(NOW)).take("close")
    own_file(lib_dir).write_bytes(b"{")
    opened = open_library(lib_dir)
    assert opened.library.annotation("p000000").note == "newest"
    assert any(good.name in m for m in opened.messages)


def test_a_damaged_highest_sequence_backup_falls_back_to_the_next_lower(lib_dir):
    # each taken with the clock a day further back: the time order is the reverse
    annotated(lib_dir, "lowest")
    device_backups(lib_dir, clock=at(NOW)).take("close")
    annotated(lib_dir, "next good")
    good = device_backups(lib_dir, clock=at(NOW - DAY)).take("close")
    annotated(lib_dir, "highest, damaged")
    bad = device_backups(lib_dir, clock=at(NOW - 2 * DAY)).take("close")
    bad.write_bytes(b'{"annotations": [')
    own_file(lib_dir).write_bytes(b"")
    opened = open_library(lib_dir)
    assert opened.library.annotation("p000000").note == "next good"
    assert any(good.name in m for m in opened.messages)
    assert bad.read_bytes() == b'{"annotations": ['  # kept, never deleted


def test_old_style_backups_are_older_than_sequenced_ones_for_recovery(lib_dir):
    annotated(lib_dir, "old style, future-dated")
    folder = LibraryFolder(lib_dir)
    folder.close()
    own_backups(lib_dir).mkdir(parents=True, exist_ok=True)
    old = own_backups(lib_dir) / "annotations-20990101T000000.000000Z-close.json"
    old.write_bytes(own_file(lib_dir).read_bytes())
    annotated(lib_dir, "sequenced")
    device_backups(lib_dir, clock=at(NOW)).take("close")
    own_file(lib_dir).write_bytes(b"\x00")
    assert open_library(lib_dir).library.annotation("p000000").note == "sequenced"
    # with the sequenced one damaged, the old-style one is the fallback
    [seq] = [i for i in device_backups(lib_dir).list() if i.path != old]
    seq.path.write_bytes(b"")
    own_file(lib_dir).write_bytes(b"\x00")
    assert open_library(lib_dir).library.annotation("p000000").note == "old style, future-dated"


def test_no_backup_starts_empty_and_says_so(lib_dir):
    own_file(lib_dir).write_bytes(b"not json at all")
    opened = open_library(lib_dir)
    assert len(opened.library) == 4
    assert all(opened.library.annotation(pid).is_empty for pid in opened.library.paper_ids())
    assert any("No backup was found" in m for m in opened.messages)
    assert damaged_asides(own_file(lib_dir))[0].read_bytes() == b"not json at all"
    opened.library.set_note("p000002", "life goes on")
    assert open_library(lib_dir).library.annotation("p000002").note == "life goes on"


def test_damaged_papers_file_is_kept_aside_and_annotations_kept(lib_dir):
    """papers.json of an earlier version, damaged: kept aside, never migrated."""
    annotated(lib_dir)
    annotations = own_file(lib_dir).read_bytes()
    shutil.rmtree(own_file(lib_dir, "papers"))  # (the library as the release before kept it)
    (lib_dir / "papers.json").write_bytes(b'{"papers": {"p0": {"tit')
    opened = open_library(lib_dir, seed=False)
    [aside] = damaged_asides(lib_dir / "papers.json")
    assert aside.read_bytes() == b'{"papers": {"p0": {"tit'
    assert len(opened.library) == 0
    assert any("annotations are kept" in m for m in opened.messages)
    assert own_file(lib_dir).read_bytes() == annotations
    # re-importing the list brings the annotations back into view
    opened.library.add_papers(synthetic_papers(4))
    assert open_library(lib_dir).library.annotation("p000000").note == "precious"


def test_a_field_of_the_wrong_type_does_not_stop_loading(lib_dir):
    annotated(lib_dir)
    LibraryFolder(lib_dir).close()  # the journal folded into annotations.json
    path = own_file(lib_dir)
    data = json.loads(path.read_text("utf-8"))
    data["annotations"]["p000000"]["highlights"] = 5
    path.write_text(json.dumps(data), "utf-8")
    opened = open_library(lib_dir)
    assert opened.library.annotation("p000000").note == "precious"
    assert any("p000000" in m for m in opened.messages)


def test_the_cli_reports_the_recovery_on_stderr(lib_dir, capsys):
    annotated(lib_dir)
    device_backups(lib_dir).take("close")
    own_file(lib_dir).write_bytes(b"\xff")
    assert main(["--data-dir", str(lib_dir), "show", "p000000", "--json"]) == 0
    out, err = capsys.readouterr()
    assert json.loads(out)["note"] == "precious"
    assert "damaged" in err and "Restored the newest good backup" in err


def test_stale_temp_files_are_removed_at_start_but_not_under_a_live_writer(lib_dir):
    # an unfinished write of a catalogue file, of this device's annotations.json, of its backup
    papers_stale = own_file(lib_dir, "papers") / ".tmp-000002.jsonl.q8r9"
    papers_stale.write_bytes(b'{"papers": ')
    stale = own_file(lib_dir).with_name(".tmp-annotations.json.x1y2")
    stale.write_bytes(b'{"half": ')
    backup_stale = own_backups(lib_dir) / ".tmp-annotations-1.json.abc"
    backup_stale.parent.mkdir(parents=True)
    backup_stale.write_bytes(b"")
    every = [papers_stale, stale, backup_stale]
    with FileLock(str(lib_dir / ".lock")):  # another process is in the middle of a save
        LibraryFolder(lib_dir)
        assert all(p.exists() for p in every)
    store = LibraryFolder(lib_dir)
    assert [p for p in every if p.exists()] == []
    assert sorted(store.removed_temp_files) == sorted(every)


def test_symlinked_annotations_file_keeps_pointing_there(lib_dir, tmp_path):
    elsewhere = tmp_path / "synced" / "annotations.json"
    elsewhere.parent.mkdir()
    os.replace(own_file(lib_dir), elsewhere)
    own_file(lib_dir).symlink_to(elsewhere)
    annotated(lib_dir, "through the link")
    # the saves' journal goes along with the file it belongs to
    assert (elsewhere.parent / "annotations.journal").stat().st_size > 0
    assert not own_file(lib_dir, "annotations.journal").exists()
    LibraryFolder(lib_dir).close()  # folded into the linked file
    assert own_file(lib_dir).is_symlink()
    record = json.loads(elsewhere.read_text("utf-8"))["annotations"]["p000000"]
    assert crdt.view([(DEVICE, record)])["note"] == "through the link"
    assert open_library(lib_dir).library.annotation("p000000").note == "through the link"
    assert (elsewhere.parent / "annotations.journal").stat().st_size == 0


# -- read-only libraries -----------------------------------------------------------


def library_folders(folder):
    """The library's folders this device writes in: the library folder itself, devices/
    and its own devices/<device>/ (annotations.json, the journal, papers/)."""
    return [folder, folder / "devices", own_file(folder).parent, own_file(folder, "papers")]


def set_read_only(folder, read_only=True):
    for place in library_folders(folder):
        os.chmod(place, 0o555 if read_only else 0o755)


def library_files(folder):
    """Every file of the library folder (the device's own too), by its path in it."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.fixture
def read_only(lib_dir):
    """Make the library read-only for the test (its folder and this device's folder in
    it, as on a read-only disk); restored after (even as root the mode bits are honoured)."""
    annotated(lib_dir)
    before = library_files(lib_dir)
    set_read_only(lib_dir)
    yield before
    set_read_only(lib_dir, False)


def test_read_only_folder_opens_for_reading_and_refuses_to_write(lib_dir, read_only):
    opened = open_library(lib_dir)
    assert any("read-only" in m and "will not be saved" in m for m in opened.messages)
    lib = opened.library
    assert lib.annotation("p000000").note == "precious"
    with pytest.raises(SaveFailed, match="read-only"):
        lib.set_note("p000000", "edited while read-only")
    assert lib.annotation("p000000").note == "edited while read-only"  # kept in memory
    assert lib.pending_count() == 1 and not lib.retry_pending()
    assert library_files(lib_dir) == read_only
    set_read_only(lib_dir, False)  # the user fixes the permissions
    assert lib.retry_pending() and lib.pending_count() == 0
    assert open_library(lib_dir).library.annotation("p000000").note == "edited while read-only"


def test_read_only_file_is_not_overwritten(lib_dir):
    annotated(lib_dir)
    path = own_file(lib_dir)
    os.chmod(path, 0o444)
    before = path.read_bytes()
    lib = open_library(lib_dir).library
    with pytest.raises(SaveFailed, match="read-only"):
        lib.set_note("p000003", "x")
    assert path.read_bytes() == before
    assert oct(path.stat().st_mode & 0o777) == oct(0o444)


def test_damaged_file_in_a_read_only_folder_is_left_alone(lib_dir, read_only):
    set_read_only(lib_dir, False)
    own_file(lib_dir).write_bytes(b"{broken")
    set_read_only(lib_dir)
    opened = open_library(lib_dir)
    assert any("left as it is" in m for m in opened.messages)
    assert own_file(lib_dir).read_bytes() == b"{broken"
    assert opened.library.annotation("p000000").is_empty
    with pytest.raises(SaveFailed):
        opened.library.set_note("p000000", "x")
    assert own_file(lib_dir).read_bytes() == b"{broken"


def test_cli_edit_in_a_read_only_library_exits_non_zero_with_not_saved(lib_dir, read_only, capsys):
    with pytest.raises(SystemExit) as info:
        main(["--data-dir", str(lib_dir), "status", "p000002", "read"])
    assert info.value.code != 0
    assert "not saved" in capsys.readouterr().err
