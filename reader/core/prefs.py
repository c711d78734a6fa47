"""The user's small settings kept in the library: tag colours, saved searches, preferences."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from reader.core import say
from reader.core.cleaning import check_savable, clean_text
from reader.core.edits import (
    HIGHLIGHT_NAMES,
    PREFS,
    SAVED_SEARCHES,
    TAG_COLOURS,
    TRIAGE_DECISIONS,
    DocChange,
    DropTagColour,
    RenameTagColours,
    SetPref,
    SetSearch,
    SetTagColour,
    TableOp,
    diff_docs,
    keyed_item_ops,
    list_item_ops,
    revert_docs,
    savable_values,
    table_changes,
    table_of,
)
from reader.core.normalise import normalise_tag

__all__ = [
    "HIGHLIGHT_NAMES",
    "PREFS",
    "SAVED_SEARCHES",
    "TAG_COLOURS",
    "TRIAGE_DECISIONS",
    "MemoryTables",
    "Preferences",
]

_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
Docs = dict[str, dict[str, Any]]
#: what update_table() is handed: the table as it is now -> the changes to make
Compute = Callable[[Docs], Mapping[str, Mapping[str, Any] | None]]


class TableStore(Protocol):
    def load_table(self, name: str) -> Docs: ...

    def write_table(self, name: str, changes: Any) -> None: ...


class MemoryTables:
    """A TableStore in memory, for stores without tables (test doubles)."""

    def __init__(self) -> None:
        self._tables: dict[str, Docs] = {}

    def load_table(self, name: str) -> Docs:
        return {k: dict(v) for k, v in self._tables.get(name, {}).items()}

    def write_table(self, name: str, changes: Any) -> None:
        table = self._tables.setdefault(name, {})
        for key, doc in changes.items():
            if doc is None:
                table.pop(key, None)
            else:
                table[key] = dict(doc)

    def update_table(self, name: str, compute: Compute) -> Docs:
        changes = compute(self.load_table(name))
        if changes:
            self.write_table(name, changes)
        return self.load_table(name)


class Preferences:
    """Read once, then kept as each change leaves the table: a change is a list of
    operations (reader.core.edits) applied to the table as it is on disk when it is
    written (under the store's lock), one durable write each. Lives in
    annotations.json beside the annotations, so backups carry it."""

    def __init__(self, store: object) -> None:
        self._store: TableStore = store if hasattr(store, "load_table") else MemoryTables()  # type: ignore[assignment]
        self._last: dict[str, dict[str, DocChange]] = {}
        self.reload()

    def reload(self) -> None:
        self._take(TAG_COLOURS, self._store.load_table(TAG_COLOURS))
        self._take(SAVED_SEARCHES, self._store.load_table(SAVED_SEARCHES))
        self._take(PREFS, self._store.load_table(PREFS))

    def _take(self, name: str, docs: Docs) -> None:
        """Keep table `name` as `docs` (as it is on disk)."""
        if name == TAG_COLOURS:
            ordered = sorted(docs.items(), key=lambda kv: (_order(kv[1]), kv[0]))
            self._colours = {
                tag: str(doc.get("colour", ""))
                for tag, doc in ordered
                if _COLOUR.match(str(doc.get("colour", "")))
            }
        elif name == SAVED_SEARCHES:
            self._searches = {name: str(doc.get("query", "")) for name, doc in docs.items()}
        else:
            self._prefs = {key: doc.get("value") for key, doc in docs.items()}

    def _update(self, ops: Sequence[TableOp]) -> bool:
        """Apply `ops` (all of one table) to it as it is now, under the store's lock;
        whether anything changed. Memory follows what was written; last_change()
        tells what it changed."""
        self._last = {}
        if not ops:
            return False
        check_savable(savable_values(ops))

        def compute(docs: Docs) -> dict[str, Any]:
            after = table_changes(docs, ops)
            return {} if after is None else diff_docs(docs, after)

        return self._write(table_of(ops[0]), compute)

    def _write(self, name: str, compute: Compute) -> bool:
        """Write what `compute` makes of table `name` as it is now, under the store's
        lock; whether anything changed (what: last_change())."""
        done: dict[str, DocChange] = {}

        def noted(docs: Docs) -> Mapping[str, Mapping[str, Any] | None]:
            changes = compute(docs)
            done.clear()
            for key, doc in changes.items():
                was = docs.get(key)
                if was != doc:
                    done[key] = (None if was is None else dict(was), doc and dict(doc))
            return changes

        update = getattr(self._store, "update_table", None)
        if update is not None:
            self._take(name, update(name, noted))
        else:  # a store with tables but no update_table: as fresh as it can be
            changes = noted(self._store.load_table(name))
            if changes:
                self._store.write_table(name, changes)
            self._take(name, self._store.load_table(name))
        self._last = {name: done} if done else {}
        return bool(done)

    def last_change(self) -> dict[str, dict[str, DocChange]]:
        """What the last change made here changed: table -> key -> (before, after)."""
        return self._last

    def revert(self, tables: Mapping[str, Mapping[str, DocChange]]) -> list[tuple[str, str]]:
        """Take each document an edit changed (table -> key -> (before, after)) back to
        before, under the store's lock, where the table still has it as the edit left
        it; the (table, key) of those someone else changed since, left as they are."""
        kept: list[tuple[str, str]] = []
        for name, changes in tables.items():
            if not changes:
                continue
            found: list[str] = []

            def compute(
                docs: Docs, changes: Mapping[str, DocChange] = changes, found: list[str] = found
            ) -> dict[str, Any]:
                out, others = revert_docs(docs, changes)
                found[:] = others
                return out

            self._write(name, compute)
            kept += [(name, key) for key in found]
        self._last = {}
        return kept

    # -- tag colours --------------------------------------------------------

    def tag_colours(self) -> dict[str, str]:
        """Tag -> "#rrggbb", in the order the colours were given."""
        return dict(self._colours)

    def set_tag_colours(self, colours: dict[str, str]) -> None:
        """Make the colours `colours`: the tags whose colour was given, changed or
        taken away since this copy, applied to the colours as they are now (another
        program's colour of another tag stays)."""
        clean = {normalise_tag(t): c.lower() for t, c in colours.items() if normalise_tag(t)}
        for tag, colour in clean.items():
            if not _COLOUR.match(colour):
                raise say.SaidError(
                    "{colour} is not a colour like #4a90d9 (tag {tag})",
                    colour=repr(colour),
                    tag=repr(tag),
                )
        mine = self._colours
        ops: list[TableOp] = [SetTagColour(tag, None) for tag in mine if tag not in clean]
        expected = [t for t in mine if t in clean] + [t for t in clean if t not in mine]
        if list(clean) != expected:  # put in another order: every place given
            ops += [SetTagColour(t, c, n) for n, (t, c) in enumerate(clean.items())]
        else:
            ops += [SetTagColour(t, c) for t, c in clean.items() if mine.get(t) != c]
        self._update(ops)

    def set_tag_colour(self, tag: str, colour: str | None) -> None:
        """One tag's colour (None: none), after the others if it had none."""
        tag = normalise_tag(tag)
        if not tag:
            raise say.SaidError("a tag needs a name")
        if colour is not None:
            colour = colour.lower()
            if not _COLOUR.match(colour):
                raise say.SaidError(
                    "{colour} is not a colour like #4a90d9 (tag {tag})",
                    colour=repr(colour),
                    tag=repr(tag),
                )
        self._update([SetTagColour(tag, colour)])

    def fill_tag_colours(self, colours: Mapping[str, str]) -> bool:
        """Colour each of these tags that has no colour on disk when it is written (an
        import's colours never replace the user's own), after the others."""
        clean = {normalise_tag(t): c.lower() for t, c in colours.items() if normalise_tag(t)}
        clean = {t: c for t, c in clean.items() if _COLOUR.match(c)}
        if not clean:
            return False

        def compute(docs: Docs) -> dict[str, Any]:
            have = {t.casefold() for t in docs}
            order = max(_orders_of(docs), default=-1) + 1
            out: dict[str, Any] = {}
            for tag, colour in clean.items():
                if tag.casefold() not in have:
                    have.add(tag.casefold())
                    out[tag] = {"colour": colour, "order": order}
                    order += 1
            return out

        return self._write(TAG_COLOURS, compute)

    def rename_tag_colours(self, old_key: str, new: str) -> bool:
        """The colours of tag `old_key` (casefolded) and its children follow a rename."""
        return self._update([RenameTagColours(old_key, new)])

    def drop_tag_colour(self, key: str) -> bool:
        """No colour for tag `key` (casefolded), however it is spelled."""
        return self._update([DropTagColour(key)])

    # -- saved searches -----------------------------------------------------

    def saved_searches(self) -> dict[str, str]:
        return dict(self._searches)

    def save_search(self, name: str, query: str) -> None:
        name = clean_text(name, limit=200).strip()
        if not name:
            raise say.SaidError("a saved search needs a name")
        query = clean_text(query, limit=10_000)
        self._update([SetSearch(name, query)])

    def delete_search(self, name: str) -> None:
        self._update([SetSearch(name, None)])

    # -- other preferences ----------------------------------------------------

    def get(self, key: str, default: Any = None) -> Any:
        return self._prefs.get(key, default)

    def get_all(self) -> dict[str, Any]:
        return dict(self._prefs)

    def set(self, key: str, value: Any) -> None:
        """Set preference `key`. The triage decisions and the highlight colours' names
        (lists) are written entry by entry: the entries changed since this copy."""
        check_savable(value)
        old = self._prefs.get(key)
        if old is None and key in (TRIAGE_DECISIONS, HIGHLIGHT_NAMES):
            old = []  # (never set here: what another program set meanwhile stays)
        if key == TRIAGE_DECISIONS and isinstance(old, list) and _dicts(value) and _dicts(old):
            ops = keyed_item_ops(key, "key", old, value)
            if ops is not None:
                self._update(ops)
                return
        if key == HIGHLIGHT_NAMES and isinstance(value, list) and isinstance(old, list):
            self._update(list_item_ops(key, old, value))
            return
        self._update([SetPref(key, value)])

    def set_triage_decisions(self, decisions: Sequence[Mapping[str, Any]]) -> None:
        """The triage decisions (each known by its "key"): those changed since this copy."""
        self.set(TRIAGE_DECISIONS, [dict(d) for d in decisions])

    def set_highlight_names(self, names: Sequence[str]) -> None:
        """The highlight colours' names, in colour order: those changed since this copy."""
        self.set(HIGHLIGHT_NAMES, list(names))


def _orders_of(docs: Docs) -> list[int]:
    return [_order(doc) for doc in docs.values()]


def _order(doc: Mapping[str, Any]) -> int:
    order = doc.get("order", 0)
    return order if isinstance(order, int) and not isinstance(order, bool) else 0


def _dicts(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, Mapping) for v in value)
