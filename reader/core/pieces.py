"""Styled pieces: the small tree that TeX-flavoured text parses into, and its plain text."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import TypeAlias

from reader.core.records import record

STYLES = frozenset({"", "b", "i", "code", "sup", "sub", "mi"})

_SUP = str.maketrans("0123456789+-−=()ni", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ⁿⁱ")
_SUB = str.maketrans("0123456789+-−=()", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎")
_SUP_CHARS = frozenset("0123456789+-−=()ni")
_SUB_CHARS = frozenset("0123456789+-−=()")
_MARKS = frozenset("′″*∗†‡")  # superscripts that read fine inline: x′, x*


@record(frozen=True, slots=True)
class Styled:
    """Children in one style: "b", "i", "code", "sup", "sub", "mi" (math italic) or "" (none)."""

    style: str
    children: tuple[Piece, ...]

    def __init__(self, style: str, children: tuple[Piece, ...]) -> None:
        object.__setattr__(self, "style", style)
        object.__setattr__(self, "children", children)


Piece: TypeAlias = "str | Styled"


def to_plain(pieces: Iterable[Piece]) -> str:
    """Plain Unicode text of `pieces`: super/subscripts as Unicode digits where possible."""
    parts: list[str] = []
    for p in pieces:
        if isinstance(p, str):
            parts.append(p)
        elif p.style in ("sup", "sub"):
            parts.append(script(to_plain(p.children), p.style))
        else:
            parts.append(to_plain(p.children))
    return "".join(parts)


def script(s: str, style: str) -> str:
    """`s` as a plain super- ("sup") or subscript ("sub"): x², x₁, x^T, x^(1/2), x_ij."""
    if not s:
        return ""
    if style == "sup":
        if set(s) <= _SUP_CHARS:
            return s.translate(_SUP)
        if set(s) <= _MARKS:
            return s
    elif set(s) <= _SUB_CHARS:
        return s.translate(_SUB)
    mark = "^" if style == "sup" else "_"
    return mark + (s if len(s) == 1 or s.isalnum() else f"({s})")


_LETTERS = re.compile(r"[A-Za-z][A-Za-z.]*")


def merge_text(out: list[Piece], math: bool, italic: bool) -> list[Piece]:
    """Join neighbouring strings; in math, mark primes and (when italic) letter runs."""
    merged: list[Piece] = []
    buf: list[str] = []
    for p in [*out, None]:
        if isinstance(p, str):
            buf.append(p)
            continue
        if buf:
            s = "".join(buf)
            merged.extend(_math_text(s, italic) if math else [s])
            buf.clear()
        if p is not None:
            merged.append(p)
    return merged


def _math_text(s: str, italic: bool) -> list[Piece]:
    s = s.replace("'", "′")
    if not italic:
        return [s]
    out: list[Piece] = []
    pos = 0
    for m in _LETTERS.finditer(s):
        if m.start() > pos:
            out.append(s[pos : m.start()])
        out.append(Styled("mi", (m.group(),)))
        pos = m.end()
    if pos < len(s):
        out.append(s[pos:])
    return out
