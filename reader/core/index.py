"""What makes search fast: one precomputed, casefolded record per paper."""

from __future__ import annotations

import functools
import re
import unicodedata
from dataclasses import dataclass
from typing import Iterable

from reader.core.library import Library
from reader.core.models import Annotation, Paper
from reader.core.query import Query
from reader.core.text import search_key


@dataclass(slots=True)
class SearchRecord:
    paper_id: str
    text: str
    authors: str
    venue: str
    year: int | None
    status: str
    tags: tuple[str, ...]
    has: frozenset[str]


_TEX_PUNCTUATION = str.maketrans("", "", "{}$")
_MACRO = re.compile(r"\\([A-Za-z]+)")


#: macros whose Unicode form pylatexenc does not give, or gives differently from plain()
_MACRO_OVERRIDES = {"sqrt": "√", "epsilon": "ε ϵ", "varepsilon": "ε", "frac": "/", "dfrac": "/"}


@functools.lru_cache(maxsize=4096)
def _macro_text(name: str) -> str:
    """The Unicode symbol of a TeX macro, or "" for macros that are not symbols
    (font commands, \\left, ...)."""
    if name in _MACRO_OVERRIDES:
        return _MACRO_OVERRIDES[name]
    from pylatexenc.latex2text import LatexNodes2Text

    try:
        out = LatexNodes2Text().latex_to_text("\\" + name).strip()
    except Exception:  # pylatexenc raises many kinds on odd input
        return ""
    return out if out and not out.isascii() and not unicodedata.combining(out[0]) else ""


def tex_symbols(text: str) -> str:
    """Each TeX macro of `text` replaced by its Unicode form (\\Theta -> Θ); cheap,
    since each macro name is converted once."""
    return _MACRO.sub(lambda m: _macro_text(m.group(1)), text)


def _with_symbols(text: str) -> str:
    """The source text, plus its TeX macros as Unicode when it has any, so that
    `Theta`, `\\Theta` and `Θ` all find `$\\Theta$`."""
    if "\\" not in text:
        return text
    return text + " " + tex_symbols(text).translate(_TEX_PUNCTUATION)


def make_record(paper: Paper, ann: Annotation | None) -> SearchRecord:
    authors = search_key(" ".join(paper.authors))
    parts = [_with_symbols(paper.title), _with_symbols(paper.abstract)]
    tags: tuple[str, ...] = ()
    has: set[str] = set()
    status = "unread"
    if ann is not None:
        status = ann.status.value
        tags = tuple(search_key(t) for t in ann.tags)
        if ann.note.strip():
            parts.append(ann.note)
            has.add("note")
        if ann.tags:
            has.add("tags")
        if ann.highlights:
            has.add("highlights")
            parts.extend(h.quote + " " + h.comment for h in ann.highlights)
    if paper.abstract:
        has.add("abstract")
    text = search_key(" \n".join(parts)) + " \n" + authors + " \n" + " ".join(tags)
    return SearchRecord(
        paper.id,
        text,
        authors,
        search_key(paper.venue),
        paper.year,
        status,
        tags,
        frozenset(has),
    )


class SearchIndex:
    """Records for every paper of a library, kept current by `update`."""

    def __init__(self, library: Library) -> None:
        self._library = library
        self._records: dict[str, SearchRecord] = {}
        self.rebuild()

    def rebuild(self) -> None:
        lib = self._library
        self._records = {p.id: make_record(p, lib.annotation(p.id)) for p in lib.papers()}

    def update(self, paper_ids: Iterable[str]) -> None:
        for pid in paper_ids:
            if pid in self._library:
                self._records[pid] = make_record(self._library.paper(pid), self._library.annotation(pid))
            else:
                self._records.pop(pid, None)

    def record(self, paper_id: str) -> SearchRecord:
        return self._records[paper_id]

    def filter(self, query: Query, ids: Iterable[str] | None = None) -> list[str]:
        """The ids (in the given order, default library order) that match `query`."""
        records = self._records
        if ids is None:
            ids = records.keys()
        if query.is_empty:
            return list(ids)
        match = query.matches
        return [pid for pid in ids if match(records[pid])]
