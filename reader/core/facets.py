"""Facet counts for the sidebar: status, tags (with hierarchy), venue, year."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable

from reader.core.library import Library
from reader.core.models import Status


@dataclass
class Facets:
    status: Counter[str] = field(default_factory=Counter)
    #: every tag and every parent of a hierarchical tag ("method" for "method/diffusion"),
    #: counting each paper once per node
    tags: Counter[str] = field(default_factory=Counter)
    venue: Counter[str] = field(default_factory=Counter)
    year: Counter[int] = field(default_factory=Counter)


def tag_ancestors(tag: str) -> list[str]:
    """"a/b/c" -> ["a", "a/b", "a/b/c"]."""
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
