"""CSV (or TSV) with a header row: columns matched by name, case-insensitively."""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence

from reader.core import say
from reader.core.models import Annotation, Paper, Status
from reader.formats.common import (
    FormatError,
    ReadResult,
    Skipped,
    display_name,
    make_record,
    parse_year,
    raise_none_usable,
    split_authors,
    split_keywords,
    stable_id,
)

#: Our column name -> the header names that mean it (lower case).
COLUMNS: dict[str, tuple[str, ...]] = {
    "id": ("id", "paper id", "paper_id"),
    "title": ("title", "paper title", "document title"),
    "authors": ("authors", "author", "author(s)", "creators", "author full names"),
    "abstract": ("abstract", "summary"),
    "year": ("year", "publication year", "pub year", "date", "published"),
    "venue": ("venue", "journal", "booktitle", "conference", "source title", "publication title"),
    "url": ("url", "link", "site"),
    "pdf": ("pdf", "pdf url", "pdf link", "pdf_url"),
    "keywords": ("keywords", "author keywords", "keyword"),
    "primary_area": ("primary area", "primary_area", "area", "subject area"),
    "doi": ("doi",),
    "arxiv": ("arxiv", "arxiv id", "eprint"),
    "presentation": ("presentation", "decision"),
    "track": ("track",),
    "status": ("status",),
    "tags": ("tags", "labels"),
    "note": ("note", "notes", "comment"),
}

_EXCEL_SEP = re.compile(r"sep=(.)")
_NEUTRALISED = re.compile(r"'+[=+\-@\t\r]")
_READING = {s.value for s in Status}


def _delimiter(header: str) -> str:
    counts = {d: header.count(d) for d in (",", ";", "\t")}
    return max(counts, key=lambda d: counts[d]) if any(counts.values()) else ","


def _columns(header: list[str]) -> dict[str, int]:
    wanted = {alias: ours for ours, aliases in COLUMNS.items() for alias in aliases}
    found: dict[str, int] = {}
    for position, name in enumerate(header):
        ours = wanted.get(name.strip().strip("\ufeff").lower())
        if ours and ours not in found:
            found[ours] = position
    return found


def restore(cell: str) -> str:
    """A cell as written before export neutralised it (`'=SUM(...)` -> `=SUM(...)`)."""
    return cell[1:] if _NEUTRALISED.match(cell) else cell


def _unterminated_quote(text: str, first_line: int) -> bool:
    """True when the row starting at `first_line` (1-based) opens a quote it never closes."""
    start = 0
    for _ in range(first_line - 1):
        start = text.index("\n", start) + 1
    return text.count('"', start) % 2 == 1


def _dialect(text: str) -> tuple[str, str, int]:
    """(delimiter, text from the header row on, lines dropped before it)."""
    first, _, rest = text.partition("\n")
    hint = _EXCEL_SEP.fullmatch(first.strip())
    if hint:  # Excel's "sep=;" line
        return hint.group(1), rest, 1
    return _delimiter(first), text, 0


def read(text: str, name: str) -> ReadResult:
    """Papers (and reading status, tags and note as annotations) from a CSV with a header row."""
    name = display_name(name)
    if csv.field_size_limit() < len(text) + 1:
        # One huge abstract is fine: the whole file is in memory anyway.
        csv.field_size_limit(len(text) + 1)
    delimiter, text, offset = _dialect(text)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=delimiter)
    result = ReadResult(format="csv")
    first_line, last_line = 1, 0
    try:
        header = next(reader, [])
        columns = _columns(header)
        if "title" not in columns and "abstract" not in columns:
            shown = ", ".join(h.strip() for h in header[:8])[:120]
            why = say._("{name}: no title or abstract column in the header row ({header})")
            raise FormatError(why.format(name=name, header=shown))
        total_lines = text.count("\n") + (0 if text.endswith("\n") else 1)
        last_line = reader.line_num
        for row in reader:
            first_line, last_line = last_line + 1, reader.line_num
            if not any(cell.strip() for cell in row):
                continue
            if last_line >= total_lines and _unterminated_quote(text, first_line):
                raise csv.Error("a quote opened here is never closed")
            place = say.Said("{name}:line {line}", name=name, line=first_line + offset)
            _read_row([restore(c) for c in row], columns, place, name, result)
    except csv.Error as exc:
        line = first_line + offset
        if not result.records:
            why = say._("{name}: broken CSV at line {line}: {error}")
            raise FormatError(why.format(name=name, line=line, error=exc)) from None
        place = say.Said("{name}:line {line}", name=name, line=line)
        result.skipped.append(
            Skipped(place, say.Said("rest of file ignored: {error}", error=str(exc)))
        )
    raise_none_usable(result, name)
    return result


def _read_row(
    row: list[str], columns: dict[str, int], place: say.Said, name: str, result: ReadResult
) -> None:
    def cell(column: str) -> str:
        position = columns.get(column)
        return row[position] if position is not None and position < len(row) else ""

    status = cell("status").strip()
    reading = status.lower() in _READING
    try:
        paper = make_record(
            source=name,
            source_id=stable_id(cell("id")),
            title=cell("title"),
            authors=split_authors(cell("authors")),
            abstract=cell("abstract"),
            venue=cell("venue"),
            year=parse_year(cell("year")),
            url=cell("url") or cell("pdf"),
            presentation=cell("presentation") or ("" if reading else status),
            track=cell("track"),
            doi=cell("doi"),
            arxiv=cell("arxiv"),
            pdf=cell("pdf"),
            keywords=split_keywords(cell("keywords")),
            primary_area=cell("primary_area"),
        )
    except ValueError as exc:
        result.skipped.append(Skipped(place, say.said(exc)))
        return
    result.records.append(paper)
    tag_cell = cell("tags")
    tags = [t for t in tag_cell.split(";" if ";" in tag_cell else ",") if t.strip()]
    note = cell("note")
    if (reading and status.lower() != "unread") or tags or note.strip():
        result.annotations.append(
            Annotation.from_dict(
                {
                    "paper_id": paper.id,
                    "status": status if reading else "",
                    "tags": tags,
                    "note": note,
                }
            )
        )


#: The columns of our CSV export, in order.
EXPORT_COLUMNS = (
    "title",
    "authors",
    "venue",
    "year",
    "status",
    "tags",
    "url",
    "doi",
    "abstract",
    "note",
    "presentation",
    "pdf",
    "keywords",
    "primary area",
)
_FORMULA = re.compile(r"'*[=+\-@\t\r]")


def neutralise(cell: str) -> str:
    """A cell a spreadsheet will not run as a formula: a leading `'` before = + - @ tab CR.

    Cells already starting with `'` and such a character get one more, so `restore` is exact.
    """
    return "'" + cell if _FORMULA.match(cell) else cell


def _join(values: Sequence[str]) -> str:
    """Values joined by "; ", with a trailing ";" when a lone value would split on `,`/`and`."""
    joined = "; ".join(v.replace(";", ",") for v in values)
    if ";" not in joined and re.search(r",|&|\band\b", joined, re.IGNORECASE):
        joined += ";"
    return joined


def export(items: Sequence[tuple[Paper, Annotation | None]]) -> str:
    """One row per paper: the EXPORT_COLUMNS, authors and tags joined by "; "."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(EXPORT_COLUMNS)
    for paper, annotation in items:
        row = (
            paper.title,
            _join(paper.authors),
            paper.venue,
            "" if paper.year is None else str(paper.year),
            annotation.status.value if annotation else Status.UNREAD.value,
            _join(annotation.tags) if annotation else "",
            paper.url,
            paper.doi,
            paper.abstract,
            annotation.note if annotation else "",
            paper.presentation,
            paper.pdf,
            _join(paper.keywords),
            paper.primary_area,
        )
        writer.writerow([neutralise(cell) for cell in row])
    return buffer.getvalue()
