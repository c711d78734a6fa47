"""The catalogue as files per device (devices/<device>/papers/<n>.jsonl, written once)
and its local SQLite index in the cache folder (reader.store.catalogue_db)."""

import gc
import json
import os
import shutil
import sqlite3
import threading
from pathlib import Path

import pytest

from reader.core.models import Paper
from reader.opening import open_library
from reader.store import catalogue_db, paper_files
from reader.store.catalogue_db import CatalogueDB
from reader.store.files import LibraryFolder
from tests.helpers.libraries import DEVICE, own_backups, own_file

LEGACY = Path(__file__).resolve().parents[1] / "data" / "legacy_library"


@pytest.fixture(autouse=True)
def _index_on_disk(monkeypatch):
    """These small libraries get an index in the cache folder, as a large one does."""
    monkeypatch.setattr(catalogue_db, "SMALL_LIBRARY_BYTES", 0)


def _paper(pid: str, title: str = "") -> Paper:
    return Paper(id=pid, title=title or f"Paper {pid}", authors=("A. Author", "B. Author"))


def _file_of(folder: Path, device: str, papers: list[Paper], stamp: str) -> str:
    return paper_files.write_file(folder / "devices" / device, papers, stamp)


def _indexes_deleted() -> None:
    """Every catalogue's index deleted, once the checks reading them after an open are
    done (a check's read-only connection makes its -shm file)."""
    for thread in threading.enumerate():
        if thread.name == "catalogue check":
            thread.join()
    shutil.rmtree(Path(os.environ["READER_CACHE_DIR"]) / "catalogues")


def _titles(folder: Path) -> dict[str, str]:
    return {p.id: p.title for p in open_library(folder, seed=False).library.papers()}


def _bytes_of(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes()
        for p in sorted(folder.rglob("*"))
        if p.is_file() and p.name != ".lock"
    }


def test_an_import_writes_one_new_file_and_never_rewrites_one(tmp_path):
    folder = tmp_path / "lib"
    lib = open_library(folder).library  # seeded: the sample is the first file
    first = own_file(folder, "papers/000001.jsonl")
    before = first.read_bytes()
    lib.add_papers([_paper("new-1"), _paper("new-2")])
    second = own_file(folder, "papers/000002.jsonl")
    assert first.read_bytes() == before
    lines = second.read_bytes().split(b"\n")
    header = json.loads(lines[0])
    assert header["count"] == 2 and header["format"] == paper_files.FORMAT
    assert [json.loads(line)["id"] for line in lines[1:-1]] == ["new-1", "new-2"]
    assert not (folder / "papers.json").exists()
    again = open_library(folder).library
    assert again.paper("new-2").authors == ("A. Author", "B. Author")
    assert len(again) == len(lib)


def test_every_devices_files_merge_the_latest_stamp_winning_whatever_arrives_first(tmp_path):
    folder = tmp_path / "lib"
    _file_of(
        folder, "laptop", [_paper("p1", "old title"), _paper("p2")], "1000000000000.0000.laptop"
    )
    assert _titles(folder) == {"p1": "old title", "p2": "Paper p2"}
    # a file stamped earlier arrives later (a syncer's order): it does not win
    _file_of(folder, "desk", [_paper("p1", "older still")], "0999999999999.0000.desk")
    assert _titles(folder)["p1"] == "old title"
    _file_of(folder, "desk", [_paper("p1", "new title"), _paper("p3")], "1000000000001.0000.desk")
    titles = _titles(folder)
    assert titles == {"p1": "new title", "p2": "Paper p2", "p3": "Paper p3"}
    # the index made anew from the files gives the same
    _indexes_deleted()
    assert _titles(folder) == titles


def test_a_file_still_being_copied_is_left_for_later_and_never_reported(tmp_path):
    folder = tmp_path / "lib"
    _file_of(folder, "laptop", [_paper("p1")], "1000000000000.0000.laptop")
    whole = folder / "devices" / "desk" / "papers" / "000001.jsonl"
    whole.parent.mkdir(parents=True)
    content = b"\n".join(
        [
            json.dumps({"format": paper_files.FORMAT, "version": 1, "count": 2,
                        "at": "1000000000005.0000.desk"}).encode(),
            json.dumps(_paper("p2").to_dict()).encode(),
            json.dumps(_paper("p3").to_dict()).encode(),
            b"",
        ]
    )  # fmt: skip
    whole.write_bytes(content[: len(content) // 2])  # half: no final newline
    (whole.parent / ".syncthing.000002.jsonl.tmp").write_bytes(b"junk")
    (whole.parent / "000001.sync-conflict-20261204-120000-ABCDEFG.jsonl").write_bytes(b"junk")
    cut_at_line = content.split(b"\n")
    opened = open_library(folder, seed=False)
    assert [p.id for p in opened.library.papers()] == ["p1"]
    assert opened.messages == []
    whole.write_bytes(b"\n".join(cut_at_line[:2]) + b"\n")  # whole lines, one missing
    opened = open_library(folder, seed=False)
    assert [p.id for p in opened.library.papers()] == ["p1"] and opened.messages == []
    whole.write_bytes(content)  # the copy finished
    opened = open_library(folder, seed=False)
    assert sorted(p.id for p in opened.library.papers()) == ["p1", "p2", "p3"]
    assert opened.messages == []


def test_a_line_that_is_no_paper_is_told_by_file_and_line_and_the_rest_kept(tmp_path):
    folder = tmp_path / "lib"
    name = _file_of(folder, "desk", [_paper("p1"), _paper("p2"), _paper("p3")], "1.0000.desk")
    path = folder / name
    lines = path.read_bytes().split(b"\n")
    lines[2] = b'{"id": 5, "title": "an id that is no text"}'
    path.write_bytes(b"\n".join(lines))
    before = _bytes_of(folder)
    opened = open_library(folder, seed=False)
    assert sorted(p.id for p in opened.library.papers()) == ["p1", "p3"]
    told = "\n".join(opened.messages)
    assert str(path) in told and "line 3" in told
    assert _bytes_of(folder).items() >= before.items()  # the other device's file untouched
    assert path.read_bytes() == before[name]


def test_a_file_of_another_kind_is_told_and_not_read(tmp_path):
    folder = tmp_path / "lib"
    path = folder / "devices" / "desk" / "papers" / "000001.jsonl"
    path.parent.mkdir(parents=True)
    path.write_bytes(b'{"some": "thing else"}\n{"id": "x"}\n')
    opened = open_library(folder, seed=False)
    assert opened.library.papers() == []
    assert any(f"{path}, line 1" in m for m in opened.messages)


def test_a_file_gone_from_the_folder_takes_its_papers_with_it(tmp_path):
    folder = tmp_path / "lib"
    _file_of(folder, "laptop", [_paper("p1")], "1000000000000.0000.laptop")
    name = _file_of(folder, "desk", [_paper("p2")], "1000000000001.0000.desk")
    assert sorted(_titles(folder)) == ["p1", "p2"]
    (folder / name).unlink()  # (the user removed the import on the other computer)
    assert sorted(_titles(folder)) == ["p1"]


def test_a_damaged_index_is_set_aside_and_made_anew_from_the_folder(tmp_path):
    folder = tmp_path / "lib"
    open_library(folder)  # seeded with the sample
    titles = _titles(folder)
    index = CatalogueDB.for_library(folder).path
    assert index is not None and index.exists()
    gc.collect()  # (the libraries opened above let go of it)
    for leftover in index.parent.glob(index.name + "-*"):
        leftover.unlink()
    raw = index.read_bytes()
    index.write_bytes(raw[:16] + b"\xff" * (len(raw) - 16))  # damaged past its magic
    opened = open_library(folder)
    assert {p.id: p.title for p in opened.library.papers()} == titles
    assert any("set aside" in m for m in opened.messages)
    assert list(index.parent.glob(index.name + ".damaged-*"))


def test_an_index_made_by_other_rules_is_never_trusted(tmp_path):
    folder = tmp_path / "lib"
    open_library(folder)  # seeded with the sample
    titles = _titles(folder)
    index = CatalogueDB.for_library(folder).path
    db = sqlite3.connect(index)
    db.execute("UPDATE papers SET title = 'planted'")
    db.execute(f"PRAGMA user_version = {catalogue_db.SCHEMA + 1}")
    db.commit()
    db.close()
    assert _titles(folder) == titles


def test_reopening_reads_no_catalogue_file_it_already_took_in(tmp_path, monkeypatch):
    folder = tmp_path / "lib"
    lib = open_library(folder).library
    lib.add_papers([_paper("new-1")])
    read: list[str] = []
    real = paper_files.scan_file

    def counting(folder_, name, problems):
        read.append(name)
        return real(folder_, name, problems)

    monkeypatch.setattr(catalogue_db, "scan_file", counting)
    assert "new-1" in open_library(folder).library
    assert read == []
    _file_of(folder, "desk", [_paper("p9")], "1000000000001.0000.desk")
    assert "p9" in open_library(folder).library
    assert read == ["devices/desk/papers/000001.jsonl"]


def test_papers_json_of_the_release_before_is_moved_into_the_first_file(tmp_path):
    folder = tmp_path / "lib"
    shutil.copytree(LEGACY, folder)
    old = json.loads((LEGACY / "papers.json").read_bytes())["papers"]
    opened = open_library(folder)
    papers = opened.library.full_papers(opened.library.paper_ids())
    assert [p.id for p in papers] == list(old)
    new_fields = {"pdf": "", "keywords": [], "primary_area": ""}  # (empty in older files)
    assert all(p.to_dict() == {**new_fields, **old[p.id], "id": p.id} for p in papers)
    assert not (folder / "papers.json").exists()
    kept = list(own_backups(folder).glob("papers-*.json"))
    assert len(kept) == 1 and kept[0].read_bytes() == (LEGACY / "papers.json").read_bytes()
    assert own_file(folder, "papers/000001.jsonl").exists()
    assert any("papers.json" in n for n in opened.notices)
    # the annotations came along (the legacy migration of annotations.json)
    assert opened.library.annotations()
    again = open_library(folder)
    assert again.library.full_papers(again.library.paper_ids()) == papers
    assert again.notices == []


def test_an_import_into_a_read_only_library_writes_nothing(tmp_path):
    folder = tmp_path / "lib"
    open_library(folder)
    store = LibraryFolder(folder)
    store.papers_dir.chmod(0o555)
    try:
        with pytest.raises(OSError, match="read-only"):
            store.add_papers([_paper("x")])
    finally:
        store.papers_dir.chmod(0o755)
    assert sorted(n.name for n in store.papers_dir.iterdir()) == ["000001.jsonl"]
    assert DEVICE in str(store.papers_dir)


def test_a_small_library_is_indexed_in_memory_and_leaves_no_cache_file(tmp_path, monkeypatch):
    monkeypatch.setattr(catalogue_db, "SMALL_LIBRARY_BYTES", 1 << 20)
    monkeypatch.setenv("READER_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "lib"
    open_library(folder)  # seeded with the sample (about 30 KB)
    opened = open_library(folder)
    assert len(opened.library.papers()) == 19
    assert opened.folder.catalogue.path is None
    assert not (tmp_path / "cache" / "catalogues").exists()
    monkeypatch.setattr(catalogue_db, "SMALL_LIBRARY_BYTES", 1000)  # now it is large
    assert open_library(folder).folder.catalogue.path is not None


def test_a_file_read_a_line_at_a_time_that_changes_meanwhile_is_taken_whole_later(tmp_path):
    # a file's papers are read from it as they go into the index (never all in memory):
    # if it can no longer be read whole by then, none of it is kept (the index emptied:
    # made anew), and it is taken at the next open
    folder = tmp_path / "lib"
    name = _file_of(folder, "desk", [_paper("p1"), _paper("p2")], "1000000000001.0000.desk")
    whole = (folder / name).read_bytes()
    problems: list[str] = []
    found = paper_files.scan_file(folder, name, problems)
    assert found is not None and found.stamp == "1000000000001.0000.desk"
    (folder / name).write_bytes(whole[: whole.index(b"\n") + 1])  # (its papers gone)
    db = CatalogueDB(tmp_path / "index.sqlite3")
    with pytest.raises(paper_files.FileChanged):
        db._take(found, (1, 1))
    assert db.papers() == []
    (folder / name).write_bytes(whole)
    db.sync(folder, problems)
    assert [p.id for p in db.papers()] == ["p1", "p2"] and problems == []
    db.close()


def test_a_file_that_changes_after_some_of_its_parts_were_taken_leaves_none_of_them(
    tmp_path, monkeypatch
):
    # a file is taken a part at a time (others read and write between the parts): one
    # found changed after some parts went in leaves the index emptied (it may have
    # overwritten other files' lines), made anew from the files by the next sync
    monkeypatch.setattr(catalogue_db, "TAKE_PART", 2)
    folder = tmp_path / "lib"
    first = _file_of(folder, "desk", [_paper("p1", "Old one")], "1000000000001.0000.desk")
    db = CatalogueDB(tmp_path / "index.sqlite3")
    db.sync(folder, [])
    later = [_paper("p1", "New one"), _paper("p2"), _paper("p3"), _paper("p4"), _paper("p5")]
    name = _file_of(folder, "laptop", later, "1000000000002.0000.laptop")
    found = paper_files.scan_file(folder, name, [])
    assert found is not None

    lines = iter(found.papers)

    def papers():
        for n, paper in enumerate(lines):
            if n == 3:
                raise paper_files.FileChanged(name)
            yield paper

    with pytest.raises(paper_files.FileChanged):
        db._take(paper_files.PapersFile(name, found.stamp, papers()), (1, 1))
    assert db.papers() == [] and db.taken == 1 + 2
    db.sync(folder, [])
    assert [(p.id, p.title) for p in db.papers()] == [
        ("p1", "New one"), ("p2", "Paper p2"), ("p3", "Paper p3"), ("p4", "Paper p4"),
        ("p5", "Paper p5"),
    ]  # fmt: skip
    assert {n for (n, *_s) in db._connection().execute("SELECT * FROM files")} == {first, name}
    db.close()


def test_an_index_whose_papers_read_well_but_fails_its_check_is_not_trusted(tmp_path):
    # the check reads the whole file beside the papers being read (a thread of its
    # own): damage only it sees (a page of the ids' index, which reading the papers
    # in order never reads) still sets the index aside
    folder = tmp_path / "lib"
    _file_of(folder, "desk", [_paper(f"p{i:05}") for i in range(3000)], "1000000000001.0000.desk")
    titles = _titles(folder)
    index = CatalogueDB.for_library(folder).path
    assert index is not None
    gc.collect()
    db = sqlite3.connect(index)
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    (root,) = db.execute(
        "SELECT rootpage FROM sqlite_master WHERE name = 'sqlite_autoindex_papers_1'"
    ).fetchone()
    size = db.execute("PRAGMA page_size").fetchone()[0]
    db.close()
    with index.open("r+b") as f:
        f.seek((root - 1) * size)
        f.write(b"\x0d" + b"\xff" * 11)  # (a leaf of a table where an index's page was)
    opened = open_library(folder, seed=False)
    assert {p.id: p.title for p in opened.library.papers()} == titles
    assert any("set aside" in m for m in opened.messages)


def test_damage_outside_the_papers_rows_is_found_after_the_open_and_mended_at_the_next(
    tmp_path,
):
    """The papers' rows are checked before the library trusts them; the rest of the
    index (abstracts, words) while the window is already up: damage there marks the
    index, and the next open sets it aside and makes it anew, and says so."""
    import sqlite3
    import time

    folder = tmp_path / "lib"
    open_library(folder)  # seeded with the sample
    titles = _titles(folder)
    index = CatalogueDB.for_library(folder).path
    assert index is not None
    gc.collect()
    with sqlite3.connect(index) as db:  # (its log folded in: the pages in the file)
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        size = db.execute("PRAGMA page_size").fetchone()[0]
        (root,) = db.execute(
            "SELECT rootpage FROM sqlite_master WHERE name = 'abstracts'"
        ).fetchone()
    db.close()
    raw = bytearray(index.read_bytes())
    start = (root - 1) * size
    raw[start : start + size] = b"\x0d" + b"\xee" * (size - 1)  # the abstracts' page, garbled
    index.write_bytes(bytes(raw))
    opened = open_library(folder)  # the papers' rows are sound: used
    assert {p.id: p.title for p in opened.library.papers()} == titles
    assert not any("set aside" in m for m in opened.messages)
    mark = index.with_name(index.name + ".damaged")
    deadline = time.monotonic() + 30
    while not mark.exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert mark.exists()  # found by the check of the whole file, after the open
    opened.folder.close()
    gc.collect()
    again = open_library(folder)
    assert any("set aside" in m for m in again.messages)
    assert {pid: again.library.full_paper(pid).abstract != "" for pid in titles} == dict.fromkeys(
        titles, True
    )
    assert not mark.exists() and list(index.parent.glob(index.name + ".damaged-*"))


def _taken_a_paper_at_a_time(tmp_path, monkeypatch):
    """A library folder of 3,000 papers whose index (a file) is taken in a paper a
    part, a window's opened once 5 are in; and its papers."""
    monkeypatch.setattr(catalogue_db, "SMALL_LIBRARY_BYTES", 0)
    monkeypatch.setattr(catalogue_db, "CATCH_UP_BYTES", 0)
    monkeypatch.setattr(catalogue_db, "FIRST_PAPERS", 5)
    monkeypatch.setattr(catalogue_db, "TAKE_PART", 1)
    folder = tmp_path / "lib"
    papers = [_paper(f"p{i:04}") for i in range(3000)]
    _file_of(folder, "desk", papers, "1000000000001.0000.desk")
    return folder, papers


def test_a_command_waits_for_every_paper_of_an_index_made_anew(tmp_path, monkeypatch):
    # only the window opens with the first papers of a big library whose index is
    # made anew: a command lists them all
    folder, papers = _taken_a_paper_at_a_time(tmp_path, monkeypatch)
    opened = open_library(folder, seed=False)
    assert opened.library.paper_ids() == [p.id for p in papers]
    assert opened.folder.catalogue.catching_up is None
    opened.folder.close()
    _indexes_deleted()
    early = open_library(folder, seed=False, early=True)
    assert 5 <= len(early.library) < 3000 and early.folder.catching_up()
    early.folder.catalogue.catching_up.join()
    steps = 1
    while not early.library.catch_up(1000):
        steps += 1
    assert steps >= 3 and early.library.paper_ids() == [p.id for p in papers]
    early.folder.close()


def test_a_take_stopped_as_the_window_closes_is_finished_at_the_next_open(tmp_path, monkeypatch):
    folder, papers = _taken_a_paper_at_a_time(tmp_path, monkeypatch)
    early = open_library(folder, seed=False, early=True)
    early.folder.stop_taking()
    assert not early.folder.catalogue.taking()  # (stopped after its part)
    assert early.folder.catalogue.taken < 3000
    early.folder.close()
    again = open_library(folder, seed=False)
    assert again.library.paper_ids() == [p.id for p in papers]
    again.folder.close()


def test_each_part_taken_is_numbered_above_every_earlier_one_even_after_emptying(tmp_path):
    # (what the window follows while an index made anew takes files in)
    folder = tmp_path / "lib"
    _file_of(folder, "desk", [_paper("p1"), _paper("p2")], "1000000000001.0000.desk")
    db = CatalogueDB(tmp_path / "index.sqlite3")
    db.sync(folder, [])
    first = db._connection().execute("SELECT max(taken) FROM papers").fetchone()[0]
    db._connection().executescript(catalogue_db._EMPTIED)
    _file_of(folder, "laptop", [_paper("p3")], "1000000000002.0000.laptop")
    db.sync(folder, [])
    numbers = [n for (n,) in db._connection().execute("SELECT taken FROM papers")]
    assert numbers and min(numbers) > first
    db.close()
