"""Edits are operations applied under the lock to what is on disk now (issue 18, S1):
two writers of one library, each with its own (stale) copy, lose nothing of each
other's, whether two Library objects in one process or real processes at once."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from reader.core.library import SaveFailed
from reader.core.models import Highlight, Status
from tests.helpers.libraries import fresh, own_file

REPO = Path(__file__).resolve().parents[2]


def test_tags_added_by_two_stale_copies_are_both_kept(library_dir, two):
    a, b, ids = two
    a.add_tags([ids[0]], ["a"])
    b.add_tags([ids[0]], ["b"])  # b's copy still has no tag "a"
    assert b.tags(ids[0]) == ("a", "b")  # memory follows what was written
    assert fresh(library_dir).tags(ids[0]) == ("a", "b")


def test_a_tag_removed_by_one_stays_removed_when_the_other_adds_one(library_dir, two):
    a, b, ids = two
    a.add_tags([ids[0]], ["x", "y"])
    b.refresh()
    a.remove_tags([ids[0]], ["x"])
    b.add_tags([ids[0]], ["z"])  # b still shows x
    assert fresh(library_dir).tags(ids[0]) == ("y", "z")


def test_a_status_the_stale_copy_already_shows_is_still_written(library_dir, two):
    a, b, ids = two
    a.set_status([ids[0]], Status.READ)
    b.refresh()
    a.set_status([ids[0]], Status.UNREAD)
    b.set_status([ids[0]], Status.READ)  # b's copy says read already; the disk says unread
    assert b.status(ids[0]) is Status.READ
    assert fresh(library_dir).status(ids[0]) is Status.READ


def test_a_note_and_a_tag_of_one_paper_by_two_stale_copies(library_dir, two):
    a, b, ids = two
    a.set_note(ids[0], "a's note")
    b.add_tags([ids[0]], ["b"])
    b.set_status([ids[0]], Status.READING)
    ann = fresh(library_dir).annotation(ids[0])
    assert (ann.note, ann.tags, ann.status) == ("a's note", ("b",), Status.READING)
    assert b.annotation(ids[0]).note == "a's note"  # taken in under b's lock


def test_set_tags_keeps_a_tag_another_copy_added(library_dir, two):
    a, b, ids = two
    b.set_tags(ids[0], ["old"])
    a.refresh()
    b.add_tags([ids[0]], ["theirs"])
    a.set_tags(ids[0], ["new"])  # a saw only "old": replaced it, "theirs" untouched
    assert fresh(library_dir).tags(ids[0]) == ("theirs", "new")


def test_renaming_a_tag_renames_it_on_papers_the_stale_copy_has_not_seen(library_dir, two):
    a, b, ids = two
    a.add_tags([ids[0]], ["rl"])
    b.add_tags([ids[1]], ["rl/theory"])
    a.rename_tag("rl", "reinforcement")  # a has never seen ids[1]'s tag
    lib = fresh(library_dir)
    assert lib.tags(ids[0]) == ("reinforcement",)
    assert lib.tags(ids[1]) == ("reinforcement/theory",)
    b.delete_tag("reinforcement")  # b's copy has no such tag on ids[0]
    lib = fresh(library_dir)
    assert lib.tags(ids[0]) == () and lib.tags(ids[1]) == ("reinforcement/theory",)


def test_highlights_added_by_two_stale_copies_are_both_kept(library_dir, two):
    a, b, ids = two
    h1, h2 = Highlight("h1", "first"), Highlight("h2", "second")
    a.set_highlights(ids[0], [h1])
    b.set_highlights(ids[0], [h2])
    assert {h.id for h in fresh(library_dir).annotation(ids[0]).highlights} == {"h1", "h2"}
    a.set_highlights(ids[0], [])  # a removes the one it has: b's stays
    assert [h.id for h in fresh(library_dir).annotation(ids[0]).highlights] == ["h2"]


def test_putting_an_annotation_back_leaves_what_another_copy_changed(library_dir, two):
    a, b, ids = two
    edit = b.set_status([ids[0]], Status.READ)
    a.add_tags([ids[0]], ["theirs"])
    assert b.revert(edit) == []  # b's undo: its status back, a's tag not its to take
    ann = fresh(library_dir).annotation(ids[0])
    assert (ann.status, ann.tags) == (Status.UNREAD, ("theirs",))


def test_a_retried_save_is_applied_to_what_is_on_disk_then(library_dir, two, monkeypatch):
    a, b, ids = two
    store = b._store

    def disk_full(changes):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(store, "write_annotations", disk_full)
    with pytest.raises(SaveFailed):
        b.add_tags([ids[0]], ["b"])
    assert b.tags(ids[0]) == ("b",) and b.pending_count() == 1
    a.add_tags([ids[0]], ["a"])
    a.set_note(ids[0], "a's")
    monkeypatch.undo()
    assert b.retry_pending()
    ann = fresh(library_dir).annotation(ids[0])
    assert (ann.tags, ann.note) == (("a", "b"), "a's")  # not b's tags as they once were
    assert b.tags(ids[0]) == ("a", "b") and b.pending_count() == 0


def test_refresh_keeps_pending_edits_on_top_of_what_was_read(library_dir, two, monkeypatch):
    a, b, ids = two

    def disk_full(changes):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(b._store, "write_annotations", disk_full)
    with pytest.raises(SaveFailed):
        b.add_tags([ids[0]], ["b"])
    a.add_tags([ids[0]], ["a"])
    b.refresh()
    assert b.tags(ids[0]) == ("a", "b")


def test_tag_colours_set_by_two_stale_copies_both_stay(library_dir, two):
    a, b, _ = two
    a.set_tag_colours({"x": "#ff0000"})
    b.set_tag_colours({"y": "#00ff00"})  # b never saw x's colour: it does not remove it
    assert b.tag_colours() == {"x": "#ff0000", "y": "#00ff00"}
    assert fresh(library_dir).tag_colours() == {"x": "#ff0000", "y": "#00ff00"}
    a.set_tag_colour("x", None)
    assert fresh(library_dir).tag_colours() == {"y": "#00ff00"}


def test_a_renamed_tags_colour_follows_even_if_set_elsewhere(library_dir, two):
    a, b, ids = two
    a.add_tags([ids[0]], ["rl"])
    a.set_tag_colours({"rl": "#ff0000"})
    b.rename_tag("rl", "reinforcement")  # b's copy has no colour for rl
    assert fresh(library_dir).tag_colours() == {"reinforcement": "#ff0000"}


def test_saved_searches_and_preferences_by_two_stale_copies(library_dir, two):
    a, b, _ = two
    a.save_search("mine", "tag:a")
    b.save_search("theirs", "tag:b")
    a.prefs.set("triage_decisions", [{"key": "i", "label": "I", "kind": "tag", "value": "i"}])
    b.prefs.set("triage_decisions", [{"key": "j", "label": "J", "kind": "tag", "value": "j"}])
    a.prefs.set("highlight_names", ["claim", "method", "result", "question"])
    b.refresh()
    a.prefs.set("highlight_names", ["CLAIM", "method", "result", "question"])
    b.prefs.set("highlight_names", ["claim", "method", "RESULT", "question"])
    prefs = fresh(library_dir).prefs
    assert prefs.saved_searches() == {"mine": "tag:a", "theirs": "tag:b"}
    assert sorted(d["key"] for d in prefs.get("triage_decisions")) == ["i", "j"]
    assert prefs.get("highlight_names") == ["CLAIM", "method", "RESULT", "question"]


def test_a_bulk_edit_is_one_journal_line(library_dir, two):
    a, b, ids = two
    a.add_tags(ids[:1], ["a"])
    journal = own_file(library_dir, "annotations.journal")
    before = journal.read_bytes().count(b"\n")
    b.set_status(ids, Status.READ)
    b.rename_tag("a", "b")
    assert journal.read_bytes().count(b"\n") == before + 2


# -- real processes ----------------------------------------------------------------

_LOOP = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from reader.core.models import Status
    from reader.opening import open_library

    folder, name, pid, other = Path(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    n = int(sys.argv[5])
    lib = open_library(folder).library  # opened once: stale as soon as another writes
    print("ready", flush=True)
    sys.stdin.readline()
    for i in range(n):
        lib.add_tags([pid], [f"{name}t{i}"])
        print(i, flush=True)  # acknowledged
    lib.set_status([other], Status.READ)
    lib.set_note(other, "note by " + name)
    """
)


def _spawn(args, **kw):
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.Popen(args, cwd=REPO, env=env, text=True, **kw)


def test_three_processes_each_tagging_one_paper_25_times_lose_no_tag(library_dir):
    lib = fresh(library_dir)
    ids = lib.paper_ids()
    target = ids[0]
    procs = [
        _spawn(
            [sys.executable, "-c", _LOOP, str(library_dir), f"w{k}", target, ids[k + 1], "25"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        for k in range(3)
    ]
    try:
        for proc in procs:
            assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
        for proc in procs:
            assert proc.stdin is not None
            proc.stdin.write("go\n")
            proc.stdin.flush()
        for proc in procs:
            proc.communicate(timeout=60)
            assert proc.returncode == 0
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
    lib = fresh(library_dir)
    tags = set(lib.tags(target))
    assert tags == {f"w{k}t{i}" for k in range(3) for i in range(25)}
    for k in range(3):
        ann = lib.annotation(ids[k + 1])
        assert (ann.status, ann.note) == (Status.READ, f"note by w{k}")


_CLI_LOOP = textwrap.dedent(
    """
    import subprocess, sys
    folder, name, pid, n = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    for i in range(n):
        subprocess.run(
            [sys.executable, "-m", "reader", "--data-dir", folder, "tag", pid, f"{name}c{i}"],
            check=True, stdout=subprocess.DEVNULL, timeout=30,
        )
    """
)


def test_three_command_lines_tagging_one_paper_25_times_lose_no_tag(library_dir):
    lib = fresh(library_dir)  # (seeded with the sample first: no writer seeds it)
    target = lib.paper_ids()[0]
    procs = [
        _spawn([sys.executable, "-c", _CLI_LOOP, str(library_dir), f"w{k}", target, "25"])
        for k in range(3)
    ]
    try:
        for proc in procs:
            assert proc.wait(timeout=90) == 0
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
    assert set(fresh(library_dir).tags(target)) == {
        f"w{k}c{i}" for k in range(3) for i in range(25)
    }


def test_a_save_landing_while_the_journal_is_read_unlocked_is_not_lost(library_dir, monkeypatch):
    """Opening reads the journal without the lock. Another program's save appended
    between reading its bytes and taking its signature must not be taken as seen:
    the next edit would then not catch up with it and write tags without it."""
    from reader.store import journal

    b = fresh(library_dir)
    target = b.paper_ids()[0]
    b.add_tags([target], ["first"])  # (a journal to read)
    read_all, busy = journal.read_all, []

    def read_then_another_saves(fd):
        raw = read_all(fd)
        if not busy:
            busy.append(True)
            b.add_tags([target], ["b"])  # lands after the read, before the signature
        return raw

    monkeypatch.setattr(journal, "read_all", read_then_another_saves)
    a = fresh(library_dir)  # a's copy: "first" only
    monkeypatch.setattr(journal, "read_all", read_all)
    assert busy
    a.add_tags([target], ["a"])
    assert set(fresh(library_dir).tags(target)) == {"first", "b", "a"}
