"""Sort orders of the paper list: title, year, venue, date added, date changed, status,
and relevance to the search (SearchIndex.ranked; the library's order without one)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from reader.core.library import Library
from reader.core.models import Status
from reader.core.text import search_key

SORT_KEYS: dict[str, str] = {
    "library": "Library order",
    "title": "Title",
    "author": "First author",
    "year": "Year",
    "venue": "Venue",
    "added": "Date added",
    "changed": "Date changed",
    "status": "Status",
    "relevance": "Relevance",
    # learnt from the user's decisions, tags and ratings (reader.core.ranking): the
    # window sorts by them itself, with the model it trained off the GUI thread
    "interest": "Predicted interest",
    "like": "More like this",
}
#: the orders a model gives (sort_ids() keeps the library's order for them)
LEARNT = frozenset({"interest", "like"})
_STATUS_ORDER = {Status.READING: 0, Status.UNREAD: 1, Status.READ: 2}


def _key_function(lib: Library, key: str, ids: Sequence[str]) -> Callable[[str], Any]:
    """The sort key of each of `ids` (a catalogue field: read as one column)."""
    if key == "title":
        titles = lib.column("title", ids)
        return lambda pid: search_key(titles[pid]).lstrip("\"'“$\\{(")
    if key == "author":  # by the first author's family name (the last word of it)
        authors = lib.column("authors", ids)
        return lambda pid: _family(authors[pid])
    if key == "year":
        years = lib.column("year", ids)
        return lambda pid: years[pid] or 0
    if key == "venue":
        venues = lib.column("venue", ids)
        return lambda pid: search_key(venues[pid])
    if key == "added":
        return lib.column("added", ids).__getitem__
    if key == "changed":
        return lambda pid: lib.annotation(pid).modified
    if key == "status":
        return lambda pid: _STATUS_ORDER[lib.status(pid)]
    raise ValueError(f"unknown sort key {key!r}")


def sort_ids(lib: Library, ids: list[str], key: str, *, descending: bool = False) -> list[str]:
    """`ids` in the given order; ties keep library order (the sort is stable). In the
    library's order, `ids` itself (a million ids are not copied)."""
    if key in ("library", "relevance") or key in LEARNT:  # (relevance: ranked once searched)
        return ids[::-1] if descending else ids
    return sorted(ids, key=_key_function(lib, key, ids), reverse=descending)


def _family(authors: Sequence[str]) -> str:
    """The first author's family name as it sorts ("" sorts last: no author)."""
    if not authors or not authors[0].split():
        return "\uffff"
    first = authors[0]
    name = first.split(",")[0] if "," in first else first.split()[-1]
    return search_key(name)
