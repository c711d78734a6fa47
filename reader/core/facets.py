"""Facet counts for the sidebar: status, tags (with hierarchy), venue, year."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from reader.core.library import Library
from reader.core.models import Status


class Facets:
    """The counts the sidebar's facets show. (A plain class: a dataclass is ~1 ms of
    the program's start.)"""

    __slots__ = ("status", "tags", "venue", "year")

    def __init__(
        self,
        status: Counter[str] | None = None,
        tags: Counter[str] | None = None,
        venue: Counter[str] | None = None,
        year: Counter[int] | None = None,
    ) -> None:
        self.status = Counter() if status is None else status
        #: every tag and every parent of a hierarchical tag ("method" for
        #: "method/diffusion"), counting each paper once per node
        self.tags = Counter() if tags is None else tags
        self.venue = Counter() if venue is None else venue
        self.year = Counter() if year is None else year


def tag_ancestors(tag: str) -> list[str]:
    """ "a/b/c" -> ["a", "a/b", "a/b/c"]."""
    parts = tag.split("/")
    return ["/".join(parts[: i + 1]) for i in range(len(parts))]


def count_facets(lib: Library, ids: Iterable[str]) -> Facets:
    """Counts over `ids`; linear, a few tens of ms at 100,000 papers."""
    ids = list(ids)
    papers = [lib.paper(pid) for pid in ids]
    facets = Facets(status=Counter({s.value: 0 for s in Status}))
    facets.venue.update(p.venue for p in papers if p.venue)
    facets.year.update(p.year for p in papers if p.year)
    for pid in ids:
        tags = lib.tags(pid)
        facets.status[lib.status(pid).value] += 1
        if tags:
            facets.tags.update({node for tag in tags for node in tag_ancestors(tag)})
    return facets
