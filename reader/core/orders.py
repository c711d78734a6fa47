"""The lists of ids a SearchIndex is asked about, as its record numbers: the orders
callers filter (the sidebar's sorted list) and the lists filter() returned lately."""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from itertools import compress, repeat
from operator import itemgetter
from typing import TYPE_CHECKING, NamedTuple

from reader.core.bitsets import SPARSE_SHIFT, bits_of, rids, unpack

if TYPE_CHECKING:
    pass

#: how many of its latest results filter() remembers
RECENT = 4
#: how many orders (sorted lists) are remembered
ORDERS = 4


class Order(NamedTuple):
    """An order of ids a caller filters: its records (n: not in the index) and the
    index's own copies of the ids, in that order."""

    given: list[str]
    rows: array[int]
    ids: list[str]
    unknown: bool
    repeats: bool  # an id given twice
    #: the list the caller passed (compared by identity first: 100k ids compare slowly)
    source: list[str]
    #: the library order itself (then rows and gather are not filled in)
    natural: bool
    #: mask -> mask[r] for each of rows (C-speed, 3x faster than a map)
    gather: Callable[[bytes], Sequence[int]]


class Result(NamedTuple):
    """A list filter() returned, the set it was made from, and its order."""

    ids: list[str]
    bits: int
    order: Order | None


class Orders:
    """Remembers orders and results so that a keystroke at 100k papers never reads
    or compares 100k ids one by one. `ids`, `given` and `rid` are the index's own
    (it appends to them as papers are added)."""

    def __init__(self, ids: list[str], given: list[str], rid: dict[str, int]) -> None:
        self._ids, self._given, self._rid = ids, given, rid
        self._recent: list[Result] = []
        self._orders: list[Order] = []
        self._places: tuple[Order, array[int]] | None = None

    def forget_orders(self) -> None:
        """Papers were added: an order's "unknown" record may be a paper now."""
        self._orders = []
        self._places = None

    def select(self, bits: int, order: Order | None, *, everything: bool = False) -> list[str]:
        """The ids of `bits` in `order` (None: the index's order), remembered as a
        result; `everything`: bits holds every record (no need to look)."""
        n = len(self._ids)
        if everything and order is None:
            out = list(self._ids)
        elif not bits:
            out = []
        elif bits.bit_count() << SPARSE_SHIFT < n and (order is None or not order.repeats):
            # a few: only they are looked at, not a mask of every record (~1.5 ms at 100k)
            found = rids(bits, n)
            if order is None:
                out = list(map(self._ids.__getitem__, found))
            else:
                places = self._places_in(order)
                out = list(
                    map(
                        order.ids.__getitem__,
                        sorted(p for p in map(places.__getitem__, found) if p >= 0),
                    )
                )
        elif order is None:
            out = list(compress(self._ids, unpack(bits, n)))
        else:  # unknown ids are record n
            out = list(compress(order.ids, order.gather(unpack(bits, n) + b"\x00")))
        self._recent = [Result(out, bits, order), *self._recent[: RECENT - 1]]
        return out

    def _places_in(self, order: Order) -> array[int]:
        """Each record's place in `order` (an order without repeats), -1 if not in it;
        made once an order."""
        if self._places is None or self._places[0] is not order:
            places = array("i", repeat(-1, len(self._ids) + 1))
            deque(map(places.__setitem__, order.rows, range(len(order.rows))), 0)
            self._places = (order, places)
        return self._places[1]

    def known(self, ids: Sequence[str], *, copies: bool = True) -> Result | None:
        """What select() found when it returned `ids` lately (that very list, or with
        `copies` an equal copy of the latest)."""
        for result in self._recent:
            if ids is result.ids:
                return result
        if copies and self._recent and isinstance(ids, list) and ids == self._recent[0].ids:
            return self._recent[0]
        return None

    def is_library_order(self, ids: Sequence[str]) -> bool:
        return ids is self._given or (isinstance(ids, list) and ids == self._given)

    def bits_of_ids(self, ids: Sequence[str], alive: int) -> tuple[int, bool]:
        """The set of `ids`, and whether it is exact for counting (no id twice)."""
        known = self.known(ids)
        if known is not None:
            return known.bits & alive, not (known.order and known.order.repeats)
        if self.is_library_order(ids):
            return alive, True
        n = len(self._ids)
        rows = list(map(self._rid.get, ids, repeat(n)))  # not remembered: a one-off list
        return bits_of(rows, n + 1) & alive, len(set(rows)) == len(rows)

    def order(self, ids: list[str]) -> Order:
        """`ids` as record numbers, remembered: the sidebar passes the same sorted list
        at every keystroke, and reading 100k scattered strings costs more than a filter.
        A list passed must not be changed afterwards (it is recognised by identity)."""
        for order in self._orders:
            if ids is order.source:
                return order
        if ids == self._given:  # the same strings: compared by identity, fast
            order = Order(self._given, array("I"), self._ids, False, False, ids, True, _nothing)
            self._orders = [order, *self._orders[: ORDERS - 1]]
            return order
        for order in self._orders:
            if ids == order.given:
                return order
        n = len(self._ids)
        rows = array("I", map(self._rid.get, ids, repeat(n)))
        own = [self._ids[r] if r < n else pid for r, pid in zip(rows, ids, strict=True)]
        natural = len(rows) == n and rows == array("I", range(n))
        gather = itemgetter(*rows) if len(rows) > 1 else lambda mask: [mask[r] for r in rows]
        order = Order(
            list(ids), rows, own, n in rows, len(set(rows)) < len(rows), ids, natural, gather
        )
        self._orders = [order, *self._orders[: ORDERS - 1]]
        return order


def _nothing(mask: bytes) -> Sequence[int]:
    raise AssertionError("the library order is not gathered")


def id_tables(
    paper_ids: Sequence[str], part: int
) -> Generator[None, None, tuple[list[str], list[str], dict[str, int]]]:
    """The papers' ids (the library's own strings, compared by identity), the index's
    list of them and their record numbers; made `part` papers at a time, yielding
    between the parts (~15 ms each for 20k papers). (The strings are the library's:
    read from the catalogue's index in order, they lie side by side in memory.)"""
    given: list[str] = []
    ids: list[str] = []
    rid: dict[str, int] = {}
    for start in range(0, len(paper_ids), part):
        some = list(paper_ids[start : start + part])
        rid.update(zip(some, range(start, start + len(some)), strict=True))
        given += some
        ids += some
        yield
    return given, ids, rid


def runs(rows: Iterable[int]) -> Iterator[tuple[int, int]]:
    """The runs of consecutive numbers in sorted `rows` (repeats allowed), as (first,
    last) pairs: [1, 2, 3, 7, 7, 8] gives (1, 3) and (7, 8)."""
    numbers = iter(rows)
    for first in numbers:
        last = first
        for row in numbers:
            if row > last + 1:
                yield first, last
                first = row
            last = row
        yield first, last
