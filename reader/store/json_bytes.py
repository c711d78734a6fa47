"""JSON read from bytes as orjson reads it, without loading orjson for a small file.

orjson takes ~11M instructions to load (it loads uuid, and uuid loads platform):
4% of the window's start, which often reads only small files (a new library, a
reading list). A small document is read by the standard library instead, which
gives what orjson gives for everything it reads alike. What it would read otherwise
(NaN and the infinities, numbers beyond 64 bits or a double's range, lone
surrogates) or refuses is handed to orjson, whose answer or error stands.
"""

from __future__ import annotations

import json
import sys
from typing import Any

#: documents up to this size are read by the standard library (~2x orjson's time,
#: a fraction of a millisecond at this size)
SMALL = 256 << 10

#: orjson refuses a document nested deeper than this ("depth limit exceeded"); the
#: standard library's own limit is the interpreter's (~1,000 on 3.11, 1,500 on 3.12,
#: 10,000 on 3.13), so a deeper document it reads is checked
DEPTH = 1024


class _Unlike(Exception):
    """The standard library would read this otherwise than orjson."""


def _unlike(_text: str) -> Any:
    raise _Unlike


def _int(text: str) -> int:
    if len(text) > 18:  # (near or beyond 64 bits: orjson makes a float of some)
        raise _Unlike
    return int(text)


def _float(text: str) -> float:
    value = float(text)
    if value - value != 0:  # an infinity (1e400): orjson refuses it
        raise _Unlike
    return value


def _deeper_than_orjson_reads(raw: bytes, value: Any) -> bool:
    if raw.count(b"[") + raw.count(b"{") <= DEPTH:  # (fewer brackets: not that deep)
        return False
    level = [value] if isinstance(value, (list, dict)) else []  # (one depth at a time)
    for _ in range(DEPTH):
        level = [
            child
            for node in level
            for child in (node.values() if isinstance(node, dict) else node)
            if isinstance(child, (list, dict))
        ]
        if not level:
            return False
    return True


def _orjson_if_loaded() -> Any:
    return sys.modules.get("orjson")


def loads(raw: bytes) -> Any:
    """orjson.loads(raw): its value, or its JSONDecodeError (a ValueError)."""
    loaded = _orjson_if_loaded()  # (once loaded, orjson is the faster)
    if loaded is not None:
        return loaded.loads(raw)
    if len(raw) <= SMALL and b"\\ud" not in raw and b"\\uD" not in raw:  # (surrogates: orjson's)
        try:
            value = json.loads(
                raw.decode("utf-8"), parse_int=_int, parse_float=_float, parse_constant=_unlike
            )
        except (_Unlike, ValueError, RecursionError):
            pass
        else:
            if not _deeper_than_orjson_reads(raw, value):
                return value
    import orjson

    return orjson.loads(raw)
