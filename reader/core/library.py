"""Library: papers and annotations in memory, every mutation, change events."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import chain
from operator import attrgetter
from types import MappingProxyType
from typing import Any, NamedTuple, Protocol

from reader.core import collector
from reader.core.cleaning import (  # noqa: F401 (MAX_* re-exported for callers)
    MAX_HIGHLIGHT_CHARS,
    MAX_NOTE_CHARS,
    MAX_TAG_CHARS,
    check_savable,
    clean_annotation,
    clean_highlight,
    clean_tags,
    clean_text,
)
from reader.core.models import (
    NO_ANNOTATION,
    Annotation,
    Highlight,
    Paper,
    Status,
)
from reader.core.normalise import normalise_tag, normalise_tags
from reader.core.prefs import Preferences

_ALL_FIELDS = frozenset({"status", "tags", "note", "highlights", "rating"})


class LibraryStore(Protocol):
    """Where a Library keeps its data (reader.store implements it)."""

    def load_papers(self) -> list[Paper]: ...

    def load_annotations(self) -> dict[str, Annotation]: ...

    def write_annotations(self, changes: Mapping[str, Mapping[str, Any] | None]) -> None:
        """Durably apply field changes per paper id (None deletes the annotation)."""

    def add_papers(self, papers: Sequence[Paper]) -> None: ...

    def load_table(self, name: str) -> dict[str, dict[str, Any]]:
        """A small table of user data (tag colours, saved searches, preferences)."""

    def write_table(self, name: str, changes: Mapping[str, Mapping[str, Any] | None]) -> None:
        """Durably set documents of a small table (None deletes one)."""

    def reload_annotations(self) -> dict[str, Annotation] | None:
        """The annotations as now on disk if another process changed them, else None."""


class SaveFailed(Exception):
    """An edit is kept in memory (and announced) but could not be written (disk
    full, read-only, I/O error). It stays pending and is written with the next
    edit or by retry_pending()."""


class UnknownPaper(KeyError):
    def __str__(self) -> str:
        return f"no paper with id {self.args[0]!r}"


class Change(NamedTuple):  # not a dataclass: one is ~1 ms of the program's start
    """What a mutation touched: which papers, which fields (or 'papers' for the catalogue)."""

    paper_ids: frozenset[str]
    fields: frozenset[str]


Listener = Callable[[Change], None]


def now_iso() -> str:
    import datetime as dt  # (at the first edit: not before the first paint)

    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


class Library:
    """The papers and what the user wrote about them. Every edit goes through here,
    is written through the store, then announced to listeners."""

    def __init__(self, store: LibraryStore) -> None:
        self._store = store
        papers = store.load_papers()
        self._papers: dict[str, Paper] = dict(
            zip(map(attrgetter("id"), papers), papers, strict=True)
        )
        self._annotations: dict[str, Annotation] = store.load_annotations()
        self._listeners: list[Listener] = []
        #: field changes per paper that are in memory but not yet on disk (None: delete)
        self._pending: dict[str, dict[str, Any] | None] = {}
        #: tag colours, saved searches, preferences (annotations.json, small tables)
        self.prefs = Preferences(store)

    # -- reading ----------------------------------------------------------

    def __len__(self) -> int:
        return len(self._papers)

    def __contains__(self, paper_id: object) -> bool:
        return paper_id in self._papers

    def paper_ids(self) -> list[str]:
        return list(self._papers)

    def papers(self) -> list[Paper]:
        return list(self._papers.values())

    def papers_by_id(self) -> MappingProxyType[str, Paper]:
        """Every paper by id, read-only (a view that follows the library; its copy()
        is a dict of them as they are now, ~20x faster than dict() of the view)."""
        return MappingProxyType(self._papers)

    def paper(self, paper_id: str) -> Paper:
        try:
            return self._papers[paper_id]
        except KeyError:
            raise UnknownPaper(paper_id) from None

    def annotation(self, paper_id: str) -> Annotation:
        self.paper(paper_id)
        return self._annotations.get(paper_id) or Annotation(paper_id)

    def annotations_of(self, paper_ids: Iterable[str]) -> dict[str, Annotation | None]:
        """The papers' annotations as they are now, None for a paper without one: what
        put_annotations() takes to put them back (undo). UnknownPaper for an unknown id."""
        papers, annotations = self._papers, self._annotations
        out = {}
        for pid in paper_ids:
            if pid not in papers:
                raise UnknownPaper(pid)
            out[pid] = annotations.get(pid)
        return out

    def annotations(self) -> Mapping[str, Annotation]:
        """Every non-default annotation by paper id, read-only (may hold ids of
        papers no longer in the catalogue)."""
        return MappingProxyType(self._annotations)

    def status(self, paper_id: str) -> Status:
        ann = self._annotations.get(paper_id)
        return ann.status if ann else Status.UNREAD

    def tags(self, paper_id: str) -> tuple[str, ...]:
        ann = self._annotations.get(paper_id)
        return ann.tags if ann else ()

    def tag_counts(self) -> Counter[str]:
        papers = self._papers  # (counted in one pass: 100,000 tagged papers after a bulk edit)
        return Counter(
            chain.from_iterable(a.tags for a in self._annotations.values() if a.paper_id in papers)
        )

    def status_counts(self) -> Counter[Status]:
        counts: Counter[Status] = Counter({s: 0 for s in Status})
        for pid in self._papers:
            counts[self.status(pid)] += 1
        return counts

    def count_status(self, status: Status) -> int:
        """How many papers have `status`: a pass over the annotations, not the papers
        (a paper without one is unread)."""
        papers = self._papers
        if status is Status.UNREAD:
            return len(papers) - sum(
                1
                for ann in self._annotations.values()
                if ann.status is not Status.UNREAD and ann.paper_id in papers
            )
        return sum(
            1
            for ann in self._annotations.values()
            if ann.status is status and ann.paper_id in papers
        )

    # -- listeners --------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def _announce(self, change: Change) -> None:
        for listener in list(self._listeners):
            listener(change)

    # -- annotation edits -------------------------------------------------

    def set_status(self, paper_ids: Iterable[str], status: Status) -> None:
        values = {"status": status}
        self._edit(dict.fromkeys(paper_ids, values))

    def set_tags(self, paper_id: str, tags: Iterable[str]) -> None:
        self._edit({paper_id: {"tags": tuple(clean_tags(tags))}})

    def add_tags(self, paper_ids: Iterable[str], tags: Iterable[str]) -> None:
        new = clean_tags(tags)
        self._edit_tags(paper_ids, lambda old: {"tags": tuple(normalise_tags([*old, *new]))})

    def remove_tags(self, paper_ids: Iterable[str], tags: Iterable[str]) -> None:
        gone = {normalise_tag(t).casefold() for t in tags}
        self._edit_tags(
            paper_ids, lambda old: {"tags": tuple(t for t in old if t.casefold() not in gone)}
        )

    def _edit_tags(
        self, paper_ids: Iterable[str], edit: Callable[[tuple[str, ...]], dict[str, Any]]
    ) -> None:
        """Edit each paper's tags by `edit(its tags)`, worked out once per set of tags
        (a bulk edit of 100,000 papers meets a few dozen)."""
        edited = functools.cache(edit)
        self._edit({pid: edited(self.tags(pid)) for pid in paper_ids})

    # -- whole tags -----------------------------------------------------------

    def papers_with_tag(self, tag: str) -> list[str]:
        """Papers tagged `tag` or one of its children (`tag/...`), case-insensitive."""
        key = normalise_tag(tag).casefold()
        return [
            pid
            for pid, ann in self._annotations.items()
            if pid in self._papers
            and any(t.casefold() == key or t.casefold().startswith(key + "/") for t in ann.tags)
        ]

    def rename_tag(self, old: str, new: str) -> None:
        """Rename a tag and its children (`old/x` -> `new/x`) everywhere, as one write.
        Renaming onto an existing tag merges the two. The colour follows."""
        old_key, new = normalise_tag(old).casefold(), normalise_tag(new)
        if not new:
            raise ValueError("a tag needs a name")

        def renamed(tag: str) -> str:
            key = tag.casefold()
            if key == old_key:
                return new
            return new + tag[len(old_key) :] if key.startswith(old_key + "/") else tag

        self._edit(
            {
                pid: {"tags": tuple(clean_tags(renamed(t) for t in self.tags(pid)))}
                for pid in self.papers_with_tag(old)
            }
        )
        colours = self.prefs.tag_colours()
        moved = {
            renamed(t): c
            for t, c in colours.items()
            if renamed(t) not in colours or t == renamed(t)
        }
        if moved != colours:
            self.set_tag_colours(moved)

    def delete_tag(self, tag: str) -> None:
        """Remove exactly this tag from every paper (children stay), as one write."""
        key = normalise_tag(tag).casefold()
        self._edit(
            {
                pid: {"tags": tuple(t for t in self.tags(pid) if t.casefold() != key)}
                for pid in self.papers_with_tag(tag)
            }
        )
        colours = self.prefs.tag_colours()
        if any(t.casefold() == key for t in colours):
            self.set_tag_colours({t: c for t, c in colours.items() if t.casefold() != key})

    def tag_colours(self) -> dict[str, str]:
        return self.prefs.tag_colours()

    def set_tag_colours(self, colours: dict[str, str]) -> None:
        self.prefs.set_tag_colours(colours)
        self._announce(Change(frozenset(), frozenset({"prefs"})))

    def save_search(self, name: str, query: str) -> None:
        self.prefs.save_search(name, query)
        self._announce(Change(frozenset(), frozenset({"prefs"})))

    def delete_search(self, name: str) -> None:
        self.prefs.delete_search(name)
        self._announce(Change(frozenset(), frozenset({"prefs"})))

    def set_note(self, paper_id: str, note: str) -> None:
        self._edit({paper_id: {"note": clean_text(note, limit=MAX_NOTE_CHARS)}})

    def set_highlights(self, paper_id: str, highlights: Iterable[Highlight]) -> None:
        self._edit({paper_id: {"highlights": tuple(clean_highlight(h) for h in highlights)}})

    def put_annotations(self, annotations: Mapping[str, Annotation | None]) -> None:
        """Store whole annotations as given, timestamps included (undo, restores); None
        removes a paper's annotation (the undo of its first edit)."""
        for pid in annotations:
            self.paper(pid)
        current = self._annotations
        changed: dict[str, Annotation | None] = {}
        with collector.paused():  # (as in _edit)
            for pid, ann in annotations.items():
                cleaned = None if ann is None else clean_annotation(ann)
                if current.get(pid) != cleaned:
                    changed[pid] = cleaned
            disk = {pid: None if ann is None else ann.to_dict() for pid, ann in changed.items()}
        if changed:
            self._commit(changed, disk, _ALL_FIELDS)

    def _edit(self, edits: Mapping[str, Mapping[str, Any]]) -> None:
        """Apply field edits to several annotations as one durable write."""
        stamp = now_iso()
        papers, annotations = self._papers, self._annotations
        updated: dict[str, Annotation | None] = {}
        disk: dict[str, dict[str, Any] | None] = {}
        fields: set[str] = set()
        with collector.paused():  # a bulk edit makes 100,000s of containers, no garbage
            for pid, values in edits.items():
                old = annotations.get(pid)
                if old is None:
                    if pid not in papers:
                        raise UnknownPaper(pid)
                    old = NO_ANNOTATION
                changed = {k: v for k, v in values.items() if getattr(old, k) != v}
                if not changed:
                    continue
                new = updated[pid] = old.edited(pid, changed, stamp)
                disk[pid] = new.stored((*changed, "modified", "created", "paper_id"))
                fields.update(changed)
        if updated:
            self._commit(updated, disk, frozenset(fields))

    def _commit(
        self,
        updated: dict[str, Annotation | None],
        disk: Mapping[str, dict[str, Any] | None],
        fields: frozenset[str],
    ) -> None:
        """Keep the edit (None: an annotation removed), write it with anything still
        pending, announce it. A failed write leaves the edit in memory and pending,
        then raises SaveFailed."""
        check_savable(disk)  # refused whole, before anything changes
        pending, annotations = self._pending, self._annotations
        for pid, values in disk.items():
            if values is None or pid not in pending:
                pending[pid] = values
            elif (before := pending[pid]) is None:  # removed, then edited: written whole
                pending[pid] = updated[pid].to_dict()  # type: ignore[union-attr]
            else:
                pending[pid] = {**before, **values}
        for pid, ann in updated.items():
            if ann is None:
                annotations.pop(pid, None)
            else:
                annotations[pid] = ann
        failure = self._flush()
        self._announce(Change(frozenset(updated), fields))
        if failure is not None:
            raise SaveFailed(str(failure)) from failure

    def _flush(self) -> OSError | None:
        if not self._pending:
            return None
        # StorageError is an OSError; core cannot name it (store depends on core)
        try:
            self._store.write_annotations(dict(self._pending))
        except OSError as exc:
            return exc
        self._pending.clear()
        return None

    # -- edits not yet on disk --------------------------------------------

    def pending_count(self) -> int:
        """How many papers have edits in memory that are not yet saved."""
        return len(self._pending)

    def retry_pending(self) -> bool:
        """Write every pending edit in one write; True when nothing is left pending."""
        return self._flush() is None

    # -- catalogue --------------------------------------------------------

    def add_papers(self, papers: Sequence[Paper]) -> None:
        """Add or update catalogue entries as one write (imports)."""
        self.write_papers(papers)
        self.papers_written(papers)

    def write_papers(self, papers: Sequence[Paper]) -> None:
        """The write of add_papers() alone, the library in memory left as it is: it
        reads nothing else of the library, so a worker thread may run it while the
        library's own thread goes on using the library (the store takes care of its
        files: see LibraryFolder.add_papers); that thread then calls papers_written()."""
        if papers:
            self._store.add_papers(papers)

    def papers_written(self, papers: Sequence[Paper]) -> None:
        """Take in the papers write_papers() wrote, and announce them."""
        if not papers:
            return
        self._papers.update(zip(map(attrgetter("id"), papers), papers, strict=True))
        self._announce(Change(frozenset(p.id for p in papers), frozenset({"papers"})))

    # -- other processes --------------------------------------------------

    def refresh(self) -> Change | None:
        """Pick up annotation changes another process wrote; announce what differs.
        Edits of ours still pending stay on top of what was read."""
        fresh = self._store.reload_annotations()
        if fresh is None:
            return None
        before = (self.prefs.tag_colours(), self.prefs.saved_searches())
        self.prefs.reload()
        prefs_changed = before != (self.prefs.tag_colours(), self.prefs.saved_searches())
        for pid, values in self._pending.items():
            if values is None:
                fresh.pop(pid, None)
            else:
                base = (fresh.get(pid) or Annotation(pid)).to_dict()
                fresh[pid] = Annotation.from_dict({**base, **values, "paper_id": pid})
        changed = {
            pid
            for pid in set(fresh) | set(self._annotations)
            if fresh.get(pid) != self._annotations.get(pid)
        }
        self._annotations = fresh
        if not changed and not prefs_changed:
            return None
        change = Change(
            frozenset(changed), _ALL_FIELDS | {"prefs"} if prefs_changed else _ALL_FIELDS
        )
        self._announce(change)
        return change
