"""RIS (TY .. ER records) through rispy, one record at a time so a broken one is reported."""

from __future__ import annotations

import re
from typing import Any

from reader.core import say
from reader.formats.common import (
    ReadResult,
    Skipped,
    display_name,
    make_record,
    one_line,
    parse_year,
    raise_none_usable,
)

_TAG = re.compile(r"([A-Z][A-Z0-9])[ \t]{1,2}-(?:[ \t](.*)|$)")


def _canonical(line: str) -> tuple[str | None, str]:
    """(tag, line in rispy's "XX  - value" form) or (None, line) for a continuation line."""
    match = _TAG.fullmatch(line.rstrip())
    if not match:
        return None, line
    return match.group(1), f"{match.group(1)}  - {match.group(2) or ''}"


def _records(text: str, name: str, result: ReadResult) -> list[tuple[int, list[str]]]:
    """(first line, lines) of each complete TY..ER record; incomplete ones reported."""
    records: list[tuple[int, list[str]]] = []
    start = 0
    lines: list[str] | None = None
    for number, raw in enumerate(text.split("\n"), start=1):
        tag, line = _canonical(raw)
        if tag == "TY":
            if lines is not None:
                result.skipped.append(
                    Skipped(
                        _line(name, start),
                        say.Said("record has no end line (ER) before the next TY"),
                    )
                )
            start, lines = number, [line]
        elif lines is not None:
            lines.append(line)
            if tag == "ER":
                records.append((start, lines))
                lines = None
    if lines is not None:
        result.skipped.append(
            Skipped(_line(name, start), say.Said("record has no end line (ER): file truncated?"))
        )
    return records


def _line(name: str, line: int) -> say.Said:
    """The place of the record starting at `line` of file `name`: "x.ris:line 7"."""
    return say.Said("{name}:line {line}", name=name, line=line)


def _name(value: str) -> str:
    """RIS "Last, First[, Suffix]" -> "First Last[ Suffix]"."""
    parts = [p.strip() for p in value.split(",")]
    if len(parts) == 2 and parts[1]:
        return f"{parts[1]} {parts[0]}"
    if len(parts) >= 3:
        return " ".join(p for p in (parts[1], parts[0], *parts[2:]) if p)
    return value


def _text(value: Any) -> str:
    if isinstance(value, list):
        return one_line(" ".join(str(v) for v in value if isinstance(v, str)))
    return one_line(value) if isinstance(value, str) else ""


def _first(record: dict[str, Any], *keys: str) -> str:
    for key in keys:
        text = _text(record.get(key))
        if text:
            return text
    return ""


def read(text: str, name: str) -> ReadResult:
    """Papers from the complete records of a RIS file."""
    import rispy

    name = display_name(name)
    result = ReadResult(format="ris")
    for start, lines in _records(text, name, result):
        place = _line(name, start)
        try:
            parsed = rispy.loads("\n".join(lines))
        except Exception as exc:  # noqa: BLE001 - rispy raises bare KeyErrors on odd records
            result.skipped.append(
                Skipped(place, say.Said("unreadable record ({error})", error=type(exc).__name__))
            )
            continue
        if len(parsed) != 1 or not isinstance(parsed[0], dict):
            result.skipped.append(Skipped(place, say.Said("unreadable record")))
            continue
        record = parsed[0]
        people = [*(record.get("authors") or []), *(record.get("first_authors") or [])]
        urls = record.get("urls") or []
        try:
            result.records.append(
                make_record(
                    source=name,
                    title=_first(record, "title", "primary_title", "translated_title"),
                    authors=[_name(one_line(p)) for p in people if isinstance(p, str)],
                    abstract=_first(record, "abstract", "notes_abstract"),
                    venue=_first(
                        record,
                        "journal_name",
                        "secondary_title",
                        "alternate_title3",
                        "alternate_title1",
                    ),
                    year=parse_year(_first(record, "year", "publication_year", "date")),
                    url=urls[0] if isinstance(urls, list) and urls else "",
                    doi=_first(record, "doi"),
                    pdf=_first(record, "file_attachments1"),  # L1: the PDF
                    keywords=[_text(k) for k in record.get("keywords") or [] if _text(k)],
                )
            )
        except ValueError as exc:
            result.skipped.append(Skipped(place, say.said(exc)))
    raise_none_usable(result, name)
    return result
