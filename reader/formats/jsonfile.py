"""JSON lists: conference exports, CSL-JSON, the bundled sample and our own lossless export."""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeGuard, TypeVar

from reader.core import say
from reader.core.models import Annotation, Paper, Status
from reader.core.normalise import make_paper_id
from reader.core.venues import short_venue
from reader.formats.common import (
    ID_TEXT_CHARS,
    NAMED_SKIPS,
    FormatError,
    ReadResult,
    Skipped,
    clean,
    clean_lines,
    display_name,
    find_arxiv,
    is_one_line,
    make_record,
    normalise_doi,
    one_line,
    parse_year,
    raise_none_usable,
    split_authors,
    split_keywords,
    stable_id,
)

#: The marker of our own export (see `export`).
NATIVE_FORMAT = "paper-reader"
NATIVE_VERSION = 1

#: \u escapes of what `clean` changes: controls, surrogates, hidden characters (HIDDEN_CHARS;
#: tag characters are surrogate pairs)
_RISKY_ESCAPE = re.compile(
    r"\\u(?:00[0189]|007[fF]|[dD][89a-fA-F]|200[bB]|202[a-eA-E]|206[0-46-9a-fA-F]"
    r"|[fF][eE][fF][fF]|[fF][fF][fF][9abAB])"
)
_T = TypeVar("_T")
_READING_STATUSES = frozenset(s.value for s in Status)
_LIST_KEYS = ("papers", "items", "records", "data", "results", "entries")
_VENUE_SITE = re.compile(
    r"https?://(?:www\.)?(icml|iclr|neurips|nips)\.cc/virtual/(\d{4})/", re.IGNORECASE
)
_VENUE_NAMES = {"icml": "ICML", "iclr": "ICLR", "neurips": "NeurIPS", "nips": "NeurIPS"}


class _Oddities:
    """What JSON allows, or Python accepts, that no paper list means: NaN and Infinity
    (not JSON at all) and integers longer than Python converts (sys.get_int_max_str_digits,
    4,300 digits: json.loads raises ValueError). Both are read as empty, and counted."""

    def __init__(self) -> None:
        self.constants = False
        self.long_numbers = 0

    def constant(self, constant: str) -> None:
        self.constants = True

    def integer(self, digits: str) -> int | None:
        try:
            return int(digits)
        except ValueError:
            self.long_numbers += 1
            return None


def _loads(text: str, name: str, odd: _Oddities, *, long_numbers: bool) -> Any:
    # parse_int: a Python call per integer, so only when one is too long for the default
    parse_int = odd.integer if long_numbers else None
    try:
        return json.loads(text, parse_constant=odd.constant, parse_int=parse_int)
    except RecursionError:
        why = say._("{name}: JSON nested too deeply to be a paper list")
        raise FormatError(why.format(name=name)) from None
    except json.JSONDecodeError as exc:
        why = say._("{name}: not valid JSON: {error} at line {line}")
        raise FormatError(why.format(name=name, error=exc.msg, line=exc.lineno)) from None


def load(text: str, name: str) -> tuple[Any, list[say.Said]]:
    """The parsed JSON and what was read as empty in it (NaN/Infinity, overlong integers),
    as warnings; FormatError if broken."""
    odd = _Oddities()
    try:
        data = _loads(text, name, odd, long_numbers=False)
    except ValueError:  # an integer too long for int() (JSONDecodeError is a FormatError now)
        odd = _Oddities()
        data = _loads(text, name, odd, long_numbers=True)
    warnings = []
    if odd.constants:
        warnings.append(say.Said("NaN/Infinity values (not JSON) read as empty"))
    if odd.long_numbers:
        warnings.append(
            say.Said(
                "{count:,} number of over {limit:,} digits read as empty",
                "{count:,} numbers of over {limit:,} digits read as empty",
                count=odd.long_numbers,
                limit=sys.get_int_max_str_digits(),
            )
        )
    return data, warnings


def read(text: str, name: str) -> ReadResult:
    """Papers (and, from our own export, annotations and tag colours) from a JSON document."""
    name = display_name(name)
    data, oddities = load(text, name)
    result = ReadResult(format="json")
    result.warnings.extend(Skipped(name, odd) for odd in oddities)
    if isinstance(data, Mapping) and data.get("format") == NATIVE_FORMAT:
        # Our export is ASCII; without escaped controls, surrogates or hidden characters
        # no string needs cleaning.
        plain = text.isascii() and "\x7f" not in text and not _RISKY_ESCAPE.search(text)
        _read_native(data, name, result, plain=plain)
        return result
    items = _items(data, name)
    records = result.records
    # (item number, why) of each skipped item: made Skipped only if some item is usable (a
    # million unusable items then cost a second less; the error names only the first few)
    bad: list[tuple[int, type | str | say.Said]] = []
    for number, item in enumerate(items, start=1):
        if type(item) is not dict and not isinstance(item, Mapping):
            bad.append((number, type(item)))
            continue
        try:
            records.append(paper_from_item(item, name))
        except ValueError as exc:
            bad.append((number, say.said(exc)))  # (not the error: it holds its frames)
    if not records:
        result.skipped = [_skipped(n, why) for n, why in bad[:NAMED_SKIPS]]
        raise_none_usable(result, name, count=len(bad))
    result.skipped = [_skipped(n, why) for n, why in bad]
    return result


def _skipped(number: int, why: type | str | say.Said) -> Skipped:
    """The Skipped of item `number`: `why` is the type of a non-object or the error."""
    if isinstance(why, type):
        why = _not_an_object(why.__name__)
    return Skipped(say.Said("item {number}", number=number), why)


@functools.cache
def _not_an_object(kind: str) -> say.Said:
    """The reason of an item that is a `kind`, not an object (one for the many alike)."""
    return say.Said("not an object but {type}", type=kind)


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
        why = say._("{name}: a JSON object without a list of papers (keys: {keys})")
        raise FormatError(why.format(name=name, keys=keys))
    why = say._("{name}: JSON holds a {type}, not a list of papers")
    raise FormatError(why.format(name=name, type=type(data).__name__))


#: Our field -> the keys that carry it in common JSON shapes, preferred first.
FIELDS: dict[str, tuple[str, ...]] = {
    "id": ("id", "paper_id", "uid"),
    "title": ("title",),
    "authors": ("authors", "author", "creators"),
    "abstract": ("abstract", "summary"),
    "venue": ("venue", "container-title", "journal", "booktitle", "conference"),
    "url": ("url", "site", "link", "href"),
    "pdf": ("pdf", "pdf_url", "pdf_link", "pdflink"),
    "keywords": ("keywords", "keyword", "key_words"),
    "primary_area": ("primary_area", "primary area", "primaryarea", "area", "subject_area"),
    #: the record's own BibTeX (conference exports): venue and year when the item has none
    "bibtex": ("bibtex", "bib"),
    "presentation": ("presentation", "decision"),
    "status": ("status",),
    "track": ("track",),
    "doi": ("doi",),
    "arxiv": ("arxiv", "arxiv_id", "eprint"),
    "issued": ("issued",),
    "year": ("year", "date", "published", "publication_date"),
}
_ALIASES = {alias: (ours, rank) for ours, keys in FIELDS.items() for rank, alias in enumerate(keys)}
#: Each field's preferred key is its own name: an item with only these keys needs no ranking.
_OWN_KEYS = frozenset(FIELDS)
assert all(keys[0] == ours for ours, keys in FIELDS.items())
_EMPTY: tuple[object, ...] = (None, "", [], {})


def _fields(item: Mapping[Any, Any]) -> dict[str, Any]:
    """Our field -> the item's best non-empty value for it: one pass, keys matched case-blind."""
    if type(item) is dict and item.keys() <= _OWN_KEYS:  # the usual: keys are ours already
        return {key: value for key, value in item.items() if value not in _EMPTY}
    found: dict[str, tuple[int, Any]] = {}
    for key, value in item.items():
        hit = _ALIASES.get(key) if type(key) is str else None
        if hit is None and isinstance(key, str):
            hit = _ALIASES.get(key.strip().lower())
        if hit is not None and value not in _EMPTY:
            ours, rank = hit
            if ours not in found or rank < found[ours][0]:
                found[ours] = (rank, value)
    return {ours: value for ours, (_, value) in found.items()}


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
            _csl_name(v) if _is_mapping(v) else one_line(v)
            for v in value
            if isinstance(v, str) or _is_mapping(v)
        ]
    return split_authors(value) if isinstance(value, str) else []


def _year(fields: Mapping[str, Any]) -> int | None:
    issued = fields.get("issued")
    if _is_mapping(issued):
        parts = issued.get("date-parts")
        if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
            return parse_year(parts[0][0])
        return parse_year(issued.get("raw") or issued.get("literal"))
    return parse_year(fields.get("year") or issued)


def _is_mapping(value: Any) -> TypeGuard[Mapping[str, Any]]:
    """isinstance(value, Mapping) without the ABC's cost for JSON's own types."""
    return type(value) is dict or (type(value) not in _NOT_MAPPINGS and isinstance(value, Mapping))


_NOT_MAPPINGS = frozenset({str, int, float, bool, list, type(None)})


def paper_from_item(item: Mapping[Any, Any], name: str) -> Paper:
    """A Paper from one JSON object of a common shape; ValueError without title and abstract."""
    if type(item) is dict:
        paper = _quick_paper(item, name)
        if paper is not None:
            return paper
    return _paper_from_any(item, name)


#: The keys of the usual conference record: our own names, no CSL "issued", no lists
#: of keywords or BibTeX to read.
_QUICK_KEYS = frozenset(FIELDS) - {"issued", "keywords", "bibtex"}
# _quick_paper builds Papers positionally (a fifth faster than by keyword at 100k papers).
assert tuple(f.name for f in dataclasses.fields(Paper)) == (
    "id", "title", "authors", "abstract", "venue", "year", "url", "presentation", "track",
    "doi", "arxiv", "source", "title_derived", "added", "pdf", "keywords", "primary_area",
)  # fmt: skip


def _quick_paper(item: dict[str, Any], name: str) -> Paper | None:
    """`_paper_from_any(item, name)` for the usual record, several times faster; else None.

    Usual: only our own keys, a title, every text a str that `one_line` leaves as it is,
    the authors a list of such strs, the year an int or absent. Then `_fields`, `_text`,
    `one_line` and `stable_id` would change nothing, and one look at the short texts
    joined by "|" (as in `clean_lines`) stands in for a dozen separate clean-ups.
    """
    if not item.keys() <= _QUICK_KEYS:
        return None
    get = item.get
    title = get("title")
    authors = get("authors", [])
    year = get("year")
    if not title or type(authors) is not list or not (year is None or type(year) is int):
        return None
    pid, abstract, venue, url = get("id", ""), get("abstract", ""), get("venue", ""), get("url", "")
    presentation, status, track = get("presentation", ""), get("status", ""), get("track", "")
    doi, arxiv = get("doi", ""), get("arxiv", "")
    pdf, area = get("pdf", ""), get("primary_area", "")
    try:  # TypeError: a value is not a str (a number, null, a list): the careful path takes it
        short = "|".join(
            [pid, title, venue, url, presentation, status, track, doi, arxiv, pdf, area, *authors]
        )
    except TypeError:
        return None
    if not (is_one_line(short) and "| " not in short and " |" not in short):
        return None
    if type(abstract) is not str or not is_one_line(abstract):  # looked at alone: it is long
        return None
    if year is not None and not 1600 <= year <= 2199:
        year = None
    low = url.lower()
    # An ASCII url matches only with "/virtual/" in it (IGNORECASE would let "ſ" match "s").
    site = _VENUE_SITE.match(url) if "/virtual/" in low or not url.isascii() else None
    if site:
        if not venue:
            venue = f"{_VENUE_NAMES[site.group(1).lower()]} {site.group(2)}"
        if year is None:
            year = int(site.group(2))
    if not presentation and status and status.lower() not in _READING_STATUSES:
        presentation = status
    doi = normalise_doi(doi) if doi else ""
    link = url or pdf  # (the careful path's url: a record with a PDF link only has it)
    arxiv = (
        (find_arxiv(arxiv) if arxiv else "")
        or (find_arxiv(link, bare=False) if "arxiv" in link.lower() else "")
        or (find_arxiv(doi, bare=False) if doi else "")
    )
    if not pid or (len(pid) <= 6 and pid.isdecimal()):  # no id, or a counter (see stable_id)
        pid = make_paper_id(
            doi=doi, arxiv=arxiv, title=title[:ID_TEXT_CHARS], abstract=abstract[:ID_TEXT_CHARS]
        )
    authors_ = tuple(filter(None, authors))
    return Paper(
        pid, title, authors_, abstract, venue, year, link, presentation, track, doi, arxiv,
        name, False, "", pdf, (), area,
    )  # fmt: skip


def _paper_from_any(item: Mapping[Any, Any], name: str) -> Paper:
    """paper_from_item for any mapping: keys matched by alias, every value cleaned."""
    fields = _fields(item)
    if "title" not in fields and "abstract" not in fields:
        # make_record's own error, without its work: a million such items in 1 s, not 14
        raise say.SaidError("no title and no abstract")
    get = fields.get
    authors = get("authors", "")
    names = clean_lines(authors) if type(authors) is list else None  # all clean strings
    is_csl = _is_mapping(get("issued")) or (
        names is None and isinstance(authors, list) and any(_is_mapping(a) for a in authors)
    )
    url = _text(get("url", ""))
    venue = _text(get("venue", ""))
    year = _year(fields)
    site = _VENUE_SITE.match(url) if type(url) is str else None
    if site and not venue:
        venue = f"{_VENUE_NAMES[site.group(1).lower()]} {site.group(2)}"
    if site and year is None:
        year = int(site.group(2))
    if not venue or year is None:
        venue, year = _from_bibtex(get("bibtex"), venue, year, name)
    presentation = _text(get("presentation", ""))
    status = clean(get("status")).strip()
    if not presentation and status and status.lower() not in _READING_STATUSES:
        presentation = status  # a venue's decision (Poster, Oral); reading statuses live elsewhere
    return make_record(
        source=name,
        # CSL ids ("ITEM-1") are per-export counters, not stable ids.
        source_id="" if is_csl else stable_id(get("id", "")),
        title=_text(get("title", "")),
        authors=_authors(authors) if names is None else names,
        abstract=_text(get("abstract", "")),
        venue=venue,
        year=year,
        url=url or _text(get("pdf", "")),  # (a record with a PDF link only: the link to it)
        presentation=presentation,
        track=_text(get("track", "")),
        doi=_text(get("doi", "")),
        arxiv=_text(get("arxiv", "")),
        pdf=_text(get("pdf", "")),
        keywords=split_keywords(get("keywords", "")),
        primary_area=_text(get("primary_area", "")),
    )


def _from_bibtex(value: Any, venue: Any, year: int | None, name: str) -> tuple[Any, int | None]:
    """`venue` and `year`, what is missing of them taken from an item's own BibTeX entry
    (its booktitle or journal: the short "ICML 2019" for a conference CONFERENCES knows)."""
    if not isinstance(value, str) or "@" not in value:
        return venue, year
    from reader.formats import bibtex

    try:
        records = bibtex.read(value, name).records
    except FormatError:
        return venue, year
    if not records:
        return venue, year
    entry = records[0]
    year = entry.year if year is None else year
    if not venue and entry.venue:
        venue = short_venue(entry.venue, year) or entry.venue
    return venue, year


def _read_native(data: Mapping[str, Any], name: str, result: ReadResult, *, plain: bool) -> None:
    """Our own export: every field as written, annotations and tag colours included."""
    result.native = True
    version = data.get("version")
    if not isinstance(version, int) or version > NATIVE_VERSION:
        why = say._("{name}: paper-reader export version {version!r} is newer than this app")
        raise FormatError(why.format(name=name, version=version))
    for number, item in enumerate(_list(data.get("papers")), start=1):
        try:
            result.records.append(_native(Paper.from_dict, item, plain, "id"))
        except (KeyError, TypeError, ValueError, ArithmeticError) as exc:
            unreadable = say.Said("unreadable paper: {error}", error=say.said(exc))
            result.skipped.append(Skipped(say.Said("item {number}", number=number), unreadable))
    for number, item in enumerate(_list(data.get("annotations")), start=1):
        try:  # (a note is the user's own text: hidden characters kept; tags lose them)
            made = _native(Annotation.from_dict, item, plain, "paper_id", hidden=True)
            result.annotations.append(made)
        except (KeyError, TypeError, ValueError, ArithmeticError) as exc:
            place = say.Said("annotation {number}", number=number)
            result.skipped.append(
                Skipped(place, say.Said("unreadable: {error}", error=say.said(exc)))
            )
    colours = data.get("tag_colours")
    if isinstance(colours, Mapping):
        result.tag_colours = {
            clean(k, nfc=False): clean(v, nfc=False) for k, v in colours.items() if clean(k)
        }


def _list(value: Any) -> list[Any]:
    return value if isinstance(value, list) else []


def _clean_tree(value: Any, depth: int = 0, *, hidden: bool = False) -> Any:
    """Strings cleaned all the way down (`hidden`: hidden characters kept, see `clean`);
    nesting deeper than any record needs is dropped."""
    if isinstance(value, str):
        return clean(value, nfc=False, hidden=hidden)
    if isinstance(value, float) and not math.isfinite(value):
        return None  # 1e400 parses as infinity
    if depth > 8:
        return None
    if isinstance(value, list):
        return [_clean_tree(v, depth + 1, hidden=hidden) for v in value]
    if isinstance(value, Mapping):
        return {
            clean(k, nfc=False, hidden=hidden): _clean_tree(v, depth + 1, hidden=hidden)
            for k, v in value.items()
        }
    return value


def _native(
    make: Callable[[Any], _T], item: Any, plain: bool, key: str, *, hidden: bool = False
) -> _T:
    """`make(item)`, the item cleaned first unless the file is known to be plain."""
    if not isinstance(item, Mapping):
        raise say.SaidError("not an object but {type}", type=type(item).__name__)
    try:
        made = make(item if plain else _clean_tree(item, hidden=hidden))
    except ArithmeticError:  # 1e400 reads as infinity; cleaned, it is empty
        made = make(_clean_tree(item, hidden=hidden))
    if not str(getattr(made, key)).strip():
        raise say.SaidError("empty {key}", key=key)
    return made


_PAPER_FIELDS = tuple(f.name for f in dataclasses.fields(Paper))


def _paper_dict(paper: Paper) -> dict[str, Any]:
    """Paper.to_dict() without dataclasses.asdict's deep copies (5x faster at 100k papers)."""
    data = {name: getattr(paper, name) for name in _PAPER_FIELDS}
    data["authors"] = list(paper.authors)
    data["keywords"] = list(paper.keywords)
    return data


def export(
    items: Sequence[tuple[Paper, Annotation | None]], tag_colours: Mapping[str, str] | None = None
) -> str:
    """Every paper and annotation field, and the tag colours, in a file `read` takes back as is.

    One paper or annotation per line, readable and diffable. Pure ASCII (\\u escapes): no
    encoding to get wrong, and lone surrogates or control characters cannot break the file.
    """
    document = {
        "format": NATIVE_FORMAT,
        "version": NATIVE_VERSION,
        "tag_colours": dict(tag_colours or {}),
        "papers": [_paper_dict(paper) for paper, _ in items],
        "annotations": [a.to_dict() for _, a in items if a is not None],
    }
    out = ["{"]
    for key, value in document.items():
        if isinstance(value, list):
            rows = ",\n".join(json.dumps(v) for v in value)
            out.append(f'"{key}": [\n{rows}\n],' if rows else f'"{key}": [],')
        else:
            out.append(f'"{key}": {json.dumps(value)},')
    out[-1] = out[-1].rstrip(",")
    return "\n".join(out) + "\n}\n"
