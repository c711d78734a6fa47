"""JSON lists: conference exports, CSL-JSON, the bundled sample and our own lossless export."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from reader.core.models import Annotation, Paper, Status
from reader.formats.common import (
    FormatError,
    ReadResult,
    Skipped,
    clean,
    make_record,
    one_line,
    parse_year,
    split_authors,
    stable_id,
)

#: The marker of our own export (see export_json).
NATIVE_FORMAT = "paper-reader"
NATIVE_VERSION = 1

_C1 = re.compile("[\x7f-\x9f\u2028\u2029]")
_LIST_KEYS = ("papers", "items", "records", "data", "results", "entries")
_VENUE_SITE = re.compile(
    r"https?://(?:www\.)?(icml|iclr|neurips|nips)\.cc/virtual/(\d{4})/", re.IGNORECASE
)
_VENUE_NAMES = {"icml": "ICML", "iclr": "ICLR", "neurips": "NeurIPS", "nips": "NeurIPS"}


class _NonStandard:
    """Remembers whether NaN or Infinity occurred (they are not JSON; Python accepts them)."""

    def __init__(self) -> None:
        self.seen = False

    def __call__(self, constant: str) -> None:
        self.seen = True


def load(text: str, name: str) -> tuple[Any, bool]:
    """The parsed JSON and whether it held NaN/Infinity (read as empty); FormatError if broken."""
    constants = _NonStandard()
    try:
        return json.loads(text, parse_constant=constants), constants.seen
    except RecursionError:
        raise FormatError(f"{name}: JSON nested too deeply to be a paper list") from None
    except json.JSONDecodeError as exc:
        raise FormatError(f"{name}: not valid JSON: {exc.msg} at line {exc.lineno}") from None


def read(text: str, name: str) -> ReadResult:
    """Papers (and, from our own export, annotations and tag colours) from a JSON document."""
    data, nonstandard = load(text, name)
    result = ReadResult(format="json")
    if nonstandard:
        result.warnings.append(Skipped(name, "NaN/Infinity values (not JSON) read as empty"))
    if isinstance(data, Mapping) and data.get("format") == NATIVE_FORMAT:
        _read_native(data, name, result)
        return result
    items = _items(data, name)
    for number, item in enumerate(items, start=1):
        place = f"item {number}"
        if not isinstance(item, Mapping):
            result.skipped.append(Skipped(place, f"not an object but {type(item).__name__}"))
            continue
        try:
            result.records.append(paper_from_item(item, name))
        except ValueError as exc:
            result.skipped.append(Skipped(place, str(exc)))
    return result


def _items(data: Any, name: str) -> list[Any]:
    if isinstance(data, list):
        return data
    if isinstance(data, Mapping):
        for key in _LIST_KEYS:
            if isinstance(data.get(key), list):
                return list(data[key])
        if "title" in data or "abstract" in data:
            return [data]
        keys = ", ".join(sorted(str(k) for k in data)[:8])
        raise FormatError(f"{name}: a JSON object without a list of papers (keys: {keys})")
    raise FormatError(f"{name}: JSON holds a {type(data).__name__}, not a list of papers")


def _lower_keys(item: Mapping[Any, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in item.items():
        out.setdefault(str(key).strip().lower(), value)
    return out


def _first(item: Mapping[str, Any], *keys: str) -> Any:
    """The first non-empty value among `keys`."""
    for key in keys:
        value = item.get(key)
        if value not in (None, "", [], {}):
            return value
    return ""


def _text(value: Any) -> Any:
    """A single text value; CSL-JSON allows lists (["Title", "Short title"]) for some fields."""
    if isinstance(value, list):
        return next((v for v in value if isinstance(v, (str, int)) and str(v).strip()), "")
    return value


def _csl_name(person: Mapping[str, Any]) -> str:
    literal = person.get("literal") or person.get("name")
    if literal:
        return one_line(literal)
    parts = (person.get("given"), person.get("non-dropping-particle"), person.get("family"))
    return " ".join(one_line(p) for p in parts if p)


def _authors(value: Any) -> list[str]:
    if isinstance(value, list):
        return [
            _csl_name(v) if isinstance(v, Mapping) else one_line(v)
            for v in value
            if isinstance(v, (Mapping, str))
        ]
    return split_authors(value) if isinstance(value, str) else []


def _year(item: Mapping[str, Any]) -> int | None:
    issued = item.get("issued")
    if isinstance(issued, Mapping):
        parts = issued.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            return parse_year(parts[0][0])
        return parse_year(issued.get("raw") or issued.get("literal"))
    for key in ("year", "date", "published", "publication_date", "issued"):
        year = parse_year(item.get(key))
        if year is not None:
            return year
    return None


def paper_from_item(raw: Mapping[Any, Any], name: str) -> Paper:
    """A Paper from one JSON object of any common shape; ValueError when it has no title/abstract."""
    item = _lower_keys(raw)
    authors = item.get("author")
    is_csl = isinstance(item.get("issued"), Mapping) or (
        isinstance(authors, list) and any(isinstance(a, Mapping) for a in authors)
    )
    url = _text(_first(item, "url", "site", "link", "href", "pdf", "pdf_url"))
    venue = _text(_first(item, "venue", "container-title", "journal", "booktitle", "conference"))
    year = _year(item)
    site = _VENUE_SITE.match(clean(url))
    if site and not venue:
        venue = f"{_VENUE_NAMES[site.group(1).lower()]} {site.group(2)}"
    if site and year is None:
        year = int(site.group(2))
    presentation = _text(_first(item, "presentation", "decision"))
    status = clean(item.get("status")).strip()
    if not presentation and status and status.lower() not in {s.value for s in Status}:
        presentation = status  # a venue's decision (Poster, Oral); reading statuses live elsewhere
    return make_record(
        source=name,
        # CSL ids ("ITEM-1") are per-export counters, not stable ids.
        source_id="" if is_csl else stable_id(_first(item, "id", "paper_id", "uid")),
        title=_text(_first(item, "title")),
        authors=_authors(_first(item, "authors", "author", "creators")),
        abstract=_text(_first(item, "abstract", "summary")),
        venue=venue,
        year=year,
        url=url,
        presentation=presentation,
        track=_text(_first(item, "track")),
        doi=_text(_first(item, "doi")),
        arxiv=_text(_first(item, "arxiv", "arxiv_id", "eprint")),
    )


def _read_native(data: Mapping[str, Any], name: str, result: ReadResult) -> None:
    """Our own export: every field as written, annotations and tag colours included."""
    result.native = True
    version = data.get("version")
    if not isinstance(version, int) or version > NATIVE_VERSION:
        raise FormatError(f"{name}: paper-reader export version {version!r} is newer than this app")
    for number, item in enumerate(_list(data.get("papers")), start=1):
        try:
            result.records.append(_native_paper(item))
        except (KeyError, TypeError, ValueError, ArithmeticError) as exc:
            result.skipped.append(Skipped(f"item {number}", f"unreadable paper: {exc}"))
    for number, item in enumerate(_list(data.get("annotations")), start=1):
        try:
            result.annotations.append(_native_annotation(item))
        except (KeyError, TypeError, ValueError, ArithmeticError) as exc:
            result.skipped.append(Skipped(f"annotation {number}", f"unreadable: {exc}"))
    colours = data.get("tag_colours")
    if isinstance(colours, Mapping):
        result.tag_colours = {clean(k): clean(v) for k, v in colours.items() if clean(k)}


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _clean_tree(value: Any, depth: int = 0) -> Any:
    """Strings cleaned all the way down; nesting deeper than any record needs is dropped."""
    if isinstance(value, str):
        return clean(value)
    if isinstance(value, float) and not math.isfinite(value):
        return None  # 1e400 parses as infinity
    if depth > 8:
        return None
    if isinstance(value, list):
        return [_clean_tree(v, depth + 1) for v in value]
    if isinstance(value, Mapping):
        return {clean(k): _clean_tree(v, depth + 1) for k, v in value.items()}
    return value


def _native_paper(item: Any) -> Paper:
    if not isinstance(item, Mapping):
        raise TypeError(f"not an object but {type(item).__name__}")
    paper = Paper.from_dict(_clean_tree(item))
    if not paper.id.strip():
        raise ValueError("empty id")
    return paper


def _native_annotation(item: Any) -> Annotation:
    if not isinstance(item, Mapping):
        raise TypeError(f"not an object but {type(item).__name__}")
    annotation = Annotation.from_dict(_clean_tree(item))
    if not annotation.paper_id.strip():
        raise ValueError("empty paper_id")
    return annotation


def export(
    items: Sequence[tuple[Paper, Annotation | None]], tag_colours: Mapping[str, str] | None = None
) -> str:
    """Every paper and annotation field, and the tag colours, in a file `read` takes back as is."""
    document = {
        "format": NATIVE_FORMAT,
        "version": NATIVE_VERSION,
        "tag_colours": dict(tag_colours or {}),
        "papers": [paper.to_dict() for paper, _ in items],
        "annotations": [a.to_dict() for _, a in items if a is not None],
    }
    text = _render(document, ascii_only=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # lone surrogates: only \u escapes can carry them
        text = _render(document, ascii_only=True)
    return text


def _render(document: dict[str, Any], *, ascii_only: bool) -> str:
    """One paper or annotation per line: readable, diffable, and the C encoder does the work."""
    out = ["{"]
    for key, value in document.items():
        if isinstance(value, list):
            rows = ",\n".join(json.dumps(v, ensure_ascii=ascii_only) for v in value)
            out.append(f'"{key}": [\n{rows}\n],' if rows else f'"{key}": [],')
        else:
            out.append(f'"{key}": {json.dumps(value, ensure_ascii=ascii_only)},')
    out[-1] = out[-1].rstrip(",")
    # C1 controls may only appear inside strings here; escaped, the file stays plain text.
    return _C1.sub(lambda m: f"\\u{ord(m.group(0)):04x}", "\n".join(out) + "\n}\n")
