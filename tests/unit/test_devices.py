"""Several computers on one library folder, carried between them by a file syncer.

Each computer has its own copy of the folder (tmp folders here) and is a device
of its own; tests/helpers/syncer.py copies the device folders between them as
Syncthing or Dropbox would, now and then badly (half-copied files, conflict copies).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from reader.core.hlc import Clock
from reader.core.library import Library
from reader.core.models import Status
from reader.opening import open_library
from reader.store.files import LibraryFolder
from tests.helpers.syncer import full_sync, sync

HOUR = 3600.0


def on(folder: Path, device: str, wall=None) -> Library:
    store = LibraryFolder(folder, device=device)
    if wall is not None:
        store._clock = Clock(device, wall=wall)
    return Library(store)


def test_tags_merge_tag_by_tag(computers):
    laptop = on(computers["laptop"], "laptop")
    desktop = on(computers["desktop"], "desktop")
    pid = laptop.paper_ids()[0]
    laptop.add_tags([pid], ["rl"])
    desktop.add_tags([pid], ["theory"])
    full_sync(computers)
    assert set(on(computers["laptop"], "laptop").tags(pid)) == {"rl", "theory"}
    assert set(on(computers["desktop"], "desktop").tags(pid)) == {"rl", "theory"}
    # removing one on one computer removes only it, also where the other was added
    laptop = on(computers["laptop"], "laptop")
    desktop = on(computers["desktop"], "desktop")
    laptop.remove_tags([pid], ["rl"])
    desktop.add_tags([pid], ["later"])
    full_sync(computers)
    for device, folder in computers.items():
        assert on(folder, device).tags(pid) == ("theory", "later")


def test_a_note_edited_on_both_keeps_both_texts_until_settled(computers):
    laptop = on(computers["laptop"], "laptop")
    desktop = on(computers["desktop"], "desktop")
    pid = laptop.paper_ids()[1]
    laptop.set_note(pid, "base")
    full_sync(computers)
    desktop = on(computers["desktop"], "desktop")
    laptop.set_note(pid, "typed on the laptop")
    desktop.set_note(pid, "typed on the desktop")
    full_sync(computers)
    seen = {}
    for device, folder in computers.items():
        lib = on(folder, device)
        texts = {lib.annotation(pid).note, *(v.text for v in lib.note_conflicts(pid))}
        assert texts == {"typed on the laptop", "typed on the desktop"}
        seen[device] = (lib.annotation(pid).note, [v.text for v in lib.note_conflicts(pid)])
    assert seen["laptop"] == seen["desktop"]  # the same shown, the same kept
    # an ordinary edit of the note shown leaves the conflict there: nothing is dropped
    laptop = on(computers["laptop"], "laptop")
    shown = laptop.annotation(pid).note
    laptop.set_note(pid, shown + " and more")
    full_sync(computers)
    desktop = on(computers["desktop"], "desktop")
    texts = {desktop.annotation(pid).note, *(v.text for v in desktop.note_conflicts(pid))}
    assert texts == {
        shown + " and more",
        *({"typed on the laptop", "typed on the desktop"} - {shown}),
    }
    # settled on the desktop: gone on both
    desktop.resolve_note(pid, "both merged")
    full_sync(computers)
    for device, folder in computers.items():
        lib = on(folder, device)
        assert lib.annotation(pid).note == "both merged"
        assert lib.note_conflicts(pid) == []


def test_a_note_edited_after_seeing_the_other_is_no_conflict(computers):
    laptop = on(computers["laptop"], "laptop")
    pid = laptop.paper_ids()[2]
    laptop.set_note(pid, "first")
    full_sync(computers)
    desktop = on(computers["desktop"], "desktop")
    desktop.set_note(pid, "first, then second")
    full_sync(computers)
    laptop = on(computers["laptop"], "laptop")
    assert laptop.annotation(pid).note == "first, then second"
    assert laptop.note_conflicts(pid) == []


def test_a_clock_hours_behind_still_wins_with_an_edit_made_after_seeing(computers):
    now = [1_800_000_000.0]
    laptop = on(computers["laptop"], "laptop", wall=lambda: now[0] + 5 * HOUR)  # ahead
    pid = laptop.paper_ids()[0]
    laptop.set_status([pid], Status.READ)
    full_sync(computers)
    desktop = on(computers["desktop"], "desktop", wall=lambda: now[0])  # hours behind
    assert desktop.status(pid) is Status.READ
    desktop.set_status([pid], Status.READING)  # later, having seen the laptop's
    full_sync(computers)
    for device, folder in computers.items():
        assert on(folder, device).status(pid) is Status.READING


def test_a_clock_set_back_does_not_undo_newer_edits(computers):
    now = [1_800_000_000.0]
    laptop = on(computers["laptop"], "laptop", wall=lambda: now[0])
    pid = laptop.paper_ids()[0]
    laptop.set_rating([pid], 2)
    now[0] -= 10 * HOUR  # the clock set back while the program runs
    laptop.set_rating([pid], 5)
    again = on(computers["laptop"], "laptop", wall=lambda: now[0])  # and a restart
    assert again.annotation(pid).rating == 5
    again.set_rating([pid], 4)
    full_sync(computers)
    assert on(computers["desktop"], "desktop").annotation(pid).rating == 4


def test_a_half_copied_file_is_ignored_until_complete(computers):
    laptop = on(computers["laptop"], "laptop")
    pid = laptop.paper_ids()[0]
    laptop.add_tags([pid], ["first"])
    laptop.set_note(pid, "x" * 5000)
    laptop._store.fold_journal()  # all of it in annotations.json
    desktop = on(computers["desktop"], "desktop")
    before = dict(desktop.annotations())
    copied = sync(
        computers["laptop"],
        computers["desktop"],
        owner="desktop",
        half={("laptop", "annotations.json")},
    )
    assert ("laptop", "annotations.json") in copied
    assert desktop.refresh() is None  # nothing complete arrived: nothing changed
    assert dict(desktop.annotations()) == before
    assert desktop._store.take_problems() == []  # never reported as damage
    assert not list((computers["desktop"] / "devices" / "laptop").glob("*.damaged-*"))
    full_sync(computers)
    assert desktop.refresh() is not None
    assert desktop.tags(pid) == ("first",)


def test_syncer_temp_files_are_not_read(computers):
    laptop_dir = computers["desktop"] / "devices" / "laptop"
    laptop_dir.mkdir(parents=True)
    (laptop_dir / ".syncthing.annotations.json.tmp").write_text('{"annotations": {"x"')
    (laptop_dir / "~annotations.json.tmp").write_text("garbage")
    desktop = on(computers["desktop"], "desktop")
    desktop.refresh()
    assert desktop._store.take_problems() == []
    assert (laptop_dir / ".syncthing.annotations.json.tmp").exists()  # left for the syncer


def test_another_devices_conflict_copy_is_merged(computers):
    laptop = on(computers["laptop"], "laptop")
    pid = laptop.paper_ids()[0]
    laptop.add_tags([pid], ["one"])
    laptop._store.fold_journal()
    full_sync(computers)
    laptop.add_tags([pid], ["two"])
    laptop._store.fold_journal()
    sync(
        computers["laptop"],
        computers["desktop"],
        owner="desktop",
        conflict={("laptop", "annotations.json"), ("laptop", "annotations.journal")},
    )
    copies = list((computers["desktop"] / "devices" / "laptop").glob("*sync-conflict*"))
    assert copies
    desktop = on(computers["desktop"], "desktop")
    assert desktop.tags(pid) == ("one", "two")
    assert desktop._store.take_problems() == []


def test_own_conflict_copy_is_merged_and_moved_aside(computers):
    folder = computers["laptop"]
    laptop = on(folder, "laptop")
    pid = laptop.paper_ids()[0]
    laptop.add_tags([pid], ["kept"])
    laptop._store.fold_journal()
    own = folder / "devices" / "laptop"
    stale = json.loads((own / "annotations.json").read_text())
    laptop.add_tags([pid], ["newer"])
    laptop._store.fold_journal()
    # a syncer brought back an older version of the laptop's own file as a copy, with
    # a tag added by hand to it (as if it had been written elsewhere with this id)
    stale["annotations"][pid]["tags"]["hand"] = {"v": "hand", "at": "5000000000000.0000.laptop"}
    copy = own / "annotations (conflicted copy 2026-12-03).json"
    copy.write_text(json.dumps(stale))
    again = on(folder, "laptop")
    assert set(again.tags(pid)) == {"kept", "newer", "hand"}
    assert not copy.exists()
    aside = list((folder / "backups" / "laptop" / "sync-conflicts").iterdir())
    assert [p.name.endswith(copy.name) for p in aside] == [True]
    assert any("conflict copies" in m for m in again._store.take_problems())


def test_tag_colours_and_saved_searches_merge_per_key(computers):
    laptop = on(computers["laptop"], "laptop")
    desktop = on(computers["desktop"], "desktop")
    laptop.set_tag_colour("rl", "#ff0000")
    desktop.save_search("diffusion", "diffusion")
    full_sync(computers)
    for device, folder in computers.items():
        lib = on(folder, device)
        assert lib.tag_colours().get("rl") == "#ff0000"
        assert "diffusion" in lib.prefs.saved_searches()


def test_three_computers_relay_and_converge(tmp_path):
    first = tmp_path / "a"
    open_library(first).folder.close()
    folders = {"a": first}
    for name in ("b", "c"):
        shutil.copytree(first, tmp_path / name)
        folders[name] = tmp_path / name
    libs = {d: on(f, d) for d, f in folders.items()}
    pid = libs["a"].paper_ids()[0]
    for device, lib in libs.items():
        lib.add_tags([pid], [f"from-{device}"])
    # a -> b -> c only: c hears of a through b
    sync(folders["a"], folders["b"], owner="b")
    sync(folders["b"], folders["c"], owner="c")
    assert set(on(folders["c"], "c").tags(pid)) == {"from-a", "from-b", "from-c"}
    full_sync(folders)
    views = [dict(on(f, d).annotations()) for d, f in folders.items()]
    assert views[0] == views[1] == views[2]


@pytest.mark.parametrize("how", ["refresh", "edit"])
def test_another_devices_settings_arrive_while_open(computers, how):
    desktop = on(computers["desktop"], "desktop")
    laptop = on(computers["laptop"], "laptop")
    laptop.set_tag_colour("rl", "#00ff00")
    full_sync(computers)
    if how == "refresh":  # the window's poll
        desktop.refresh()
    else:  # an edit catches up first
        desktop.add_tags([desktop.paper_ids()[0]], ["x"])
    assert desktop.tag_colours().get("rl") == "#00ff00"
    desktop.refresh()  # (nothing more to take: it stays)
    assert desktop.tag_colours().get("rl") == "#00ff00"


def test_a_stale_conflict_copy_of_a_devices_file_is_not_a_fork(computers):
    """A syncer's conflict copy holding an older version of the laptop's own file
    (its note 2, which the laptop itself replaced by note 3) brings no conflict back."""
    laptop = on(computers["laptop"], "laptop")
    pid = laptop.paper_ids()[0]
    laptop.set_note(pid, "note 1")
    full_sync(computers)
    laptop.set_note(pid, "note 2")
    sync(
        computers["laptop"],
        computers["desktop"],
        owner="desktop",
        conflict={("laptop", "annotations.journal")},
    )
    laptop.set_note(pid, "note 3")
    full_sync(computers)
    desktop = on(computers["desktop"], "desktop")
    assert list((computers["desktop"] / "devices" / "laptop").glob("*sync-conflict*"))
    assert desktop.annotation(pid).note == "note 3"
    assert desktop.note_conflicts(pid) == []


def test_a_stale_copy_does_not_bring_back_a_settled_conflict(computers):
    laptop, desktop = on(computers["laptop"], "laptop"), on(computers["desktop"], "desktop")
    pid = laptop.paper_ids()[0]
    laptop.set_note(pid, "base")
    full_sync(computers)
    laptop, desktop = on(computers["laptop"], "laptop"), on(computers["desktop"], "desktop")
    desktop.set_note(pid, "typed on desktop")
    laptop.set_note(pid, "typed on laptop")
    full_sync(computers)
    laptop = on(computers["laptop"], "laptop")
    laptop.set_note(pid, laptop.annotation(pid).note + " more")  # the conflict stays
    laptop._store.fold_journal()
    full_sync(computers)
    laptop.resolve_note(pid, "merged")
    laptop._store.fold_journal()
    # the laptop's new file arrives on the desktop as a conflict copy beside the old one
    sync(
        computers["laptop"],
        computers["desktop"],
        owner="desktop",
        conflict={("laptop", "annotations.json")},
    )
    for device, folder in computers.items():
        lib = on(folder, device)
        assert (lib.annotation(pid).note, lib.note_conflicts(pid)) == ("merged", [])


@pytest.mark.parametrize("whose", ["another device's file", "a conflict copy of my own"])
def test_a_file_that_never_parses_is_not_read_at_every_poll(tmp_path, whose):
    store = LibraryFolder(tmp_path, device="me")
    store.load_annotations()
    if whose == "another device's file":
        other = tmp_path / "devices" / "other"
        other.mkdir(parents=True)
        (other / "annotations.json").write_text('{"annotations": {"p1": {"status": {"v": "re')
    else:
        (store.device_dir / "annotations.sync-conflict-20260101-000000-ABC.json").write_text("{x")
    store.reload_annotations()  # looked at once
    assert [store.reload_annotations() for _ in range(3)] == [None] * 3
    assert store.take_problems() == []  # (a syncer's partial file: never damage)


def test_what_an_edit_leaves_in_memory_is_what_opening_merges(computers, monkeypatch):
    """The window's library after edits (status, rating and note edits of papers one
    device wrote about take a short way) is the one a fresh open merges from disk."""
    from reader.core import library as library_module

    laptop = on(computers["laptop"], "laptop")
    ids = laptop.paper_ids()
    desktop = on(computers["desktop"], "desktop")
    desktop.set_note(ids[3], "the desktop's")
    full_sync(computers)
    laptop = on(computers["laptop"], "laptop")
    times = iter(f"2026-12-0{d}T00:00:00+00:00" for d in (5, 3, 4, 9, 1, 2, 8, 7))
    monkeypatch.setattr(library_module, "now_iso", lambda: next(times))  # (and set back)
    edits = [
        lambda: laptop.set_status(ids[:6], Status.READ),
        lambda: laptop.set_rating(ids[1:4], 3),
        lambda: laptop.add_tags([ids[2]], ["t"]),
        lambda: laptop.set_note(ids[0], "mine"),
        lambda: laptop.set_note(ids[3], "mine too"),
        lambda: laptop.set_status(ids[:2], Status.UNREAD),
        lambda: laptop.set_note(ids[0], ""),
        lambda: laptop.set_rating(ids[1:2], 0),
    ]
    for edit in edits:
        edit()
        fresh = LibraryFolder(computers["laptop"], device="laptop").load_annotations()
        assert dict(laptop.annotations()) == fresh
    assert ids[1] not in fresh  # emptied by its edits: no annotation left
