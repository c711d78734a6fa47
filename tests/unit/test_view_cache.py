"""The merged library kept between opens (reader.store.view_cache): an open whose
files are all as they were takes it instead of merging every device's records anew,
and anything that changed a file (an edit here, another program's, another device's
brought by a syncer) is never hidden by it."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from reader.core.library import Library
from reader.core.models import Highlight, Status
from reader.store import merged, view_cache
from reader.store.files import LibraryFolder
from tests.helpers.syncer import full_sync


@pytest.fixture(autouse=True)
def kept(monkeypatch, tmp_path: Path) -> Path:
    """These small libraries keep their merge, as a large one does; in a cache
    folder of the test's own."""
    monkeypatch.setattr(view_cache, "SMALL_BYTES", 0)
    monkeypatch.setenv("READER_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache" / "views"


@pytest.fixture
def merges(monkeypatch) -> list[str]:
    """The papers merged from their records (not taken from the cache), in order."""
    done: list[str] = []
    real = merged._merged_one

    def counted(pid, records, problems):
        done.append(pid)
        return real(pid, records, problems)

    monkeypatch.setattr(merged, "_merged_one", counted)
    return done


def on(folder: Path, device: str) -> Library:
    return Library(LibraryFolder(folder, device=device))


def shown(lib: Library) -> dict[str, object]:
    """What the user sees of the annotations: every field, and the notes' conflicts."""
    return {
        pid: (ann.to_dict(), [tuple(v) for v in lib.note_conflicts(pid)])
        for pid, ann in sorted(lib.annotations().items())
    }


def written_on_both(computers: dict[str, Path]) -> str:
    """Edits on both computers, a note in conflict among them, synced: a paper id."""
    laptop, desktop = on(computers["laptop"], "laptop"), on(computers["desktop"], "desktop")
    pid, other = laptop.paper_ids()[:2]
    laptop.add_tags([pid], ["rl"])
    laptop.set_note(pid, "typed on the laptop")
    laptop.set_highlights(other, [Highlight("h1", "quote", color="green")])
    desktop.add_tags([pid], ["theory"])
    desktop.set_note(pid, "typed on the desktop")
    desktop.set_status([other], Status.READ)
    for lib in (laptop, desktop):
        lib._store.close()
    full_sync(computers)
    return pid


def test_an_open_with_no_file_changed_takes_the_kept_merge(computers, kept, merges):
    pid = written_on_both(computers)
    first = on(computers["laptop"], "laptop")  # the files changed: merged, then kept
    assert merges and list(kept.iterdir())
    assert first.note_conflicts(pid)  # (the kept merge has a conflict to keep)
    merges.clear()
    again = on(computers["laptop"], "laptop")
    assert merges == []
    assert shown(again) == shown(first)


def test_another_devices_edit_brought_by_the_syncer_is_shown(computers, merges):
    pid = written_on_both(computers)
    on(computers["laptop"], "laptop")._store.close()  # kept
    desktop = on(computers["desktop"], "desktop")
    desktop.add_tags([pid], ["later"])
    desktop._store.close()
    full_sync(computers)
    merges.clear()
    laptop = on(computers["laptop"], "laptop")
    assert merges
    assert "later" in laptop.tags(pid)


def test_an_edit_by_another_program_on_this_device_is_shown(computers, merges):
    pid = written_on_both(computers)
    window = on(computers["laptop"], "laptop")  # kept as it opened
    script = on(computers["laptop"], "laptop")
    script.add_tags([pid], ["from-a-script"])  # not closed: only in the journal
    assert "from-a-script" in on(computers["laptop"], "laptop").tags(pid)
    window._store.close()  # holds an older view than the files: folds them, keeps none
    script.add_tags([pid], ["second"])
    script._store.close()
    merges.clear()
    lib = on(computers["laptop"], "laptop")
    assert {"from-a-script", "second"} <= set(lib.tags(pid))


def test_what_a_session_edited_is_kept_at_close_and_shown_after(computers, merges):
    pid = written_on_both(computers)
    lib = on(computers["laptop"], "laptop")
    lib.remove_tags([pid], ["theory"])
    lib.set_note(pid, "both, merged by hand")
    before = shown(lib)
    lib._store.close()
    merges.clear()
    again = on(computers["laptop"], "laptop")
    assert merges == []  # what the session left was kept as it quit
    assert shown(again) == before
    view_cache.FORMAT += 1  # as a new release would read it: merged anew, the same
    try:
        assert shown(on(computers["laptop"], "laptop")) == before
    finally:
        view_cache.FORMAT -= 1
    assert merges


@pytest.mark.parametrize(
    "damage",
    [
        lambda raw: raw[: len(raw) // 2],  # torn
        lambda raw: raw.replace(b'"rl"', b'"rX"', 1),  # one byte changed in the body
        lambda raw: b"\x00" * len(raw),
        lambda raw: b'{"format": 1, "key": 3}\n[]',
        lambda raw: b"",
    ],
)
def test_a_damaged_cache_file_is_merged_anew_never_believed(computers, kept, merges, damage):
    pid = written_on_both(computers)
    truth = shown(on(computers["laptop"], "laptop"))
    (path,) = kept.glob("*-laptop.json")
    path.write_bytes(damage(path.read_bytes()))
    merges.clear()
    lib = on(computers["laptop"], "laptop")
    assert merges
    assert shown(lib) == truth
    assert "rl" in lib.tags(pid)


def test_a_small_library_keeps_no_merge(computers, kept, monkeypatch):
    monkeypatch.setattr(view_cache, "SMALL_BYTES", 1 << 20)
    shutil.rmtree(kept)  # (the fixture's library was made as a large one)
    written_on_both(computers)
    on(computers["laptop"], "laptop")._store.close()
    assert not kept.exists()


def test_a_command_keeps_what_its_edit_left(computers, merges, monkeypatch, capsys):
    from reader.cli import main

    pid = written_on_both(computers)
    monkeypatch.setenv("READER_DEVICE_ID", "laptop")
    assert main(["--data-dir", str(computers["laptop"]), "tag", pid, "from-the-shell"]) == 0
    merges.clear()
    lib = on(computers["laptop"], "laptop")
    assert merges == []  # kept by the command after its edit
    assert "from-the-shell" in lib.tags(pid)
