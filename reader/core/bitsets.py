"""Sets of records as bitsets: a Python int, bit r for record r."""

from __future__ import annotations

import functools
import re
from collections import deque
from collections.abc import Iterable
from itertools import compress, repeat
from typing import Any

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
    """The bitset of `records` (each below `n`: IndexError otherwise)."""
    records = records if isinstance(records, list) else list(records)
    if len(records) << SPARSE_SHIFT >= n:  # many: a byte a record, set at C speed
        mask = bytearray(n)
        deque(map(mask.__setitem__, records, repeat(1)), 0)
        return pack(mask)
    if not records:
        return 0
    if not 0 <= min(records) <= max(records) < n:
        raise IndexError(max(records))
    # few: a bit a record (a mask of every record costs ~20 ms at 1M papers)
    bitmap = bytearray((n + 7) >> 3)
    for r in records:
        bitmap[r >> 3] |= 1 << (r & 7)
    return int.from_bytes(bitmap, "little")


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
