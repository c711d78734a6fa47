"""Text anchors for highlights: a quote plus a little context, found again in changed text."""

from __future__ import annotations

import re
from typing import NamedTuple, Protocol

#: characters of context kept on each side of a quote
CONTEXT_CHARS = 32

_SPACE = re.compile(r"\s+")


class Anchored(Protocol):
    """Anything with an anchor's three strings (a Highlight, an Anchor)."""

    @property
    def quote(self) -> str: ...

    @property
    def prefix(self) -> str: ...

    @property
    def suffix(self) -> str: ...


class Anchor(NamedTuple):
    """The exact quote and up to CONTEXT_CHARS of text before and after it."""

    quote: str
    prefix: str
    suffix: str


def trim_span(text: str, start: int, end: int) -> tuple[int, int]:
    """(start, end) clipped to `text` and shrunk past whitespace at either end."""
    start, end = max(0, min(start, end)), min(len(text), max(start, end))
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def make_anchor(text: str, start: int, end: int) -> Anchor | None:
    """The anchor of text[start:end] (edge whitespace dropped); None for a blank span."""
    start, end = trim_span(text, start, end)
    if start >= end:
        return None
    return Anchor(
        quote=text[start:end],
        prefix=text[max(0, start - CONTEXT_CHARS) : start],
        suffix=text[end : end + CONTEXT_CHARS],
    )


def _squeeze(text: str) -> tuple[str, list[int]]:
    """`text` with each whitespace run made one space, and for every character of
    the result its position in `text`."""
    out: list[str] = []
    where: list[int] = []
    pos = 0
    for m in _SPACE.finditer(text):
        out.append(text[pos : m.start()])
        where.extend(range(pos, m.start()))
        out.append(" ")
        where.append(m.start())
        pos = m.end()
    out.append(text[pos:])
    where.extend(range(pos, len(text)))
    return "".join(out), where


def _common_tail(a: str, b: str) -> int:
    """How many characters `a` and `b` share at their ends."""
    n = 0
    for x, y in zip(reversed(a), reversed(b), strict=False):
        if x != y:
            break
        n += 1
    return n


def _common_head(a: str, b: str) -> int:
    n = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        n += 1
    return n


def locate(text: str, anchor: Anchored) -> tuple[int, int] | None:
    """Where `anchor`'s quote is in `text` as (start, end), whitespace differences
    ignored; among several occurrences the one whose surroundings best agree with
    the anchor's prefix and suffix (the first on a tie). None when the quote is gone."""
    quote = " ".join(anchor.quote.split())
    if not quote:
        return None
    squeezed, where = _squeeze(text)
    found: list[int] = []
    pos = squeezed.find(quote)
    while pos >= 0:
        found.append(pos)
        pos = squeezed.find(quote, pos + 1)
    if not found:
        return None
    best = found[0]
    if len(found) > 1:
        prefix = _SPACE.sub(" ", anchor.prefix)
        suffix = _SPACE.sub(" ", anchor.suffix)

        def agreement(at: int) -> int:
            after = at + len(quote)
            return _common_tail(prefix, squeezed[max(0, at - len(prefix)) : at]) + _common_head(
                suffix, squeezed[after : after + len(suffix)]
            )

        best = max(found, key=agreement)  # max() keeps the first of equals
    return where[best], where[best + len(quote) - 1] + 1
