"""Plain-text lists: abstracts separated by blank lines, an optional heading line first."""

from __future__ import annotations

import re

from reader.core import say
from reader.formats.common import (
    ReadResult,
    Skipped,
    display_name,
    make_record,
    one_line,
    raise_none_usable,
)

#: A paragraph shorter than this is a heading or a stray line, not an abstract.
MIN_ABSTRACT_CHARS = 40

_BLANK_LINES = re.compile(r"\n[ \t\f\v]*\n")


def _paragraphs(text: str) -> list[tuple[int, str]]:
    """(first line number, text) of each blank-line separated paragraph."""
    out: list[tuple[int, str]] = []
    line = 1
    pos = 0
    for match in _BLANK_LINES.finditer(text):
        chunk = text[pos : match.start()]
        if chunk.strip():
            lead = len(chunk) - len(chunk.lstrip())
            out.append((line + chunk.count("\n", 0, lead), chunk))
        line += text.count("\n", pos, match.end())
        pos = match.end()
    chunk = text[pos:]
    if chunk.strip():
        lead = len(chunk) - len(chunk.lstrip())
        out.append((line + chunk.count("\n", 0, lead), chunk))
    return out


def _is_heading(paragraph: str) -> bool:
    """A one-line, short paragraph that does not end like a sentence (e.g. "ICML 2025 papers")."""
    stripped = paragraph.strip()
    return "\n" not in stripped and len(stripped) < 150 and not stripped.endswith((".", "?", "!"))


def read(text: str, name: str) -> ReadResult:
    """One Paper per abstract, its title derived from the first sentence."""
    name = display_name(name)
    result = ReadResult(format="text")
    paragraphs = _paragraphs(text)
    for number, (line, paragraph) in enumerate(paragraphs):
        place = say.Said("{name}:line {line}", name=name, line=line)
        abstract = one_line(paragraph)
        if number == 0 and len(paragraphs) > 1 and _is_heading(paragraph):
            result.warnings.append(
                Skipped(place, say.Said("heading {text} ignored", text=repr(abstract[:80])))
            )
            continue
        if len(abstract) < MIN_ABSTRACT_CHARS:
            short = say.Said("too short for an abstract: {text}", text=repr(abstract[:60]))
            result.skipped.append(Skipped(place, short))
            continue
        result.records.append(make_record(source=name, abstract=abstract))
    raise_none_usable(result, name)
    return result
