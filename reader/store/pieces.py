"""A big TinyDB file parsed a megabyte at a time, and made a thousand documents at a time
(papers.json: 171 MB at 100k papers)."""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from itertools import islice
from typing import Any

from reader.core import collector

#: Files at least this big are parsed in pieces (see parse_in_pieces).
PIECEWISE_MIN_BYTES = 8 << 20
#: One piece is parsed by one call of orjson, which holds the interpreter meanwhile
#: (~5 ms a megabyte): what a worker thread reading papers.json (an import's) keeps the
#: GUI thread waiting at most.
PIECE_BYTES = 1 << 20
#: Tables are written this many documents at a time (~1-2 MB: see dumped).
DUMP_DOCS = 1_000
_ONE_TABLE = re.compile(rb'\{"([^"\\]*)":\{')


class _NotPiecewise(Exception):
    """The file is not a compact one-table document split cleanly: parse it whole."""


#: maps some documents of a table (by id) to what is kept for them
Transform = Callable[[dict[str, Any]], dict[str, Any]]


def is_table(table: Any) -> bool:
    """A TinyDB table: an object of objects."""
    return isinstance(table, dict) and all(isinstance(doc, dict) for doc in table.values())


def parse_in_pieces(fd: int, transform: Transform | None = None) -> dict[str, Any] | None:
    """Parse the TinyDB file open as `fd` from its start, a megabyte at a time,
    each table's documents passed through `transform` (if given) piece by piece.
    None if the file is not the compact one-table document we write, or does not
    parse: the caller then parses it whole (and learns why it is damaged)."""
    with collector.paused():  # hundreds of thousands of new containers, none of them garbage
        try:
            return _parse(fd, transform)
        except _NotPiecewise:
            return None


def _parse(fd: int, transform: Transform | None) -> dict[str, Any]:
    """Parse `{"name":{"id":{...},"id":{...},...}}` (the compact file orjson writes,
    one table), each piece cut just before a `,"` that follows a `}`.

    A cut in the wrong place (inside a string, or inside a document) always leaves
    the piece before it invalid JSON: a piece starting at a real boundary parses as
    `{piece}` only if it ends at a real boundary. So if every piece parses, the
    pieces are exactly the table's documents; if one does not, _NotPiecewise."""
    import orjson  # (a big file: not the start of a small library, see json_bytes)

    # One window, reused (fresh pages at every read would cost more than the copy):
    # "{", then the documents not parsed yet, then free space to read into.
    window = bytearray(2 * PIECE_BYTES)
    with os.fdopen(fd, "rb", buffering=0, closefd=False) as file:
        with memoryview(window) as view:
            got = file.readinto(view[:PIECE_BYTES])
        head = _ONE_TABLE.match(window, 0, got)
        if head is None:
            raise _NotPiecewise
        try:  # the table's name as JSON reads it (escapes and control characters refused)
            [name] = orjson.loads(head[0] + b"}}")
        except orjson.JSONDecodeError:
            raise _NotPiecewise from None
        start = head.end() - 1  # the table's own "{"
        table: dict[str, Any] = {}
        end = got
        while True:
            if len(window) - end < PIECE_BYTES:  # one document bigger than a piece
                window.extend(bytes(len(window)))
            with memoryview(window) as view:
                got = file.readinto(view[end:])
            if not got:
                break
            end += got
            cut = window.rfind(b'},"', start, end)
            if cut < 0:
                continue
            window[cut + 1] = ord("}")  # "{documents}" in place of "{documents,"
            _add_piece(table, window, start, cut + 2, transform)
            window[0] = ord("{")
            with memoryview(window) as view:  # the rest moves to the front
                view[1 : end - cut - 1] = view[cut + 2 : end]
            start, end = 0, end - cut - 1
    while end > start and window[end - 1 : end].isspace():
        end -= 1
    if window[end - 2 : end] != b"}}":
        raise _NotPiecewise
    _add_piece(table, window, start, end - 1, transform)
    return {name: table}


def _add_piece(
    table: dict[str, Any], window: bytearray, start: int, end: int, transform: Transform | None
) -> None:
    """Parse window[start:end], "{documents}", into `table`."""
    import orjson

    try:
        with memoryview(window) as whole, whole[start:end] as piece:
            docs = orjson.loads(piece)
    except orjson.JSONDecodeError:
        raise _NotPiecewise from None
    if not is_table(docs):
        raise _NotPiecewise
    table.update(docs if transform is None else transform(docs))


def dumped(data: Any) -> list[bytes | memoryview]:
    """orjson.dumps(data) with a newline, in pieces to write one after another (joined,
    the same bytes; the same errors). A TinyDB document of more than DUMP_DOCS
    documents is made DUMP_DOCS documents at a time: one call of orjson holds the
    interpreter for all it makes (~0.3 s at 100k papers), and so does joining the
    pieces (~0.2 s), which would stall the GUI thread while a worker writes papers.json."""
    import orjson

    if not (
        isinstance(data, dict)
        and all(isinstance(name, str) and isinstance(table, dict) for name, table in data.items())
        and sum(map(len, data.values())) > DUMP_DOCS
    ):
        return [orjson.dumps(data, option=orjson.OPT_APPEND_NEWLINE)]
    out: list[bytes | memoryview] = [b"{"]
    for name, table in data.items():
        if len(out) > 1:
            out.append(b",")
        out += [orjson.dumps(name), b":{"]
        docs, first = iter(table.items()), True
        while piece := dict(islice(docs, DUMP_DOCS)):
            if not first:
                out.append(b",")
            out.append(memoryview(orjson.dumps(piece))[1:-1])  # the documents, not the braces
            first = False
        out.append(b"}")
    out.append(b"}\n")
    return out
