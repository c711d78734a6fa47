"""Citing papers: authors' name parts, stable cite keys and plain-text citations.

Cite keys are `he2025dakd`: the first author's last name folded to lower-case ASCII, the
year, the first significant word of the title. They are computed from the whole library,
its papers in the order they were added (ties by id), so every computer with the library
computes the same keys, and a paper keeps its key when papers are added later. A key
several papers would have goes to the first added; the later ones get b, c, ... after it
(the first is the implicit "a", as in "2025a, 2025b").
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import NamedTuple

from reader.core.merge import Abstracts, abstract_texts
from reader.core.models import NOT_LOADED, Paper

_STOP_WORDS = frozenset(
    {"a", "an", "the", "on", "of", "in", "for", "to", "and", "with", "towards", "toward", "from"}
    | {"via", "is", "are", "do", "does", "can", "how", "what", "why", "when", "who", "where"}
    | {"which", "we", "our", "beyond", "into", "at", "by", "as"}
)
#: A last word that is a suffix, not a family name ("Martin Luther King Jr").
SUFFIXES = frozenset({"jr", "jr.", "sr", "sr.", "ii", "iii", "iv"})
_SPLITS_NAME = re.compile(r"\band\b", re.IGNORECASE)
#: Scripts whose names are not "given family" words: written whole, never reordered.
_CJK = re.compile(
    "[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]"
)


class NameParts(NamedTuple):
    """A person's name as BibTeX reads it; `whole` when it must stay one unit."""

    first: str = ""
    von: str = ""
    last: str = ""
    jr: str = ""
    whole: bool = False

    @property
    def family(self) -> str:
        return f"{self.von} {self.last}" if self.von else self.last


@functools.lru_cache(maxsize=8192)
def name_parts(name: str) -> NameParts:
    """The parts of a stored author name, "First von Last" as importers store names, or
    "Last, First" / "Last, Jr, First": parsed by bibtexparser's BibTeX name rules, with a
    final Jr/Sr/II/III/IV kept apart. A name in a CJK script, one with an "and" in it, or
    "Smith, Jr." (a comma, but no first name) is `whole`: one unit, as written."""
    name = " ".join(name.split())
    if not name:
        return NameParts()
    if _CJK.search(name) or _SPLITS_NAME.search(name):
        return NameParts(last=name, whole=True)
    if "," in name:
        after = name.split(",")[1].strip().casefold()
        if name.count(",") == 1 and (after in SUFFIXES or not after):
            return NameParts(last=name, whole=True)
    words = name.split()
    suffix = ""
    if "," not in name and len(words) > 2 and words[-1].casefold() in SUFFIXES:
        suffix = words.pop()
    if "," not in name and "{" not in name and all(w[:1].isupper() for w in words):
        # the usual "Given Middle Family": no particle, no comma (the parser's answer too)
        return NameParts(" ".join(words[:-1]), "", words[-1], suffix)
    from bibtexparser.middlewares.names import InvalidNameError, parse_single_name_into_parts

    try:
        parts = parse_single_name_into_parts(" ".join(words), strict=False)
    except (InvalidNameError, ValueError):
        return NameParts(last=name, whole=True)
    return NameParts(
        " ".join(parts.first),
        " ".join(parts.von),
        " ".join(parts.last),
        " ".join(parts.jr) or suffix,
    )


def _ascii_word(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return re.sub(r"[^a-z0-9]", "", decomposed.encode("ascii", "ignore").decode().lower())


def base_key(paper: Paper) -> str:
    """`he2025dakd`: first author's last name, year, first significant word of the title
    ("anon" for a name with no ASCII letters)."""
    surname = ""
    if paper.authors:
        parts = name_parts(paper.authors[0])
        surname = _ascii_word(parts.last.split()[-1] if parts.last and not parts.whole else "")
        if parts.whole:
            surname = _ascii_word(parts.last.split(",")[0].split()[-1]) if parts.last else ""
    title = re.sub(r"\$[^$]*\$", lambda m: m.group(0).replace(" ", ""), paper.title)
    words = (_ascii_word(w) for w in title.split())
    word = next((w for w in words if w and w not in _STOP_WORDS), "")
    year = str(paper.year) if paper.year is not None else ""
    return (surname or "anon") + year + word[:20]


def unique_keys(papers: Sequence[Paper]) -> list[str]:
    """One key per paper in the order given; a repeated key gets b, c, ... (then numbers)."""
    used: set[str] = set()
    keys: list[str] = []
    for paper in papers:
        base = base_key(paper)
        key, n = base, 1
        while key in used:
            n += 1
            key = base + (chr(ord("a") + n - 1) if n <= 26 else str(n))
        used.add(key)
        keys.append(key)
    return keys


def cite_keys(papers: Iterable[Paper]) -> dict[str, str]:
    """Paper id -> its cite key, unique among `papers` (the whole library: a selection's
    keys could then collide with the rest's). Stable: the papers are taken in the order
    they were added (their `added` stamp, ties by id), so a paper keeps its key when
    later papers are added, and every computer computes the same keys."""
    ordered = sorted({p.id: p for p in papers}.values(), key=lambda p: (p.added, p.id))
    return dict(zip((p.id for p in ordered), unique_keys(ordered), strict=True))


def _initials(first: str) -> str:
    """ "Matthijs T. J." -> "M. T. J."; "Jean-Pierre" -> "J.-P."."""
    out = []
    for word in first.split():
        pieces = [p for p in word.split("-") if p]
        out.append("-".join(f"{p[0]}." for p in pieces))
    return " ".join(out)


def short_name(name: str) -> str:
    """ "He, C." for "Changyi He", "van der Maaten, L." for "Laurens van der Maaten";
    a single or CJK name as it is."""
    parts = name_parts(name)
    if parts.whole or not parts.first:
        return " ".join(p for p in (parts.family, parts.jr) if p) or name
    family = ", ".join(p for p in (parts.family, parts.jr) if p)
    return f"{family}, {_initials(parts.first)}"


def citation(paper: Paper) -> str:
    """A plain citation: "He, C., Ding, Y. (2025). Title. ICML 2025." (TeX in the title
    rendered as Unicode; "(n.d.)" without a year)."""
    from reader.core.text import plain

    authors = ", ".join(short_name(a) for a in paper.authors)
    year = f"({paper.year})" if paper.year is not None else "(n.d.)"
    title = plain(paper.title).rstrip(". ")
    parts = [f"{authors} {year}." if authors else f"{year}.", f"{title}."]
    if paper.venue:
        parts.append(f"{plain(paper.venue).rstrip('. ')}.")
    return " ".join(parts)


def cite(
    library: Iterable[Paper],
    ids: Sequence[str],
    fmt: str = "bibtex",
    abstracts: Abstracts | None = None,
) -> str:
    """What "Copy as BibTeX" / "Copy citation" copy for papers `ids` of `library` (every
    paper of it, for the keys): BibTeX entries with the library's cite keys (no tags or
    notes), or one plain citation a line. ValueError for an unknown format or id.
    Abstracts NOT_LOADED (a library lists papers without them) are fetched by
    `abstracts`; without it, such entries have none."""
    by_id: Mapping[str, Paper] = {p.id: p for p in library}
    missing = [pid for pid in ids if pid not in by_id]
    if missing:
        raise ValueError(f"no paper with id {missing[0]!r}")
    papers = [by_id[pid] for pid in ids]
    texts = ("" if text == NOT_LOADED else text for text in abstract_texts(papers, abstracts))
    papers = [
        p if p.abstract == text else replace(p, abstract=text)
        for p, text in zip(papers, texts, strict=True)
    ]
    if fmt == "text":
        return "\n".join(citation(p) for p in papers) + "\n"
    if fmt == "bibtex":
        from reader.formats.bibtex_export import entry

        keys = cite_keys(by_id.values())
        return "\n".join(entry(keys[p.id], p) for p in papers)
    raise ValueError(f"unknown citation format {fmt!r} (known: bibtex, text)")
