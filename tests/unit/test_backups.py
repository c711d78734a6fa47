"""Verified, rotating backups of annotations.json; migrations; backup and restore commands."""

import datetime as dt
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "helpers"))
from store_harness import make_library, synthetic_papers

from reader.cli import main
from reader.core.models import Status
from reader.opening import open_library
from reader.store import backups as backups_module
from reader.store import migrations
from reader.store.backups import Backups
from reader.store.storage import DamagedFileError, StorageError


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
def clock():
    return Clock()


def edit(folder, text):
    """A saved note, then the library closed (which folds the journal): returns
    annotations.json as it then is."""
    opened = open_library(folder)
    opened.library.set_note("p000000", text)
    opened.folder.close()
    return (folder / "annotations.json").read_bytes()


def test_take_copies_the_file_exactly_and_lists_it(lib_dir, clock):
    current = edit(lib_dir, "first")
    backups = Backups(lib_dir, clock=clock)
    path = backups.take("close")
    assert path.read_bytes() == current
    [info] = backups.list()
    assert info.path == path and info.reason == "close"
    assert info.taken == clock.now
    assert backups.check(info) == 1  # one annotation in it


def test_no_annotations_file_no_backup(tmp_path):
    folder = tmp_path / "empty"
    folder.mkdir()
    assert Backups(folder).take("close") is None
    assert Backups(folder).list() == []


def test_unchanged_file_is_not_copied_again_unless_forced(lib_dir, clock):
    edit(lib_dir, "same")
    backups = Backups(lib_dir, clock=clock)
    first = backups.take("close")
    clock.advance(60)
    assert backups.take("close") == first
    assert len(backups.list()) == 1
    forced = backups.take("manual", force=True)
    assert forced != first and len(backups.list()) == 2


def test_a_bounded_number_is_kept_newest_first(lib_dir, clock):
    backups = Backups(lib_dir, keep=3, clock=clock)
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
    backups = Backups(lib_dir, keep=1, clock=clock)
    good = backups.take("close")
    (lib_dir / "annotations.json").write_bytes(b'{"annotations": {"p0')
    with pytest.raises(DamagedFileError):
        backups.take("close", force=True)
    assert [i.path for i in backups.list()] == [good]


def test_a_copy_that_does_not_read_back_intact_replaces_nothing(lib_dir, clock, monkeypatch):
    edit(lib_dir, "one")
    backups = Backups(lib_dir, keep=1, clock=clock)
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
    backups = Backups(lib_dir, clock=clock)
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
    backups = Backups(lib_dir, clock=clock)
    name = backups.take("close").name
    clock.advance(5)
    new = edit(lib_dir, "new text")
    aside = backups.restore(name)
    assert (lib_dir / "annotations.json").read_bytes() == old
    assert aside.read_bytes() == new and "before-restore" in aside.name
    assert open_library(lib_dir).library.annotation("p000000").note == "old text"
    backups.restore(aside.name)  # restoring is itself undoable
    assert open_library(lib_dir).library.annotation("p000000").note == "new text"


def test_restore_keeps_a_damaged_current_file_aside(lib_dir, clock):
    old = edit(lib_dir, "keep me")
    backups = Backups(lib_dir, clock=clock)
    name = backups.take("close").name
    (lib_dir / "annotations.json").write_bytes(b"\x00garbage")
    aside = backups.restore(name)
    assert aside.read_bytes() == b"\x00garbage" and ".damaged-" in aside.name
    assert (lib_dir / "annotations.json").read_bytes() == old


def test_a_damaged_backup_is_never_restored(lib_dir, clock):
    edit(lib_dir, "x")
    backups = Backups(lib_dir, clock=clock)
    path = backups.take("close")
    path.write_bytes(b"{not json")
    current = edit(lib_dir, "current")
    with pytest.raises(DamagedFileError):
        backups.restore(path.name)
    assert (lib_dir / "annotations.json").read_bytes() == current


def test_restore_of_an_unknown_name(lib_dir):
    with pytest.raises(StorageError, match="no such backup"):
        Backups(lib_dir).restore("annotations-1999")


def test_an_import_takes_a_backup_first(lib_dir):
    before = edit(lib_dir, "mine")
    opened = open_library(lib_dir)
    opened.library.add_papers(synthetic_papers(2, prefix="new"))
    [info] = opened.backups.list()
    assert info.reason == "before-import" and info.path.read_bytes() == before


def test_migrations_run_in_order_each_after_a_backup(lib_dir, monkeypatch):
    edit(lib_dir, "before upgrade")
    seen = []

    def step_two(doc):
        seen.append(("two", len(Backups(lib_dir).list())))
        doc["annotations"]["p000000"]["rating"] = 2

    def step_three(doc):
        seen.append(("three", len(Backups(lib_dir).list())))
        doc["tag_colours"] = {"rl": {"colour": "red"}}

    monkeypatch.setattr(migrations, "MIGRATIONS", [*migrations.MIGRATIONS, step_two, step_three])
    pre = (lib_dir / "annotations.json").read_bytes()
    opened = open_library(lib_dir)
    assert seen == [("two", 1), ("three", 2)]  # a backup existed before each step ran
    oldest = opened.backups.list()[-1]
    assert oldest.reason == "before-migration-2" and oldest.path.read_bytes() == pre
    data = json.loads((lib_dir / "annotations.json").read_text("utf-8"))
    assert data["_meta"]["schema"]["version"] == 3
    assert data["annotations"]["p000000"]["rating"] == 2
    assert any("schema 3" in m for m in opened.messages)
    # already migrated: reopening runs nothing
    seen.clear()
    open_library(lib_dir)
    assert seen == []


def test_a_newer_schema_is_left_alone(lib_dir):
    edit(lib_dir, "x")
    path = lib_dir / "annotations.json"
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
