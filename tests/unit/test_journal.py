"""The journal of annotations.json: saves appended as checked lines, replayed, folded."""

import json
import os
import random
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "helpers"))
from store_harness import make_library, synthetic_papers

from reader.core import crdt
from reader.core.library import Library, SaveFailed
from reader.opening import open_library
from reader.store import journal
from reader.store.backups import Backups
from reader.store.files import LibraryFolder
from reader.store.journal import DamagedJournal, apply, encode, scan
from reader.store.storage import parse_document
from tests.helpers.libraries import DEVICE, own_backups, own_file

REPO = Path(__file__).resolve().parents[2]


@pytest.fixture
def lib_dir(tmp_path):
    folder = tmp_path / "library"
    make_library(folder, synthetic_papers(5))
    return folder


def fields(record):
    """The field values (as Annotation.to_dict() has them) of this device's stamped
    `record` of a paper: what it shows alone."""
    return crdt.view([(DEVICE, record)])


def on_disk(folder):
    """This device's annotations.json's own annotations table (without the journal),
    as field values; annotations removed (all fields back to nothing) left out."""
    path = own_file(folder)
    table = parse_document(path, path.read_bytes()).get("annotations", {})
    shown = {pid: fields(record) for pid, record in table.items()}
    return {pid: values for pid, values in shown.items() if values is not None}


def journal_file(folder):
    return own_file(folder, "annotations.journal")


def journal_of(folder):
    path = journal_file(folder)
    return path.read_bytes() if path.exists() else b""


def standalone_backups(folder):
    """This device's backups of the library in `folder`, as a Backups of its own
    (its own lock, its own fold of the journal) has them, not the library's."""
    return Backups(folder, source=own_file(folder), into=own_backups(folder))


def own_dir(folder):
    """This device's folder of the library (its annotations.json, journal, damaged copies)."""
    return own_file(folder).parent


def note(folder, pid="p000000"):
    return open_library(folder).library.annotation(pid).note


# -- saves and replay --------------------------------------------------------------


def test_a_save_appends_one_line_and_leaves_annotations_json_alone(lib_dir):
    lib = open_library(lib_dir).library
    before = own_file(lib_dir).read_bytes()
    lib.set_note("p000000", "first")
    lib.set_tags("p000001", ["a", "b"])
    lib.set_note("p000000", "second")
    assert own_file(lib_dir).read_bytes() == before
    found = scan(journal_of(lib_dir))
    assert found.clean and found.damaged is None and len(found.changes) == 3
    assert fields(found.changes[0]["p000000"])["note"] == "first"
    fresh = open_library(lib_dir).library
    assert fresh.annotation("p000000").note == "second"  # replayed in order
    assert fresh.tags("p000001") == ("a", "b")
    assert fresh.annotation("p000000").created == lib.annotation("p000000").created


def test_a_line_is_a_checksum_and_json(lib_dir):
    line = encode({"p1": {"note": "ünï ∑ \n 中文"}, "p2": None})
    assert line.endswith(b"\n") and line.count(b"\n") == 1  # newlines in values are escaped
    [changes] = scan(line).changes
    assert changes == {"p1": {"note": "ünï ∑ \n 中文"}, "p2": None}


def test_deleting_an_annotation_goes_through_the_journal(lib_dir):
    folder = LibraryFolder(lib_dir)
    folder.write_annotations(
        {"p000002": {"note": "gone soon", "created": "2026-01-01T00:00:00+00:00"}}
    )
    folder.write_annotations({"p000002": None})
    assert "p000002" not in LibraryFolder(lib_dir).load_annotations()


def test_unsavable_values_append_nothing(lib_dir):
    folder = LibraryFolder(lib_dir)
    with pytest.raises(ValueError):
        folder.write_annotations({"p000000": {"note": "bad \ud800"}})
    assert journal_of(lib_dir) == b""


def test_a_torn_last_line_is_ignored_then_cut_off_by_the_next_save(lib_dir):
    open_library(lib_dir).library.set_note("p000000", "kept")
    whole = journal_of(lib_dir)
    torn = encode({"p000001": {"note": "half written"}})
    with open(journal_file(lib_dir), "ab") as file:
        file.write(torn[: len(torn) // 2])  # the writer died mid-line
    opened = open_library(lib_dir)
    assert opened.messages == []  # what a crash leaves is not damage
    assert opened.library.annotation("p000000").note == "kept"
    assert opened.library.annotation("p000001").is_empty
    opened.library.set_note("p000002", "after the crash")
    found = scan(journal_of(lib_dir))
    assert found.clean and len(found.changes) == 2
    assert journal_of(lib_dir).startswith(whole)
    assert note(lib_dir, "p000002") == "after the crash"


def test_zeros_left_by_a_crash_are_not_damage(lib_dir):
    open_library(lib_dir).library.set_note("p000000", "kept")
    with open(journal_file(lib_dir), "ab") as file:
        file.write(b"\0" * 4096)
    opened = open_library(lib_dir)
    assert opened.messages == [] and opened.library.annotation("p000000").note == "kept"
    opened.library.set_note("p000001", "next")
    assert scan(journal_of(lib_dir)).clean


def corrupt_second_line(folder):
    raw = journal_of(folder)
    lines = raw.split(b"\n")
    lines[1] = lines[1].replace(b"two", b"tw0")  # the checksum no longer matches
    journal_file(folder).write_bytes(b"\n".join(lines))


def three_saves(folder):
    lib = open_library(folder).library
    for pid, text in (("p000000", "one"), ("p000001", "two"), ("p000002", "three")):
        lib.set_note(pid, text)


def test_a_line_failing_its_checksum_stops_the_replay_and_the_journal_is_kept_aside(lib_dir):
    three_saves(lib_dir)
    corrupt_second_line(lib_dir)
    damaged = journal_of(lib_dir)
    opened = open_library(lib_dir)
    [message] = opened.messages
    assert (
        "annotations.journal: line 2 is damaged" in message
        and "1 saves before it were kept" in message
    )
    lib = opened.library
    assert lib.annotation("p000000").note == "one"  # before the bad line: kept
    assert lib.annotation("p000001").is_empty and lib.annotation("p000002").is_empty
    [aside] = own_dir(lib_dir).glob("annotations.journal.damaged-*")
    assert aside.read_bytes() == damaged  # never deleted
    assert on_disk(lib_dir)["p000000"]["note"] == "one"  # folded into annotations.json
    assert not journal_file(lib_dir).exists()
    lib.set_note("p000003", "life goes on")
    assert open_library(lib_dir).messages == [] and note(lib_dir, "p000003") == "life goes on"


def test_a_damaged_journal_in_a_read_only_folder_is_used_up_to_the_damage(lib_dir):
    three_saves(lib_dir)
    corrupt_second_line(lib_dir)
    damaged = journal_of(lib_dir)
    # the library folder and this device's folder in it (where its files are written)
    os.chmod(own_dir(lib_dir), 0o555)
    os.chmod(lib_dir, 0o555)
    try:
        opened = open_library(lib_dir)
        assert any(
            "line 2 is damaged" in m and "1 saves before it are shown" in m for m in opened.messages
        )
        assert opened.library.annotation("p000000").note == "one"
        assert opened.library.annotation("p000001").is_empty
        with pytest.raises(SaveFailed):
            opened.library.set_note("p000004", "x")
    finally:
        os.chmod(lib_dir, 0o755)
        os.chmod(own_dir(lib_dir), 0o755)
    assert journal_of(lib_dir) == damaged
    assert not list(own_dir(lib_dir).glob("annotations.journal.damaged-*"))


def test_a_journal_damaged_while_open_is_set_aside_by_the_next_save(lib_dir):
    three_saves(lib_dir)
    lib = open_library(lib_dir).library
    corrupt_second_line(lib_dir)  # after this process read it
    lib.set_note("p000004", "saved anyway")
    store = lib._store
    assert any("line 2 is damaged" in p for p in store.problems)
    assert list(own_dir(lib_dir).glob("annotations.journal.damaged-*"))
    fresh = open_library(lib_dir).library
    assert fresh.annotation("p000004").note == "saved anyway"
    assert fresh.annotation("p000000").note == "one"


def test_an_unreadable_journal_does_not_stop_opening(lib_dir, monkeypatch):
    three_saves(lib_dir)
    real_open = os.open

    def refuse(path, *args, **kwargs):  # even root gets EACCES from some file systems
        if str(path).endswith("annotations.journal"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", refuse)
    opened = open_library(lib_dir)
    assert any(
        "annotations.journal: cannot read" in m and "not shown" in m for m in opened.messages
    )
    assert opened.library.annotation("p000000").is_empty
    with pytest.raises(SaveFailed):
        opened.library.set_note("p000004", "x")
    monkeypatch.undo()
    assert note(lib_dir) == "one"  # nothing was lost


# -- folding ---------------------------------------------------------------------


def test_past_its_bound_the_journal_is_folded_into_annotations_json(lib_dir, monkeypatch):
    monkeypatch.setattr(journal, "FOLD_BYTES", 2000)
    lib = open_library(lib_dir).library
    sizes = []
    for n in range(40):
        lib.set_note(f"p00000{n % 5}", f"note {n} " + "x" * 100)
        sizes.append(len(journal_of(lib_dir)))
    assert max(sizes) <= 2000 + 200 and min(sizes) == 0  # bounded, and emptied by folds
    assert on_disk(lib_dir)  # the folds wrote annotations.json
    fresh = open_library(lib_dir).library
    for n in range(35, 40):
        assert fresh.annotation(f"p00000{n % 5}").note.startswith(f"note {n} ")
    assert lib.refresh() is None  # its own folds are not news to it


def test_a_fold_right_after_a_save_keeps_what_another_process_wrote_meanwhile(lib_dir, monkeypatch):
    # FOLD_BYTES: a 700-character note takes the journal past its bound here, so that
    # saving it folds the journal into annotations.json under the same hold
    monkeypatch.setattr(journal, "FOLD_BYTES", 600)
    one, two = open_library(lib_dir).library, open_library(lib_dir).library
    one.set_note("p000000", "one's first")
    one.set_note("p000001", "one's second")
    one.set_note("p000002", "x" * 700)  # past the bound: folded
    assert journal_of(lib_dir) == b""
    assert {pid: a["note"] for pid, a in on_disk(lib_dir).items()} == {
        "p000000": "one's first",
        "p000001": "one's second",
        "p000002": "x" * 700,
    }
    one.set_note("p000003", "one's")
    two.set_note("p000004", "two's")  # another process's line, after one's last
    one.set_note("p000000", "y" * 700)  # folded again: two's line with it
    assert journal_of(lib_dir) == b""
    assert on_disk(lib_dir)["p000004"]["note"] == "two's"
    fresh = open_library(lib_dir).library
    assert [fresh.annotation(f"p00000{n}").note for n in range(5)] == [
        "y" * 700,
        "one's second",
        "x" * 700,
        "one's",
        "two's",
    ]
    # one took two's save in under the lock of its own: nothing left to refresh
    assert one.annotation("p000004").note == "two's" and one.refresh() is None


def test_a_journal_refilled_to_the_same_size_within_a_clock_tick_is_read_again(
    lib_dir, monkeypatch
):
    # coarse file times (a jiffy on older kernels, network file systems): the journal
    # one process left and the one another refilled look the same but for their bytes
    monkeypatch.setattr(
        journal, "stat_signature", lambda st: (st.st_dev, st.st_ino, st.st_size, 0, 0)
    )
    monkeypatch.setattr(
        journal,
        "path_signature",
        lambda path: journal.stat_signature(os.stat(path)) if path.exists() else None,
    )
    one, two = open_library(lib_dir), open_library(lib_dir)
    one.library.set_note("p000000", "aaaa")
    size = len(journal_of(lib_dir))
    two.folder.fold_journal()  # one's line folded, the journal emptied...
    two.library.set_note("p000001", "bbbb")  # ...and refilled to the same size
    assert len(journal_of(lib_dir)) == size
    one.folder.fold_journal()
    fresh = open_library(lib_dir).library
    assert (fresh.annotation("p000000").note, fresh.annotation("p000001").note) == ("aaaa", "bbbb")


def test_applying_saves_keeps_the_first_creation_time_and_never_writes_the_paper_id():
    docs = {"a": {"paper_id": "a", "created": "2026-01-02", "note": "x"}, "b": {"note": "y"}}
    apply(
        docs,
        {
            "a": {"paper_id": "zzz", "created": "2026-01-05", "note": "z"},
            "b": {"paper_id": "b", "created": "2026-01-01"},
            "c": {"paper_id": "c", "status": "read"},
        },
    )
    assert docs == {
        "a": {"paper_id": "a", "created": "2026-01-02", "note": "z"},
        "b": {"note": "y", "created": "2026-01-01"},
        "c": {"status": "read"},
    }
    apply(docs, {"b": {"created": "2025-12-31"}, "a": None})
    assert docs == {"b": {"note": "y", "created": "2025-12-31"}, "c": {"status": "read"}}


@pytest.mark.parametrize("seed", range(20))
def test_applying_the_same_saves_again_changes_nothing(seed):
    rng = random.Random(seed)
    start = {"a": {"note": "x", "created": "2026-01-02"}, "b": {"tags": ["t"]}}
    saves = []
    for _ in range(rng.randrange(1, 12)):
        pid = rng.choice("abc")
        if rng.random() < 0.2:
            saves.append({pid: None})
        else:
            fields = {rng.choice(["note", "tags", "status", "rating"]): rng.randrange(5)}
            if rng.random() < 0.5:
                fields["created"] = f"2026-01-0{rng.randrange(1, 4)}"
            saves.append({pid: fields})
    once = json.loads(json.dumps(start))
    for s in saves:
        apply(once, s)
    twice = json.loads(json.dumps(once))
    for s in saves:
        apply(twice, s)
    assert twice == once


CRASH_IN_FOLD = textwrap.dedent(
    """
    import os, signal, sys
    from pathlib import Path
    sys.path.insert(0, {repo!r})
    from reader.opening import open_library
    from reader.store import journal
    opened = open_library(Path({folder!r}))
    opened.library.set_note("p000000", "folded")
    opened.library.set_tags("p000001", ["folded"])
    opened.library.set_note("p000001", "then changed")  # a later line: replaying must not undo it
    # killed after annotations.json was rewritten, before the journal is emptied
    journal.Journal.reset = lambda self, found: os.kill(os.getpid(), signal.SIGKILL)
    opened.folder.fold_journal()
    """
)


def test_a_crash_between_a_fold_and_emptying_the_journal_loses_and_undoes_nothing(lib_dir):
    code = CRASH_IN_FOLD.format(repo=str(REPO), folder=str(lib_dir))
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == -signal.SIGKILL, done.stderr
    table = on_disk(lib_dir)
    assert table["p000000"]["note"] == "folded" and table["p000001"]["note"] == "then changed"
    assert len(scan(journal_of(lib_dir)).changes) == 3  # still there: replayed on top
    opened = open_library(lib_dir)
    assert opened.messages == []
    lib = opened.library
    assert lib.annotation("p000000").note == "folded"
    assert lib.annotation("p000001").note == "then changed" and lib.tags("p000001") == ("folded",)
    lib.set_note("p000002", "later")
    opened.folder.fold_journal()  # the next fold tidies up
    assert journal_of(lib_dir) == b""
    fresh = open_library(lib_dir).library
    assert (
        fresh.annotation("p000001").note == "then changed"
        and fresh.annotation("p000002").note == "later"
    )


def test_small_tables_fold_the_journal_in_the_same_write(lib_dir):
    lib = open_library(lib_dir).library
    lib.set_note("p000000", "in the journal")
    lib.save_search("mine", "tag:rl")
    assert journal_of(lib_dir) == b""
    path = own_file(lib_dir)
    data = parse_document(path, path.read_bytes())
    assert fields(data["annotations"]["p000000"])["note"] == "in the journal"
    assert crdt.table_view([data["saved_searches"]])["mine"] == {"query": "tag:rl"}


def test_whole_document_reads_see_the_journal(lib_dir):
    open_library(lib_dir).library.set_note("p000000", "journalled")
    folder = LibraryFolder(lib_dir)
    document = folder.read_annotations_document()
    assert fields(document["annotations"]["p000000"])["note"] == "journalled"
    assert journal_of(lib_dir) == b""  # folded first
    assert on_disk(lib_dir)["p000000"]["note"] == "journalled"


def test_closing_folds_the_journal(lib_dir):
    opened = open_library(lib_dir)
    opened.library.set_note("p000000", "on close")
    opened.folder.close()
    assert journal_of(lib_dir) == b"" and on_disk(lib_dir)["p000000"]["note"] == "on close"


# -- backups ---------------------------------------------------------------------


@pytest.mark.parametrize("own", [True, False], ids=["the-library's", "standalone"])
def test_backups_hold_the_saves_still_in_the_journal(lib_dir, own):
    opened = open_library(lib_dir)
    opened.library.set_note("p000000", "only in the journal")
    backups = opened.backups if own else standalone_backups(lib_dir)
    path = backups.take("close")
    record = parse_document(path, path.read_bytes())["annotations"]["p000000"]
    assert fields(record)["note"] == "only in the journal"
    assert journal_of(lib_dir) == b""
    opened.library.set_note("p000000", "later")
    assert note(lib_dir) == "later"


def test_a_restore_leaves_no_journal_line_to_undo_it(lib_dir):
    opened = open_library(lib_dir)
    opened.library.set_note("p000000", "old")
    name = opened.backups.take("close").name
    opened.library.set_note("p000000", "new, in the journal")
    aside = standalone_backups(lib_dir).restore(name)
    assert note(lib_dir) == "old"
    record = parse_document(aside, aside.read_bytes())["annotations"]["p000000"]
    assert fields(record)["note"] == "new, in the journal"
    standalone_backups(lib_dir).restore(aside.name)
    assert note(lib_dir) == "new, in the journal"


def test_a_damaged_annotations_file_is_restored_and_the_journal_replayed_on_top(lib_dir):
    opened = open_library(lib_dir)
    opened.library.set_note("p000000", "in the backup")
    opened.backups.take("close")
    opened.library.set_note("p000001", "after the backup")
    own_file(lib_dir).write_bytes(b"{torn")
    again = open_library(lib_dir)
    assert any("Restored the newest good backup" in m for m in again.messages)
    assert again.library.annotation("p000000").note == "in the backup"
    assert again.library.annotation("p000001").note == "after the backup"


# -- other processes ---------------------------------------------------------------


def test_reload_notices_another_process_appending_and_folding(lib_dir):
    mine = open_library(lib_dir).library
    theirs = open_library(lib_dir)
    assert mine.refresh() is None
    theirs.library.set_note("p000000", "appended by them")
    change = mine.refresh()
    assert change is not None and "p000000" in change.paper_ids
    assert mine.annotation("p000000").note == "appended by them"
    assert mine.refresh() is None
    theirs.library.set_note("p000001", "folded by them")
    theirs.folder.fold_journal()
    assert mine.refresh() is not None and mine.annotation("p000001").note == "folded by them"


def test_my_save_after_theirs_still_shows_me_theirs(lib_dir):
    mine = open_library(lib_dir).library
    open_library(lib_dir).library.set_note("p000000", "theirs")
    mine.set_note("p000001", "mine")  # appended after their line, theirs taken in first
    assert mine.annotation("p000000").note == "theirs"
    mine.refresh()
    assert mine.annotation("p000000").note == "theirs" and mine.annotation("p000001").note == "mine"


def test_a_damaged_journal_line_raises_for_appenders(lib_dir):
    three_saves(lib_dir)
    corrupt_second_line(lib_dir)
    with pytest.raises(DamagedJournal):
        journal.Journal(own_dir(lib_dir)).append({"p000000": {"note": "x"}})


def test_library_without_annotations_file_yet(tmp_path):
    folder = tmp_path / "fresh"
    store = LibraryFolder(folder)
    store.add_papers(synthetic_papers(2))
    lib = Library(store)
    lib.set_note("p000000", "first ever")
    assert not own_file(folder).exists()
    assert Library(LibraryFolder(folder)).annotation("p000000").note == "first ever"
    LibraryFolder(folder).close()
    assert on_disk(folder)["p000000"]["note"] == "first ever"


def test_an_unfinished_line_is_cut_off_even_if_the_journal_looks_as_this_process_left_it(lib_dir):
    # another process's crash mid-append within one clock tick, at the same size:
    # the journal's signature alone cannot tell; its last byte can
    mine = journal.Journal(own_dir(lib_dir))
    mine.append({"p000000": {"note": "one"}})
    torn = encode({"p000001": {"note": "torn"}})[:20]
    with open(mine.path, "ab") as file:
        file.write(torn)
    mine._written = journal.path_signature(mine.path)  # the collision, forced
    mine.append({"p000002": {"note": "two"}})
    found = scan(journal_of(lib_dir))
    assert found.clean and [list(c) for c in found.changes] == [["p000000"], ["p000002"]]
