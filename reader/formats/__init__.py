"""Paper list file formats: detect, read (import) and write (export). No Qt here."""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from reader.core import say
from reader.core.models import Annotation, Paper
from reader.formats.common import FormatError, ReadResult, Skipped, display_name
from reader.formats.decoding import decode
from reader.formats.reading import ReadCancelled, read_bounded

__all__ = [
    "EXPORT_FORMATS",
    "FORMATS",
    "IMPORT_FORMATS",
    "FormatError",
    "FormatInfo",
    "ReadCancelled",
    "ReadResult",
    "Skipped",
    "detect_format",
    "export_papers",
    "read_papers",
]


@dataclass(frozen=True, slots=True)
class FormatInfo:
    """One file format: what it is called and which files it reads or writes."""

    name: str
    label: str
    extensions: tuple[str, ...]
    #: module in reader.formats with read(text, name) -> ReadResult, or "" when not importable
    reader: str = ""
    #: module in reader.formats with export(items, ...), or "" when not exportable
    writer: str = ""


FORMATS: dict[str, FormatInfo] = {
    "text": FormatInfo("text", "Plain text abstracts", (".txt", ".text"), reader="plaintext"),
    "json": FormatInfo("json", "JSON", (".json",), reader="jsonfile", writer="jsonfile"),
    "bibtex": FormatInfo(
        "bibtex", "BibTeX", (".bib", ".bibtex"), reader="bibtex", writer="bibtex_export"
    ),
    "ris": FormatInfo("ris", "RIS", (".ris",), reader="ris"),
    "csv": FormatInfo("csv", "CSV", (".csv", ".tsv"), reader="csvfile", writer="csvfile"),
    "markdown": FormatInfo("markdown", "Markdown files", (".md",), writer="markdown_export"),
}
IMPORT_FORMATS: tuple[str, ...] = tuple(n for n, f in FORMATS.items() if f.reader)
EXPORT_FORMATS: tuple[str, ...] = tuple(n for n, f in FORMATS.items() if f.writer)

_JSON_START = re.compile(r'\s*(?:\{\s*(?:"|\})|\[\s*(?:\{|\[|"|\]))')
_BIBTEX_ENTRY = re.compile(r"^\s*@\s*[A-Za-z]+\s*[{(]", re.MULTILINE)
_RIS_START = re.compile(r"^TY\s{1,2}-", re.MULTILINE)
_CSV_CELL = re.compile(r'\s*"?\s*(title|abstract)\s*"?\s*', re.IGNORECASE)


def _csv_header(first_line: str) -> bool:
    """A header row: two or more cells split by , ; or tab, one of them exactly title/abstract."""
    for delimiter in (",", ";", "\t"):
        cells = first_line.split(delimiter)
        if len(cells) > 1 and any(_CSV_CELL.fullmatch(c) for c in cells):
            return True
    return False


def _head_text(head: bytes) -> str:
    if head.startswith((b"\xff\xfe", b"\xfe\xff")):
        return head.decode("utf-16", "ignore")
    return head.decode("utf-8", "ignore").lstrip("\ufeff")


def detect_format(path: Path | str, head: bytes) -> str:
    """The format of a file ("text", "json", "bibtex", "ris", "csv") from its first bytes and name.

    Content that is unmistakable wins (a .txt holding BibTeX, or a header row with a
    "title" column, is read as such); then the extension; plain text otherwise.
    """
    text = _head_text(head)
    if _JSON_START.match(text):
        return "json"
    if _RIS_START.search(text):
        return "ris"
    if _BIBTEX_ENTRY.search(text):
        return "bibtex"
    if _csv_header(text.split("\n", 1)[0].rstrip("\r")):
        return "csv"
    suffix = Path(path).suffix.lower()
    for name, info in FORMATS.items():
        if info.reader and suffix in info.extensions:
            return name
    return "text"


def read_papers(
    path: Path,
    fmt: str | None = None,
    *,
    max_bytes: int | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> ReadResult:
    """Read the papers in `path` (format detected when `fmt` is None).

    Raises FormatError (one line naming the file) when the file cannot be read, is not
    a regular file, is over `max_bytes` (None: the configured limit, see
    reading.max_import_bytes) or yields no paper at all; otherwise bad records are
    listed in `skipped` with where and why. ReadCancelled when `cancelled()` turns true
    (it is asked between chunks of the read and between the stages after it).
    """
    path = Path(path)
    name = display_name(path.name)
    data = read_bounded(path, limit=max_bytes, cancelled=cancelled)
    fmt = fmt or detect_format(path, data[:4096])
    info = FORMATS.get(fmt)
    if info is None or not info.reader:
        known = ", ".join(IMPORT_FORMATS)
        why = say._("{name}: cannot import format {format!r} (known: {known})")
        raise FormatError(why.format(name=name, format=fmt, known=known))
    _check(cancelled)
    text, encoding, note = decode(data, name)
    del data  # (a big file's bytes, no longer needed while it is parsed)
    if not text.strip().strip("\ufeff"):
        raise FormatError(say._("{name}: the file is empty").format(name=name))
    _check(cancelled)
    module = importlib.import_module(f"reader.formats.{info.reader}")
    try:
        result: ReadResult = module.read(text, name)
    except RecursionError:
        why = say._("{name}: nested too deeply to be a paper list")
        raise FormatError(why.format(name=name)) from None
    _check(cancelled)
    result.encoding = encoding
    result.format = fmt
    if note:
        result.warnings.insert(0, Skipped(name, note))
    if not result.records and not result.native:
        if result.skipped:
            why = say._("{name}: no papers found as {label}: {skipped}")
        else:
            why = say._("{name}: no papers found as {label}")
        skipped = result.skipped[0].told() if result.skipped else ""
        raise FormatError(why.format(name=name, label=info.label, skipped=skipped))
    return result


def _check(cancelled: Callable[[], bool] | None) -> None:
    if cancelled is not None and cancelled():
        raise ReadCancelled()


def export_papers(
    items: Sequence[tuple[Paper, Annotation | None]],
    fmt: str,
    *,
    tag_colours: Mapping[str, str] | None = None,
    keys: Mapping[str, str] | None = None,
) -> str | dict[str, str]:
    """The export of `items` as text, or for "markdown" as {safe file name: content}.

    `tag_colours` is kept by the JSON export (the only one that round-trips everything);
    `keys` (paper id -> cite key: `citing.cite_keys` of the whole library) by BibTeX.
    Raises ValueError for an unknown format.
    """
    info = FORMATS.get(fmt)
    if info is None or not info.writer:
        raise ValueError(f"cannot export as {fmt!r} (known: {', '.join(EXPORT_FORMATS)})")
    module = importlib.import_module(f"reader.formats.{info.writer}")
    if fmt == "json":
        text: str = module.export(items, tag_colours)
        return text
    if fmt == "bibtex":
        bib: str = module.export(items, keys)
        return bib
    exported: str | dict[str, str] = module.export(items)
    return exported
