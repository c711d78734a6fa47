"""Links between papers in notes: which titles a note links to, which notes link to a
paper, and finding papers by (part of) their title, fast at 100k papers."""

from __future__ import annotations

import re
import time
from array import array
from bisect import bisect_right
from collections.abc import Iterable, Sequence

from reader.core.library import Library
from reader.core.models import Paper
from reader.core.normalise import normalise_title
from reader.core.search_text import with_symbols
from reader.core.text import plain, search_key, shown_part

#: the most titles the completion popup offers
MAX_MATCHES = 50
#: titles keyed per step of TitleCatalogue.warm() (~2 ms: a click or a key waits for
#: at most one step)
CHUNK = 250
#: a link as reader.render.notes renders it: [[Title]] or [[Title|label]]
WIKI_LINK = re.compile(r"\[\[([^\[\]\n|]{1,300})(?:\|[^\[\]\n]{0,300})?\]\]")
#: titles plain() could change; the rest are their own plain text
_TEX_HINT = re.compile(r"[$\\{}*`~]|''")
_WORD = re.compile(r"\w+")
_NEWLINE = re.compile(b"\n")
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
    """Every paper's title, for completion and for finding a linked paper.

    The titles' search keys are one byte string searched with bytes.find (a few ms
    at 100k papers). Building it costs about 4 µs a paper, so `warm()` does it a
    slice at a time while the window is idle; first use finishes whatever is left.
    plain() costs up to a millisecond on a TeX title: it runs only on titles offered
    or compared."""

    def __init__(self, library: Library) -> None:
        self._library = library
        self.invalidate()

    def invalidate(self) -> None:
        """The papers changed: build again."""
        self._papers: Sequence[Paper] | None = None
        self._done = 0
        self._parts: list[bytes] = []
        #: where each title starts in the haystack (8 bytes a title: a million of them)
        self._starts = array("q")
        self._size = 0
        self._haystack: bytes | None = None
        self._plain: dict[int, str] = {}

    @property
    def ready(self) -> bool:
        """Built: a search does not wait for it."""
        return self._haystack is not None

    def warm(self, seconds: float | None = None) -> bool:
        """Build for about `seconds` (None: to the end); True once built."""
        if self._haystack is not None:
            return True
        if self._papers is None:  # (read a part at a time, not kept)
            self._papers = self._library.papers_in_order(self._library.paper_ids())
        papers = self._papers
        deadline = None if seconds is None else time.perf_counter() + seconds
        while self._done < len(papers):
            chunk = papers[self._done : self._done + CHUNK]
            titles = [p.title if "\n" not in p.title else " ".join(p.title.split()) for p in chunk]
            # the TeX source and its symbols: "theta" and "Θ" both match $\Theta$
            lines = [t[:MAX_TITLE_CHARS] for t in titles]  # (a longer one is never linked)
            lines = [with_symbols(t) if "$" in t or "\\" in t else t for t in lines]
            key = search_key("\n".join(lines)).encode("utf-8", "surrogatepass")
            self._starts.append(self._size)
            self._starts.extend(self._size + m.end() for m in _NEWLINE.finditer(key))
            self._size += len(key) + 1
            self._parts.append(key)
            self._done += len(chunk)
            if deadline is not None and time.perf_counter() > deadline:
                return False
        self._haystack = b"\n".join(self._parts)
        self._parts = []
        return True

    def _build(self) -> Sequence[Paper]:
        self.warm()
        assert self._papers is not None
        return self._papers

    def _title(self, i: int) -> str:
        if i not in self._plain:
            self._plain[i] = plain_title(self._build()[i].title)
        return self._plain[i]

    def _hits(self, text: str, limit: int | None = None) -> list[int]:
        """Indexes of the papers whose title key contains `text`'s, in library order."""
        needle = search_key(text).encode("utf-8", "surrogatepass")
        hits: list[int] = []
        haystack = self._haystack or b""
        pos = haystack.find(needle)
        while pos >= 0 and (limit is None or len(hits) < limit):
            i = bisect_right(self._starts, pos) - 1
            hits.append(i)
            if i + 1 >= len(self._starts):
                break
            pos = haystack.find(needle, self._starts[i + 1])
        return hits

    def matches(self, text: str, limit: int = MAX_MATCHES) -> list[str]:
        """Up to `limit` distinct titles containing `text` (case and accents ignored),
        those starting with it first."""
        self._build()
        needle = search_key(" ".join(text.split()))
        found = dict.fromkeys(self._title(i) for i in self._hits(needle, limit))
        return sorted(found, key=lambda t: not search_key(t).startswith(needle))

    def find(self, title: str) -> str:
        """The id of the paper with this title: exact first, then ignoring case,
        accents and punctuation; "" if none."""
        papers = self._build()
        title = " ".join(title.split())
        key = link_key(title)
        words = set(_WORD.findall(search_key(title)))
        if not key or not words:
            return ""
        # compare only the titles holding its rarest word
        haystack = self._haystack or b""
        rarest = min(words, key=lambda w: (haystack.count(w.encode()), -len(w)))
        first = ""
        for i in self._hits(rarest):
            paper = papers[i]
            if " ".join(paper.title.split()) == title:
                return paper.id
            if not first and (link_key(paper.title) == key or link_key(self._title(i)) == key):
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
