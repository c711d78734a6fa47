"""Links between papers in notes: which titles a note links to, which notes link to a
paper, and finding papers by the words of their title."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable

from reader.core.library import Library
from reader.core.models import Paper
from reader.core.normalise import normalise_title
from reader.core.text import plain, search_key, shown_part

#: the most titles the completion popup offers
MAX_MATCHES = 50
#: the papers find() compares at most (their titles share the link's longest words)
FEW_TITLED = 64
#: a link as reader.render.notes renders it: [[Title]] or [[Title|label]]
WIKI_LINK = re.compile(r"\[\[([^\[\]\n|]{1,300})(?:\|[^\[\]\n]{0,300})?\]\]")
#: titles plain() could change; the rest are their own plain text
_TEX_HINT = re.compile(r"[$\\{}*`~]|''")
#: the most of a title shown (completion, backlinks) and searched: a link names at
#: most 300 characters (WIKI_LINK), and a megabyte of title froze the window
MAX_TITLE_CHARS = 1_000


def plain_title(title: str) -> str:
    """A title as shown and linked: plain text on one line (its start only, then
    "…", when it is longer than MAX_TITLE_CHARS)."""
    if len(title) > MAX_TITLE_CHARS:
        title = shown_part(title, MAX_TITLE_CHARS).rstrip() + "…"
    return " ".join((plain(title) if _TEX_HINT.search(title) else title).split())


def link_key(title: str) -> str:
    """What a link and a title are matched by: case, accents, punctuation ignored."""
    return normalise_title(title)


def linked_keys(note: str) -> frozenset[str]:
    """The link keys of every `[[Title]]` in a note."""
    if "[[" not in note:
        return frozenset()
    return frozenset(link_key(m.group(1)) for m in WIKI_LINK.finditer(note))


class TitleCatalogue:
    """Every paper's title, for completion and for finding a linked paper: the papers
    whose title holds some words are the search index's (its full-text words: no
    copy of a million titles here); only those are read. plain() costs up to a
    millisecond on a TeX title: it runs only on titles offered or compared."""

    def __init__(self, library: Library, titled: Callable[[str, int], list[str]]) -> None:
        self._library = library
        #: the ids of the papers whose title holds the words of a text, in library
        #: order (reader.core.index.SearchIndex.titled)
        self._titled = titled

    def matches(self, text: str, limit: int = MAX_MATCHES) -> list[str]:
        """Up to `limit` distinct titles holding each word of `text` (as a word or a
        word's start; case and accents ignored), those starting with it first."""
        needle = search_key(" ".join(text.split()))
        ids = self._titled(text, 0) if needle else self._library.paper_ids()
        papers = self._library.papers_in_order(ids[:limit])
        found = dict.fromkeys(plain_title(p.title) for p in papers)
        return sorted(found, key=lambda t: not search_key(t).startswith(needle))

    def find(self, title: str) -> str:
        """The id of the paper with this title: exact first, then ignoring case,
        accents and punctuation; "" if none."""
        title = " ".join(title.split())
        key = link_key(title)
        if not key or not title:
            return ""
        first = ""
        ids = self._titled(title[:MAX_TITLE_CHARS], FEW_TITLED)
        for paper in self._library.papers_in_order(ids):
            if " ".join(paper.title.split()) == title:
                return paper.id
            if not first and key in (link_key(paper.title), link_key(plain_title(paper.title))):
                first = paper.id
        return first


class Backlinks:
    """Which notes link to which titles: the notes read on first use, then only the
    notes that changed."""

    def __init__(self, library: Library) -> None:
        self._library = library
        self._links: dict[str, frozenset[str]] | None = None

    def _all(self) -> dict[str, frozenset[str]]:
        if self._links is None:
            self._links = {}
            # the papers with a note, from the annotations: not through the search
            # index, which the window makes later (~0.2 s at 100k papers)
            self.update([pid for pid, ann in self._library.annotations().items() if ann.note])
        return self._links

    def update(self, paper_ids: Iterable[str]) -> None:
        """Re-read these papers' notes (they changed); nothing before first use."""
        if self._links is None:
            return
        papers, annotations = self._library.papers_by_id(), self._library.annotations()
        for pid in paper_ids:
            ann = annotations.get(pid) if pid in papers else None
            keys = linked_keys(ann.note) if ann is not None else None
            if keys:
                self._links[pid] = keys
            else:
                self._links.pop(pid, None)

    def sources(self, paper: Paper) -> list[str]:
        """Ids of the other papers whose notes link to `paper`."""
        links = self._all()
        if not links:
            return []
        keys = {link_key(paper.title), link_key(plain_title(paper.title))}
        return [src for src, linked in links.items() if src != paper.id and linked & keys]
