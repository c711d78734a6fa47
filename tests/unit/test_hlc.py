"""reader.core.hlc: the hybrid logical clock whose stamps order edits across devices."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reader.core.hlc import ZERO, Clock, parse, stamp, wall_ms_of

T0 = 1_700_000_000.0  # seconds: a wall time in 2023
HOUR = 3600.0


def walls(values: list[float]) -> Callable[[], float]:
    """A wall clock giving `values` in turn, then the last one for ever."""
    it: Iterator[float] = iter(values)
    last = [values[0]]

    def wall() -> float:
        last[0] = next(it, last[0])
        return last[0]

    return wall


def strictly_increasing(stamps: list[str]) -> bool:
    return all(a < b for a, b in zip(stamps, stamps[1:], strict=False))


def well_formed(value: str, device: str) -> bool:
    parsed = parse(value)
    return parsed is not None and parsed[2] == device and stamp(*parsed) == value


# -- the stamp text --------------------------------------------------------------------


def test_stamp_text_and_parse_round_trip() -> None:
    s = stamp(1_700_000_000_123, 7, "laptop")
    assert s == "1700000000123.0007.laptop"
    assert parse(s) == (1_700_000_000_123, 7, "laptop")
    assert wall_ms_of(s) == 1_700_000_000_123
    # a device id may itself hold dots
    assert parse("1700000000123.0007.my.host") == (1_700_000_000_123, 7, "my.host")


def test_stamps_compare_as_strings_in_time_order() -> None:
    ordered = [
        stamp(1_700_000_000_000, 0, "b"),
        stamp(1_700_000_000_000, 1, "a"),
        stamp(1_700_000_000_000, 1, "b"),
        stamp(1_700_000_000_001, 0, "a"),
        stamp(1_800_000_000_000, 0, "a"),
    ]
    assert sorted(ordered) == ordered
    assert all(ZERO < s for s in ordered)


# -- one clock's stamps strictly increase ------------------------------------------------


def test_stamps_increase_with_a_running_wall_clock() -> None:
    clock = Clock("a", wall=walls([T0 + i * 0.01 for i in range(200)]))
    stamps = [clock.now() for _ in range(200)]
    assert strictly_increasing(stamps)
    assert all(well_formed(s, "a") for s in stamps)
    assert wall_ms_of(stamps[0]) == int(T0 * 1000)


def test_stamps_increase_when_the_wall_clock_stands_still() -> None:
    clock = Clock("a", wall=lambda: T0)
    stamps = [clock.now() for _ in range(500)]
    assert strictly_increasing(stamps)
    assert all(well_formed(s, "a") for s in stamps)


def test_ten_thousand_and_more_stamps_in_one_ms_move_on_to_the_next_ms() -> None:
    clock = Clock("a", wall=lambda: T0)
    stamps = [clock.now() for _ in range(25_000)]
    assert strictly_increasing(stamps)
    assert len(set(stamps)) == len(stamps)
    assert all(well_formed(s, "a") for s in stamps)
    ms = int(T0 * 1000)
    assert parse(stamps[0]) == (ms, 0, "a")
    assert parse(stamps[9_999]) == (ms, 9_999, "a")
    assert parse(stamps[10_000]) == (ms + 1, 0, "a")
    assert parse(stamps[20_000]) == (ms + 2, 0, "a")


def test_stamps_increase_when_the_wall_clock_goes_back_by_hours_mid_run() -> None:
    values = [T0 + i for i in range(50)] + [T0 - 5 * HOUR + i for i in range(50)]
    values += [T0 - 30 * HOUR] * 50 + [T0 + 49.5] * 20 + [T0 + 2 * HOUR + i for i in range(20)]
    clock = Clock("a", wall=walls(values))
    stamps = [clock.now() for _ in range(len(values) + 10)]
    assert strictly_increasing(stamps)
    assert all(well_formed(s, "a") for s in stamps)
    # while the wall clock is behind, the stamps stay just after the last one made
    assert wall_ms_of(stamps[60]) == int((T0 + 49) * 1000)
    # once it is ahead again the stamps follow it
    assert wall_ms_of(stamps[-1]) == int((T0 + 2 * HOUR + 19) * 1000)


def test_a_fresh_clock_with_its_wall_clock_behind_still_makes_its_stamps_in_order() -> None:
    clock = Clock("a", wall=walls([T0, T0 - HOUR, T0 - 2 * HOUR]))
    first, second, third = clock.now(), clock.now(), clock.now()
    assert first < second < third


# -- the receive rule ----------------------------------------------------------------------


def test_after_seeing_a_stamp_from_a_clock_hours_ahead_the_next_stamp_is_later() -> None:
    ahead = Clock("ahead", wall=lambda: T0 + 7 * HOUR)
    behind = Clock("behind", wall=lambda: T0)
    mine = behind.now()
    theirs = ahead.now()
    assert mine < theirs
    behind.see(theirs)
    after = behind.now()
    assert after > theirs
    assert well_formed(after, "behind")
    # and every stamp from then on
    more = [behind.now() for _ in range(100)]
    assert strictly_increasing([theirs, after, *more])


def test_the_receive_rule_holds_whatever_the_device_ids_sort_as() -> None:
    for me, other in (("a", "zzz"), ("zzz", "a"), ("m", "m2")):
        clock = Clock(me, wall=lambda: T0)
        own = clock.now()
        wall, counter, _ = parse(own) or (0, 0, "")
        same_moment = stamp(wall, counter, other)  # same ms and counter, other device
        clock.see(same_moment)
        assert clock.now() > same_moment


def test_seeing_a_stamp_at_the_counter_limit_moves_to_the_next_ms() -> None:
    ms = int(T0 * 1000) + 5_000
    seen = stamp(ms, 9_999, "other")
    clock = Clock("a", wall=lambda: T0)
    clock.see(seen)
    nxt = clock.now()
    assert nxt > seen
    assert parse(nxt) == (ms + 1, 0, "a")


def test_seeing_an_older_stamp_changes_nothing() -> None:
    clock = Clock("a", wall=lambda: T0)
    twin = Clock("a", wall=lambda: T0)
    for _ in range(3):
        clock.now()
        twin.now()
    clock.see(stamp(int(T0 * 1000) - 10_000, 3, "b"))
    clock.see(ZERO)
    assert clock.now() == twin.now()


GARBAGE = [
    "",
    "abc",
    "....",
    "1700000000000",
    "1700000000000.0001",
    "1700000000000.0001.",
    "170000000000.0001.x",  # 12 digits
    "17000000000000.0001.x",  # 14 digits
    "1700000000000.001.x",
    "1700000000000.00001.x",
    "-700000000000.0001.x",
    "+700000000000.0001.x",
    " 700000000000.0001.x",
    "1700000000000.-001.x",
    "17000000000a0.0001.x",
    "1700000000000.00a1.x",
    "1700000000000x0001.x",
    "9" * 40,
]


@pytest.mark.parametrize("value", GARBAGE)
def test_a_string_that_is_not_a_stamp_is_not_parsed_and_not_seen(value: str) -> None:
    assert parse(value) is None
    assert wall_ms_of(value) == 0
    clock = Clock("a", wall=lambda: T0)
    twin = Clock("a", wall=lambda: T0)
    clock.now()
    twin.now()
    clock.see(value)
    assert clock.now() == twin.now()


@pytest.mark.parametrize(
    "value",
    [
        "\u00b2" * 13 + ".0000.x",  # superscript two: str.isdigit() but not int()
        "\u0661" * 13 + ".0000.x",  # Arabic-Indic one: str.isdigit() and int()
        "1700000000000.\u00b9\u00b9\u00b9\u00b9.x",
        "\uff11" * 13 + ".0000.x",  # fullwidth one
    ],
)
def test_non_ascii_digits_are_not_a_stamp(value: str) -> None:
    """A stamp's digits are ASCII: only then do stamps compare as strings in time order
    (a hand-edited file may hold anything; reading it must not raise)."""
    assert parse(value) is None
    clock = Clock("a", wall=lambda: T0)
    clock.see(value)
    assert well_formed(clock.now(), "a")


# -- the property ---------------------------------------------------------------------------

OTHER_STAMPS = st.builds(
    stamp,
    st.integers(int(T0 * 1000) - 48 * 3_600_000, int(T0 * 1000) + 48 * 3_600_000),
    st.integers(0, 9_999),
    st.sampled_from(["a", "b", "zz", "0", "a.b"]),
)
ASCII_GARBAGE = st.one_of(
    st.sampled_from(GARBAGE),
    st.text(alphabet="012345678.abz-", max_size=25),  # no 9s: no wall of 13 nines
)
OPS = st.lists(
    st.one_of(
        st.tuples(st.just("wall"), st.floats(-48 * HOUR, 48 * HOUR)),
        st.tuples(st.just("see"), OTHER_STAMPS),
        st.tuples(st.just("garbage"), ASCII_GARBAGE),
        st.tuples(st.just("now"), st.integers(1, 30)),
    ),
    max_size=60,
)


@settings(max_examples=200, deadline=None)
@given(device=st.sampled_from(["a", "m", "zz"]), ops=OPS)
def test_every_stamp_is_after_every_stamp_made_or_seen_before_it(
    device: str, ops: list[tuple[str, object]]
) -> None:
    offset = [0.0]
    clock = Clock(device, wall=lambda: T0 + offset[0])
    latest = ZERO  # the greatest stamp made or seen so far
    made: list[str] = []
    for op, arg in ops:
        if op == "wall":
            assert isinstance(arg, float)
            offset[0] = arg
        elif op == "see":
            assert isinstance(arg, str)
            clock.see(arg)
            latest = max(latest, arg)
        elif op == "garbage":
            assert isinstance(arg, str)
            clock.see(arg)
            if parse(arg) is not None:  # the text alphabet can spell a real stamp
                latest = max(latest, arg)
        else:
            assert isinstance(arg, int)
            for _ in range(arg):
                new = clock.now()
                assert new > latest
                assert well_formed(new, device)
                made.append(new)
                latest = new
    assert strictly_increasing(made)
