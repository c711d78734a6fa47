"""What the user wrote, as the search index reads it: each record's status, keyed
tags and keyed note text, and which records have a note, tags or highlights.

Statuses are read at once (the list's counts show them). The rest, ~0.1 s at 10k
annotated papers, is taken in a slice at a time while idle, or all at once by the
first search that needs it."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable, Generator, Iterable, Mapping, Sequence

from reader.core.bitsets import bits_of
from reader.core.facets import tag_ancestors
from reader.core.models import Annotation, Status
from reader.core.search_text import _written, user_words
from reader.core.steps import run_steps
from reader.core.text import search_key

#: a status as one byte, for bitsets made with bytes.translate
STATUS = {s.value: code for code, s in enumerate(Status)}
#: the same by member (4x faster than through .value: marking 100k papers read)
_CODE = {s: code for code, s in enumerate(Status)}
#: annotations taken in per look at the clock (~1 ms)
SETTLE_CHUNK = 200
#: tagged records grouped per step of tag_nodes_in_steps() (~8 ms)
TAG_PART = 5_000


@functools.lru_cache(maxsize=1024)
def _keyed_tags(tags: tuple[str, ...]) -> tuple[tuple[str, ...], str]:
    """A set of tags keyed, and the words of an annotation with only these tags:
    the same few sets recur over a bulk edit of 100,000 papers."""
    return tuple(search_key(t) for t in tags), user_words(Annotation("", tags=tags))


class UserTexts:
    """The annotations of `n` records (the index grows `status` as it adds records),
    taken in by take_statuses() then settle()."""

    def __init__(self, n: int) -> None:
        self.status = bytearray(n)
        self.notes: dict[int, str] = {}  # words (reader.core.words.spaced), of records with any
        self.tags: dict[int, tuple[str, ...]] = {}
        self.has: dict[str, set[int]] = {"note": set(), "tags": set(), "highlights": set()}
        self._pending: list[tuple[int, Annotation]] = []

    def take_statuses(
        self, annotations: Iterable[tuple[str, Annotation]], rid: Mapping[str, int]
    ) -> None:
        """Read these (paper id, annotation) pairs' statuses now, the rest later."""
        status, pending = self.status, self._pending
        for pid, ann in annotations:
            if (r := rid.get(pid)) is not None and not ann.is_empty:
                status[r] = _CODE[ann.status]
                pending.append((r, ann))

    @property
    def settled(self) -> bool:
        return not self._pending

    def settle(self, deadline: float | None = None) -> bool:
        """Take in the annotations left for later, until `deadline` (None: all); True
        once all are."""
        pending = self._pending
        while pending:
            for r, ann in pending[-SETTLE_CHUNK:]:
                self.annotate(r, ann)
            del pending[-SETTLE_CHUNK:]
            if deadline is not None and pending and time.perf_counter() > deadline:
                return False
        return True

    def annotate(self, r: int, ann: Annotation) -> bool:
        """Record r's annotation is now `ann`: True if its tags changed."""
        self.status[r] = _CODE[ann.status]
        written = ann.note or ann.highlights
        if not (written or ann.tags or r in self.notes):  # (r is in no `has` set either)
            return False  # nothing written, before or now: the status is all (marking 100k read)
        has = self.has
        for name, value in _written(ann):
            (has[name].add if value else has[name].discard)(r)
        before = self.tags.pop(r, None)
        self.notes.pop(r, None)
        if ann.tags:
            self.tags[r], only_tags = _keyed_tags(ann.tags)
            self.notes[r] = user_words(ann) if written else only_tags
        elif written:
            self.notes[r] = user_words(ann)
        return self.tags.get(r) != before

    def tag_nodes(self, tags_of: Callable[[int], Sequence[str]]) -> dict[str, int]:
        """The records of each tag and each of its parents ("a" and "a/b" for "a/b"),
        `tags_of` giving a record's tags as the user wrote them."""
        return run_steps(self.tag_nodes_in_steps(tags_of))[1] or {}

    def tag_nodes_in_steps(
        self, tags_of: Callable[[int], Sequence[str]]
    ) -> Generator[None, None, dict[str, int]]:
        """tag_nodes() a part at a time (TAG_PART records a step: ~60 ms in all at 1M
        papers, 40,000 of them tagged). The records are grouped by their set of tags
        first: after a bulk edit 100,000 records share a few (0.35-0.75 s at 100k, a
        record's tags at a time)."""
        by_tags: dict[tuple[str, ...], list[int]] = {}
        records = list(self.tags)
        for start in range(0, len(records), TAG_PART):
            for r in records[start : start + TAG_PART]:
                by_tags.setdefault(tuple(tags_of(r)), []).append(r)
            yield
        members: dict[str, list[int]] = {}
        for tags, records in by_tags.items():
            nodes = {node for tag in tags for node in tag_ancestors(tag)}
            for node in nodes:
                members.setdefault(node, []).extend(records)
        return {node: bits_of(rs, len(self.status)) for node, rs in members.items()}
