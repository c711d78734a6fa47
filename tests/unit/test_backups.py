"""Verified, rotating backups of annotations.json; migrations; backup and restore commands.

A device's own annotations.json (devices/<device>/) is backed up into its own
backups/<device>/: tests/helpers/libraries.py's own_file() and own_backups()."""

import datetime as dt
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "helpers"))
from store_harness import device_backups, make_library, synthetic_papers

from reader.cli import main
from reader.core import crdt
from reader.core.hlc import Clock as StampClock
from reader.core.models import Status
from reader.opening import open_library
from reader.store import backups as backups_module
from reader.store import migrations
from reader.store.files import LibraryFolder
from reader.store.storage import DamagedFileError, StorageError
from tests.helpers.libraries import DEVICE, own_backups, own_file


class Clock:
    def __init__(self) -> None:
        self.now = dt.datetime(2026, 1, 5, 9, 0, tzinfo=dt.UTC)

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += dt.timedelta(seconds=seconds)


@pytest.fixture
def lib_dir(tmp_path):
    folder = tmp_path / "library"
    make_library(folder, synthetic_papers(4))
    return folder


@pytest.fixture
def clock(monkeypatch):
    """A clock the test sets; also the module's own time source, so that the Backups
    the library and the command line make for themselves read it too."""
    fake = Clock()
    monkeypatch.setattr(backups_module, "utc_now", fake, raising=False)
    return fake


def edit(folder, text):
    """A saved note, then the library closed (which folds the journal): returns
    this device's annotations.json as it then is."""
    opened = open_library(folder)
    opened.library.set_note("p000000", text)
    opened.folder.close()
    return own_file(folder).read_bytes()


def test_take_copies_the_file_exactly_and_lists_it(lib_dir, clock):
    current = edit(lib_dir, "first")
    backups = device_backups(lib_dir, clock=clock)
    path = backups.take("close")
    assert path.parent == own_backups(lib_dir)
    assert path.read_bytes() == current
    [info] = backups.list()
    assert info.path == path and info.reason == "close"
    assert info.taken == clock.now
    assert backups.check(info) == 1  # one annotation in it


def test_no_annotations_file_no_backup(tmp_path):
    folder = tmp_path / "empty"
    folder.mkdir()
    assert device_backups(folder).take("close") is None
    assert device_backups(folder).list() == []
    assert LibraryFolder(folder).backups.take("close") is None
    assert not own_backups(folder).exists()


def test_unchanged_file_is_not_copied_again_unless_forced(lib_dir, clock):
    edit(lib_dir, "same")
    backups = device_backups(lib_dir, clock=clock)
    first = backups.take("close")
    clock.advance(60)
    assert backups.take("close") == first
    assert len(backups.list()) == 1
    forced = backups.take("manual", force=True)
    assert forced != first and len(backups.list()) == 2


def test_a_bounded_number_is_kept_newest_first(lib_dir, clock):
    backups = device_backups(lib_dir, keep=3, clock=clock)
    contents = []
    for n in range(5):
        contents.append(edit(lib_dir, f"version {n}"))
        backups.take("hourly")
        clock.advance(3600)
    kept = backups.list()
    assert len(kept) == 3
    assert [i.path.read_bytes() for i in kept] == contents[:1:-1]  # the three newest, newest first


def test_damaged_source_is_never_backed_up_and_pushes_nothing_out(lib_dir, clock):
    edit(lib_dir, "good")
    backups = device_backups(lib_dir, keep=1, clock=clock)
    good = backups.take("close")
    own_file(lib_dir).write_bytes(b'{"annotations": {"p0')
    with pytest.raises(DamagedFileError):
        backups.take("close", force=True)
    assert [i.path for i in backups.list()] == [good]


def test_a_copy_that_does_not_read_back_intact_replaces_nothing(lib_dir, clock, monkeypatch):
    edit(lib_dir, "one")
    backups = device_backups(lib_dir, keep=1, clock=clock)
    good = backups.take("close")
    good_bytes = good.read_bytes()
    edit(lib_dir, "two")

    def torn_write(path, payload):  # a disk that silently keeps half of what it is given
        Path(path).write_bytes(payload[: len(payload) // 2])

    monkeypatch.setattr(backups_module, "atomic_write", torn_write)
    clock.advance(10)
    with pytest.raises(StorageError, match="did not read back intact"):
        backups.take("close")
    assert [i.path for i in backups.list()] == [good]
    assert good.read_bytes() == good_bytes


def test_take_if_due_at_most_hourly(lib_dir, clock):
    edit(lib_dir, "a")
    backups = device_backups(lib_dir, clock=clock)
    first = backups.take_if_due()
    assert first is not None
    edit(lib_dir, "b")
    clock.advance(3599)
    assert backups.take_if_due() is None
    clock.advance(2)
    second = backups.take_if_due()
    assert second not in (None, first)
    assert backups.list()[0].reason == "hourly"


def test_restore_saves_the_current_file_first_and_can_be_undone(lib_dir, clock):
    old = edit(lib_dir, "old text")
    backups = device_backups(lib_dir, clock=clock)
    name = backups.take("close").name
    clock.advance(5)
    new = edit(lib_dir, "new text")
    aside = backups.restore(name)
    assert own_file(lib_dir).read_bytes() == old
    assert aside.read_bytes() == new and "before-restore" in aside.name
    assert open_library(lib_dir).library.annotation("p000000").note == "old text"
    backups.restore(aside.name)  # restoring is itself undoable
    assert open_library(lib_dir).library.annotation("p000000").note == "new text"


def test_restore_keeps_a_damaged_current_file_aside(lib_dir, clock):
    old = edit(lib_dir, "keep me")
    backups = device_backups(lib_dir, clock=clock)
    name = backups.take("close").name
    own_file(lib_dir).write_bytes(b"\x00garbage")
    aside = backups.restore(name)
    assert aside.read_bytes() == b"\x00garbage" and ".damaged-" in aside.name
    assert own_file(lib_dir).read_bytes() == old


def test_a_damaged_backup_is_never_restored(lib_dir, clock):
    edit(lib_dir, "x")
    backups = device_backups(lib_dir, clock=clock)
    path = backups.take("close")
    path.write_bytes(b"{not json")
    current = edit(lib_dir, "current")
    with pytest.raises(DamagedFileError):
        backups.restore(path.name)
    assert own_file(lib_dir).read_bytes() == current


def test_restore_of_an_unknown_name(lib_dir):
    with pytest.raises(StorageError, match="no such backup"):
        device_backups(lib_dir).restore("annotations-1999")


def test_an_import_takes_a_backup_first(lib_dir):
    before = edit(lib_dir, "mine")
    opened = open_library(lib_dir)
    opened.library.add_papers(synthetic_papers(2, prefix="new"))
    [info] = opened.backups.list()
    assert info.reason == "before-import" and info.path.read_bytes() == before


def later_stamp(*records):
    """A stamp of this device after every one in `records` (as a migration writes)."""
    clock = StampClock(DEVICE)
    for record in records:
        clock.see(crdt.max_stamp(record))
    return clock.now()


def test_migrations_run_in_order_each_after_a_backup(lib_dir, monkeypatch):
    edit(lib_dir, "before upgrade")
    seen = []

    def step_two(doc):
        seen.append(("two", len(device_backups(lib_dir).list())))
        record = doc["annotations"]["p000000"]
        record["rating"] = {"v": 2, "at": later_stamp(record)}

    def step_three(doc):
        seen.append(("three", len(device_backups(lib_dir).list())))
        doc["tag_colours"] = {"rl": {"v": {"colour": "red"}, "at": later_stamp()}}

    monkeypatch.setattr(migrations, "MIGRATIONS", [*migrations.MIGRATIONS, step_two, step_three])
    pre = own_file(lib_dir).read_bytes()
    opened = open_library(lib_dir)
    assert seen == [("two", 1), ("three", 2)]  # a backup existed before each step ran
    oldest = opened.backups.list()[-1]
    assert oldest.reason == "before-migration-2" and oldest.path.read_bytes() == pre
    data = json.loads(own_file(lib_dir).read_text("utf-8"))
    assert data["_meta"]["schema"]["version"] == 3
    assert opened.library.annotation("p000000").rating == 2
    assert opened.library.annotation("p000000").note == "before upgrade"
    assert opened.folder.load_table("tag_colours") == {"rl": {"colour": "red"}}
    assert any("schema 3" in m for m in opened.messages)
    # already migrated: reopening runs nothing
    seen.clear()
    open_library(lib_dir)
    assert seen == []


def test_a_newer_schema_is_left_alone(lib_dir):
    edit(lib_dir, "x")
    path = own_file(lib_dir)
    data = json.loads(path.read_text("utf-8"))
    data["_meta"]["schema"]["version"] = 99
    path.write_text(json.dumps(data), "utf-8")
    before = path.read_bytes()
    opened = open_library(lib_dir)
    assert path.read_bytes() == before
    assert any("newer Paper Reader" in m for m in opened.messages)


# -- the command line ------------------------------------------------------------


def cli(folder, *args, capsys, expect=0):
    argv = ["--data-dir", str(folder), *args]
    if expect:
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == expect
    else:
        assert main(argv) == 0
    return capsys.readouterr()


def test_cli_backup_list_and_restore(lib_dir, capsys):
    cli(lib_dir, "status", "p000001", "read", capsys=capsys)
    out = cli(lib_dir, "backup", "--json", capsys=capsys).out
    name = json.loads(out)["name"]
    cli(lib_dir, "status", "p000001", "reading", capsys=capsys)
    listed = json.loads(cli(lib_dir, "restore", "--json", capsys=capsys).out)
    assert listed[0]["name"] == name and listed[0]["annotations"] == 1
    text = cli(lib_dir, "restore", capsys=capsys).out
    assert name in text and "manual" in text
    out = cli(lib_dir, "restore", name, capsys=capsys).out
    assert f"restored {name}" in out and "before-restore" in out
    assert open_library(lib_dir).library.status("p000001") is Status.READ


def test_cli_restore_unknown_name_fails_with_a_reason(lib_dir, capsys):
    err = cli(lib_dir, "restore", "nope", capsys=capsys, expect=2).err
    assert "not restored" in err and "no such backup" in err


# -- a clock that jumps: backups ordered by sequence number, not by time -------------

DAY = 24 * 3600


def test_clock_set_back_a_day_the_copy_just_taken_is_kept_and_is_the_newest(lib_dir, clock):
    edit(lib_dir, "x")
    backups = device_backups(lib_dir, keep=3, clock=clock)
    for _ in range(3):
        backups.take("manual", force=True)
        clock.advance(3600)
    clock.advance(-DAY)
    path = backups.take("manual", force=True)
    assert path.exists()
    kept = backups.list()
    assert len(kept) == 3 and kept[0].path == path
    assert kept[0].taken == clock.now  # the time is still recorded, just not trusted


def test_rotation_with_a_clock_jumping_back_and_forth_keeps_the_highest_sequences(lib_dir, clock):
    edit(lib_dir, "x")
    backups = device_backups(lib_dir, keep=3, clock=clock)
    taken = []
    for jump in (0, -DAY, 5 * 3600, -30 * 3600, 10, -400 * DAY, 3 * DAY):
        clock.advance(jump)
        taken.append(backups.take("manual", force=True))
        assert backups.list()[0].path == taken[-1]
    kept = backups.list()
    assert [i.path for i in kept] == taken[:-4:-1]  # the three taken last, last first
    assert [i.seq for i in kept] == [7, 6, 5]
    assert all(not p.exists() for p in taken[:-3])


def test_next_sequence_is_one_more_than_the_highest_in_the_folder(lib_dir, clock):
    edit(lib_dir, "x")
    own_backups(lib_dir).mkdir(parents=True)
    src = own_file(lib_dir).read_bytes()
    (own_backups(lib_dir) / "annotations-000041-20990101T000000.000000Z-close.json").write_bytes(
        src
    )
    path = device_backups(lib_dir, clock=clock).take("Before Import!", force=True)
    assert path.name == f"annotations-000042-{clock.now:%Y%m%dT%H%M%S.%f}Z-before-import.json"
    [newest, older] = device_backups(lib_dir).list()
    assert (newest.seq, newest.reason, older.seq) == (42, "before-import", 41)


def test_before_import_backup_is_kept_with_the_clock_set_back(lib_dir, clock):
    clock.now = dt.datetime(2099, 6, 1, 12, 0, tzinfo=dt.UTC)
    edit(lib_dir, "old")
    backups = device_backups(lib_dir, clock=clock)
    for _ in range(backups_module.BACKUP_KEEP):
        backups.take("hourly", force=True)
        clock.advance(3600)
    before = edit(lib_dir, "mine")
    clock.advance(-2 * DAY)
    opened = open_library(lib_dir)
    opened.library.add_papers(synthetic_papers(2, prefix="new"))
    infos = opened.backups.list()
    assert len(infos) == backups_module.BACKUP_KEEP
    assert infos[0].reason == "before-import" and infos[0].path.read_bytes() == before


def test_hourly_backup_is_due_when_the_newest_is_future_dated(lib_dir, clock):
    edit(lib_dir, "a")
    backups = device_backups(lib_dir, clock=clock)
    first = backups.take_if_due()
    assert first is not None
    edit(lib_dir, "b")
    clock.advance(-DAY)  # the clock was set back: the newest backup is "tomorrow"
    second = backups.take_if_due()
    assert second not in (None, first) and backups.list()[0].path == second
    edit(lib_dir, "c")
    clock.advance(3599)  # from then on, hourly again
    assert backups.take_if_due() is None
    clock.advance(2)
    third = backups.take_if_due()
    assert third not in (None, first, second) and backups.list()[0].path == third


def test_hourly_backup_is_due_after_an_hour_measured_from_the_newest_by_sequence(lib_dir, clock):
    edit(lib_dir, "a")
    backups = device_backups(lib_dir, clock=clock)
    clock.advance(DAY)
    backups.take("close")  # an older copy, with a later time
    clock.advance(-DAY)
    edit(lib_dir, "b")
    newest = backups.take("close")
    edit(lib_dir, "c")
    clock.advance(1800)  # half an hour after the newest (and half a day before the other)
    assert backups.take_if_due() is None
    clock.advance(1801)
    assert backups.take_if_due() not in (None, newest)


OLD_STYLE = [  # named the old way: by time alone, one of them in the future
    ("annotations-20250101T080000.000000Z-close.json", "old january"),
    ("annotations-20250601T080000.000000Z-hourly.json", "old june"),
    ("annotations-20990101T080000.000000Z-manual.json", "old future"),
]


def old_style_backups(folder):
    """Backups as an earlier Paper Reader named them; each note tells them apart."""
    own_backups(folder).mkdir(parents=True, exist_ok=True)
    for name, note in OLD_STYLE:
        (own_backups(folder) / name).write_bytes(edit(folder, note))


def test_old_style_names_are_listed_restored_and_rotated(lib_dir, clock):
    clock.now = dt.datetime(2020, 1, 1, tzinfo=dt.UTC)  # earlier than every old name
    old_style_backups(lib_dir)
    backups = device_backups(lib_dir, keep=4, clock=clock)
    # older than every sequenced backup, ordered among themselves by their time
    assert [i.name for i in backups.list()] == [n for n, _ in OLD_STYLE[::-1]]
    assert [i.reason for i in backups.list()] == ["manual", "hourly", "close"]
    assert backups.list()[-1].taken == dt.datetime(2025, 1, 1, 8, tzinfo=dt.UTC)
    edit(lib_dir, "new one")
    first = backups.take("close")
    assert first.name.startswith("annotations-000001-")
    edit(lib_dir, "new two")
    second = backups.take("close")
    assert second.name.startswith("annotations-000002-")
    # rotation removed the oldest old-style one, none of the new
    assert [i.path for i in backups.list()] == [
        second,
        first,
        *(own_backups(lib_dir) / n for n, _ in OLD_STYLE[:0:-1]),
    ]
    aside = backups.restore(OLD_STYLE[1][0])
    assert open_library(lib_dir).library.annotation("p000000").note == "old june"
    assert backups.list()[0].path == aside and "before-restore" in aside.name
    backups.restore("annotations-2099")  # a unique prefix of an old name
    assert open_library(lib_dir).library.annotation("p000000").note == "old future"


def test_cli_backup_with_the_clock_set_back_keeps_lists_and_restores_it(lib_dir, clock, capsys):
    clock.now = dt.datetime(2099, 6, 1, 12, 0, tzinfo=dt.UTC)
    edit(lib_dir, "taken before the clock went back")
    backups = device_backups(lib_dir, clock=clock)
    for _ in range(backups_module.BACKUP_KEEP):
        backups.take("hourly", force=True)
        clock.advance(3600)
    clock.advance(-DAY)
    cli(lib_dir, "note", "p000001", "--set", "after", capsys=capsys)
    out = cli(lib_dir, "backup", capsys=capsys).out
    name = out.split("backup taken: ")[1].split()[0]
    assert (own_backups(lib_dir) / name).exists()
    listed = json.loads(cli(lib_dir, "restore", "--json", capsys=capsys).out)
    assert len(listed) == backups_module.BACKUP_KEEP
    assert listed[0]["name"] == name and listed[0]["reason"] == "manual"
    assert [r["seq"] for r in listed] == list(range(11, 1, -1))
    lines = cli(lib_dir, "restore", capsys=capsys).out.splitlines()
    assert [line.split("\t")[0] for line in lines] == [r["name"] for r in listed]
    cli(lib_dir, "note", "p000001", "--set", "later still", capsys=capsys)
    out = cli(lib_dir, "restore", name, capsys=capsys).out
    assert f"restored {name}" in out
    assert open_library(lib_dir).library.annotation("p000001").note == "after"


def test_cli_lists_and_restores_old_style_names(lib_dir, clock, capsys):
    old_style_backups(lib_dir)
    name = json.loads(cli(lib_dir, "backup", "--json", capsys=capsys).out)["name"]
    listed = json.loads(cli(lib_dir, "restore", "--json", capsys=capsys).out)
    assert [r["name"] for r in listed] == [name, *(n for n, _ in OLD_STYLE[::-1])]
    assert [r["seq"] for r in listed] == [1, None, None, None]
    out = cli(lib_dir, "restore", "annotations-20250101", capsys=capsys).out
    assert f"restored {OLD_STYLE[0][0]}" in out
    assert open_library(lib_dir).library.annotation("p000000").note == "old january"
