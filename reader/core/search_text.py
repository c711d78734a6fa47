"""The keyed text of a paper for search: source, rendered TeX symbols, annotations."""

from __future__ import annotations

import functools
import itertools
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

from reader.core.models import Annotation, Paper
from reader.core.text import search_key
from reader.core.words import as_written, marks, spaced, starts, word_text

_MACRO = re.compile(r"\\([A-Za-z]+)")
_MACRO_OVERRIDES = {
    "sqrt": "√",
    "epsilon": "ε ϵ",
    "varepsilon": "ε",
    "frac": "/",
    "dfrac": "/",
}
_ASCII = bytes(range(128))

# -- the text of a record ------------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def _macro_text(name: str) -> str:
    """The Unicode symbol of a TeX macro, or "" for macros that are not symbols
    (font commands, \\left, ...)."""
    if name in _MACRO_OVERRIDES:
        return _MACRO_OVERRIDES[name]
    from pylatexenc.latex2text import LatexNodes2Text
    from pylatexenc.latexwalker import get_default_latex_context_db

    spec = get_default_latex_context_db().get_macro_spec(name)
    if spec is not None and "{" in getattr(getattr(spec, "args_parser", None), "argspec", ""):
        return ""  # a macro of arguments (\widetilde{O}, \url{...}) is no symbol alone
    try:
        out = LatexNodes2Text().latex_to_text("\\" + name).strip()
    except Exception:  # pylatexenc raises many kinds on odd input
        return ""
    return out if out and not out.isascii() and not unicodedata.combining(out[0]) else ""


def tex_symbols(text: str) -> str:
    """Each TeX macro of `text` replaced by its Unicode form (\\Theta -> Θ); cheap,
    since each macro name is converted once."""
    return _MACRO.sub(lambda m: _macro_text(m.group(1)), text)


def _next_mark(text: str, pos: int) -> int:
    backslash, dollar = text.find("\\", pos), text.find("$", pos)
    return dollar if backslash < 0 else backslash if dollar < 0 else min(backslash, dollar)


def _word_end(text: str, i: int) -> int:
    end = text.find(" ", i)
    return len(text) if end < 0 else end


def with_symbols(text: str) -> str:
    """`text`, then the words around each bit of TeX rendered (``a 4.7$\\times$ faster
    model`` adds ``a 4.7× faster``), so that `Theta`, `\\Theta` and `Θ` all find `$\\Theta$`."""
    i = _next_mark(text, 0)
    if i < 0:
        return text
    windows = []
    while i >= 0:  # from the word before a TeX word to the word after the last one next to it
        start = text.rfind(" ", 0, max(text.rfind(" ", 0, i), 0)) + 1
        end = _word_end(text, _word_end(text, i) + 1)
        while (i := _next_mark(text, _word_end(text, i))) >= 0 and i < end:
            end = _word_end(text, _word_end(text, i) + 1)
        windows.append(text[start:end])
    rendered = tex_symbols(" ".join(windows))
    for char in "{}$^_":
        rendered = rendered.replace(char, "")
    return f"{text} {rendered}"


@functools.lru_cache(maxsize=1 << 14)
def _char_key(char: str) -> bytes | None:
    """search_key(char) as UTF-8, or None where keying a whole text could differ from
    keying it char by char (combining marks NFKD would reorder, keys not stable)."""
    out = search_key(char)
    unstable = any(unicodedata.combining(c) or search_key(c) != c for c in out)
    if unstable or unicodedata.combining(char) and out:
        return None
    return out.encode("utf-8", "surrogatepass")


def key_bytes(text: str) -> bytes:
    """search_key(text) as UTF-8, several times faster on mostly-ASCII text: ASCII
    is lowered in C, then each distinct other character is replaced by its key."""
    data = text.encode("utf-8", "surrogatepass").lower()
    if text.isascii():
        return data
    for char in set(data.translate(None, _ASCII).decode("utf-8", "surrogatepass")):
        out = _char_key(char)
        if out is None:
            return search_key(text).encode("utf-8", "surrogatepass")
        data = data.replace(char.encode("utf-8", "surrogatepass"), out)
    return data


# -- where a search's words are in a shown text --------------------------------------


def _symbol_forms(term: str) -> list[str]:
    """The symbols a search word names as a TeX macro: "theta" or "\\Theta" also
    marks the θ or Θ the reader pane shows for `$\\Theta$`, which the word finds."""
    name = term.removeprefix("\\")
    if not (name.isascii() and name.isalpha()) or len(name) < 2:
        return []
    forms = {_macro_text(name), _macro_text(name.lower()), _macro_text(name.capitalize())}
    return [symbol for form in forms for symbol in form.split()]


@functools.lru_cache(maxsize=1 << 14)
def _shown_key(char: str) -> str:
    return search_key(char)


def mark_spans(text: str, terms: Sequence[str], limit: int | None = None) -> list[tuple[int, int]]:
    """Where the search words `terms` (and the symbols of TeX macro names among them)
    occur in `text` at the start of a word, as search finds them, as (start, end)
    indexes: case and accents ignored, as search ignores them ("rocktaschel" marks
    "Rocktäschel"), but for an acronym typed in capitals ("AUC" marks "AUCs", not
    "auctions"). The first `limit` only (None:
    all): "w" occurs 50,000 times in a shown part of an abstract of one long word."""
    if text.isascii():
        keyed, where = text.lower(), list(range(len(text)))
    else:
        keys = list(map(_shown_key, text))
        keyed = "".join(keys)
        where = [i for i, key in enumerate(keys) for _ in key]
    spans = set()
    for term in terms:
        for form in (term, *_symbol_forms(term)):
            key = search_key(form)
            if not key.strip():
                continue
            found = starts(key).finditer(keyed)
            if form is term:  # (an acronym marks only the words written in its capitals)
                found = (m for m in found if as_written(term, text, where[m.start()]))
            for match in itertools.islice(found, limit):
                at = match.start()
                spans.add((where[at], where[at + len(key) - 1] + 1))
    return sorted(spans)[:limit]


def _line(text: str) -> str:
    # a line break separates the parts of a record: no text term spans one
    return text.replace("\n", " ") if "\n" in text else text


def _catalogue(paper: Paper) -> str:
    return "\n".join(
        (
            _line(" ".join(paper.authors)),
            _line(with_symbols(paper.title)),
            _line(with_symbols(paper.abstract)),
        )
    )


def catalogue_words(paper: Paper) -> list[str]:
    """The word texts of a paper's authors, title and abstract, each with its marks
    (its words that begin with capitals: reader.core.words), as the index holds them."""
    written = _catalogue(paper)
    keyed = key_bytes(written).decode("utf-8", "surrogatepass").split("\n")
    return [
        f"{word_text(key)}{marks(text)}"
        for key, text in zip(keyed, written.split("\n"), strict=True)
    ]


def user_words(ann: Annotation) -> str:
    """The word texts (reader.core.words.spaced) of what the user wrote of a paper."""
    written = _annotation(ann)
    return spaced(*search_key(written).split("\n"), written=written.split("\n"))


def _annotation(ann: Annotation | None) -> str:
    """What the user wrote (tags, note, highlight quotes and comments), one per line."""
    if ann is None or not (ann.tags or ann.note or ann.highlights):
        return ""
    parts = [_line(" ".join(ann.tags)), _line(ann.note)]
    parts += [_line(f"{h.quote} {h.comment}") for h in ann.highlights]
    return "\n".join(parts)


def _has(paper: Paper, ann: Annotation | None) -> frozenset[str]:
    has = {"abstract"} if paper.abstract else set()
    if ann is not None:
        has.update(name for name, value in _written(ann) if value)
    return frozenset(has)


def _written(ann: Annotation) -> tuple[tuple[str, object], ...]:
    """What `has:` asks of an annotation: its note (blank is none), tags, highlights."""
    return (("note", ann.note.strip()), ("tags", ann.tags), ("highlights", ann.highlights))


@dataclass(slots=True)
class SearchRecord:
    """One paper as a query sees it (reader.core.query.Record): the reference that
    SearchIndex agrees with."""

    paper_id: str
    text: str
    title: str
    authors: str
    venue: str
    year: int | None
    status: str
    tags: tuple[str, ...]
    has: frozenset[str]


def make_record(paper: Paper, ann: Annotation | None) -> SearchRecord:
    written = _catalogue(paper).split("\n")
    written += _annotation(ann).split("\n") if ann is not None else []
    keyed = [search_key(part) for part in written]
    catalogue = keyed[:3]
    return SearchRecord(
        paper.id,
        spaced(*keyed, written=written),
        spaced(catalogue[1], written=written[1:2]),
        spaced(catalogue[0]),
        search_key(paper.venue),
        paper.year,
        ann.status.value if ann else "unread",
        tuple(search_key(t) for t in ann.tags) if ann else (),
        _has(paper, ann),
    )


def joined_spans(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Sorted `spans` (mark_spans') with those that touch or overlap made one: one mark
    drawn, not thousands, for "w" in "wwww…"."""
    out: list[tuple[int, int]] = []
    for start, end in spans:
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(end, out[-1][1]))
        else:
            out.append((start, end))
    return out
