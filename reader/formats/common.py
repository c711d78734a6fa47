"""Shared pieces of the importers: results, errors, field clean-up and record building."""

from __future__ import annotations

import html
import os
import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field

from reader.core import say
from reader.core.merge import Skipped
from reader.core.models import Annotation, Paper
from reader.core.normalise import HIDDEN_CHARS, make_paper_id, strip_hidden

__all__ = ["FormatError", "ReadResult", "Skipped"]

#: Derived titles are cut at a word boundary before this many characters.
DERIVED_TITLE_CHARS = 90
#: Ids hash at most this much of a title or abstract (a hostile 10 MB abstract stays cheap).
ID_TEXT_CHARS = 20_000


class FormatError(Exception):
    """The file yields no paper: one line naming the file and what is wrong with it."""


@dataclass(slots=True)
class ReadResult:
    """What an importer found in one file."""

    records: list[Paper] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    #: annotations carried by the file (our own JSON export, CSV status/tags/note columns)
    annotations: list[Annotation] = field(default_factory=list)
    tag_colours: dict[str, str] = field(default_factory=dict)
    #: non-fatal findings: encoding guessed, fields lost to a stray brace, a heading ignored
    warnings: list[Skipped] = field(default_factory=list)
    #: the text encoding the file was read with ("utf-8", "utf-8-sig", "utf-16", "cp1252", ...)
    encoding: str = "utf-8"
    format: str = ""
    #: True for our own export: an empty one is still a valid file
    native: bool = False


# --- field clean-up ------------------------------------------------------------------------

_BAD_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
_BAD_OR_HIDDEN = re.compile(_BAD_CHARS.pattern[:-1] + HIDDEN_CHARS + "]")
_SURROGATES = re.compile(r"[\ud800-\udfff]")
_SPACE_CONTROLS = re.compile(r"[\x0b\x0c\x1c-\x1f\x85]")  # vertical tab, form feed...
_OTHER_CONTROLS = re.compile(r"[\x00-\x08\x0e-\x1b\x7f-\x9f]")

_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
#: the same in TeX, where `\\&amp;` is the text "&amp;"
_TEX_ENTITY = re.compile(r"(?<!\\)" + _ENTITY.pattern)


def clean(value: object, *, nfc: bool = True, hidden: bool = False) -> str:
    """A field value as safe text: str, no lone surrogates, no control characters, no
    characters that reorder or hide text (bidi overrides...: see HIDDEN_CHARS), NFC.

    `nfc=False` keeps the characters as they are (our own lossless export); `hidden=True`
    keeps the hidden ones too (the user's own notes in it)."""
    if value is None or isinstance(value, (dict, list, tuple, set)):
        return ""
    text = value if isinstance(value, str) else str(value)
    # isprintable: a fast first look (all of these are unprintable), then one search
    if not text.isprintable() and (_BAD_CHARS if hidden else _BAD_OR_HIDDEN).search(text):
        text = _SURROGATES.sub("\ufffd", text)
        text = _SPACE_CONTROLS.sub(" ", text)
        text = _OTHER_CONTROLS.sub("", text)
        if not hidden:
            text = strip_hidden(text)
    if nfc and not text.isascii() and not unicodedata.is_normalized("NFC", text):
        text = unicodedata.normalize("NFC", text)
    return text


def unescape(text: str, *, tex: bool = False) -> str:
    """HTML entities (only the well-formed `&name;` kind, so TeX `&` survives) unescaped;
    `tex`: not those whose `&` is escaped (`\\&`)."""
    if "&" not in text:
        return text
    return (_TEX_ENTITY if tex else _ENTITY).sub(lambda m: clean(html.unescape(m.group(0))), text)


#: Printable ASCII but "&": deleting these from an ASCII text leaves its controls and "&"s.
_PLAIN_ASCII = bytes(range(0x20, 0x7F)).replace(b"&", b"")


def is_one_line(text: str) -> bool:
    """True when `one_line(text)` is `text` itself: a fast look before any clean-up work.

    Printable (no control, format or separator character but the ASCII space, so no other
    whitespace either), no `&` that might start an entity, single inner spaces, none at
    the ends, and NFC already.
    """
    if text.isascii():  # a byte deletion is three times faster than isprintable
        if text.encode("ascii").translate(None, _PLAIN_ASCII):
            return False
    elif not text.isprintable() or "&" in text or not unicodedata.is_normalized("NFC", text):
        return False
    return "  " not in text and not text.startswith(" ") and not text.endswith(" ")


def clean_lines(values: list[object]) -> list[str] | None:
    """`values` as a new list when each is a str that `one_line` leaves as is, else None.

    One look at all of them joined by `|` (a stable character for NFC that never touches a
    space, an entity or a control) instead of one per value: an author list in one go.
    """
    try:
        joined = "|".join(values)  # type: ignore[arg-type]  # TypeError: not all str
    except TypeError:
        return None
    if (
        joined.isprintable()
        and "&" not in joined
        and "  " not in joined
        and " |" not in joined
        and "| " not in joined
        and not joined.startswith(" ")
        and not joined.endswith(" ")
        and (joined.isascii() or unicodedata.is_normalized("NFC", joined))
    ):
        return list(values)  # type: ignore[arg-type]
    return None


def one_line(value: object, *, entities: bool = True, tex: bool = False) -> str:
    """Cleaned, entities unescaped (unless told they were; `tex`: not those whose `&`
    is TeX-escaped), all whitespace (line breaks too) collapsed to single spaces."""
    if type(value) is str and is_one_line(value):
        return value  # the common case (names, titles, abstracts): already one clean line
    if value is None or value == "":
        return ""
    text = unescape(clean(value), tex=tex) if entities else clean(value)
    if (  # ASCII with single spaces only (clean dropped other controls): nothing to collapse
        text.isascii()
        and "  " not in text
        and "\n" not in text
        and "\t" not in text
        and "\r" not in text
    ):
        return text.strip()
    return " ".join(text.split())


_AND = re.compile(r"\s+(?:and|&)\s+", re.IGNORECASE)
_ET_AL = {"others", "et al", "et al.", "and others"}


def split_authors(value: object) -> list[str]:
    """Author names from a list or one string joined by `;`, `,` or ` and `."""
    if isinstance(value, (list, tuple)):
        names = [one_line(p) for p in value]
    else:
        text = one_line(value)  # whitespace is single already: parts only need stripping
        if ";" in text:
            names = [p.strip() for p in text.split(";")]
        else:
            names = [p.strip() for chunk in text.split(",") for p in _AND.split(chunk)]
    return [n for n in names if n and n.casefold() not in _ET_AL]


_YEAR = re.compile(r"(?<!\d)(1[6-9]\d\d|20\d\d|21\d\d)(?!\d)")


def parse_year(value: object) -> int | None:
    """The first plausible four-digit year in a value, else None."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, int):
        return value if 1600 <= value <= 2199 else None
    if isinstance(value, float):
        return int(value) if 1600 <= value <= 2199 else None  # NaN compares False
    match = _YEAR.search(clean(value))
    return int(match.group(1)) if match else None


_DOI = re.compile(r"10\.\d{4,9}/\S+")
_ARXIV_NEW = re.compile(r"(?<![\d.])(\d{4}\.\d{4,5})(?:v\d+)?(?![\d])")
_ARXIV_OLD = re.compile(r"\b([a-z-]+(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?\b")


def normalise_doi(value: object) -> str:
    """A bare DOI ("10.1234/abc"), from a DOI, a doi: name or a doi.org link; "" if none."""
    if not value:
        return ""
    match = _DOI.search(clean(value))
    return match.group(0).rstrip(".,;") if match else ""


def find_arxiv(value: object, *, bare: bool = True) -> str:
    """An arXiv id ("2501.01234", "hep-th/9901001") in `value`; "" if none.

    With `bare=False` (URLs, DOIs) the value must mention arXiv, so other numbers never match.
    """
    text = clean(value) if value else ""
    if not text or (not bare and "arxiv" not in text.lower()):
        return ""
    match = _ARXIV_NEW.search(text) or _ARXIV_OLD.search(text)
    return match.group(1) if match else ""


_SENTENCE_END = re.compile(r"[.!?](?=\s+[\"“(\[]?[A-Z0-9])")


def derive_title(abstract: str) -> str:
    """A stand-in title: the abstract's first sentence, cut at a word before ~90 characters."""
    match = _SENTENCE_END.search(abstract)
    sentence = abstract[: match.start()] if match else abstract.rstrip(".")
    if len(sentence) <= DERIVED_TITLE_CHARS:
        return sentence
    cut = sentence[: DERIVED_TITLE_CHARS - 1]
    if " " in cut:
        cut = cut[: cut.rindex(" ")]
    return cut.rstrip(" ,;:-(") + "…"


_COUNTER = re.compile(r"\d{1,6}")


def split_keywords(value: object) -> list[str]:
    """Keywords from a list or one string joined by `;` (or else `,`)."""
    if isinstance(value, (list, tuple)):
        return [k for k in (one_line(v) for v in value if isinstance(v, (str, int))) if k]
    text = one_line(value) if isinstance(value, str) else ""
    parts = text.split(";") if ";" in text else text.split(",")
    return [k for k in (p.strip() for p in parts) if k]


def stable_id(value: object) -> str:
    """The source's own id, unless a small counter ("1", "2"...) that collides across files."""
    if isinstance(value, bool) or not isinstance(value, (str, int)):
        return ""
    text = one_line(value)
    return "" if _COUNTER.fullmatch(text) else text


def make_record(
    *,
    source: str,
    source_id: object = "",
    title: object = "",
    authors: Iterable[str] = (),
    abstract: object = "",
    venue: object = "",
    year: int | None = None,
    url: object = "",
    presentation: object = "",
    track: object = "",
    doi: object = "",
    arxiv: object = "",
    decoded: bool = False,
    pdf: object = "",
    keywords: Iterable[object] = (),
    primary_area: object = "",
) -> Paper:
    """A Paper with every field cleaned and its stable id; ValueError when it has no title/abstract.

    `authors` must be clean already (split_authors and one_line make them so). `decoded`:
    the reader unescaped the title's, abstract's and venue's entities itself (a second
    pass would turn a BibTeX `\\&\\#0;`, the text "&#0;", into U+FFFD).
    """
    title_text = one_line(title, entities=not decoded)
    abstract_text = one_line(abstract, entities=not decoded)
    doi_text = normalise_doi(doi)
    arxiv_text = (
        find_arxiv(arxiv) or find_arxiv(url, bare=False) or find_arxiv(doi_text, bare=False)
    )
    derived = not title_text and bool(abstract_text)
    if derived:
        title_text = derive_title(abstract_text)
    if not title_text:
        raise say.SaidError("no title and no abstract")
    paper_id = make_paper_id(
        source_id=one_line(source_id),
        doi=doi_text,
        arxiv=arxiv_text,
        title="" if derived else title_text[:ID_TEXT_CHARS],
        abstract=abstract_text[:ID_TEXT_CHARS],
    )
    return Paper(
        id=paper_id,
        title=title_text,
        authors=tuple(a for a in authors if a),
        abstract=abstract_text,
        venue=one_line(venue, entities=not decoded),
        year=year,
        url=one_line(url),
        presentation=one_line(presentation),
        track=one_line(track),
        doi=doi_text,
        arxiv=arxiv_text,
        source=source,
        title_derived=derived,
        pdf=one_line(pdf),
        keywords=tuple(dict.fromkeys(k for k in map(one_line, keywords) if k)),
        primary_area=one_line(primary_area),
    )


# --- file names and errors ----------------------------------------------------------------


def display_name(name: str) -> str:
    """A file name as text that can be stored and shown: any name the system allows.

    Python gives a name whose bytes are not UTF-8 (b"lat\\xe9.json" on Linux) as a str with
    lone surrogates ("lat\\udce9.json"), which papers.json (orjson), a UTF-8 terminal and
    Qt refuse: each such byte becomes U+FFFD ("lat\ufffd.json"). Other names are as they are.
    """
    if name.isascii() or not _SURROGATES.search(name):
        return name
    return os.fsencode(name).decode("utf-8", "replace")


#: How many of the skipped items an error naming none usable lists.
NAMED_SKIPS = 3


def raise_none_usable(result: ReadResult, name: str, *, count: int | None = None) -> None:
    """Raise the FormatError for a file whose every item was skipped (none if none was).

    It says how many were skipped and why the first few were: "no papers found as JSON:
    item 1: no title and no abstract; item 2: ...; item 3: ...; and 999,997 more
    (1,000,000 items skipped, none usable)". `count`: how many were skipped when
    `result.skipped` holds only the first NAMED_SKIPS of them.
    """
    skipped = result.skipped
    if result.records or result.native or not skipped:
        return
    count = len(skipped) if count is None else count
    from reader.formats import FORMATS  # (the labels: reader.formats imports this module)

    info = FORMATS.get(result.format)
    label = info.label if info is not None else result.format
    named = say._("; ").join(s.told() for s in skipped[:NAMED_SKIPS])
    if count > NAMED_SKIPS:
        why = say._(
            "{name}: no papers found as {label}: {skipped}; and {more:,} more ({count:,} items"
            " skipped, none usable)"
        )
    else:
        why = say._("{name}: no papers found as {label}: {skipped}")
    more = count - NAMED_SKIPS
    raise FormatError(why.format(name=name, label=label, skipped=named, more=more, count=count))
