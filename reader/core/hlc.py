"""A hybrid logical clock: the stamps that order edits made on several computers.

A stamp is the text "<wall ms, 13 digits>.<counter, 4 digits>.<device id>": stamps
compare as strings in the order they were made, device ids breaking ties. A device's
clock never runs behind a stamp it has seen (its own saves and every other device's
files it read): an edit made after seeing another is stamped later whatever the
wall clocks say, so a clock hours behind, or set back while the program runs,
cannot make an older value win over one the device had already seen.
"""

from __future__ import annotations

import time
from collections.abc import Callable

#: the stamp before every other (a field never written)
ZERO = ""
#: a stamp later than this (the year 2255) is not believed: a clock that took it in
#: would soon make stamps of 14 digits, which sort before every real one
WALL_MAX = 9_000_000_000_000
_COUNTER_MAX = 9999


def stamp(wall_ms: int, counter: int, device: str) -> str:
    return f"{wall_ms:013d}.{counter:04d}.{device}"


def parse(value: str) -> tuple[int, int, str] | None:
    """(wall ms, counter, device) of a stamp, None if it is not one."""
    wall, _, rest = value.partition(".")
    counter, _, device = rest.partition(".")
    if len(wall) != 13 or len(counter) != 4 or not device:
        return None
    if not (wall.isascii() and wall.isdigit() and counter.isascii() and counter.isdigit()):
        return None
    return int(wall), int(counter), device


def wall_ms_of(value: str) -> int:
    """The wall time a stamp gives, in ms (0 for one that is not a stamp)."""
    parsed = parse(value)
    return parsed[0] if parsed else 0


class Clock:
    """The clock of one device."""

    def __init__(self, device: str, wall: Callable[[], float] = time.time) -> None:
        self.device = device
        self._wall = wall
        self._last = (0, 0)

    def see(self, value: str) -> None:
        """Take in a stamp read from a file: later stamps are made after it."""
        parsed = parse(value) if type(value) is str and value else None
        if parsed is not None and parsed[0] <= WALL_MAX and parsed[:2] > self._last:
            self._last = parsed[:2]

    def last(self) -> str:
        """The latest stamp made or seen (ZERO if none): what a file written now
        keeps as its clock, so that a reader need not look at every stamp in it."""
        wall, counter = self._last
        return stamp(wall, counter, self.device) if wall else ZERO

    def now(self) -> str:
        """A new stamp, after every stamp made or seen."""
        wall, counter = self._last
        now = int(self._wall() * 1000)
        if now > wall:
            wall, counter = now, 0
        elif counter < _COUNTER_MAX:
            counter += 1
        else:  # 10,000 stamps in one ms (or a clock stuck behind): the next ms
            wall, counter = wall + 1, 0
        self._last = (wall, counter)
        return stamp(wall, counter, self.device)
