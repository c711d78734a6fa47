"""The facet tree: smart lists, status, tags (hierarchical), venue and year, with live counts."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QItemSelectionModel, QModelIndex, Qt, Signal
from PySide6.QtGui import QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QAbstractItemView, QTreeView, QWidget

from reader.core.facets import Facets
from reader.core.models import Status
from reader.ui import plain

GROUPS = {
    "smart": "Smart lists",
    "status": "Status",
    "tag": "Tags",
    "venue": "Venue",
    "year": "Year",
}
KeyRole = Qt.ItemDataRole.UserRole + 10
#: under "Tags" when the papers listed have none
NO_TAGS = "None yet (press t)"
#: under each heading until the first count (~1 s after opening 100k papers)
COUNTING = "Counting…"
Key = tuple[str, str]


def _encode(key: Key) -> str:
    return f"{key[0]}:{key[1]}"


def _decode(data: object) -> Key | None:
    if not isinstance(data, str) or ":" not in data:
        return None
    group, _, value = data.partition(":")
    return group, value


def _quote(value: str) -> str:
    return '"' + value.replace('"', "") + '"'


def facet_query(selected: Iterable[Key], smart: dict[str, str]) -> str:
    """The query for the chosen facets: values of one group are alternatives (OR),
    groups narrow each other (AND)."""
    by_group: dict[str, list[str]] = {}
    for group, value in selected:
        if group == "smart":
            term = f"({smart[value]})" if value in smart else ""
        elif group == "year":
            term = f"year:{value}"
        else:
            term = f"{group}:{_quote(value)}"
        if term:
            by_group.setdefault(group, []).append(term)
    parts = []
    for terms in by_group.values():
        parts.append(terms[0] if len(terms) == 1 else "(" + " OR ".join(terms) + ")")
    return " ".join(parts)


class FacetPanel(QTreeView):
    """Click a facet to filter by it, Ctrl-click to combine several.

    Signals:
        facets_changed(): the chosen facets changed.
    """

    facets_changed = Signal()

    def __init__(self, parent: QWidget | None = None, saved: dict[str, str] | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Facets")
        self.setHeaderHidden(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setUniformRowHeights(True)
        self._model = QStandardItemModel(self)
        self.setModel(self._model)
        self._smart: dict[str, str] = {}
        self._updating = False
        #: groups the user folded away; every other group is shown open
        self._collapsed: set[Key] = set()
        self.collapsed.connect(lambda index: self._remember_fold(index, folded=True))
        self.expanded.connect(lambda index: self._remember_fold(index, folded=False))
        self.selectionModel().selectionChanged.connect(self._on_selection)
        self._counted = False  # until the first count: "Counting…"
        self.set_counts(None, saved or {})  # (the saved searches listed from the first paint)

    # -- state ----------------------------------------------------------------

    def selected_keys(self) -> list[Key]:
        keys = []
        for index in self.selectionModel().selectedIndexes():
            key = _decode(index.data(KeyRole))
            if key and key[0] != "group":
                keys.append((key[0], key[1]))
        return keys

    def query(self) -> str:
        return facet_query(self.selected_keys(), self._smart)

    def clear(self) -> None:
        self.selectionModel().clearSelection()

    def select_key(self, key: Key, *, add: bool = False) -> bool:
        index = self._find(key)
        if index is None:
            return False
        flags = (
            QItemSelectionModel.SelectionFlag.Select
            if add
            else QItemSelectionModel.SelectionFlag.ClearAndSelect
        )
        self.selectionModel().select(index, flags)
        return True

    def _on_selection(self, *_args: object) -> None:
        if not self._updating:
            self.facets_changed.emit()

    # -- content --------------------------------------------------------------

    def set_saved_searches(self, smart: dict[str, str]) -> None:
        """Show the saved searches' names now if nothing is counted yet (otherwise the
        next count shows them, with their numbers)."""
        if not self._counted and smart != self._smart:
            self.set_counts(None, smart)

    def set_counts(
        self,
        facets: Facets | None,
        smart: dict[str, str],
        smart_counts: dict[str, int] | None = None,
    ) -> None:
        """Rebuild the tree with new counts, keeping what was chosen and expanded
        (`facets` None: not counted yet, rather than zeros)."""
        chosen = set(self.selected_keys())
        expanded = self._expanded_keys()
        self._counted = facets is not None
        self._smart = dict(smart)
        self._updating = True
        try:
            self._model.clear()
            root = self._model.invisibleRootItem()
            if smart:
                group = self._group(root, "smart")
                for name in sorted(smart, key=str.casefold):
                    count = (smart_counts or {}).get(name)
                    group.appendRow(self._item("smart", name, name, count))
            group = self._group(root, "status")
            for status in Status:
                count = None if facets is None else facets.status.get(status.value, 0)
                group.appendRow(
                    self._item("status", status.value, status.value.capitalize(), count)
                )
            if facets is None:
                for key in ("tag", "venue", "year"):
                    self._group(root, key).appendRow(
                        self._hint(COUNTING, "The papers are being counted")
                    )
            else:
                self._fill_groups(root, facets)
            for group_key in GROUPS:
                if ("group", group_key) not in self._collapsed:
                    expanded.add(("group", group_key))
            for key in expanded:
                index = self._find(key)
                if index is not None:
                    self.expand(index)
            selection = self.selectionModel()
            for key in chosen:
                index = self._find(key)
                if index is not None:
                    selection.select(index, QItemSelectionModel.SelectionFlag.Select)
        finally:
            self._updating = False
        if chosen != set(self.selected_keys()):
            self.facets_changed.emit()

    def _fill_groups(self, root: QStandardItem, facets: Facets) -> None:
        tags = self._group(root, "tag")
        self._fill_tags(tags, facets)
        if not tags.hasChildren():  # an empty heading said nothing of how to get some
            tags.appendRow(
                self._hint(
                    NO_TAGS,
                    "No paper listed has a tag: press t to tag the "
                    "paper shown, or type in its Tags box",
                )
            )
        group = self._group(root, "venue")
        for venue, count in sorted(facets.venue.items(), key=lambda kv: (-kv[1], kv[0])):
            group.appendRow(self._item("venue", venue, venue, count))
        group = self._group(root, "year")
        for year, count in sorted(facets.year.items(), reverse=True):
            group.appendRow(self._item("year", str(year), str(year), count))

    def _remember_fold(self, index: QModelIndex, *, folded: bool) -> None:
        key = _decode(index.data(KeyRole))
        if self._updating or key is None or key[0] != "group":
            return
        if folded:
            self._collapsed.add(key)
        else:
            self._collapsed.discard(key)

    def _fill_tags(self, group: QStandardItem, facets: Facets) -> None:
        nodes: dict[str, QStandardItem] = {}
        for tag in sorted(facets.tags, key=str.casefold):
            parent_name, _, leaf = tag.rpartition("/")
            parent = nodes.get(parent_name, group) if parent_name else group
            item = self._item("tag", tag, leaf, facets.tags[tag])
            parent.appendRow(item)
            nodes[tag] = item

    def _group(self, root: QStandardItem, name: str) -> QStandardItem:
        item = QStandardItem(GROUPS[name])
        item.setData(_encode(("group", name)), KeyRole)
        item.setSelectable(False)
        font = item.font()
        font.setBold(True)
        item.setFont(font)
        root.appendRow(item)
        return item

    @staticmethod
    def _hint(text: str, tip: str) -> QStandardItem:
        """A greyed line under a heading: not a facet (no key), not selectable."""
        item = QStandardItem(text)
        item.setToolTip(plain.tooltip(tip))
        item.setEnabled(False)
        item.setSelectable(False)
        return item

    @staticmethod
    def _item(group: str, value: str, label: str, count: int | None) -> QStandardItem:
        item = QStandardItem(label if count is None else f"{label}  ({count:,})")
        item.setData(_encode((group, value)), KeyRole)
        item.setToolTip(plain.tooltip(f"{GROUPS[group]}: {value}"))
        return item

    def _find(self, key: Key) -> QModelIndex | None:
        matches = self._model.match(
            self._model.index(0, 0),
            KeyRole,
            _encode(key),
            1,
            Qt.MatchFlag.MatchExactly | Qt.MatchFlag.MatchRecursive,
        )
        return matches[0] if matches else None

    def _expanded_keys(self) -> set[Key]:
        keys = set()
        stack = [self._model.invisibleRootItem()]
        while stack:
            item = stack.pop()
            for row in range(item.rowCount()):
                child = item.child(row)
                if child.hasChildren():
                    key = _decode(child.data(KeyRole))
                    if key and self.isExpanded(child.index()):
                        keys.add(key)
                    stack.append(child)
        return keys
