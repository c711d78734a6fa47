"""reader.core.crdt: how several devices' stamped annotation records merge.

Devices are simulated: each knows, per paper, the records of some devices (its own
among them, copied from the other devices' files as a syncer delivers them). An edit
is what the app does: the merged view of what the device knows, the user's change
of it, `record_write` stamped by the device's clock, stored as the device's record.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterable
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from reader.core import crdt
from reader.core.crdt import (
    Record,
    Version,
    join,
    max_stamp,
    misshapen,
    note_state,
    record_write,
    table_max_stamp,
    table_view,
    view,
    view_one,
)
from reader.core.hlc import ZERO, Clock, stamp

T0 = 1_700_000_000.0  # seconds
HOUR = 3600.0
BLANK: dict[str, Any] = {"status": "unread", "rating": 0, "tags": [], "highlights": [], "note": ""}
P = "paper1"


class World:
    """Devices, their clocks (a shared wall time plus each device's skew) and what
    each knows: known[device][pid][writer] = writer's record as `device` last read it."""

    def __init__(self, *devices: str, skews: dict[str, float] | None = None) -> None:
        self.time = 0.0
        self.skew = {d: (skews or {}).get(d, 0.0) for d in devices}
        self.clock = {d: Clock(d, wall=self._wall(d)) for d in devices}
        self.known: dict[str, dict[str, dict[str, Record]]] = {d: {} for d in devices}

    def add(self, device: str, skew: float = 0.0) -> None:
        self.skew[device] = skew
        self.clock[device] = Clock(device, wall=self._wall(device))
        self.known[device] = {}

    def _wall(self, device: str) -> Callable[[], float]:
        return lambda: T0 + self.time + self.skew[device]

    def tick(self, seconds: float = 1.0) -> None:
        self.time += seconds

    def records(self, device: str, pid: str = P) -> list[tuple[str, Record]]:
        """What `device` knows of `pid`: its own record first, as the app passes them."""
        held = self.known[device].get(pid, {})
        own = [(device, held[device])] if device in held else []
        return own + [(d, r) for d, r in sorted(held.items()) if d != device]

    def own(self, device: str, pid: str = P) -> Record | None:
        return self.known[device].get(pid, {}).get(device)

    def view(self, device: str, pid: str = P) -> dict[str, Any] | None:
        return view(self.records(device, pid))

    def notes(self, device: str, pid: str = P) -> tuple[Version | None, list[Version]]:
        return note_state(self.records(device, pid))

    def edit(
        self,
        device: str,
        change: Callable[[dict[str, Any]], None],
        pid: str = P,
        *,
        resolve: bool = False,
    ) -> str:
        """`device`'s user changes the paper as `change` says; the stamp of the write."""
        self.tick(0.5)
        known = self.records(device, pid)
        before = view(known)
        after = copy.deepcopy(before) if before is not None else copy.deepcopy(BLANK)
        change(after)
        at = self.clock[device].now()
        record = record_write(known, device, before, after, at, resolve=resolve)
        self.known[device].setdefault(pid, {})[device] = record
        return at

    def learn(self, device: str, writer: str, pids: Iterable[str] | None = None) -> None:
        """`device` reads `writer`'s file: its current records (of `pids`, or all)."""
        theirs = self.known[writer]
        for pid in list(theirs) if pids is None else pids:
            record = theirs.get(pid, {}).get(writer)
            if record is None:
                continue
            self.known[device].setdefault(pid, {})[writer] = copy.deepcopy(record)
            self.clock[device].see(max_stamp(record))

    def sync_all(self) -> None:
        for device in self.known:
            for writer in self.known:
                if writer != device:
                    self.learn(device, writer)


def set_(**fields: Any) -> Callable[[dict[str, Any]], None]:
    def change(after: dict[str, Any]) -> None:
        after.update(fields)

    return change


def add_tag(tag: str) -> Callable[[dict[str, Any]], None]:
    def change(after: dict[str, Any]) -> None:
        after["tags"] = [*after["tags"], tag]

    return change


def remove_tag(tag: str) -> Callable[[dict[str, Any]], None]:
    def change(after: dict[str, Any]) -> None:
        after["tags"] = [t for t in after["tags"] if t.casefold() != tag.casefold()]

    return change


def note_texts(state: tuple[Version | None, list[Version]]) -> list[str]:
    winner, conflicts = state
    return ([winner.text] if winner else []) + [c.text for c in conflicts]


def tags_of(world: World, device: str, pid: str = P) -> list[str]:
    shown = world.view(device, pid)
    return shown["tags"] if shown else []


# -- tags ------------------------------------------------------------------------------


def test_tags_added_on_two_devices_apart_give_both() -> None:
    w = World("a", "b")
    w.edit("a", add_tag("rl"))
    w.edit("b", add_tag("theory"))
    assert tags_of(w, "a") == ["rl"]
    assert tags_of(w, "b") == ["theory"]
    w.sync_all()
    assert tags_of(w, "a") == tags_of(w, "b")
    assert sorted(tags_of(w, "a")) == ["rl", "theory"]


def test_a_tag_removed_on_one_device_is_removed_alone() -> None:
    w = World("a", "b")
    w.edit("a", add_tag("rl"))
    w.edit("b", add_tag("theory"))
    w.sync_all()
    w.edit("a", remove_tag("rl"))
    w.edit("b", add_tag("vision"))  # b does not know of the removal
    assert sorted(tags_of(w, "b")) == ["rl", "theory", "vision"]
    w.sync_all()
    assert tags_of(w, "a") == tags_of(w, "b")
    assert sorted(tags_of(w, "a")) == ["theory", "vision"]


def test_tags_are_in_the_order_of_the_latest_write_then_unknown_ones_by_first_add() -> None:
    w = World("a", "b")
    w.edit("a", add_tag("rl"))
    w.edit("b", add_tag("theory"))  # the later write knew only "theory"
    w.sync_all()
    assert tags_of(w, "a") == tags_of(w, "b") == ["theory", "rl"]
    w.edit("a", set_(tags=["rl", "theory"]))  # the user puts them in order
    w.sync_all()
    assert tags_of(w, "a") == tags_of(w, "b") == ["rl", "theory"]
    w.edit("a", add_tag("x"))
    w.edit("b", add_tag("y"))  # later, not knowing "x"
    w.edit("a", add_tag("z"))  # a, still not knowing "y", writes later
    w.sync_all()
    # a's last write ordered rl, theory, x, z; y, unknown to it, comes after
    assert tags_of(w, "a") == tags_of(w, "b") == ["rl", "theory", "x", "z", "y"]


def test_a_tag_removed_and_put_back_keeps_its_first_added_place() -> None:
    w = World("a", "b", skews={"b": 60.0})
    w.edit("a", add_tag("rl"))
    w.edit("a", add_tag("theory"))
    w.edit("a", remove_tag("rl"))
    w.edit("a", add_tag("rl"))  # an undo puts it back
    w.edit("b", add_tag("x"))  # later, knowing neither of a's tags
    w.sync_all()
    # b's order knew only "x"; a's tags follow in the order they were first added
    assert tags_of(w, "a") == tags_of(w, "b") == ["x", "rl", "theory"]


def test_tags_merge_by_casefolded_name_and_a_rename_of_case_carries() -> None:
    w = World("a", "b")
    w.edit("a", add_tag("rl"))
    w.sync_all()
    w.edit("b", set_(tags=["RL"]))
    w.sync_all()
    assert tags_of(w, "a") == tags_of(w, "b") == ["RL"]


def test_removing_the_last_annotation_leaves_no_view() -> None:
    w = World("a", "b")
    w.edit("a", add_tag("rl"))
    w.sync_all()
    w.edit("b", remove_tag("rl"))
    w.sync_all()
    assert w.view("a") is None and w.view("b") is None


def test_a_remove_after_seeing_an_add_wins_even_from_a_clock_hours_behind() -> None:
    w = World("a", "b", skews={"b": -6 * HOUR})
    w.edit("a", add_tag("rl"))
    w.learn("b", "a")
    w.edit("b", remove_tag("rl"))
    w.sync_all()
    assert tags_of(w, "a") == tags_of(w, "b") == []


def test_a_remove_concurrent_with_a_re_add_is_decided_by_the_later_stamp() -> None:
    """Per tag the latest stamp says whether it is there (the spec: last writer wins
    per tag, not add-wins)."""
    for b_later, expected in ((True, []), (False, ["rl"])):
        w = World("a", "b", skews={"b": 60.0 if b_later else -60.0})
        w.edit("a", add_tag("rl"))
        w.sync_all()
        w.edit("a", remove_tag("rl"))
        w.edit("a", add_tag("rl"))  # a re-adds; b, not knowing, removes the old add
        w.edit("b", remove_tag("rl"))
        w.sync_all()
        assert tags_of(w, "a") == tags_of(w, "b") == expected


# -- status and rating -----------------------------------------------------------------


def test_status_and_rating_take_the_latest_stamp() -> None:
    w = World("a", "b", skews={"b": 30.0})
    w.edit("a", set_(status="read", rating=2))
    w.edit("b", set_(status="reading"))  # b's clock is later: its status wins
    w.sync_all()
    for device in ("a", "b"):
        shown = w.view(device)
        assert shown is not None
        assert (shown["status"], shown["rating"]) == ("reading", 2)


def test_a_clock_hours_behind_that_has_seen_the_other_stamp_wins_with_its_later_edit() -> None:
    w = World("a", "b", skews={"b": -5 * HOUR})
    w.edit("a", set_(status="read", rating=5))
    w.learn("b", "a")
    w.edit("b", set_(status="reading", rating=3))
    w.edit("a", add_tag("x"))  # an edit of another field keeps b's status
    w.sync_all()
    for device in ("a", "b"):
        shown = w.view(device)
        assert shown is not None
        assert (shown["status"], shown["rating"]) == ("reading", 3)


def test_without_seeing_it_a_clock_hours_behind_loses_to_the_other_edit() -> None:
    w = World("a", "b", skews={"b": -5 * HOUR})
    w.edit("a", set_(status="read"))
    w.edit("b", set_(status="reading"))  # concurrent, and stamped hours earlier
    w.sync_all()
    assert w.view("a") == w.view("b")
    assert (w.view("b") or {})["status"] == "read"


def test_a_clock_set_back_while_running_still_wins_with_its_later_edit() -> None:
    w = World("a", "b")
    w.edit("a", set_(status="read"))
    w.sync_all()
    w.edit("b", set_(status="reading"))
    w.skew["b"] = -10 * HOUR  # b's clock is set back
    w.edit("b", set_(status="skimmed"))
    w.sync_all()
    assert (w.view("a") or {})["status"] == "skimmed"


# -- the note --------------------------------------------------------------------------


def concurrent_notes(b_later: bool) -> World:
    """a and b edit the note of a synced base apart; the later one's text is shown."""
    w = World("a", "b", skews={"b": 90.0 if b_later else -90.0})
    w.edit("a", set_(note="base"))
    w.sync_all()
    w.edit("a", set_(note="a's text"))
    w.edit("b", set_(note="b's text"))
    w.sync_all()
    return w


@pytest.mark.parametrize("b_later", [True, False])
def test_notes_edited_apart_show_the_later_and_keep_the_other_as_a_conflict(
    b_later: bool,
) -> None:
    w = concurrent_notes(b_later)
    win, lose = ("b", "a") if b_later else ("a", "b")
    for device in ("a", "b"):
        winner, conflicts = w.notes(device)
        assert winner is not None
        assert (winner.device, winner.text) == (win, f"{win}'s text")
        assert [(c.device, c.text) for c in conflicts] == [(lose, f"{lose}'s text")]
        assert (w.view(device) or {})["note"] == f"{win}'s text"


@pytest.mark.parametrize("b_later", [True, False])
@pytest.mark.parametrize("editor", ["a", "b"])
def test_an_ordinary_edit_leaves_the_conflict_open(b_later: bool, editor: str) -> None:
    w = concurrent_notes(b_later)
    lose = "a" if b_later else "b"
    shown = (w.view(editor) or {})["note"]
    w.edit(editor, set_(note=shown + " and more"))
    assert note_texts(w.notes(editor)) == [shown + " and more", f"{lose}'s text"]
    w.sync_all()
    for device in ("a", "b"):
        winner, conflicts = w.notes(device)
        assert winner is not None and winner.text == shown + " and more"
        assert [c.text for c in conflicts] == [f"{lose}'s text"]
    # a second ordinary edit, by the other device, keeps it open too
    other = "b" if editor == "a" else "a"
    w.edit(other, set_(note=shown + " and yet more"))
    w.sync_all()
    for device in ("a", "b"):
        assert note_texts(w.notes(device)) == [shown + " and yet more", f"{lose}'s text"]


@pytest.mark.parametrize("b_later", [True, False])
@pytest.mark.parametrize("resolver", ["a", "b"])
def test_resolving_removes_the_conflict_on_every_device(b_later: bool, resolver: str) -> None:
    w = concurrent_notes(b_later)
    w.edit("a", set_(note=(w.view("a") or {})["note"] + " edited"))  # an ordinary edit first
    w.sync_all()
    assert len(w.notes(resolver)[1]) == 1
    w.edit(resolver, set_(note="a's text + b's text"), resolve=True)
    assert w.notes(resolver)[1] == []
    w.sync_all()
    for device in ("a", "b"):
        assert note_texts(w.notes(device)) == ["a's text + b's text"]
    # a third device reading both files sees no conflict either
    w.add("c", skew=-HOUR)
    w.learn("c", "a")
    w.learn("c", "b")
    assert note_texts(w.notes("c")) == ["a's text + b's text"]
    # and later ordinary edits do not bring it back
    w.edit("c", set_(note="final"))
    w.sync_all()
    for device in ("a", "b", "c"):
        assert note_texts(w.notes(device)) == ["final"]


def test_discarding_the_conflict_keeps_the_shown_text_and_removes_the_other() -> None:
    w = concurrent_notes(b_later=True)
    w.edit("a", set_(note="b's text"), resolve=True)
    w.sync_all()
    for device in ("a", "b"):
        assert note_texts(w.notes(device)) == ["b's text"]


@pytest.mark.parametrize("skew", [-8 * HOUR, 0.0, 8 * HOUR])
def test_a_sequential_edit_gives_no_conflict(skew: float) -> None:
    w = World("a", "b", skews={"b": skew})
    w.edit("a", set_(note="one"))
    w.learn("b", "a")
    w.edit("b", set_(note="one, two"))
    w.sync_all()
    for device in ("a", "b"):
        assert note_texts(w.notes(device)) == ["one, two"]
    w.edit("a", set_(note="one, two, three"))
    w.sync_all()
    for device in ("a", "b"):
        winner, conflicts = w.notes(device)
        assert winner is not None and (winner.device, winner.text) == ("a", "one, two, three")
        assert conflicts == []


def test_the_same_text_typed_on_both_devices_is_no_conflict() -> None:
    w = World("a", "b", skews={"b": 20.0})
    w.edit("a", set_(note="base"))
    w.sync_all()
    w.edit("a", set_(note="same"))
    w.edit("b", set_(note="same"))
    w.sync_all()
    for device in ("a", "b"):
        assert note_texts(w.notes(device)) == ["same"]


def test_a_note_conflict_among_three_devices_keeps_every_text() -> None:
    w = World("a", "b", "c", skews={"a": 0.0, "b": 10.0, "c": 20.0})
    w.edit("a", set_(note="base"))
    w.sync_all()
    for device in ("a", "b", "c"):
        w.edit(device, set_(note=f"{device}!"))
    w.sync_all()
    for device in ("a", "b", "c"):
        assert note_texts(w.notes(device)) == ["c!", "a!", "b!"]


# -- highlights ------------------------------------------------------------------------


def mark(hid: str, quote: str, color: str = "yellow") -> dict[str, Any]:
    return {"id": hid, "quote": quote, "color": color}


def add_mark(m: dict[str, Any]) -> Callable[[dict[str, Any]], None]:
    def change(after: dict[str, Any]) -> None:
        after["highlights"] = [*after["highlights"], m]

    return change


def marks_of(world: World, device: str) -> list[tuple[str, str]]:
    shown = world.view(device)
    return [(h["id"], h["color"]) for h in shown["highlights"]] if shown else []


def test_highlights_merge_by_id_in_the_order_they_were_made() -> None:
    w = World("a", "b", skews={"b": 30.0})
    w.edit("a", add_mark(mark("h1", "first")))
    w.edit("b", add_mark(mark("h2", "second")))
    w.sync_all()
    assert marks_of(w, "a") == marks_of(w, "b") == [("h1", "yellow"), ("h2", "yellow")]

    # b changes a's highlight, a removes b's: both carry, the order stays by creation
    def recolour(after: dict[str, Any]) -> None:
        after["highlights"] = [
            {**h, "color": "green"} if h["id"] == "h1" else h for h in after["highlights"]
        ]

    def drop_h2(after: dict[str, Any]) -> None:
        after["highlights"] = [h for h in after["highlights"] if h["id"] != "h2"]

    w.edit("b", recolour)
    w.edit("a", add_mark(mark("h3", "third")))
    w.sync_all()
    assert marks_of(w, "a") == [("h1", "green"), ("h2", "yellow"), ("h3", "yellow")]
    w.edit("a", drop_h2)
    w.sync_all()
    assert marks_of(w, "a") == marks_of(w, "b") == [("h1", "green"), ("h3", "yellow")]
    shown = w.view("b")
    assert shown is not None and shown["highlights"][0] == {**mark("h1", "first"), "color": "green"}
    # the change by b kept the highlight's birth from a
    own_b = w.own("b")
    assert own_b is not None
    assert own_b["highlights"]["h1"]["born"] == (w.own("a") or {})["highlights"]["h1"]["born"]


# -- join ------------------------------------------------------------------------------


def conflict_copies() -> tuple[World, Record, Record]:
    """Device a's record and a syncer's conflict copy of it: two edits of one base."""
    w = World("a", "b")
    w.edit("a", set_(note="base", status="reading"))
    base = copy.deepcopy(w.own("a"))
    assert base is not None
    w.edit("a", set_(status="read", note="first copy"))
    first = copy.deepcopy(w.own("a"))
    w.known["a"][P]["a"] = copy.deepcopy(base)
    w.edit("a", lambda after: after.update(rating=4, note="second copy", tags=["x"]))
    second = copy.deepcopy(w.own("a"))
    assert first is not None and second is not None
    return w, first, second


def test_join_keeps_the_latest_per_field_and_the_losing_note_as_a_conflict() -> None:
    _, first, second = conflict_copies()
    for joined in (join(first, second), join(second, first)):
        shown = view([("a", joined)])
        assert shown is not None
        assert (shown["status"], shown["rating"], shown["tags"]) == ("read", 4, ["x"])
        winner, conflicts = note_state([("a", joined)])
        assert winner is not None and winner.text == "second copy"
        assert [(c.device, c.text) for c in conflicts] == [("a", "first copy")]
        assert max_stamp(joined) == max(max_stamp(first), max_stamp(second))
    assert view([("a", join(first, second))]) == view([("a", join(second, first))])
    assert view([("a", join(first, first))]) == view([("a", first)])


def test_a_joined_note_version_another_device_saw_is_no_conflict() -> None:
    w, first, second = conflict_copies()
    # b read the first copy (the file before the syncer's copy came) and edited on it
    w.known["b"][P] = {"a": copy.deepcopy(first)}
    w.clock["b"].see(max_stamp(first))
    w.edit("b", set_(note="first copy, b's"))
    joined = join(first, second)
    records = [("a", joined), ("b", w.known["b"][P]["b"])]
    winner, conflicts = note_state(records)
    assert winner is not None and winner.text == "first copy, b's"
    assert [c.text for c in conflicts] == ["second copy"]


def test_join_of_the_same_note_text_keeps_nothing_open() -> None:
    w = World("a")
    w.edit("a", set_(note="same"))
    one = copy.deepcopy(w.own("a"))
    w.edit("a", set_(status="read"))
    two = copy.deepcopy(w.own("a"))
    assert one is not None and two is not None
    joined = join(one, two)
    assert "open" not in joined["note"]
    assert note_texts(note_state([("a", joined)])) == ["same"]


# -- small tables ----------------------------------------------------------------------


def s(ms: int, device: str = "a") -> str:
    return stamp(1_700_000_000_000 + ms, 0, device)


def test_table_view_takes_the_latest_stamp_per_key_and_null_removes() -> None:
    a = {
        "rl": {"v": {"color": "red"}, "at": s(1)},
        "cv": {"v": {"color": "blue"}, "at": s(5)},
        "nlp": {"v": {"color": "green"}, "at": s(1)},
    }
    b = {
        "rl": {"v": {"color": "orange"}, "at": s(2, "b")},
        "cv": {"v": None, "at": s(3, "b")},  # older than a's: a's stays
        "nlp": {"v": None, "at": s(4, "b")},  # removed
        "new": {"v": {"color": "grey"}, "at": s(0, "b")},
    }
    expected = {"rl": {"color": "orange"}, "cv": {"color": "blue"}, "new": {"color": "grey"}}
    assert table_view([a, b]) == expected
    assert table_view([b, a]) == expected
    assert table_max_stamp(a) == s(5)
    assert table_max_stamp(b) == s(4, "b")
    assert table_max_stamp({}) == ZERO


def test_table_view_result_is_a_copy() -> None:
    a = {"rl": {"v": {"color": "red"}, "at": s(1)}}
    out = table_view([a])
    out["rl"]["color"] = "changed"
    assert a["rl"]["v"] == {"color": "red"}


# -- hostile records -------------------------------------------------------------------

GOOD = stamp(1_700_000_000_000, 0, "a")
STAMPS = st.sampled_from([GOOD, stamp(1_700_000_000_500, 3, "b"), "", "junk", "9", ZERO])
KEYS = st.sampled_from(["v", "at", "seen", "unseen", "open", "born", "a", "b", "rl", ""])
LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(-3, 3)
    | st.floats(allow_nan=True)
    | st.text(max_size=4)
    | STAMPS
)
JUNK = st.recursive(
    LEAVES,
    lambda kids: st.lists(kids, max_size=3) | st.dictionaries(KEYS, kids, max_size=4),
    max_leaves=8,
)


def maybe(valid: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A value of the right shape or garbage in its place."""
    return valid | JUNK


ENTRY = st.fixed_dictionaries(
    {"v": maybe(st.text(max_size=4) | st.none()), "at": maybe(STAMPS)},
    optional={"born": maybe(STAMPS)},
)
MARK = st.fixed_dictionaries(
    {"v": maybe(st.dictionaries(st.text(max_size=3), JUNK, max_size=2)), "at": maybe(STAMPS)},
    optional={"born": maybe(STAMPS)},
)
NOTE = st.fixed_dictionaries(
    {"v": maybe(st.text(max_size=4)), "at": maybe(STAMPS)},
    optional={
        "seen": maybe(st.dictionaries(st.sampled_from(["a", "b", "c"]), maybe(STAMPS))),
        "unseen": maybe(st.lists(maybe(STAMPS), max_size=3)),
        "open": maybe(st.lists(maybe(st.fixed_dictionaries({"v": JUNK, "at": STAMPS})))),
    },
)
HOSTILE = st.fixed_dictionaries(
    {},
    optional={
        "status": maybe(ENTRY),
        "rating": maybe(st.fixed_dictionaries({"v": maybe(st.integers(0, 5)), "at": STAMPS})),
        "tags": maybe(st.dictionaries(st.text(max_size=3), maybe(ENTRY), max_size=3)),
        "highlights": maybe(st.dictionaries(st.text(max_size=3), maybe(MARK), max_size=3)),
        "note": maybe(NOTE),
        "tag_order": maybe(
            st.fixed_dictionaries({"v": maybe(st.lists(maybe(st.text(max_size=3)))), "at": STAMPS})
        ),
        "created": JUNK,
        "modified": JUNK,
    },
)


def assert_survives(records: list[Any]) -> None:
    by_device = [(f"d{i}", r) for i, r in enumerate(records)]
    shown = view(by_device)
    assert shown is None or set(shown) >= {"status", "rating", "tags", "highlights", "note"}
    winner, conflicts = note_state(by_device)
    assert winner is None or type(winner.text) is str
    for record in records:
        assert type(max_stamp(record)) is str
    for a in records:
        for b in records:
            view([("a", join(a, b))])
    assert type(table_view(records)) is dict
    for record in records:
        assert type(table_max_stamp(record)) is str


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(HOSTILE, min_size=1, max_size=3))
def test_hostile_records_never_raise(records: list[Any]) -> None:
    assert_survives(records)


BAD_NOTE = {"v": "x", "at": GOOD}


NOT_DICTS = [[], [1, 2], [{"note": {"v": "x", "at": GOOD}}], None, "text", 7, 1.5, True]


@pytest.mark.parametrize("record", NOT_DICTS, ids=repr)
def test_a_record_that_is_not_a_dict_is_skipped_by_view_and_note_state(record: Any) -> None:
    good = {"status": {"v": "read", "at": GOOD}, "note": {"v": "kept", "at": GOOD}}
    assert view([("x", record)]) is None
    assert note_state([("x", record)]) == (None, [])
    shown = view([("x", record), ("a", good)])
    assert shown is not None and (shown["status"], shown["note"]) == ("read", "kept")
    assert note_texts(note_state([("a", good), ("x", record)])) == ["kept"]


@pytest.mark.parametrize("record", NOT_DICTS, ids=repr)
def test_max_stamp_and_join_of_a_record_that_is_not_a_dict(record: Any) -> None:
    good = {"status": {"v": "read", "at": GOOD}}
    assert max_stamp(record) == ZERO
    assert view([("a", join(record, good))]) == view([("a", good)])
    assert view([("a", join(good, record))]) == view([("a", good)])


@pytest.mark.parametrize(
    "record",
    [
        {"note": {**BAD_NOTE, "open": 5}},
        {"note": {**BAD_NOTE, "open": True}},
        {"note": {**BAD_NOTE, "open": [5, None, "x", {"v": 1, "at": 2}]}},
        {"note": {**BAD_NOTE, "seen": [1]}},
        {"note": {**BAD_NOTE, "seen": "a"}},
        {"note": {**BAD_NOTE, "seen": {"b": 5}}},
        {"note": {**BAD_NOTE, "unseen": 3}},
        {"note": {**BAD_NOTE, "unseen": [[1], {}]}},
        {"note": {"v": ["x"], "at": GOOD}},
        {"note": {"v": "x", "at": 17}},
        {"note": []},
        {"tags": [["rl", GOOD]]},
        {"tags": {"rl": ["rl", GOOD]}, "status": [GOOD]},
        {"highlights": {"h": {"v": [1], "at": GOOD, "born": 3}}},
        {"highlights": {"h": {"v": {"quote": "q"}, "at": GOOD, "born": [1]}}},
        {"status": {"v": ["read"], "at": GOOD}, "rating": {"v": "5", "at": GOOD}},
        {"rating": {"v": True, "at": GOOD}},
        {"created": 5, "modified": [1]},
        {"tags": {"rl": {"v": "rl", "at": GOOD}}, "tag_order": {"v": [["rl"], {}], "at": GOOD}},
        {"tags": {"rl": {"v": "rl", "at": GOOD}}, "tag_order": {"v": "rl", "at": GOOD}},
        {"tags": {"rl": {"v": "rl", "at": GOOD, "born": 5}}, "tag_order": [GOOD]},
    ],
    ids=lambda r: repr(r)[:60],
)
def test_a_hostile_record_never_raises(record: Any) -> None:
    good = {"status": {"v": "read", "at": GOOD}, "note": {"v": "kept", "at": GOOD}}
    assert_survives([record])
    assert_survives([record, good])
    assert_survives([good, record])


WRITE_AFTER = {
    "status": "read",
    "rating": 2,
    "tags": ["t"],
    "highlights": [{"id": "h", "quote": "q"}],
    "note": "n",
}


def assert_write_survives(records: list[Any]) -> None:
    """A device's edit over hostile records (its own among them) does not raise, and
    what it wrote is what it then sees."""
    by_device = [(f"d{i}", r) for i, r in enumerate(records)]
    at = stamp(1_800_000_000_000, 0, "d0")
    # (as the store does: the change is from the library as shown, the merged view)
    own = record_write(by_device, "d0", view(by_device), WRITE_AFTER, at)
    shown = view([("d0", own), *by_device[1:]])
    assert shown is not None
    assert (shown["status"], shown["rating"], shown["note"]) == ("read", 2, "n")
    assert shown["tags"] == ["t"]
    assert [h["id"] for h in shown["highlights"]] == ["h"]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(HOSTILE, min_size=1, max_size=2))
def test_an_edit_over_hostile_records_never_raises(records: list[Any]) -> None:
    assert_write_survives(records)


@pytest.mark.parametrize(
    "record",
    [
        {"tags": []},
        {"tags": "rl"},
        {"highlights": [1]},
        {"highlights": 5},
        {"note": {**BAD_NOTE, "open": 5}},
        {"status": [1], "rating": "x", "note": "text", "tag_order": 3},
    ],
    ids=repr,
)
def test_an_edit_over_a_hostile_record_of_its_own_never_raises(record: Any) -> None:
    assert_write_survives([record])
    assert_write_survives([{}, record])


def test_a_hostile_record_is_skipped_and_the_good_fields_are_kept() -> None:
    hostile = {
        "status": ["read"],
        "rating": {"v": "5", "at": GOOD},
        "tags": {"bad": ["x"], "ok": {"v": "ok", "at": GOOD}, "int": {"v": 3, "at": GOOD}},
        "highlights": {"h": {"v": "not a dict", "at": GOOD}},
        "note": {"v": 12, "at": GOOD},
    }
    shown = view([("a", hostile)])
    assert shown is not None
    assert (shown["status"], shown["rating"], shown["tags"]) == ("unread", 0, ["ok"])
    assert shown["highlights"] == [] and shown["note"] == ""
    assert max_stamp(hostile) == GOOD


# -- the property: convergence and nothing lost -----------------------------------------

DEVICES = ("a", "b", "c")
PIDS = ("p1", "p2")
TAGS = ("rl", "theory", "vision", "RL")

PID = st.sampled_from(("p1", "p1", "p1", "p2"))  # mostly one paper: more clashes
DEVICE = st.integers(0, 2)
NOTE_OP = st.tuples(st.just("note"), DEVICE, PID, st.just(None))
SYNC_OP = st.tuples(
    st.just("sync"), DEVICE, DEVICE, st.lists(PID, min_size=1, max_size=2, unique=True)
)
OP = st.one_of(
    st.tuples(st.just("tag+"), DEVICE, PID, st.sampled_from(TAGS)),
    st.tuples(st.just("tag-"), DEVICE, PID, st.integers(0, 3)),
    st.tuples(st.just("status"), DEVICE, PID, st.sampled_from(["unread", "reading", "read"])),
    NOTE_OP,
    NOTE_OP,
    NOTE_OP,
    st.tuples(st.just("resolve"), DEVICE, PID, st.booleans()),
    SYNC_OP,
    SYNC_OP,
    SYNC_OP,
    st.tuples(st.just("skew"), DEVICE, st.floats(-10 * HOUR, 10 * HOUR), st.none()),
    st.tuples(st.just("tick"), DEVICE, st.floats(0, 120), st.none()),
)


def note_versions(records: list[tuple[str, Record]]) -> set[str]:
    """The stamps of the note versions in `records` (each record's note and open ones)."""
    out = set()
    for _, record in records:
        note = record.get("note")
        if isinstance(note, dict):
            out.add(note["at"])
            out.update(old["at"] for old in note.get("open", ()))
    return out


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    n=st.integers(2, 3),
    skews=st.lists(st.floats(-10 * HOUR, 10 * HOUR), min_size=3, max_size=3),
    ops=st.lists(OP, min_size=15, max_size=60),
)
def test_devices_converge_and_lose_nothing(
    n: int, skews: list[float], ops: list[tuple[str, int, Any, Any]]
) -> None:
    devices = DEVICES[:n]
    w = World(*devices, skews=dict(zip(devices, skews, strict=False)))
    tag_ops: dict[str, list[tuple[str, str, str | None]]] = {p: [] for p in PIDS}  # key, at, v
    status_ops: dict[str, list[tuple[str, str]]] = {p: [] for p in PIDS}
    order_ops: dict[str, list[tuple[str, list[str]]]] = {p: [] for p in PIDS}
    # per note version: its text, and the stamps of the writes that retired it: a later
    # note by a device that had it (`knew`); one that had it as the note shown, or in
    # conflict and resolved (`retired`)
    texts: dict[str, dict[str, str]] = {p: {} for p in PIDS}
    knew: dict[str, dict[str, list[str]]] = {p: {} for p in PIDS}
    retired: dict[str, dict[str, list[str]]] = {p: {} for p in PIDS}
    counter = [0]

    def write(device: str, pid: str, change: Callable[[dict[str, Any]], None], **kw: Any) -> None:
        known = w.records(device, pid)
        floor = max((max_stamp(r) for _, r in known), default=ZERO)
        old_own = copy.deepcopy(w.own(device, pid)) or {}
        winner, conflicts = note_state(known)
        versions = note_versions(known)
        at = w.edit(device, change, pid, **kw)
        # an edit after seeing a stamp is stamped later, whatever the wall clocks say
        assert at > floor
        new_own = w.own(device, pid) or {}
        for key, entry in (new_own.get("tags") or {}).items():
            if entry["at"] == at:
                tag_ops[pid].append((key, at, entry["v"]))
            else:
                assert entry == old_own["tags"][key]
        order = new_own.get("tag_order")
        if order is not None and order["at"] == at:
            order_ops[pid].append((at, order["v"]))
        status = new_own.get("status")
        if status is not None and status["at"] == at:
            status_ops[pid].append((at, status["v"]))
        note = new_own.get("note")
        if note is not None and note["at"] == at:
            texts[pid][at] = note["v"]
            shown = {winner.text} if winner else set()
            open_texts = {c.text for c in conflicts}
            for v in versions:
                knew[pid].setdefault(v, []).append(at)
                if texts[pid][v] in shown or (kw.get("resolve") and texts[pid][v] in open_texts):
                    retired[pid].setdefault(v, []).append(at)
            # right after an ordinary edit the device still shows every conflict it
            # showed (but the text it edited); after resolving, none
            mine = note_state(w.records(device, pid))
            assert mine[0] is not None and mine[0].text == note["v"]
            if kw.get("resolve"):
                assert mine[1] == []
            else:
                assert open_texts - shown <= set(note_texts(mine))

    def fresh_text(device: str) -> str:
        counter[0] += 1
        return f"{device}:{counter[0]}"

    for op, i, x, y in ops:
        device = devices[i % n]
        if op == "tag+":
            if y.casefold() not in {t.casefold() for t in tags_of(w, device, x)}:
                write(device, x, add_tag(y))
        elif op == "tag-":
            tags = tags_of(w, device, x)
            if tags:
                write(device, x, remove_tag(tags[y % len(tags)]))
        elif op == "status":
            write(device, x, set_(status=y))
        elif op == "note":
            write(device, x, set_(note=fresh_text(device)))
        elif op == "resolve":
            winner, _ = w.notes(device, x)
            text = fresh_text(device) if y or winner is None else winner.text
            write(device, x, set_(note=text), resolve=True)
        elif op == "sync":
            writer = devices[x % n]
            if writer != device:
                w.learn(device, writer, y)
        elif op == "skew":
            w.skew[device] = x
        else:
            w.tick(x)

    w.sync_all()
    for pid in PIDS:
        # convergence: every device shows the same, whatever order it reads the files in
        views = [w.view(d, pid) for d in devices]
        assert all(v == views[0] for v in views)
        states = [w.notes(d, pid) for d in devices]
        assert all(state == states[0] for state in states)
        records = w.records(devices[0], pid)
        assert view(records[::-1]) == views[0]
        assert note_state(records[::-1]) == states[0]
        shown = views[0] or BLANK

        # tags: per tag the latest stamped add or remove decides whether it is there;
        # in particular every add that no later remove followed is there, and a remove
        # by a device that knew of the add (so stamped after it) takes it away
        latest: dict[str, tuple[str, str | None]] = {}
        first: dict[str, str] = {}
        for key, at, value in tag_ops[pid]:
            if key not in latest or at > latest[key][0]:
                latest[key] = (at, value)
            if value is not None and (key not in first or at < first[key]):
                first[key] = at
        present = {key: value for key, (_, value) in latest.items() if value is not None}
        # in the order of the latest write of the order, the others by their first add
        rank = {k: i for i, k in enumerate(max(order_ops[pid])[1])} if order_ops[pid] else {}
        keys = sorted(
            present,
            key=lambda k: (rank[k], "", "") if k in rank else (len(rank), first[k], k),
        )
        assert shown["tags"] == [present[k] for k in keys]

        # status: the latest stamp
        assert shown["status"] == (max(status_ops[pid])[1] if status_ops[pid] else "unread")

        # notes: every text written is shown, in conflict, or was superseded by a device
        # that had it when writing; more: by one that had it as the note it showed, or
        # among the conflicts it resolved
        visible = set(note_texts(states[0]))
        if pid == "p1":
            event(f"p1: {min(len(states[0][1]), 3)}+ conflicts at the end")
            event(f"p1: {min(len(texts[pid]), 8)}+ note versions written")
            lost = sum(1 for text in texts[pid].values() if text not in visible)
            event(f"p1: {min(lost, 3)}+ note versions superseded")
        for at, text in texts[pid].items():
            if text in visible:
                continue
            assert any(later > at for later in knew[pid].get(at, ())), (at, text)
            assert retired[pid].get(at), (at, text, visible)
        if texts[pid]:
            top = max(texts[pid])
            assert states[0][0] is not None and states[0][0].at == top
            assert shown["note"] == texts[pid][top]
        else:
            assert states[0] == (None, [])


@settings(max_examples=500, deadline=None)
@given(HOSTILE)
def test_the_one_device_view_is_the_view(record: Any) -> None:
    """view_one, the fast path of opening, gives what view and misshapen give."""
    assert view_one(record) == (view([("d", record)]), misshapen(record))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["rl", "RL", "theory", "a/b", "x"]), max_size=6), st.booleans())
def test_the_one_device_view_of_written_records(tags: list[str], note: bool) -> None:
    clock = Clock("d", wall=lambda: T0)
    record: Record = {}
    shown = None
    for i in range(len(tags) + 1):
        after = {**BLANK, "tags": list(dict.fromkeys(tags[:i])), "note": "n" * i if note else ""}
        record = record_write([("d", record)], "d", shown, after, clock.now())
        shown = view([("d", record)])
        assert view_one(record) == (shown, False)


def reference_view(by_device: list[tuple[str, Record]]) -> dict[str, Any] | None:
    """view() as first written, field by field with crdt's helpers: the model the
    one-pass view() is checked against."""
    by_device = [(d, r) for d, r in by_device if type(r) is dict]
    records = [record for _, record in by_device]
    out: dict[str, Any] = {}
    for name in ("status", "rating"):
        entry = crdt._latest(r.get(name) for r in records)
        value = entry.get("v") if entry is not None else None
        if name == "status" and type(value) is str or name == "rating" and type(value) is int:
            out[name] = value
        else:
            out[name] = crdt._DEFAULTS[name]
    tags = crdt._elements(records, "tags")
    first = crdt._born(records, "tags")
    order = crdt._latest(r.get("tag_order") for r in records)
    keys = order.get("v") if order is not None else None
    rank = {k: i for i, k in enumerate(crdt._list(keys)) if type(k) is str}

    def placed(key: str) -> tuple[int, str, str]:
        at = rank.get(key)
        return (at, "", "") if at is not None else (len(rank), first.get(key, ZERO), key)

    out["tags"] = [
        tags[key]["v"]
        for key in sorted(tags, key=placed)
        if type(tags[key].get("v")) is str and key and tags[key]["v"].casefold() == key
    ]
    marks = crdt._elements(records, "highlights")
    born = crdt._born(records, "highlights")
    out["highlights"] = [
        {**entry["v"], "id": key}
        for key, entry in sorted(marks.items(), key=lambda kv: (born.get(kv[0], ZERO), kv[0]))
        if type(entry.get("v")) is dict and key
    ]
    winner, _ = note_state(by_device)
    out["note"] = winner.text if winner is not None else ""
    created = [r["created"] for r in records if type(r.get("created")) is str and r["created"]]
    modified = [r["modified"] for r in records if type(r.get("modified")) is str]
    out["created"] = min(created) if created else ""
    out["modified"] = max(modified) if modified else ""
    if (
        out["status"] == "unread"
        and not out["rating"]
        and not out["tags"]
        and not out["highlights"]
        and not out["note"]
    ):
        return None
    return out


@settings(max_examples=500, deadline=None)
@given(st.lists(HOSTILE, min_size=1, max_size=3))
def test_the_one_pass_view_is_the_field_by_field_one(records: list[Any]) -> None:
    by_device = [(f"d{i}", r) for i, r in enumerate(records)]
    assert view(by_device) == reference_view(by_device)
