"""A library written by the release before devices (tests/data/legacy_library: made
with commit fe68c9f — statuses, tags, notes in Markdown and Chinese, a rating, a
highlight, a tag colour, a saved search folded into annotations.json, and three
saves still in annotations.journal, as a window closed by a crash leaves them)
opens with everything in it, after a verified backup of both files."""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from reader.core.models import Status
from reader.opening import open_library
from reader.store.storage import parse_document
from tests.helpers.libraries import own_backups

DATA = Path(__file__).resolve().parents[1] / "data" / "legacy_library"


@pytest.fixture
def legacy(tmp_path: Path) -> Path:
    folder = tmp_path / "library"
    shutil.copytree(DATA, folder)
    return folder


def by_title(lib, start: str) -> str:
    return next(pid for pid in lib.paper_ids() if lib.paper(pid).title.startswith(start))


def test_everything_written_before_is_there(legacy):
    old = {
        name: (legacy / name).read_bytes() for name in ("annotations.json", "annotations.journal")
    }
    opened = open_library(legacy)
    lib = opened.library
    assert any("Moved the" in m for m in opened.messages)
    ids = lib.paper_ids()
    assert [lib.status(pid) for pid in ids[:4]] == [Status.READ] * 3 + [Status.READING]
    assert lib.tags(ids[0]) == ("rl", "method/diffusion")
    assert lib.tags(ids[1]) == ("method/diffusion",)  # "rl" removed by a journal save
    assert lib.tags(ids[4]) == ("阅读组", "Theory")
    assert lib.annotation(ids[0]).note.startswith("# Summary\n\nA **Markdown** note")
    assert lib.annotation(ids[5]).note == "中文笔记：值得一读。"
    assert lib.annotation(ids[6]).note == "written after the fold"  # from the journal
    assert lib.tags(ids[6]) == ("later",)
    assert lib.annotation(ids[1]).rating == 4
    (mark,) = lib.annotation(ids[0]).highlights
    assert (mark.id, mark.quote, mark.comment) == ("h1", "knowledge", "key idea")
    assert lib.tag_colours() == {"rl": "#d04040"}
    assert lib.prefs.saved_searches() == {"diffusion reads": "tag:method/diffusion status:read"}
    # the verified backup holds both files byte for byte; the old files are gone
    (backup,) = own_backups(legacy).glob("before-devices-*")
    for name, raw in old.items():
        assert (backup / name).read_bytes() == raw
        assert not (legacy / name).exists()
    # the backups of the earlier release stay where they were
    assert list((legacy / "backups").glob("annotations-*-manual.json"))


def test_it_is_moved_once_and_the_same_on_every_computer(legacy, tmp_path):
    other = tmp_path / "other computer"
    shutil.copytree(DATA, other)
    first = dict(open_library(legacy).library.annotations())
    again = open_library(legacy)  # second open: nothing more to move
    assert not any("Moved the" in m for m in again.messages)
    assert dict(again.library.annotations()) == first
    open_library(other)
    mine = sorted(p.relative_to(legacy) for p in (legacy / "devices").glob("imported-*/*"))
    theirs = sorted(p.relative_to(other) for p in (other / "devices").glob("imported-*/*"))
    assert mine == theirs and mine  # one folder, the same name: a syncer sees one
    for rel in mine:
        digest = hashlib.sha256((legacy / rel).read_bytes()).hexdigest()
        assert digest == hashlib.sha256((other / rel).read_bytes()).hexdigest()


def test_new_edits_win_over_the_imported_ones(legacy):
    lib = open_library(legacy).library
    pid = lib.paper_ids()[0]
    lib.remove_tags([pid], ["rl"])
    lib.set_status([pid], Status.UNREAD)
    again = open_library(legacy).library
    assert again.tags(pid) == ("method/diffusion",)
    assert again.status(pid) is Status.UNREAD


def test_a_damaged_old_file_is_taken_from_its_backup(legacy):
    (legacy / "annotations.json").write_bytes(b'{"annotations": {"t-')
    opened = open_library(legacy)
    lib = opened.library
    assert lib.status(lib.paper_ids()[0]) is Status.READ  # from the old release's backup
    assert lib.annotation(lib.paper_ids()[6]).note == "written after the fold"  # journal
    (backup,) = own_backups(legacy).glob("before-devices-*")
    assert (backup / "annotations.json").read_bytes() == b'{"annotations": {"t-'
    assert any("not valid JSON" in m or "damaged" in m.lower() for m in opened.messages)


def test_the_imported_file_is_readable_tinydb(legacy):
    open_library(legacy)
    (path,) = (legacy / "devices").glob("imported-*/annotations.json")
    doc = parse_document(path, path.read_bytes())
    some = next(iter(doc["annotations"].values()))
    assert set(some) >= {"status", "tags", "note", "created", "modified"}


def test_a_journal_left_without_its_file_sets_only_what_its_saves_held(legacy):
    journal = (DATA / "annotations.journal").read_bytes()
    first = dict(open_library(legacy).library.annotations())
    # the old journal again, alone (a crash, or a syncer, between the two removals)
    (legacy / "annotations.journal").write_bytes(journal)
    again = open_library(legacy)
    assert any("Moved the" in m for m in again.messages)
    assert dict(again.library.annotations()) == first


def test_an_old_annotation_from_a_clock_far_ahead_does_not_beat_new_edits(legacy):
    import json

    doc = json.loads((legacy / "annotations.json").read_text("utf-8"))
    pid = next(iter(doc["annotations"]))
    doc["annotations"][pid]["modified"] = "2260-01-01T00:00:00+00:00"
    (legacy / "annotations.json").write_text(json.dumps(doc), "utf-8")
    lib = open_library(legacy).library
    assert lib.status(pid) is not Status.UNREAD
    lib.set_status([pid], Status.UNREAD)
    assert open_library(legacy).library.status(pid) is Status.UNREAD
