"""Edits as operations: what the user changed, field by field, applied to the latest state.

An edit is not "the paper's tags are now [x, a]" (a value worked out from a copy
that may be stale) but "tag a was added": an operation, applied under the
library's lock to the annotations as they are on disk at that moment (the store
catches up with other processes' saves first). Two processes tagging one paper
at once therefore both keep their tag; a save that failed and is retried applies
its operations again to the state it then finds, not the values it once worked
out. Applying an operation twice changes nothing more (each sets a field, adds
or removes a tag or a highlight by its id), so re-applying pending operations on
top of fresh state is safe.

Operations on papers' annotations (apply_ops) and on the small tables of user
data (tag colours, saved searches, preferences: table_changes) are plain
NamedTuples; a bulk edit is one operation naming many papers, written as one
journal line under one hold of the lock.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from operator import attrgetter
from types import MappingProxyType
from typing import Any, NamedTuple

from reader.core.models import NO_ANNOTATION, Annotation, Highlight, Status
from reader.core.normalise import normalise_tags

# -- operations on annotations -------------------------------------------------


class SetStatus(NamedTuple):
    paper_ids: tuple[str, ...]
    status: Status


class SetRating(NamedTuple):
    paper_ids: tuple[str, ...]
    rating: int


class AddTags(NamedTuple):
    """Add `tags` (cleaned) to each paper, after the tags it has (none twice)."""

    paper_ids: tuple[str, ...]
    tags: tuple[str, ...]


class RemoveTags(NamedTuple):
    """Remove the tags whose casefolded name is in `keys` (exactly: children stay)."""

    paper_ids: tuple[str, ...]
    keys: frozenset[str]


class RenameTag(NamedTuple):
    """Rename tag `old_key` (casefolded) and its children (`old/x` -> `new/x`) on
    every paper that has one of them as it is then (not as some copy had it)."""

    old_key: str
    new: str


class DeleteTag(NamedTuple):
    """Remove tag `key` (casefolded, exactly: children stay) from every paper."""

    key: str


class SetNote(NamedTuple):
    paper_id: str
    note: str


class PutHighlight(NamedTuple):
    """Add a highlight or change the one with its id. A new one goes right after
    the highlight `after` names ("" first, None or one gone: at the end)."""

    paper_id: str
    highlight: Highlight
    after: str | None = None


class RemoveHighlight(NamedTuple):
    paper_id: str
    highlight_id: str


class Revert(NamedTuple):
    """Take what an edit changed of a paper's annotation from `after` (what the edit
    left) back to `before` (what it found), field by field, tag by tag, highlight by
    highlight, each only where the annotation still has the edit's value: what
    someone else changed since stays, and is noted Kept. (Redo: the two swapped.)"""

    paper_id: str
    before: Annotation | None
    after: Annotation | None


class FillIfEmpty(NamedTuple):
    """Give a paper `annotation` whole, only if it has nothing of its own (yet) then
    (an import restoring what a file carried never overwrites the user's own)."""

    annotation: Annotation


PaperOp = (
    SetStatus
    | SetRating
    | AddTags
    | RemoveTags
    | RenameTag
    | DeleteTag
    | SetNote
    | PutHighlight
    | RemoveHighlight
    | Revert
    | FillIfEmpty
)


def paper_ids_of(ops: Iterable[PaperOp]) -> Iterator[str]:
    """The papers the operations name (the whole-tag ones name none)."""
    for op in ops:
        if isinstance(op, (SetStatus, SetRating, AddTags, RemoveTags)):
            yield from op.paper_ids
        elif isinstance(op, FillIfEmpty):
            yield op.annotation.paper_id
        elif not isinstance(op, (RenameTag, DeleteTag)):
            yield op.paper_id


def savable_values(ops: Iterable[PaperOp | TableOp]) -> list[Any]:
    """The values the operations would write, as JSON holds them (for check_savable)."""
    many = (SetStatus, SetRating, AddTags, RemoveTags)  # (papers' ids: the library's own)
    out: list[Any] = []
    for op in ops:
        if isinstance(op, SetNote):
            out.extend(op)  # (strings only)
        elif isinstance(op, Revert):  # (what the library held before and after an edit)
            continue
        else:
            out.append(_plain(list(op)[1:] if isinstance(op, many) else list(op)))
    return out


def _plain(value: Any) -> Any:
    if type(value) is str or value is None:
        return value
    if isinstance(value, Status):
        return value.value
    if isinstance(value, (Highlight, Annotation)):
        return value.to_dict()
    if isinstance(value, (frozenset, set)):
        return sorted(value)
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, Mapping):
        return {k: _plain(v) for k, v in value.items()}
    return value


# -- applying them -------------------------------------------------------------

#: what a save writes of an annotation besides the fields edited
_ALWAYS = ("modified", "created", "paper_id")
_STATUS = frozenset({"status"})
_RATING = frozenset({"rating"})
_TAGS = frozenset({"tags"})
_NOTE = frozenset({"note"})
_HIGHLIGHTS = frozenset({"highlights"})
ALL_FIELDS = frozenset({"status", "tags", "note", "highlights", "rating"})


class Kept(NamedTuple):
    """What a Revert left as someone else made it since: paper `paper_id`'s field
    `what` ("status", "rating", "note", "tag NAME", "highlight “QUOTE”"), or, with
    paper_id "", a setting (e.g. "colour of tag NAME")."""

    paper_id: str
    what: str


class Applied(NamedTuple):
    """What applying operations changed: each annotation touched as it now is (None:
    removed), per paper the fields to write (None: the whole annotation), and what
    reverts left as others made it."""

    updated: dict[str, Annotation | None]
    fields: dict[str, frozenset[str] | None]
    kept: tuple[Kept, ...] = ()

    def changed_fields(self) -> frozenset[str]:
        out: set[str] = set()
        for names in set(self.fields.values()):
            out.update(ALL_FIELDS if names is None else names)
        return frozenset(out)


def note_fields(
    fields: dict[str, frozenset[str] | None], pid: str, names: frozenset[str] | None
) -> None:
    """Add `names` (None: the whole annotation) to the fields noted of paper `pid`."""
    if pid not in fields:
        fields[pid] = names
    elif names is None:
        fields[pid] = None
    elif (before := fields[pid]) is not None and before is not names:
        fields[pid] = before | names


class _Overlay:
    """The annotations with the changes made so far on top, without touching them."""

    __slots__ = ("base", "fields", "kept", "stamp", "updated")

    def __init__(self, base: Mapping[str, Annotation], stamp: str) -> None:
        self.base = base
        self.stamp = stamp
        self.updated: dict[str, Annotation | None] = {}
        self.fields: dict[str, frozenset[str] | None] = {}
        self.kept: list[Kept] = []

    def get(self, pid: str) -> Annotation | None:
        updated = self.updated
        return updated[pid] if pid in updated else self.base.get(pid)

    def items(self) -> Iterator[tuple[str, Annotation]]:
        """Every annotation as it now is."""
        updated = self.updated
        for pid, ann in self.base.items():
            if pid not in updated:
                yield pid, ann
        for pid, maybe in updated.items():
            if maybe is not None:
                yield pid, maybe

    def set(self, pid: str, changes: dict[str, Any], names: frozenset[str]) -> None:
        """Set fields `names` to `changes` (only values that differ)."""
        old = self.get(pid) or NO_ANNOTATION
        self.updated[pid] = old.edited(pid, changes, self.stamp)
        self._note(pid, names)

    def _note(self, pid: str, names: frozenset[str] | None) -> None:
        note_fields(self.fields, pid, names)

    def put_whole(self, pid: str, ann: Annotation | None) -> None:
        self.updated[pid] = ann
        self._note(pid, None)


def apply_ops(
    annotations: Mapping[str, Annotation],
    ops: Sequence[PaperOp],
    stamp: str,
    papers: Collection[str],
) -> Applied:
    """Apply `ops` in order to `annotations` (left unchanged): what changed. A field
    already as an operation sets it is not changed (nor written). `papers`: the
    catalogue's ids (whole-tag operations touch only papers in it)."""
    view = _Overlay(annotations, stamp)
    for op in ops:
        _APPLY[type(op)](view, op, papers)
    return Applied(view.updated, view.fields, tuple(view.kept))


def _set_status(view: _Overlay, op: SetStatus, papers: Collection[str]) -> None:
    status, values = op.status, {"status": op.status}
    for pid in op.paper_ids:
        ann = view.get(pid)
        if (ann.status if ann is not None else Status.UNREAD) is not status:
            view.set(pid, values, _STATUS)


def _set_rating(view: _Overlay, op: SetRating, papers: Collection[str]) -> None:
    values = {"rating": op.rating}
    for pid in op.paper_ids:
        ann = view.get(pid)
        if (ann.rating if ann is not None else 0) != op.rating:
            view.set(pid, values, _RATING)


TagEdit = Callable[[tuple[str, ...]], tuple[str, ...]]


def _tag_edit(view: _Overlay, pids: Iterable[str], edit: TagEdit) -> None:
    """Set each paper's tags to `edit(its tags)`, worked out once per set of tags (a
    bulk edit of 100,000 papers meets a few dozen)."""
    edited = functools.cache(lambda old: {"tags": edit(old)})
    for pid in pids:
        ann = view.get(pid)
        old = ann.tags if ann is not None else ()
        new = edited(old)
        if new["tags"] != old:
            view.set(pid, new, _TAGS)


def _add_tags(view: _Overlay, op: AddTags, papers: Collection[str]) -> None:
    tags = op.tags
    _tag_edit(view, op.paper_ids, lambda old: tuple(normalise_tags([*old, *tags])))


def _remove_tags(view: _Overlay, op: RemoveTags, papers: Collection[str]) -> None:
    keys = op.keys
    _tag_edit(view, op.paper_ids, lambda old: tuple(t for t in old if t.casefold() not in keys))


def _tag_edit_all(view: _Overlay, edit: TagEdit, papers: Collection[str]) -> None:
    """_tag_edit() of every paper in the catalogue that has an annotation now."""
    _tag_edit(view, [pid for pid, ann in view.items() if ann.tags and pid in papers], edit)


def renamer(old_key: str, new: str) -> Callable[[str], str]:
    """What tag `old_key` (casefolded) and its children are called once renamed to `new`."""

    def renamed(tag: str) -> str:
        key = tag.casefold()
        if key == old_key:
            return new
        return new + tag[len(old_key) :] if key.startswith(old_key + "/") else tag

    return renamed


def _rename_tag(view: _Overlay, op: RenameTag, papers: Collection[str]) -> None:
    renamed = renamer(op.old_key, op.new)
    _tag_edit_all(view, lambda old: tuple(normalise_tags(map(renamed, old))), papers)


def _delete_tag(view: _Overlay, op: DeleteTag, papers: Collection[str]) -> None:
    key = op.key
    _tag_edit_all(view, lambda old: tuple(t for t in old if t.casefold() != key), papers)


def _set_note(view: _Overlay, op: SetNote, papers: Collection[str]) -> None:
    ann = view.get(op.paper_id)
    if (ann.note if ann is not None else "") != op.note:
        view.set(op.paper_id, {"note": op.note}, _NOTE)


def _put_highlight(view: _Overlay, op: PutHighlight, papers: Collection[str]) -> None:
    ann = view.get(op.paper_id)
    old = ann.highlights if ann is not None else ()
    hl = op.highlight
    ids = [h.id for h in old]
    if hl.id in ids:
        at = ids.index(hl.id)
        if old[at] == hl:
            return
        new = (*old[:at], hl, *old[at + 1 :])
    elif op.after == "":
        new = (hl, *old)
    elif op.after is not None and op.after in ids:
        at = ids.index(op.after) + 1
        new = (*old[:at], hl, *old[at:])
    else:
        new = (*old, hl)
    view.set(op.paper_id, {"highlights": new}, _HIGHLIGHTS)


def _remove_highlight(view: _Overlay, op: RemoveHighlight, papers: Collection[str]) -> None:
    ann = view.get(op.paper_id)
    old = ann.highlights if ann is not None else ()
    new = tuple(h for h in old if h.id != op.highlight_id)
    if new != old:
        view.set(op.paper_id, {"highlights": new}, _HIGHLIGHTS)


def _revert(view: _Overlay, op: Revert, papers: Collection[str]) -> None:
    pid = op.paper_id
    before, after = op.before or NO_ANNOTATION, op.after or NO_ANNOTATION
    current = view.get(pid)
    base = current or NO_ANNOTATION
    kept = view.kept
    changes: dict[str, Any] = {}
    for name in ("status", "rating", "note"):
        was, made, now = getattr(before, name), getattr(after, name), getattr(base, name)
        if was == made or now == was:
            continue
        if now == made:
            changes[name] = was
        else:
            kept.append(Kept(pid, name))
    if before.tags != after.tags and base.tags != before.tags:
        if base.tags == after.tags:
            changes["tags"] = before.tags
        else:
            tags = _revert_tags(pid, base.tags, before.tags, after.tags, kept)
            if tags != base.tags:
                changes["tags"] = tags
    if before.highlights != after.highlights and base.highlights != before.highlights:
        if base.highlights == after.highlights:
            changes["highlights"] = before.highlights
        else:
            was, made = before.highlights, after.highlights
            hls = _revert_highlights(pid, base.highlights, was, made, kept)
            if hls != base.highlights:
                changes["highlights"] = hls
    if not changes:
        return
    new = base.edited(pid, changes, view.stamp)
    if op.before is None and new.is_empty:
        if current is not None:
            view.put_whole(pid, None)
        return
    if op.before is not None and new.edited(pid, {}, before.modified) == op.before:
        new = op.before  # all of it as it was: its times too
    view.updated[pid] = new
    view._note(pid, _names(tuple(sorted(changes))))


def _put_near(items: list[Any], item: Any, key: str, order: Sequence[str], keyof: Any) -> None:
    """Put `item` (known by `key`) into `items` where it was in `order`: right after
    the nearest one before it there that `items` has, else right before the nearest
    one after it, else at the end."""
    where = {keyof(x): n for n, x in enumerate(items)}
    at = order.index(key)
    for earlier in reversed(order[:at]):
        if earlier in where:
            items.insert(where[earlier] + 1, item)
            return
    for later in order[at + 1 :]:
        if later in where:
            items.insert(where[later], item)
            return
    items.append(item)


def _revert_tags(
    pid: str,
    now: tuple[str, ...],
    before: tuple[str, ...],
    after: tuple[str, ...],
    kept: list[Kept],
) -> tuple[str, ...]:
    """`now` with each tag the edit changed (going from `before` to `after`, tag by
    tag, by casefolded name) put back where `now` still has it as the edit left it."""
    was = {t.casefold(): t for t in before}
    made = {t.casefold(): t for t in after}
    tags = list(now)
    order = list(was)
    for key in dict.fromkeys([*was, *made]):
        old, new = was.get(key), made.get(key)
        current = next((t for t in tags if t.casefold() == key), None)
        if old == new or current == old:
            continue
        if current != new:
            kept.append(Kept(pid, f"tag {old or new}"))
        elif old is None:
            tags = [t for t in tags if t.casefold() != key]
        elif new is None:
            _put_near(tags, old, key, order, str.casefold)
        else:
            tags = [old if t.casefold() == key else t for t in tags]
    return tuple(tags)


def _revert_highlights(
    pid: str,
    now: tuple[Highlight, ...],
    before: tuple[Highlight, ...],
    after: tuple[Highlight, ...],
    kept: list[Kept],
) -> tuple[Highlight, ...]:
    """As _revert_tags(), of highlights by id."""
    was = {h.id: h for h in before}
    made = {h.id: h for h in after}
    hls = list(now)
    order = list(was)
    for hid in dict.fromkeys([*was, *made]):
        old, new = was.get(hid), made.get(hid)
        current = next((h for h in hls if h.id == hid), None)
        if old == new or current == old:
            continue
        if current != new:
            quote = (old or new or current or Highlight("", "")).quote
            short = quote if len(quote) <= 30 else quote[:29] + "…"
            kept.append(Kept(pid, f"highlight “{short}”"))
        elif old is None:
            hls = [h for h in hls if h.id != hid]
        elif new is None:
            _put_near(hls, old, hid, order, attrgetter("id"))
        else:
            hls = [old if h.id == hid else h for h in hls]
    return tuple(hls)


@functools.cache
def _names(names: tuple[str, ...]) -> frozenset[str]:
    return frozenset(names)


def _fill_if_empty(view: _Overlay, op: FillIfEmpty, papers: Collection[str]) -> None:
    pid = op.annotation.paper_id
    ann = view.get(pid)
    if (ann is None or ann.is_empty) and not op.annotation.is_empty and ann != op.annotation:
        view.put_whole(pid, op.annotation)


_APPLY: dict[type, Callable[[_Overlay, Any, Collection[str]], None]] = {
    SetStatus: _set_status,
    SetRating: _set_rating,
    AddTags: _add_tags,
    RemoveTags: _remove_tags,
    RenameTag: _rename_tag,
    DeleteTag: _delete_tag,
    SetNote: _set_note,
    PutHighlight: _put_highlight,
    RemoveHighlight: _remove_highlight,
    Revert: _revert,
    FillIfEmpty: _fill_if_empty,
}


@functools.cache
def _stored_names(names: frozenset[str]) -> tuple[str, ...]:
    return (*sorted(names), *_ALWAYS)


def stored_changes(
    annotations: Mapping[str, Annotation], fields: Mapping[str, frozenset[str] | None]
) -> dict[str, dict[str, Any] | None]:
    """The journal line's field changes of papers' `fields` (None: the whole
    annotation) as `annotations` now has them: the fields and the annotation's
    times, the whole annotation, or None for one removed."""
    out: dict[str, dict[str, Any] | None] = {}
    get = annotations.get
    for pid, names in fields.items():
        ann = get(pid)
        if ann is None:
            out[pid] = None
        elif names is None:
            out[pid] = ann.to_dict()
        else:
            out[pid] = ann.stored(_stored_names(names))
    return out


def tag_ops(
    paper_ids: tuple[str, ...], old: Sequence[str], new: Sequence[str]
) -> list[AddTags | RemoveTags]:
    """The tags removed and added going from `old` to `new` (a tag whose spelling
    or place changed is removed, then added where it now is)."""
    new_keys = {t.casefold() for t in new}
    old_keys = {t.casefold() for t in old}
    gone = frozenset(k for k in old_keys if k not in new_keys)
    added = tuple(t for t in new if t.casefold() not in old_keys)
    if [t for t in old if t.casefold() not in gone] + list(added) != list(new):
        gone, added = frozenset(old_keys), tuple(new)
    ops: list[AddTags | RemoveTags] = []
    if gone:
        ops.append(RemoveTags(paper_ids, gone))
    if added:
        ops.append(AddTags(paper_ids, added))
    return ops


def highlight_ops(
    paper_id: str, old: Sequence[Highlight], new: Sequence[Highlight]
) -> list[PutHighlight | RemoveHighlight]:
    """The highlights removed, added (each after the one before it in `new`) and
    changed going from `old` to `new`; if that would not give `new`'s order, every
    highlight of `old` removed and `new`'s put in order."""
    new_ids = {h.id for h in new}
    ops: list[PutHighlight | RemoveHighlight] = [
        RemoveHighlight(paper_id, h.id) for h in old if h.id not in new_ids
    ]
    before = {h.id: h for h in old}
    previous = ""
    for hl in new:
        if before.get(hl.id) != hl:
            ops.append(PutHighlight(paper_id, hl, previous))
        previous = hl.id
    base = {paper_id: Annotation(paper_id, highlights=tuple(old))}
    result = apply_ops(base, ops, "", (paper_id,)).updated.get(paper_id, base[paper_id])
    if (result.highlights if result is not None else ()) != tuple(new):
        ops = [RemoveHighlight(paper_id, h.id) for h in old]
        ops += [PutHighlight(paper_id, hl, None) for hl in new]
    return ops


# -- operations on the small tables (tag colours, saved searches, preferences) -

TAG_COLOURS, SAVED_SEARCHES, PREFS = "tag_colours", "saved_searches", "prefs"
#: preferences kept as lists that are edited an entry at a time
TRIAGE_DECISIONS, HIGHLIGHT_NAMES = "triage_decisions", "highlight_names"


class SetTagColour(NamedTuple):
    """Colour `tag` (None: no colour). `order`: its place among the coloured tags
    (None: where it is, or after every other if it is new)."""

    tag: str
    colour: str | None
    order: int | None = None


class RenameTagColours(NamedTuple):
    """The colours of tag `old_key` and its children follow a rename to `new`
    (onto a tag that has a colour already: that one stays)."""

    old_key: str
    new: str


class DropTagColour(NamedTuple):
    """No colour for tag `key` (casefolded) any more, however it is spelled."""

    key: str


class SetSearch(NamedTuple):
    name: str
    query: str | None


class SetPref(NamedTuple):
    key: str
    value: Any


class SetPrefItem(NamedTuple):
    """Entry `at` of a list preference (e.g. the name of the second highlight colour)."""

    key: str
    at: int
    value: Any


class SetKeyedPrefItem(NamedTuple):
    """The entry of a list preference whose `field` is `item_key` (e.g. the triage
    decision of key "i"): set to `value` at `position` (None: removed)."""

    key: str
    field: str
    item_key: str
    value: Mapping[str, Any] | None
    position: int


TableOp = (
    SetTagColour
    | RenameTagColours
    | DropTagColour
    | SetSearch
    | SetPref
    | SetPrefItem
    | SetKeyedPrefItem
)

Docs = dict[str, dict[str, Any]]


def table_of(op: TableOp) -> str:
    if isinstance(op, (SetTagColour, RenameTagColours, DropTagColour)):
        return TAG_COLOURS
    if isinstance(op, SetSearch):
        return SAVED_SEARCHES
    return PREFS


def table_changes(docs: Mapping[str, Mapping[str, Any]], ops: Sequence[TableOp]) -> Docs | None:
    """Apply `ops` in order to a table's documents as they are now (left unchanged):
    the documents it then holds, None if nothing changes."""
    work: Docs = {k: dict(v) for k, v in docs.items()}
    for op in ops:
        _apply_table_op(work, op)
    return work if work != docs else None


def diff_docs(before: Mapping[str, Any], after: Mapping[str, Any]) -> dict[str, Any]:
    """The changes (None: removed) that take table `before` to `after`."""
    out: dict[str, Any] = {k: None for k in before if k not in after}
    out.update({k: v for k, v in after.items() if before.get(k) != v})
    return out


def _orders(work: Docs) -> list[int]:
    out = []
    for doc in work.values():
        order = doc.get("order", 0)
        if isinstance(order, int) and not isinstance(order, bool):
            out.append(order)
    return out


def _apply_table_op(work: Docs, op: TableOp) -> None:
    if isinstance(op, SetTagColour):
        if op.colour is None:
            work.pop(op.tag, None)
            return
        order = op.order
        if order is None:
            old = work.get(op.tag, {}).get("order")
            order = old if isinstance(old, int) else max(_orders(work), default=-1) + 1
        work[op.tag] = {"colour": op.colour, "order": order}
    elif isinstance(op, RenameTagColours):
        renamed = renamer(op.old_key, op.new)
        names = list(work)
        for tag in names:
            to = renamed(tag)
            if to != tag:
                doc = work.pop(tag)
                if to not in names:
                    work[to] = doc
    elif isinstance(op, DropTagColour):
        for tag in [t for t in work if t.casefold() == op.key]:
            del work[tag]
    elif isinstance(op, SetSearch):
        if op.query is None:
            work.pop(op.name, None)
        else:
            work[op.name] = {"query": op.query}
    elif isinstance(op, SetPref):
        work[op.key] = {"value": op.value}
    elif isinstance(op, SetPrefItem):
        value = work.get(op.key, {}).get("value")
        items = list(value) if isinstance(value, list) else []
        items.extend([""] * (op.at + 1 - len(items)))
        items[op.at] = op.value
        work[op.key] = {"value": items}
    else:
        value = work.get(op.key, {}).get("value")
        items = [
            i
            for i in (value if isinstance(value, list) else [])
            if not (isinstance(i, Mapping) and i.get(op.field) == op.item_key)
        ]
        if op.value is not None:
            items.insert(min(op.position, len(items)), dict(op.value))
        work[op.key] = {"value": items}


def list_item_ops(key: str, old: Sequence[Any], new: Sequence[Any]) -> list[TableOp]:
    """The entries of list preference `key` that differ going from `old` to `new`."""
    ops: list[TableOp] = [
        SetPrefItem(key, i, v) for i, v in enumerate(new) if i >= len(old) or old[i] != v
    ]
    if len(new) < len(old):  # (entries are names: a shorter list keeps the longer's tail)
        ops.append(SetPref(key, list(new)))
    return ops


def keyed_item_ops(
    key: str, field: str, old: Sequence[Mapping[str, Any]], new: Sequence[Mapping[str, Any]]
) -> list[TableOp] | None:
    """The entries of list preference `key`, each known by its `field`, removed,
    added, changed or moved going from `old` to `new`; None if entries are not
    told apart by `field` (then the list is set whole)."""
    old_keys = [str(item.get(field)) for item in old]
    new_keys = [str(item.get(field)) for item in new]
    if len(set(old_keys)) != len(old_keys) or len(set(new_keys)) != len(new_keys):
        return None
    gone: list[TableOp] = [
        SetKeyedPrefItem(key, field, k, None, 0) for k in old_keys if k not in new_keys
    ]
    kept = [k for k in old_keys if k in new_keys]
    for every in (False, True):
        moved = [
            SetKeyedPrefItem(key, field, k, new[i], i)
            for i, k in enumerate(new_keys)
            if every or k not in kept or old[old_keys.index(k)] != new[i] or old_keys.index(k) != i
        ]
        ops = [*gone, *moved]
        if every or _keyed_result(key, old, ops) == [dict(i) for i in new]:
            return ops
    return None  # (not reached)


def _keyed_result(key: str, old: Sequence[Mapping[str, Any]], ops: list[TableOp]) -> Any:
    work: Docs = {key: {"value": [dict(i) for i in old]}}
    for op in ops:
        _apply_table_op(work, op)
    return work[key]["value"]


# -- what an edit changed, to undo and redo it -----------------------------------

DocChange = tuple[Mapping[str, Any] | None, Mapping[str, Any] | None]
_NONE: Mapping[str, Any] = MappingProxyType({})


class Edit(NamedTuple):
    """What one edit changed, as it was applied (under the lock, to the state then):
    per paper its annotation before and after (None: none); per small table (tag
    colours, ...) each document before and after. Library.revert() undoes it where
    nobody changed it since; its inverse() redoes it."""

    papers: Mapping[str, tuple[Annotation | None, Annotation | None]] = _NONE
    tables: Mapping[str, Mapping[str, DocChange]] = _NONE

    @property
    def is_empty(self) -> bool:
        return not self.papers and not any(self.tables.values())

    def then(self, later: Edit) -> Edit:
        """This edit followed by `later`, as one (each thing from this one's before to
        the later one's after)."""
        if later.is_empty:
            return self
        if self.is_empty:
            return later
        papers = dict(self.papers)
        for pid, (was, made) in later.papers.items():
            papers[pid] = (papers[pid][0] if pid in papers else was, made)
        tables = {name: dict(docs) for name, docs in self.tables.items()}
        for name, docs in later.tables.items():
            mine = tables.setdefault(name, {})
            for key, (was_doc, made_doc) in docs.items():
                mine[key] = (mine[key][0] if key in mine else was_doc, made_doc)
        return Edit(papers, tables)

    def inverse(self) -> Edit:
        """The edit that takes everything from this one's after back to its before."""
        return Edit(
            {pid: (made, was) for pid, (was, made) in self.papers.items()},
            {
                name: {key: (made, was) for key, (was, made) in docs.items()}
                for name, docs in self.tables.items()
            },
        )


NO_EDIT = Edit()


def revert_docs(
    docs: Mapping[str, Mapping[str, Any]], changes: Mapping[str, DocChange]
) -> tuple[dict[str, Any], list[str]]:
    """The changes (None: removed) that take each document of a table an edit changed
    (before, after) back to before, where the table `docs` still has it as the edit
    left it; and the keys of those someone else changed since (left as they are)."""
    out: dict[str, Any] = {}
    kept: list[str] = []
    for key, (was, made) in changes.items():
        now = docs.get(key)
        if was == made or now == was:
            continue
        if now == made:
            out[key] = None if was is None else dict(was)
        else:
            kept.append(key)
    return out, kept


# -- what other processes saved --------------------------------------------------


def apply_saved(
    annotations: dict[str, Annotation], changes: Mapping[str, Mapping[str, Any] | None]
) -> set[str]:
    """Apply one save's field changes as the journal holds them (another process's)
    to `annotations` in place, as replaying the journal applies them to the file
    (None removes an annotation; the earlier creation time stands); returns the
    papers changed."""
    changed = set()
    for pid, fields in changes.items():
        old = annotations.get(pid)
        if fields is None:
            if annotations.pop(pid, None) is not None:
                changed.add(pid)
            continue
        doc = old.to_dict() if old is not None else {}
        first = doc.get("created")
        doc.update(fields)
        doc["paper_id"] = pid
        value = fields.get("created")
        if first and isinstance(first, str) and isinstance(value, str) and first <= value:
            doc["created"] = first
        try:
            new = Annotation.from_dict(doc)
        except (TypeError, ValueError, AttributeError, KeyError):
            continue  # a field of the wrong type: as loading does, not taken
        if new != old:
            annotations[pid] = new
            changed.add(pid)
    return changed
