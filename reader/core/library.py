"""Library: papers and annotations in memory, every mutation, change events."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from itertools import chain
from types import MappingProxyType
from typing import Any, NamedTuple, Protocol

from reader.core import collector, say
from reader.core.cleaning import (  # noqa: F401 (MAX_* re-exported for callers)
    MAX_HIGHLIGHT_CHARS,
    MAX_NOTE_CHARS,
    MAX_TAG_CHARS,
    check_savable,
    clean_annotation,
    clean_highlight,
    clean_rating,
    clean_tags,
    clean_text,
)
from reader.core.edits import (
    ALL_FIELDS,
    NO_EDIT,
    AddTags,
    Applied,
    DeleteTag,
    Edit,
    FillIfEmpty,
    Kept,
    PaperOp,
    PutHighlight,
    RemoveTags,
    RenameTag,
    Revert,
    SetNote,
    SetRating,
    SetStatus,
    apply_ops,
    apply_saved,
    highlight_ops,
    note_fields,
    paper_ids_of,
    savable_values,
    stored_changes,
    tag_ops,
)
from reader.core.merge import Matcher
from reader.core.models import (
    NOT_LOADED,
    PURGED,
    TRASH,
    Annotation,
    Highlight,
    Paper,
    Status,
    listed,
    with_abstract,
)
from reader.core.normalise import normalise_tag
from reader.core.paper_table import PapersInMemory, PaperTable
from reader.core.prefs import SAVED_SEARCHES, TAG_COLOURS, Preferences

_ALL_FIELDS = ALL_FIELDS
#: papers whose abstracts completed() fetches at a time
COMPLETE_PART = 2_000
Changes = Mapping[str, Mapping[str, Any] | None]


class CaughtUp(NamedTuple):
    """What other processes saved since this one last read or wrote the library,
    found under the lock before an edit: the annotations anew (`full`, when the
    file itself was rewritten) or the field changes of their saves, in order."""

    full: dict[str, Annotation] | None
    changes: Sequence[Changes]


NOTHING_NEW = CaughtUp(None, ())


class LibraryStore(Protocol):
    """Where a Library keeps its data (reader.store implements it). A store that
    fetches abstracts (`abstracts(ids) -> dict[str, str]`, by id, from any thread) may
    list papers without them (each abstract models.NOT_LOADED, or "" for none); the
    library then holds none (see Library.abstracts)."""

    def load_papers(self) -> list[Paper] | PaperTable: ...

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

    def update(
        self, compute: Callable[[CaughtUp], Changes]
    ) -> Mapping[str, Annotation | None] | None:
        """Holding the lock: catch up with what other processes saved, hand that to
        `compute`, and durably write the field changes it returns as one save (none:
        nothing is written). A store without it: compute(NOTHING_NEW), then
        write_annotations()."""


class SaveFailed(Exception):
    """An edit is kept in memory (and announced) but could not be written (disk
    full, read-only, I/O error). It stays pending and is written with the next
    edit or by retry_pending(). `edit`: what it changed in memory (to undo it)."""

    def __init__(self, message: str, edit: Edit = NO_EDIT) -> None:
        super().__init__(message)
        self.edit = edit


class UnknownPaper(KeyError):
    def __str__(self) -> str:
        return f"no paper with id {self.args[0]!r}"


class Change(NamedTuple):  # not a dataclass: one is ~1 ms of the program's start
    """What a mutation touched: which papers, which fields (or 'papers' for the catalogue)."""

    paper_ids: frozenset[str]
    fields: frozenset[str]


Listener = Callable[[Change], None]


def _setting(table: str, key: str) -> str:
    """How a setting is named in a message."""
    if table == TAG_COLOURS:
        return f"colour of tag {key}"
    if table == SAVED_SEARCHES:
        return f"saved search {key}"
    return f"setting {key}"


def now_iso() -> str:
    import datetime as dt  # (at the first edit: not before the first paint)

    return dt.datetime.now(dt.UTC).isoformat(timespec="seconds")


class Library:
    """The papers and what the user wrote about them. Every edit goes through here,
    is written through the store, then announced to listeners."""

    def __init__(self, store: LibraryStore) -> None:
        self._store = store
        papers = store.load_papers()
        self._papers: PaperTable | PapersInMemory = (
            papers if isinstance(papers, PaperTable) else PapersInMemory((p.id, p) for p in papers)
        )
        self._annotations: dict[str, Annotation] = store.load_annotations()
        self._listeners: list[Listener] = []
        #: edits in memory not yet on disk: applied again, in order, to the state
        #: found on disk at the next write (retry_pending, the next edit) or reload
        self._pending: list[PaperOp] = []
        #: the fields per paper they changed in memory (None: the whole annotation),
        #: written at the next write even if applying them again changes nothing more
        self._unsaved: dict[str, frozenset[str] | None] = {}
        #: tag colours, saved searches, preferences (annotations.json, small tables)
        self.prefs = Preferences(store)
        #: what the last edit's reverts left as others made it (see revert())
        self.last_kept: list[Kept] = []
        #: the catalogue's writes of this session: of each paper written, the last one
        self._written: dict[str, int] = {}
        self._writes = 0

    # -- reading ----------------------------------------------------------

    def __len__(self) -> int:
        return len(self._papers)

    def __contains__(self, paper_id: object) -> bool:
        return paper_id in self._papers.ids

    def paper_ids(self) -> list[str]:
        return list(self._papers.ids)

    def papers(self) -> list[Paper]:
        """Every paper in the library's order (a million of them: a gigabyte; what
        goes through them all reads papers_in_order() instead)."""
        return list(self._papers.in_order(list(self._papers.ids)))

    def papers_by_id(self) -> Mapping[str, Paper]:
        """Every paper by id, read-only (a view that follows the library, reading
        each paper when asked for; its copy() is a dict of them all as they are now)."""
        return MappingProxyType(self._papers)

    def matcher(self) -> Matcher:
        """Where an import finds the library's papers by the keys they are matched on
        (reader.core.merge.plan_import), from any thread."""
        return self._papers.matcher(self.abstracts)

    def in_order(self, paper_ids: Collection[str]) -> list[str]:
        """The papers of `paper_ids` in the library's order. The papers entered last
        (an import's, those an index made anew takes in) are looked for from the end:
        a few of a million cost what they are, not a pass over the million."""
        order = self._papers.ids
        present = [pid for pid in paper_ids if pid in order]
        if len(present) << 4 < len(order):
            wanted, found = set(present), []
            for pid in reversed(order):
                if pid in wanted:
                    found.append(pid)
                    if len(found) == len(wanted):
                        return found[::-1]
        wanted = set(present)
        return [pid for pid in order if pid in wanted]

    def paper(self, paper_id: str) -> Paper:
        """The paper as the library lists it: its abstract may be NOT_LOADED (a
        library keeps none in memory); full_paper() has it."""
        try:
            return self._papers[paper_id]
        except KeyError:
            raise UnknownPaper(paper_id) from None

    def listed_papers(self, paper_ids: Sequence[str]) -> dict[str, Paper]:
        """The papers of `paper_ids` (those of the library) as it lists them, read
        together (the rows a list shows)."""
        papers = self._papers
        if isinstance(papers, PaperTable):
            return papers.fetch(paper_ids)
        return {pid: papers[pid] for pid in paper_ids if pid in papers}

    def papers_in_order(
        self, paper_ids: Sequence[str], *, placeholders: bool = False
    ) -> Sequence[Paper]:
        """The papers of `paper_ids` in that order, read a part at a time as they are
        gone through; an id of no paper: KeyError, or with `placeholders` a Paper of
        that id with nothing else."""
        return self._papers.in_order(paper_ids, placeholders=placeholders)

    def search_words(self) -> Any:
        """The catalogue's words as its store keeps them for search (a CatalogueWords
        of reader.core.index), or None if it keeps none."""
        words = getattr(self._store, "words", None)
        return words() if words is not None else None

    def written(self, paper_id: str) -> int:
        """Which of this session's catalogue writes (imports) last wrote the paper (0:
        none): a paper whose number changed was written anew (re-imported)."""
        return self._written.get(paper_id, 0)

    def column(self, field: str, paper_ids: Iterable[str] | None = None) -> dict[str, Any]:
        """The value of the catalogue field `field` (title, authors, year, venue,
        added; abstract: NOT_LOADED or "") of each of `paper_ids` (default: every
        paper), by id: what a sort or a facet reads, without reading whole papers."""
        return self._papers.column(field, paper_ids)

    # -- abstracts: fetched from the store when needed -------------------------

    def abstracts(self, paper_ids: Iterable[str]) -> dict[str, str]:
        """The abstracts of papers `paper_ids` ("" for none), by id, those in the trash
        too; an id of no paper is left out. From any thread (imports and ranking
        read them on workers)."""
        papers = self._papers
        out: dict[str, str] = {}
        fetch: list[str] = []
        for pid in paper_ids:
            paper = papers.get(pid) if isinstance(papers, PapersInMemory) else None
            if paper is None or paper.abstract == NOT_LOADED:
                fetch.append(pid)
            else:
                out[pid] = paper.abstract
        get = getattr(self._store, "abstracts", None)
        if fetch and get is not None:
            out.update(get(fetch))
        return out

    def abstract(self, paper_id: str) -> str:
        """The paper's abstract ("" if none); UnknownPaper for an unknown id."""
        self.paper(paper_id)
        return self.abstracts([paper_id]).get(paper_id, "")

    def full_paper(self, paper_id: str) -> Paper:
        """The paper with its abstract (what is shown, exported, written)."""
        (paper,) = self.completed([self.paper(paper_id)])
        return paper

    def full_papers(self, paper_ids: Iterable[str]) -> list[Paper]:
        """full_paper() of each of `paper_ids`, fetched together."""
        return list(self.completed([self.paper(pid) for pid in paper_ids]))

    def completed(self, papers: Iterable[Paper], *, strict: bool = False) -> Iterator[Paper]:
        """`papers`, each with its abstract (a few thousand fetched at a time): of
        papers as the library lists them, or any others. `strict`: LookupError for an
        abstract the store no longer has (an empty one would be written over it)."""
        part: list[Paper] = []
        for paper in papers:
            part.append(paper)
            if len(part) == COMPLETE_PART:
                yield from self._completed(part, strict)
                part = []
        yield from self._completed(part, strict)

    def _completed(self, papers: list[Paper], strict: bool) -> list[Paper]:
        lean = [p.id for p in papers if p.abstract == NOT_LOADED]
        if not lean:
            return papers
        found = self.abstracts(lean)
        if strict and len(found) < len(set(lean)):
            missing = next(pid for pid in lean if pid not in found)
            raise LookupError(f"the abstract of paper {missing!r} cannot be read")
        return [
            with_abstract(p, found.get(p.id, "")) if p.abstract == NOT_LOADED else p for p in papers
        ]

    def annotation(self, paper_id: str) -> Annotation:
        self.paper(paper_id)
        return self._annotations.get(paper_id) or Annotation(paper_id)

    def annotations_of(self, paper_ids: Iterable[str]) -> dict[str, Annotation | None]:
        """The papers' annotations as they are now, None for a paper without one.
        UnknownPaper for an unknown id."""
        papers, annotations = self._papers.ids, self._annotations
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
        papers = self._papers.ids  # (counted in one pass: 100,000 tagged papers after a bulk edit)
        return Counter(
            chain.from_iterable(a.tags for a in self._annotations.values() if a.paper_id in papers)
        )

    def status_counts(self) -> Counter[Status]:
        counts: Counter[Status] = Counter({s: 0 for s in Status})
        for pid in self._papers.ids:
            counts[self.status(pid)] += 1
        return counts

    def count_status(self, status: Status) -> int:
        """How many papers have `status`: a pass over the annotations, not the papers
        (a paper without one is unread)."""
        papers = self._papers.ids
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
    #
    # Each edit is a list of operations (reader.core.edits) applied under the
    # store's lock to the annotations as they are on disk then: the store first
    # catches up with other processes' saves, which this library takes in, then the
    # operations are applied to that and the fields they changed written as one
    # journal line. Memory follows from that result, never from a stale copy.

    def set_status(self, paper_ids: Iterable[str], status: Status) -> Edit:
        return self._edit([SetStatus(tuple(paper_ids), status)])

    def set_rating(self, paper_ids: Iterable[str], rating: int) -> Edit:
        return self._edit([SetRating(tuple(paper_ids), clean_rating(rating))])

    def set_tags(self, paper_id: str, tags: Iterable[str]) -> Edit:
        """Make the paper's tags `tags`: the ones removed and added since its tags as
        this library shows them (a tag another process added meanwhile stays)."""
        self.paper_or_annotation(paper_id)
        return self._edit(list(tag_ops((paper_id,), self.tags(paper_id), clean_tags(tags))))

    def add_tags(self, paper_ids: Iterable[str], tags: Iterable[str]) -> Edit:
        new = tuple(clean_tags(tags))
        ids = tuple(paper_ids)
        return self._edit([AddTags(ids, new)] if new else [], ids)

    def remove_tags(self, paper_ids: Iterable[str], tags: Iterable[str]) -> Edit:
        gone = frozenset(normalise_tag(t).casefold() for t in tags)
        ids = tuple(paper_ids)
        return self._edit([RemoveTags(ids, gone)] if gone else [], ids)

    # -- whole tags -----------------------------------------------------------

    def papers_with_tag(self, tag: str) -> list[str]:
        """Papers tagged `tag` or one of its children (`tag/...`), case-insensitive."""
        key = normalise_tag(tag).casefold()
        return [
            pid
            for pid, ann in self._annotations.items()
            if pid in self._papers.ids
            and any(t.casefold() == key or t.casefold().startswith(key + "/") for t in ann.tags)
        ]

    def rename_tag(self, old: str, new: str) -> Edit:
        """Rename a tag and its children (`old/x` -> `new/x`) everywhere, as one write:
        on every paper that has one when the write is made. Renaming onto an existing
        tag merges the two. The colour follows."""
        old_key = normalise_tag(old).casefold()
        cleaned = clean_tags([new])
        if not cleaned:
            raise say.SaidError("a tag needs a name")
        edit = self._edit([RenameTag(old_key, cleaned[0])])
        if self.prefs.rename_tag_colours(old_key, cleaned[0]):
            self._announce(Change(frozenset(), frozenset({"prefs"})))
        return edit.then(Edit(tables=self.prefs.last_change()))

    def delete_tag(self, tag: str) -> Edit:
        """Remove exactly this tag from every paper (children stay), as one write."""
        key = normalise_tag(tag).casefold()
        edit = self._edit([DeleteTag(key)])
        if self.prefs.drop_tag_colour(key):
            self._announce(Change(frozenset(), frozenset({"prefs"})))
        return edit.then(Edit(tables=self.prefs.last_change()))

    def tag_colours(self) -> dict[str, str]:
        return self.prefs.tag_colours()

    def set_tag_colours(self, colours: dict[str, str]) -> None:
        """The tag colours as `colours`: each tag whose colour was given, changed or
        taken away since this library's copy, applied to them as they are now."""
        self.prefs.set_tag_colours(colours)
        self._announce(Change(frozenset(), frozenset({"prefs"})))

    def fill_tag_colours(self, colours: Mapping[str, str]) -> None:
        """Colour each of these tags that has no colour when it is written (imports)."""
        if self.prefs.fill_tag_colours(colours):
            self._announce(Change(frozenset(), frozenset({"prefs"})))

    def set_tag_colour(self, tag: str, colour: str | None) -> Edit:
        """One tag's colour ("#rrggbb"; None: none), the others left as they are."""
        self.prefs.set_tag_colour(tag, colour)
        edit = Edit(tables=self.prefs.last_change())
        self._announce(Change(frozenset(), frozenset({"prefs"})))
        return edit

    def save_search(self, name: str, query: str) -> None:
        self.prefs.save_search(name, query)
        self._announce(Change(frozenset(), frozenset({"prefs"})))

    def delete_search(self, name: str) -> None:
        self.prefs.delete_search(name)
        self._announce(Change(frozenset(), frozenset({"prefs"})))

    def set_note(self, paper_id: str, note: str) -> Edit:
        return self._edit([SetNote(paper_id, clean_text(note, limit=MAX_NOTE_CHARS))])

    def set_highlights(self, paper_id: str, highlights: Iterable[Highlight]) -> Edit:
        """Make the paper's highlights `highlights`: each one added, changed or removed
        since this library's copy (one another process added meanwhile stays)."""
        new = tuple(clean_highlight(h) for h in highlights)
        self.paper_or_annotation(paper_id)
        ann = self._annotations.get(paper_id)
        return self._edit(list(highlight_ops(paper_id, ann.highlights if ann else (), new)))

    def revert(self, edit: Edit) -> list[Kept]:
        """Undo `edit` (redo: its inverse()) as an edit of its own, under the lock, on
        what is on disk now: each field, tag, highlight and setting it changed goes
        back where it is still as the edit left it; where someone (this program,
        another) changed it since, theirs stays and is returned."""
        ops: list[PaperOp] = [
            Revert(pid, was, made) for pid, (was, made) in edit.papers.items() if was != made
        ]
        self.last_kept = []
        if ops:
            self._edit(ops, ())
        kept = list(self.last_kept)
        if any(edit.tables.values()):
            others = self.prefs.revert(edit.tables)
            kept += [Kept("", _setting(name, key)) for name, key in others]
            self._announce(Change(frozenset(), frozenset({"prefs"})))
        return kept

    def fill_if_empty(self, annotations: Iterable[Annotation]) -> Edit:
        """Give papers these annotations (an import restoring what its file carried),
        each only if the paper has nothing of its own when the write is made."""
        ops: list[PaperOp] = []
        for ann in annotations:
            self.paper(ann.paper_id)
            if not ann.is_empty:
                ops.append(FillIfEmpty(clean_annotation(ann)))
        return self._edit(ops)

    def paper_or_annotation(self, paper_id: str) -> None:
        """UnknownPaper unless `paper_id` is a paper's or an annotation's id."""
        if paper_id not in self._papers.ids and paper_id not in self._annotations:
            raise UnknownPaper(paper_id)

    def _edit(self, ops: list[PaperOp], paper_ids: Iterable[str] | None = None) -> Edit:
        """Apply `ops` (with any still pending) to the annotations as on disk now, as
        one durable write; keep and announce the result; what `ops` changed (to undo
        it). A failed write leaves the edit in memory and pending, then raises
        SaveFailed (its `edit`: what `ops` changed in memory)."""
        papers, annotations = self._papers.ids, self._annotations
        for pid in paper_ids_of(ops) if paper_ids is None else paper_ids:
            if pid not in papers and pid not in annotations:
                raise UnknownPaper(pid)
        if not ops and not self._pending and not self._unsaved:
            return NO_EDIT
        check_savable(savable_values(ops))  # refused whole, before anything changes
        older = list(self._pending)
        self._pending.extend(ops)
        seen: set[str] = set()
        touched: set[str] = set()
        fields: set[str] = set()
        prefs_changed = ran = False
        edit = NO_EDIT

        def apply_mine(mine: Sequence[PaperOp]) -> None:
            nonlocal edit
            applied, was = self._apply_noting(mine)
            touched.update(applied.updated)
            fields.update(applied.changed_fields())
            edit = Edit({pid: (was[pid], ann) for pid, ann in applied.updated.items()})
            self.last_kept = list(applied.kept)

        def compute(caught: CaughtUp) -> Changes:
            nonlocal prefs_changed, ran
            ran = True
            with collector.paused():  # a bulk edit makes 100,000s of containers, no garbage
                found, prefs_changed = self._take(caught)
                seen.update(found)
                if older:
                    applied = self._apply(older)
                    touched.update(applied.updated)
                    fields.update(applied.changed_fields())
                apply_mine(ops)
                return stored_changes(self._annotations, self._unsaved)

        failure: OSError | None = None
        try:
            shown = self._write(compute)
            if shown:  # as the store merged them with other devices' (tag order, times)
                edit = self._adopt(shown, edit)
        except OSError as exc:  # StorageError is an OSError; core cannot name it
            failure = exc
        if failure is not None and not ran:
            with collector.paused():  # not even the lock: in memory on the copy held
                apply_mine(ops)
        if failure is None:
            self._pending.clear()
            self._unsaved.clear()
        self._announce_edit(seen, touched, fields, prefs_changed)
        if failure is not None:
            raise SaveFailed(str(failure), edit) from failure
        return edit

    def _apply(self, ops: Sequence[PaperOp]) -> Applied:
        """Apply `ops` to memory; what they changed is noted unsaved until written."""
        return self._apply_noting(ops)[0]

    def _apply_noting(self, ops: Sequence[PaperOp]) -> tuple[Applied, dict[str, Annotation | None]]:
        """_apply(), and each annotation it changed as it was before."""
        applied = apply_ops(self._annotations, ops, now_iso(), self._papers.ids)
        annotations, unsaved = self._annotations, self._unsaved
        get = annotations.get
        was = {pid: get(pid) for pid in applied.updated}
        for pid, ann in applied.updated.items():
            if ann is None:
                annotations.pop(pid, None)
            else:
                annotations[pid] = ann
        for pid, names in applied.fields.items():
            note_fields(unsaved, pid, names)
        return applied, was

    def _write(self, compute: Callable[[CaughtUp], Changes]) -> Mapping[str, Annotation | None]:
        """Write what `compute` works out; the annotations written as the store now
        has them, if it says (merged with other devices' records)."""
        update = getattr(self._store, "update", None)
        if update is not None:
            return update(compute) or {}
        changes = compute(NOTHING_NEW)
        if changes:
            self._store.write_annotations(changes)
        return {}

    def _adopt(self, shown: Mapping[str, Annotation | None], edit: Edit) -> Edit:
        """Take the annotations as the store shows them after a write; `edit` with
        them as its after."""
        annotations = self._annotations
        for pid, ann in shown.items():
            if ann is None:
                annotations.pop(pid, None)
            else:
                annotations[pid] = ann
        if not any(pid in shown for pid in edit.papers):
            return edit
        papers = {
            pid: (was, shown[pid] if pid in shown else made)
            for pid, (was, made) in edit.papers.items()
        }
        return Edit(papers, edit.tables)

    def note_conflicts(self, paper_id: str) -> list[Any]:
        """The versions of a paper's note in conflict with the one shown (written on
        another computer before the two synced): each with .device, .at, .text."""
        get = getattr(self._store, "note_conflicts", None)
        return list(get(paper_id)) if get is not None else []

    def resolve_note(self, paper_id: str, text: str) -> None:
        """Settle a note conflict: `text` (the user's merge, or the version kept)
        becomes the note on every computer; the conflicting versions are gone."""
        resolve = getattr(self._store, "resolve_note", None)
        if resolve is None:
            self.set_note(paper_id, text)
            return
        ann = resolve(paper_id, text)
        if ann is None:
            self._annotations.pop(paper_id, None)
        else:
            self._annotations[paper_id] = ann
        self._announce(Change(frozenset({paper_id}), frozenset({"note"})))

    def _take(self, caught: CaughtUp) -> tuple[set[str], bool]:
        """Take in what other processes saved (see CaughtUp); the papers it changed and
        whether the settings changed (the file was read anew)."""
        if caught.full is not None:
            before = self._annotations
            fresh = self._annotations = caught.full
            differ = {pid for pid in set(fresh) | set(before) if fresh.get(pid) != before.get(pid)}
            return differ, self._reload_prefs()
        changed: set[str] = set()
        for changes in caught.changes:
            changed |= apply_saved(self._annotations, changes)
        return changed, False

    def _reload_prefs(self) -> bool:
        prefs = self.prefs
        before = (prefs.tag_colours(), prefs.saved_searches(), prefs.get_all())
        prefs.reload()
        return before != (prefs.tag_colours(), prefs.saved_searches(), prefs.get_all())

    def _announce_edit(
        self, seen: set[str], touched: set[str], fields: set[str], prefs_changed: bool
    ) -> None:
        if seen:  # others' changes taken in: any of their fields
            fields = set(_ALL_FIELDS)
        if prefs_changed:
            fields.add("prefs")
        if seen or touched or prefs_changed:
            self._announce(Change(frozenset(seen | touched), frozenset(fields)))

    # -- edits not yet on disk --------------------------------------------

    def pending_count(self) -> int:
        """How many papers have edits in memory that are not yet saved."""
        return len(self._unsaved)

    def retry_pending(self) -> bool:
        """Write every pending edit in one write (applied again to the state then on
        disk); True when nothing is left pending."""
        try:
            self._edit([])
        except SaveFailed:
            return False
        return True

    # -- catalogue --------------------------------------------------------

    def add_papers(self, papers: Sequence[Paper]) -> None:
        """Add or update catalogue entries as one write (imports)."""
        self.papers_written(self.write_papers(papers))

    def write_papers(self, papers: Sequence[Paper]) -> list[Paper]:
        """The write of add_papers() alone, the library in memory left as it is: it
        reads nothing else of the library, so a worker thread may run it while the
        library's own thread goes on using the library (the store takes care of its
        files: see LibraryFolder.add_papers); that thread then calls papers_written()
        with what it returns, the papers as the library lists them. Papers as the
        library lists them are written whole (their abstracts fetched)."""
        if not papers:
            return []
        whole = list(self.completed(papers, strict=True))
        self._store.add_papers(whole)
        return self._listing(whole)

    def _listing(self, papers: Sequence[Paper]) -> list[Paper]:
        """`papers` as this library lists them (abstracts left to its store, if it can
        fetch them)."""
        if getattr(self._store, "abstracts", None) is None:
            return list(papers)
        return [listed(p) for p in papers]

    def papers_written(self, papers: Sequence[Paper]) -> None:
        """Take in the papers write_papers() wrote, and announce them."""
        if not papers:
            return
        papers = self._listing(papers)
        self._writes += 1
        self._written.update(dict.fromkeys((p.id for p in papers), self._writes))
        self._papers.put(papers)
        self._announce(Change(frozenset(p.id for p in papers), frozenset({"papers"})))

    def catch_up(self, limit: int) -> bool:
        """Take in up to `limit` papers the store took into its catalogue since the
        library was opened (a big library whose index is made anew opens with the
        first papers taken; the others come as they are, and papers listed may be
        written anew or deleted by a later file), announced. True once it is done."""
        store: Any = self._store
        table = self._papers
        if getattr(store, "taken_since", None) is None or not isinstance(table, PaperTable):
            return True
        taken, deleted, done = store.taken_since(limit)
        if taken:
            self._writes += 1
            self._written.update(dict.fromkeys(taken, self._writes))
            table.rewritten(taken)
        gone = [pid for pid in deleted if pid in table.ids]
        table.drop(gone)
        if taken or gone:
            self._announce(Change(frozenset(taken + gone), frozenset({"papers"})))
        return bool(done)

    # -- deleting and merging papers -------------------------------------------

    def delete_papers(self, paper_ids: Iterable[str]) -> list[Paper]:
        """Move papers to the trash: they leave the catalogue, on every device the
        library is synced to; what the user wrote about them stays until the trash is
        emptied (restore_papers() puts them back with it). The papers moved."""
        gone = self.full_papers(pid for pid in dict.fromkeys(paper_ids) if pid in self._papers.ids)
        if gone:
            self._deleting_store().delete_papers(dict.fromkeys((p.id for p in gone), TRASH))
            self._papers.drop(p.id for p in gone)
            self._announce(Change(frozenset(p.id for p in gone), frozenset({"papers"})))
        return gone

    def restore_papers(self, papers: Sequence[Paper]) -> list[Paper]:
        """Put papers back from the trash (a line of each, later than its deletion),
        each in its place in the library's order (where it entered the catalogue, as
        the next program to open the library lists it). A paper no longer in the
        trash stays as it is: back already, or forgotten (the trash emptied, here or
        by another program) and not to be brought back without what was written about
        it. The papers put back."""
        trashed = {p.id for p in self.trash()}
        back = self.write_papers([p for p in papers if p.id in trashed])
        if back:
            self._papers.put(back)
            self._in_catalogue_order()
            self._announce(Change(frozenset(p.id for p in back), frozenset({"papers"})))
        return back

    def _in_catalogue_order(self) -> None:
        """The papers in the catalogue's order again (papers put back were added at
        the end). A new dict, not the old one changed: a thread reading the old one
        meanwhile (abstracts()) sees it whole; papers_by_id() views made before show
        the papers as they were."""
        order = getattr(self._store, "paper_order", None)
        if order is None:
            return
        # (papers the catalogue does not list yet: last)
        self._papers = self._papers.reorder(order())

    def trash(self) -> list[Paper]:
        """The papers in the trash, in the order they entered the catalogue."""
        trash = getattr(self._store, "trash", None)
        return [p for p in trash() if p.id not in self._papers.ids] if trash is not None else []

    def empty_trash(self) -> int:
        """Forget the papers in the trash and what the user wrote about them (their
        annotations removed: the last step that loses anything). How many went."""
        papers = self.trash()
        if not papers:
            return 0
        anns = self._annotations
        written = {p.id: anns[p.id] for p in papers if p.id in anns}
        if written:
            self.revert(Edit({pid: (None, ann) for pid, ann in written.items()}))
        self._deleting_store().delete_papers(dict.fromkeys((p.id for p in papers), PURGED))
        return len(papers)

    def merge_papers(self, keep: str, other: str) -> Edit:
        """Make `other` part of `keep`: its tags, highlights and note (after keep's)
        added, the further reading status and the higher rating taken; then `other`
        goes to the trash, what was written about it still there. What the merge
        changed of keep's annotation (to undo it, with restore_papers([other]))."""
        self.paper(keep)
        theirs = self.annotation(other)
        mine = self.annotation(keep)
        ops: list[PaperOp] = []
        if theirs.tags:
            ops.append(AddTags((keep,), tuple(theirs.tags)))
        order = list(Status)
        if order.index(theirs.status) > order.index(mine.status):
            ops.append(SetStatus((keep,), theirs.status))
        if theirs.rating > mine.rating:
            ops.append(SetRating((keep,), theirs.rating))
        if theirs.note.strip():
            note = f"{mine.note.rstrip()}\n\n{theirs.note}" if mine.note.strip() else theirs.note
            ops.append(SetNote(keep, note))
        known = {h.id for h in mine.highlights}
        ops += [PutHighlight(keep, h) for h in theirs.highlights if h.id not in known]
        edit = self._edit(ops) if ops else NO_EDIT
        self.delete_papers([other])
        return edit

    def _deleting_store(self) -> Any:
        if not hasattr(self._store, "delete_papers"):
            raise SaveFailed("this library cannot delete papers")
        return self._store

    # -- other processes --------------------------------------------------

    def refresh(self) -> Change | None:
        """Pick up annotation changes another process wrote; announce what differs.
        Edits of ours still pending are applied again on top of what was read."""
        fresh = self._store.reload_annotations()
        if fresh is None:
            return None
        prefs_changed = self._reload_prefs()
        before = self._annotations
        self._annotations = fresh
        if self._pending:
            with collector.paused():
                self._apply(self._pending)
        changed = {pid for pid in set(fresh) | set(before) if fresh.get(pid) != before.get(pid)}
        conflicts = getattr(self._store, "take_conflict_changes", None)
        if conflicts is not None:  # a note's conflicting versions came or went
            changed |= conflicts()
        if not changed and not prefs_changed:
            return None
        change = Change(
            frozenset(changed), _ALL_FIELDS | {"prefs"} if prefs_changed else _ALL_FIELDS
        )
        self._announce(change)
        return change
