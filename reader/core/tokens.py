"""Sets of records as bitsets, and the token index built from keyed texts."""

from __future__ import annotations

import functools
import re
import time
from array import array
from bisect import bisect_right
from collections import defaultdict, deque
from collections.abc import Callable, Iterable
from itertools import accumulate, compress, repeat
from operator import contains
from typing import Any

#: a term's last candidates are scanned when this few, else looked up among rare tokens
SCAN_MAX = 400
RARE_HITS_MAX = 20_000
_TO_DIGITS = bytes.maketrans(b"\x00\x01", b"01")
_FROM_DIGITS = bytes.maketrans(b"01", b"\x00\x01")

# -- sets of records as bitsets ------------------------------------------------------


def pack(mask: bytes | bytearray) -> int:
    """The bitset whose bit r is mask[r] (each byte 0 or 1)."""
    return int(mask.translate(_TO_DIGITS)[::-1], 2) if mask else 0


@functools.cache
def one_of(code: int) -> bytes:
    """The bytes.translate table that makes byte `code` 1 and every other 0."""
    return bytes(int(c == code) for c in range(256))


def unpack(bits: int, n: int) -> bytes:
    """mask[r] = bit r of `bits` (r < n); C-speed both ways."""
    return format(bits, f"0{n}b")[::-1].encode("ascii").translate(_FROM_DIGITS) if n else b""


def bits_of(records: Iterable[int], n: int) -> int:
    mask = bytearray(n)
    deque(map(mask.__setitem__, records, repeat(1)), 0)
    return pack(mask)


#: a set of fewer than 1/2**SPARSE_SHIFT of the records is read from its set bits,
#: not through a mask of every record
SPARSE_SHIFT = 6
_NONZERO = re.compile(rb"[^\x00]")
_BITS = [tuple(i for i in range(8) if value >> i & 1) for value in range(256)]


def rids(bits: int, n: int) -> list[int]:
    """The records of `bits`, in order."""
    count = bits.bit_count()
    if count < 32:
        out = []
        while bits:
            low = bits & -bits
            out.append(low.bit_length() - 1)
            bits ^= low
        return out
    if count << SPARSE_SHIFT < n:  # sparse: only the bytes with a bit set are looked at
        data = bits.to_bytes((bits.bit_length() + 7) // 8, "little")
        out = []
        for found in _NONZERO.finditer(data):
            at = found.start()
            out += map((at * 8).__add__, _BITS[data[at]])
        return out
    return list(compress(range(n), unpack(bits, n)))


#: up to this many distinct values (at most 256: a byte each), each value's set is found
#: by one C-speed pass
FEW_VALUES = 64


def groups(values: list[Any], alive: int) -> dict[Any, int]:
    """The bitset of the records holding each value."""
    distinct = set(values)
    if len(distinct) <= FEW_VALUES:  # each record's value as a byte, then a C pass a value
        code = {v: c for c, v in enumerate(distinct)}
        codes = bytes(map(code.__getitem__, values))
        return {v: pack(codes.translate(one_of(c))) & alive for v, c in code.items()}
    members: dict[Any, list[int]] = {}
    for r, value in enumerate(values):
        members.setdefault(value, []).append(r)
    return {v: bits_of(rs, len(values)) & alive for v, rs in members.items()}


# -- token indexes ---------------------------------------------------------------------


class TokenIndex:
    """Which records hold which whitespace-separated tokens, built a slice at a time.
    A term without whitespace is in a text exactly when it is inside one of the
    text's tokens: frequent tokens keep a bitset, rare ones a list of records."""

    def __init__(self, n: int, part: Callable[[int], bytes], mark: int = 0) -> None:
        self.n = n  # records 0..n-1 are indexed
        self.mark = mark  # where the log of changed texts stood when the build began
        self.part = part  # record -> the bytes to index
        self.done = 0
        self.ready = False
        self.covered = 0  # the records the index is right about (set by SearchIndex)
        self._post: defaultdict[bytes, array[int]] = defaultdict(functools.partial(array, "I"))
        self._finishing: list[bytes] | None = None
        self.frequent: list[bytes] = []
        #: each frequent token's records, as a bitset (or, as loaded by from_state(), the
        #: bytes of one, made a bitset by its first use)
        self.frequent_bits: list[int | bytes] = []
        self.blob = b""  # the rare tokens, one per line; token t starts at starts[t]
        self.starts: array[int] = array("I")
        self.offsets: array[int] = array("I")  # token t's records: flat[offsets[t]:offsets[t + 1]]
        self.flat: array[int] = array("I")

    def step(self, deadline: float | None) -> bool:
        post, part, n = self._post, self.part, self.n
        get, append = post.__getitem__, array.append
        while self.done < n:
            end = min(self.done + 64, n)
            for r in range(self.done, end):
                deque(map(append, map(get, set(part(r).split())), repeat(r)), 0)
            self.done = end
            if deadline is not None and time.perf_counter() > deadline:
                return False
        if self._finishing is None:
            threshold = max(64, n // 32)  # where a bitset gets smaller than a list
            self._finishing = [t for t, recs in post.items() if len(recs) >= threshold]
            rare = [t for t, recs in post.items() if len(recs) < threshold]
            self.blob = b"\n".join(rare)
            self.starts = array("I", accumulate(map((1).__add__, map(len, rare)), initial=0))
            lists = list(map(post.pop, rare))
            self.offsets = array("I", accumulate(map(len, lists), initial=0))
            self.flat.frombytes(b"".join(map(array.tobytes, lists)))
        while self._finishing:
            token = self._finishing.pop()
            self.frequent.append(token)
            self.frequent_bits.append(bits_of(post.pop(token), n))
            if deadline is not None and time.perf_counter() > deadline:
                return False
        self._post.clear()  # emptied by the pops, but a dict keeps the table it grew to
        self.ready = True
        return True

    def state(self) -> tuple[Any, ...]:
        """What a built index is, in types marshal writes (for from_state())."""
        assert self.ready
        size = (
            self.n + 7
        ) // 8  # each frequent token's bitset, as bytes: memory copies to save and load
        bits = b"".join(
            b if isinstance(b, bytes) else b.to_bytes(size, "little") for b in self.frequent_bits
        )
        return (
            self.n,
            self.frequent,
            bits,
            self.blob,
            self.starts.tobytes(),
            self.offsets.tobytes(),
            self.flat.tobytes(),
        )

    @classmethod
    def from_state(cls, state: tuple[Any, ...]) -> TokenIndex:
        """The built index of a state() (ValueError/TypeError if it is not one)."""
        n, frequent, bits, blob, starts, offsets, flat = state
        size = (n + 7) // 8
        if not (
            isinstance(n, int)
            and isinstance(blob, bytes)
            and isinstance(bits, bytes)
            and len(bits) == size * len(frequent)
            and all(type(t) is bytes for t in frequent)
        ):
            raise ValueError("not a token index")
        tokens = cls(n, lambda r: b"")
        tokens.frequent, tokens.blob = list(frequent), blob
        # copies, not bitsets yet: ~0.1 s of int.from_bytes at 100k papers, in the way of
        # the first search after opening; a search makes bitsets of those it reads
        tokens.frequent_bits = [bits[i : i + size] for i in range(0, len(bits), size)]
        tokens.starts.frombytes(starts)
        tokens.offsets.frombytes(offsets)
        tokens.flat.frombytes(flat)
        if (
            len(tokens.starts) != blob.count(b"\n") + 2 - (not blob)
            or len(tokens.offsets) != len(tokens.starts)
            or tokens.offsets[-1] != len(tokens.flat)
        ):
            raise ValueError("not a token index")
        tokens.done, tokens.ready = n, True
        return tokens

    def match(self, term: bytes, cand: int, scan: Callable[[bytes, int], int]) -> int:
        """The records of `cand` with a token containing `term` (no whitespace in it)."""
        found, frequent_bits = 0, self.frequent_bits
        for i in compress(range(len(frequent_bits)), map(contains, self.frequent, repeat(term))):
            bits = frequent_bits[i]
            if isinstance(bits, bytes):
                bits = frequent_bits[i] = int.from_bytes(bits, "little")
            found |= bits
        found &= cand
        rest = cand & ~found
        if rest and rest.bit_count() > SCAN_MAX and (rare := self._rare(term)) is not None:
            return found | (rare & rest)
        return found | scan(term, rest)

    def _rare(self, term: bytes) -> int | None:
        """The records with a rare token containing `term`; None if too many tokens do."""
        blob, starts, hits = self.blob, self.starts, []
        i = blob.find(term)
        while i >= 0:
            t = bisect_right(starts, i) - 1
            hits.append(t)
            if len(hits) > RARE_HITS_MAX:
                return None
            i = blob.find(term, starts[t + 1])
        flat, offsets, mask = self.flat, self.offsets, bytearray(self.n)
        for t in hits:
            deque(map(mask.__setitem__, flat[offsets[t] : offsets[t + 1]], repeat(1)), 0)
        return pack(mask)


# -- the index -----------------------------------------------------------------------
