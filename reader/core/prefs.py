"""The user's small settings kept in the library: tag colours, saved searches, preferences."""

from __future__ import annotations

import re
from typing import Any, Protocol

from reader.core.cleaning import check_savable, clean_text
from reader.core.normalise import normalise_tag

_COLOUR = re.compile(r"^#[0-9a-fA-F]{6}$")
TAG_COLOURS, SAVED_SEARCHES, PREFS = "tag_colours", "saved_searches", "prefs"


class TableStore(Protocol):
    def load_table(self, name: str) -> dict[str, dict[str, Any]]: ...

    def write_table(self, name: str, changes: Any) -> None: ...


class MemoryTables:
    """A TableStore in memory, for stores without tables (test doubles)."""

    def __init__(self) -> None:
        self._tables: dict[str, dict[str, dict[str, Any]]] = {}

    def load_table(self, name: str) -> dict[str, dict[str, Any]]:
        return {k: dict(v) for k, v in self._tables.get(name, {}).items()}

    def write_table(self, name: str, changes: Any) -> None:
        table = self._tables.setdefault(name, {})
        for key, doc in changes.items():
            if doc is None:
                table.pop(key, None)
            else:
                table[key] = dict(doc)


class Preferences:
    """Read once, written through on every change (each change one durable write).
    Lives in annotations.json beside the annotations, so backups carry it."""

    def __init__(self, store: object) -> None:
        self._store: TableStore = store if hasattr(store, "load_table") else MemoryTables()  # type: ignore[assignment]
        self.reload()

    def reload(self) -> None:
        colours = self._store.load_table(TAG_COLOURS)
        ordered = sorted(colours.items(), key=lambda kv: (kv[1].get("order", 0), kv[0]))
        self._colours = {
            tag: str(doc.get("colour", ""))
            for tag, doc in ordered
            if _COLOUR.match(str(doc.get("colour", "")))
        }
        self._searches = {
            name: str(doc.get("query", ""))
            for name, doc in self._store.load_table(SAVED_SEARCHES).items()
        }
        self._prefs = {key: doc.get("value") for key, doc in self._store.load_table(PREFS).items()}

    # -- tag colours --------------------------------------------------------

    def tag_colours(self) -> dict[str, str]:
        """Tag -> "#rrggbb", in the order the colours were given."""
        return dict(self._colours)

    def set_tag_colours(self, colours: dict[str, str]) -> None:
        clean = {normalise_tag(t): c.lower() for t, c in colours.items() if normalise_tag(t)}
        for tag, colour in clean.items():
            if not _COLOUR.match(colour):
                raise ValueError(f"{colour!r} is not a colour like #4a90d9 (tag {tag!r})")
        changes: dict[str, dict[str, Any] | None] = {
            tag: {"colour": colour, "order": n} for n, (tag, colour) in enumerate(clean.items())
        }
        changes.update({tag: None for tag in self._colours if tag not in clean})
        self._store.write_table(TAG_COLOURS, changes)
        self._colours = clean

    # -- saved searches -----------------------------------------------------

    def saved_searches(self) -> dict[str, str]:
        return dict(self._searches)

    def save_search(self, name: str, query: str) -> None:
        name = clean_text(name, limit=200).strip()
        if not name:
            raise ValueError("a saved search needs a name")
        query = clean_text(query, limit=10_000)
        self._store.write_table(SAVED_SEARCHES, {name: {"query": query}})
        self._searches[name] = query

    def delete_search(self, name: str) -> None:
        self._store.write_table(SAVED_SEARCHES, {name: None})
        self._searches.pop(name, None)

    # -- other preferences ----------------------------------------------------

    def get(self, key: str, default: Any = None) -> Any:
        return self._prefs.get(key, default)

    def set(self, key: str, value: Any) -> None:
        check_savable(value)
        self._store.write_table(PREFS, {key: {"value": value}})
        self._prefs[key] = value
