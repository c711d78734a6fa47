"""The binary snapshot of a big catalogue: used only when it matches papers.json exactly.

(small_min, tests/conftest.py: 10 papers count as big here, so that these small libraries
get snapshots; what is checked is the papers read back and the files left on disk.)"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reader.core.models import Paper
from reader.store import cachefile, snapshot
from reader.store.files import LibraryFolder


def papers(n: int) -> list[Paper]:
    return [
        Paper(
            f"p{i}",
            f"Title {i} é",
            (f"Ada {i}", "Grace"),
            f"Abstract $x^{i}$",
            "ICML 2025",
            2000 + i % 30 if i % 5 else None,
            f"https://x/{i}",
            "Poster",
            "main",
            "",
            "",
            "list.json",
            bool(i % 2),
            "2025-01-01T00:00:00+00:00",
        )
        for i in range(n)
    ]


def make_library(folder: Path, n: int) -> list[Paper]:
    store = LibraryFolder(folder)
    made = papers(n)
    store.add_papers(made)
    store.close()
    return made


def test_a_big_catalogue_opens_from_its_snapshot_the_same(tmp_path, small_min):
    made = make_library(tmp_path / "lib", 30)
    path = tmp_path / "lib" / "papers.json"
    assert snapshot.load(path) is None  # none yet
    assert LibraryFolder(tmp_path / "lib").load_papers() == made  # from papers.json; writes it
    fast = snapshot.load(path)
    assert fast is not None and list(fast.values()) == made
    assert all(type(p) is Paper for p in fast.values())
    assert LibraryFolder(tmp_path / "lib").load_papers() == made  # from the snapshot


def test_a_snapshot_of_another_papers_json_is_never_used(tmp_path, small_min):
    make_library(tmp_path / "lib", 30)
    path = tmp_path / "lib" / "papers.json"
    LibraryFolder(tmp_path / "lib").load_papers()
    assert snapshot.load(path) is not None
    # another process adds papers: papers.json is replaced, the snapshot is stale
    other = LibraryFolder(tmp_path / "lib")
    extra = Paper("new", "A new paper")
    other.add_papers([extra])
    assert snapshot.load(path) is None
    assert extra in LibraryFolder(tmp_path / "lib").load_papers()
    # edited in place with the same size and an old time: the change time still differs
    text = path.read_bytes()
    st = os.stat(path)
    LibraryFolder(tmp_path / "lib").load_papers()  # a fresh snapshot
    path.write_bytes(text.replace(b"Title 1 ", b"Title X "))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    loaded = {p.id: p for p in LibraryFolder(tmp_path / "lib").load_papers()}
    assert loaded["p1"].title == "Title X é"


@pytest.mark.parametrize("damage", ["flip", "truncate", "magic", "extra"])
def test_a_damaged_snapshot_is_ignored(tmp_path, small_min, damage):
    made = make_library(tmp_path / "lib", 30)
    path = tmp_path / "lib" / "papers.json"
    LibraryFolder(tmp_path / "lib").load_papers()
    snap = snapshot.snapshot_path(path)
    data = bytearray(snap.read_bytes())
    if damage == "flip":
        data[-5] ^= 0xFF
    elif damage == "truncate":
        del data[len(data) // 2 :]
    elif damage == "magic":
        data[:8] = b"PRCAT999"
    else:
        data += b"x"
    snap.write_bytes(bytes(data))
    assert snapshot.load(path) is None
    assert LibraryFolder(tmp_path / "lib").load_papers() == made


def test_small_libraries_and_bad_records_get_no_snapshot(tmp_path, small_min):
    make_library(tmp_path / "small", 5)
    LibraryFolder(tmp_path / "small").load_papers()
    assert not snapshot.snapshot_path(tmp_path / "small" / "papers.json").exists()
    make_library(tmp_path / "bad", 30)
    path = tmp_path / "bad" / "papers.json"
    path.write_bytes(path.read_bytes().replace(b'"authors":["Ada 3","Grace"]', b'"authors":7'))
    store = LibraryFolder(tmp_path / "bad")
    assert len(store.load_papers()) == 29 and store.problems
    assert not snapshot.snapshot_path(path).exists()  # what it would hold differs from the file


def test_the_snapshot_lives_outside_the_library_folder(tmp_path, small_min):
    make_library(tmp_path / "lib", 30)
    LibraryFolder(tmp_path / "lib").load_papers()
    snap = snapshot.snapshot_path(tmp_path / "lib" / "papers.json")
    assert snap.exists() and tmp_path / "lib" not in snap.parents
    assert snapshot.cache_dir() in snap.parents


def test_an_unwritable_cache_folder_only_costs_speed(tmp_path, small_min, monkeypatch):
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("x")
    monkeypatch.setenv(snapshot.ENV_VAR, str(blocker))
    made = make_library(tmp_path / "lib", 30)
    assert LibraryFolder(tmp_path / "lib").load_papers() == made
    assert snapshot.load(tmp_path / "lib" / "papers.json") is None


def _run(steps) -> None:
    assert steps is not None
    for _ in steps:
        pass


def temp_files(path: Path) -> list[Path]:
    return sorted(snapshot.snapshot_path(path).parent.glob(".tmp-*"))


def test_a_deferred_snapshot_is_written_by_its_steps_only(tmp_path, small_min):
    made = make_library(tmp_path / "lib", 30)
    path = tmp_path / "lib" / "papers.json"
    store = LibraryFolder(tmp_path / "lib", defer_snapshot=True)
    assert store.load_papers() == made
    assert store.snapshot_left() and snapshot.load(path) is None  # nothing written yet
    steps = store.snapshot_steps()
    assert store.snapshot_steps() is None and not store.snapshot_left()  # handed out once
    next(steps)
    assert snapshot.load(path) is None  # half written: not in place
    _run(steps)
    fast = snapshot.load(path)
    assert fast is not None and list(fast.values()) == made
    assert temp_files(path) == []


def test_small_or_snapshot_read_catalogues_leave_nothing_to_write(tmp_path, small_min):
    make_library(tmp_path / "small", 5)
    store = LibraryFolder(tmp_path / "small", defer_snapshot=True)
    store.load_papers()
    assert store.snapshot_steps() is None
    make_library(tmp_path / "lib", 30)
    LibraryFolder(tmp_path / "lib").load_papers()  # writes it at once
    store = LibraryFolder(tmp_path / "lib", defer_snapshot=True)
    store.load_papers()  # from the snapshot
    assert store.snapshot_steps() is None


@pytest.mark.parametrize("when", ["before", "during"])
def test_a_papers_json_changed_before_the_deferred_write_ends_gets_no_snapshot(
    tmp_path, small_min, when
):
    make_library(tmp_path / "lib", 30)
    path = tmp_path / "lib" / "papers.json"
    store = LibraryFolder(tmp_path / "lib", defer_snapshot=True)
    store.load_papers()
    steps = store.snapshot_steps()
    if when == "during":
        next(steps)
    LibraryFolder(tmp_path / "lib").add_papers([Paper("new", "A new paper")])  # another process
    _run(steps)
    assert snapshot.load(path) is None and not snapshot.snapshot_path(path).exists()
    assert temp_files(path) == []
    assert Paper("new", "A new paper") in LibraryFolder(tmp_path / "lib").load_papers()


def test_a_snapshot_whose_papers_json_changed_mid_write_is_never_used(tmp_path, small_min):
    # the last check passed, then papers.json changed: the header still names the file read
    make_library(tmp_path / "lib", 30)
    path = tmp_path / "lib" / "papers.json"
    store = LibraryFolder(tmp_path / "lib", defer_snapshot=True)
    store.load_papers()
    _run(store.snapshot_steps())
    LibraryFolder(tmp_path / "lib").add_papers([Paper("new", "A new paper")])
    assert snapshot.load(path) is None


def test_stopping_the_write_early_leaves_nothing_behind(tmp_path, small_min):
    make_library(tmp_path / "lib", 30)
    path = tmp_path / "lib" / "papers.json"
    store = LibraryFolder(tmp_path / "lib", defer_snapshot=True)
    store.load_papers()
    steps = store.snapshot_steps()
    next(steps)
    assert len(temp_files(path)) == 1
    steps.close()  # the window closed first
    assert temp_files(path) == [] and not snapshot.snapshot_path(path).exists()


def test_an_import_drops_the_snapshot_left_to_write(tmp_path, small_min):
    make_library(tmp_path / "lib", 30)
    store = LibraryFolder(tmp_path / "lib", defer_snapshot=True)
    store.load_papers()
    store.add_papers([Paper("new", "A new paper")])
    assert store.snapshot_steps() is None


def test_what_a_crashed_write_left_is_removed_once_old(tmp_path, small_min):
    made = make_library(tmp_path / "lib", 30)
    path = tmp_path / "lib" / "papers.json"
    folder = snapshot.snapshot_path(path).parent
    folder.mkdir(parents=True, exist_ok=True)
    old = folder / f".tmp-{snapshot.snapshot_path(path).name}.crashed"
    live = folder / f".tmp-{snapshot.snapshot_path(path).name}.writing"
    other = folder / ".tmp-another-library.bin.crashed"
    for leftover in (old, live, other):
        leftover.write_bytes(b"half a snapshot")
    long_ago = os.stat(old).st_mtime - cachefile.STALE_TEMP_S - 60
    os.utime(old, (long_ago, long_ago))
    os.utime(other, (long_ago, long_ago))
    assert LibraryFolder(tmp_path / "lib").load_papers() == made
    assert not old.exists() and live.exists() and other.exists()
    assert list(snapshot.load(path).values()) == made
