"""Library: papers and annotations in memory, every mutation, change events."""

from __future__ import annotations

import dataclasses
import datetime as dt
import json
import math
import re
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from reader.core.models import Annotation, Highlight, Paper, Status, normalise_tag, normalise_tags

#: The most a note may hold; bigger ones are refused before anything is written.
#: Every save rewrites annotations.json whole, so one huge note slows every later
#: save of any paper; a million characters is some 300 printed pages.
MAX_NOTE_CHARS = 1_000_000
#: Tags are labels, highlights quote an abstract: anything longer is a mistake.
MAX_TAG_CHARS = 200
MAX_HIGHLIGHT_CHARS = 100_000

_ALL_FIELDS = frozenset({"status", "tags", "note", "highlights", "rating"})


class LibraryStore(Protocol):
    """Where a Library keeps its data (reader.store implements it)."""

    def load_papers(self) -> list[Paper]: ...

    def load_annotations(self) -> dict[str, Annotation]: ...

    def write_annotations(self, changes: Mapping[str, Mapping[str, Any] | None]) -> None:
        """Durably apply field changes per paper id (None deletes the annotation)."""

    def add_papers(self, papers: Sequence[Paper]) -> None: ...

    def reload_annotations(self) -> dict[str, Annotation] | None:
        """The annotations as now on disk if another process changed them, else None."""


class SaveFailed(Exception):
    """An edit is kept in memory (and announced) but could not be written (disk
    full, read-only, I/O error). It stays pending and is written with the next
    edit or by retry_pending()."""


class UnknownPaper(KeyError):
    def __str__(self) -> str:
        return f"no paper with id {self.args[0]!r}"


@dataclass(frozen=True)
class Change:
    """What a mutation touched: which papers, which fields (or 'papers' for the catalogue)."""

    paper_ids: frozenset[str]
    fields: frozenset[str]


Listener = Callable[[Change], None]


def now_iso() -> str:
    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


# C0 controls other than tab, newline and carriage return: JSON can hold them, but
# they are never meant in text and break the files for other tools. The ones that
# separate things (vertical tab, form feed, separators) become a space.
_CONTROL = re.compile("[\x00-\x08\x0e-\x1b]")
_CONTROL_SPACE = re.compile("[\x0b\x0c\x1c-\x1f]")


def clean_text(text: str, *, limit: int) -> str:
    """Text as it may be stored: surrogate pairs joined, lone surrogates replaced
    by U+FFFD, control characters dropped. Longer than `limit`: ValueError."""
    if len(text) > limit:
        raise ValueError(f"text of {len(text):,} characters is over the limit of {limit:,}")
    if _has_surrogate(text):
        text = text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return _CONTROL_SPACE.sub(" ", _CONTROL.sub("", text))


def _has_surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def clean_tags(tags: Iterable[str]) -> list[str]:
    return normalise_tags(clean_text(t, limit=MAX_TAG_CHARS) for t in tags)


def _clean_highlight(h: Highlight) -> Highlight:
    def c(text: str) -> str:
        return clean_text(text, limit=MAX_HIGHLIGHT_CHARS)

    return dataclasses.replace(
        h, quote=c(h.quote), prefix=c(h.prefix), suffix=c(h.suffix), comment=c(h.comment),
        color=c(h.color), id=c(h.id), created=c(h.created),
    )


def _clean_rating(rating: object) -> int:
    if isinstance(rating, bool) or not isinstance(rating, (int, float)):
        raise ValueError(f"a rating must be a whole number, not {rating!r}")  # noqa: TRY004 (callers catch ValueError for bad input)
    if not math.isfinite(rating) or rating != int(rating) or abs(rating) > 1_000:
        raise ValueError(f"a rating must be a small whole number, not {rating!r}")
    return int(rating)


def clean_annotation(ann: Annotation) -> Annotation:
    """An annotation whose every value can be stored (see clean_text); ValueError if not."""
    return dataclasses.replace(
        ann,
        note=clean_text(ann.note, limit=MAX_NOTE_CHARS),
        tags=tuple(clean_tags(ann.tags)),
        highlights=tuple(_clean_highlight(h) for h in ann.highlights),
        rating=_clean_rating(ann.rating),
    )


def check_savable(value: object) -> None:
    """Raise ValueError if `value` holds what JSON cannot: lone surrogates, NaN, odd types."""
    try:
        json.dumps(value, allow_nan=False, ensure_ascii=False).encode("utf-8")
    except (TypeError, ValueError) as exc:  # UnicodeEncodeError is a ValueError
        raise ValueError(f"cannot be saved: {exc}") from None


class Library:
    """The papers and what the user wrote about them. Every edit goes through here,
    is written through the store, then announced to listeners."""

    def __init__(self, store: LibraryStore) -> None:
        self._store = store
        self._papers: dict[str, Paper] = {p.id: p for p in store.load_papers()}
        self._annotations: dict[str, Annotation] = store.load_annotations()
        self._listeners: list[Listener] = []
        #: field changes per paper that are in memory but not yet on disk (None: delete)
        self._pending: dict[str, dict[str, Any] | None] = {}

    # -- reading ----------------------------------------------------------

    def __len__(self) -> int:
        return len(self._papers)

    def __contains__(self, paper_id: object) -> bool:
        return paper_id in self._papers

    def paper_ids(self) -> list[str]:
        return list(self._papers)

    def papers(self) -> list[Paper]:
        return list(self._papers.values())

    def paper(self, paper_id: str) -> Paper:
        try:
            return self._papers[paper_id]
        except KeyError:
            raise UnknownPaper(paper_id) from None

    def annotation(self, paper_id: str) -> Annotation:
        self.paper(paper_id)
        return self._annotations.get(paper_id) or Annotation(paper_id)

    def status(self, paper_id: str) -> Status:
        ann = self._annotations.get(paper_id)
        return ann.status if ann else Status.UNREAD

    def tags(self, paper_id: str) -> tuple[str, ...]:
        ann = self._annotations.get(paper_id)
        return ann.tags if ann else ()

    def tag_counts(self) -> Counter[str]:
        counts: Counter[str] = Counter()
        for ann in self._annotations.values():
            if ann.paper_id in self._papers:
                counts.update(ann.tags)
        return counts

    def status_counts(self) -> Counter[Status]:
        counts: Counter[Status] = Counter({s: 0 for s in Status})
        for pid in self._papers:
            counts[self.status(pid)] += 1
        return counts

    # -- listeners --------------------------------------------------------

    def subscribe(self, listener: Listener) -> None:
        self._listeners.append(listener)

    def _announce(self, change: Change) -> None:
        for listener in list(self._listeners):
            listener(change)

    # -- annotation edits -------------------------------------------------

    def set_status(self, paper_ids: Iterable[str], status: Status) -> None:
        self._edit({pid: {"status": status} for pid in paper_ids})

    def set_tags(self, paper_id: str, tags: Iterable[str]) -> None:
        self._edit({paper_id: {"tags": tuple(clean_tags(tags))}})

    def add_tags(self, paper_ids: Iterable[str], tags: Iterable[str]) -> None:
        new = clean_tags(tags)
        self._edit({pid: {"tags": tuple(normalise_tags([*self.tags(pid), *new]))} for pid in paper_ids})

    def remove_tags(self, paper_ids: Iterable[str], tags: Iterable[str]) -> None:
        gone = {normalise_tag(t).casefold() for t in tags}
        self._edit(
            {pid: {"tags": tuple(t for t in self.tags(pid) if t.casefold() not in gone)} for pid in paper_ids}
        )

    def set_note(self, paper_id: str, note: str) -> None:
        self._edit({paper_id: {"note": clean_text(note, limit=MAX_NOTE_CHARS)}})

    def set_highlights(self, paper_id: str, highlights: Iterable[Highlight]) -> None:
        self._edit({paper_id: {"highlights": tuple(_clean_highlight(h) for h in highlights)}})

    def put_annotations(self, annotations: Mapping[str, Annotation]) -> None:
        """Store whole annotations as given, timestamps included (undo, restores)."""
        for pid in annotations:
            self.paper(pid)
        cleaned = {pid: clean_annotation(ann) for pid, ann in annotations.items()}
        changed = {pid: ann for pid, ann in cleaned.items() if self._annotations.get(pid) != ann}
        if changed:
            self._commit(changed, {pid: ann.to_dict() for pid, ann in changed.items()}, _ALL_FIELDS)

    def _edit(self, edits: Mapping[str, Mapping[str, Any]]) -> None:
        """Apply field edits to several annotations as one durable write."""
        stamp = now_iso()
        updated: dict[str, Annotation] = {}
        disk: dict[str, dict[str, Any]] = {}
        fields: set[str] = set()
        for pid, values in edits.items():
            old = self.annotation(pid)
            changed = {k: v for k, v in values.items() if getattr(old, k) != v}
            if not changed:
                continue
            new = dataclasses.replace(old, **changed, modified=stamp, created=old.created or stamp)
            updated[pid] = new
            full = new.to_dict()
            disk[pid] = {k: full[k] for k in (*changed, "modified", "created", "paper_id")}
            fields.update(changed)
        if updated:
            self._commit(updated, disk, frozenset(fields))

    def _commit(
        self, updated: dict[str, Annotation], disk: Mapping[str, dict[str, Any]], fields: frozenset[str]
    ) -> None:
        """Keep the edit, write it with anything still pending, announce it. A failed
        write leaves the edit in memory and pending, then raises SaveFailed."""
        check_savable(disk)  # refused whole, before anything changes
        for pid, values in disk.items():
            before = self._pending.get(pid)
            self._pending[pid] = {**before, **values} if before else dict(values)
        self._annotations.update(updated)
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
        if not papers:
            return
        self._store.add_papers(papers)
        for paper in papers:
            self._papers[paper.id] = paper
        self._announce(Change(frozenset(p.id for p in papers), frozenset({"papers"})))

    # -- other processes --------------------------------------------------

    def refresh(self) -> Change | None:
        """Pick up annotation changes another process wrote; announce what differs.
        Edits of ours still pending stay on top of what was read."""
        fresh = self._store.reload_annotations()
        if fresh is None:
            return None
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
        if not changed:
            return None
        change = Change(frozenset(changed), _ALL_FIELDS)
        self._announce(change)
        return change
