"""The facet tree: smart lists, status, tags (hierarchical), venue and year, with live counts."""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import (
    QT_TRANSLATE_NOOP,
    QCoreApplication,
    QEvent,
    QItemSelection,
    QItemSelectionModel,
    QModelIndex,
    QPoint,
    Qt,
    Signal,
)
from PySide6.QtGui import QMouseEvent, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import QAbstractItemView, QMenu, QTreeView, QWidget

from reader.core.facets import Facets
from reader.core.models import Status
from reader.ui import i18n, names, plain

#: the groups' headings (translated when shown, as are the texts below)
GROUPS = {
    "smart": QT_TRANSLATE_NOOP("FacetPanel", "Smart lists"),
    "status": QT_TRANSLATE_NOOP("FacetPanel", "Status"),
    "tag": QT_TRANSLATE_NOOP("FacetPanel", "Tags"),
    "venue": QT_TRANSLATE_NOOP("FacetPanel", "Venue"),
    "year": QT_TRANSLATE_NOOP("FacetPanel", "Year"),
}
KeyRole = Qt.ItemDataRole.UserRole + 10
#: the first line: every paper the search box matches (chosen when no facet is)
ALL = ("all", "")
ALL_LABEL = QT_TRANSLATE_NOOP("FacetPanel", "All papers")
#: under "Tags" when no paper has a tag yet
NO_TAGS = QT_TRANSLATE_NOOP("FacetPanel", "None yet: press t")
#: under "Tags" when the library has tags but none of the papers listed has one
NO_TAGS_HERE = QT_TRANSLATE_NOOP("FacetPanel", "None among these")
#: under each heading until the first count (~1 s after opening 100k papers)
COUNTING = QT_TRANSLATE_NOOP("FacetPanel", "Counting…")
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
    """Click a facet to filter by it, Ctrl-click to combine several; click it again,
    or "All papers", to leave it.

    Signals:
        facets_changed(): the chosen facets changed.
    """

    facets_changed = Signal()
    #: (group, value) of a tag or smart list whose "Papers Like These" was chosen
    like_requested = Signal(tuple)

    def __init__(self, parent: QWidget | None = None, saved: dict[str, str] | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName(self.tr("Facets"))
        self.setHeaderHidden(True)
        self.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.setUniformRowHeights(True)
        # a long venue or tag gives up its middle, not its count (at 900 px: "Proceedings
        # of the 36th Internat…" hid how many papers it has)
        self.setTextElideMode(Qt.TextElideMode.ElideMiddle)
        self._model = QStandardItemModel(self)
        self.setModel(self._model)
        self._smart: dict[str, str] = {}
        self._updating = False
        #: groups the user folded away; every other group is shown open
        self._collapsed: set[Key] = set()
        self.collapsed.connect(lambda index: self._remember_fold(index, folded=True))
        self.expanded.connect(lambda index: self._remember_fold(index, folded=False))
        self.selectionModel().selectionChanged.connect(
            lambda chosen, _left: self._on_selection(chosen)
        )
        self.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        self.customContextMenuRequested.connect(self._menu)
        self._counted = False  # until the first count: "Counting…"
        #: set_counts()'s last arguments (shown again in another language)
        self._shown: tuple[Facets | None, dict[str, int] | None, int | None, bool] = (
            None,
            None,
            None,
            False,
        )
        self.set_counts(None, saved or {})  # (the saved searches listed from the first paint)

    # -- state ----------------------------------------------------------------

    def selected_keys(self) -> list[Key]:
        keys = []
        for index in self.selectionModel().selectedIndexes():
            key = _decode(index.data(KeyRole))
            if key and key[0] not in ("group", ALL[0]):
                keys.append((key[0], key[1]))
        return keys

    def query(self, *, leaving: str | None = None) -> str:
        """The query of the chosen facets (`leaving`: but those of that group, as its
        own counts are counted: its other values stay choosable)."""
        keys = [key for key in self.selected_keys() if key[0] != leaving]
        return facet_query(keys, self._smart)

    def clear(self) -> None:
        self.select_key(ALL)

    def like_menu(self, key: Key) -> QMenu | None:
        """The menu of a tag or smart list: papers like those it holds."""
        if key[0] not in ("tag", "smart"):
            return None
        from PySide6.QtWidgets import QMenu

        menu = QMenu(self)
        text = (
            self.tr("Papers Like Those Tagged")
            if key[0] == "tag"
            else self.tr("Papers Like Those in This Smart List")
        )
        menu.addAction(text, lambda: self.like_requested.emit(key))
        return menu

    def _menu(self, pos: QPoint) -> None:
        index = self.indexAt(pos)
        key = _decode(index.data(KeyRole)) if index.isValid() else None
        menu = self.like_menu(key) if key is not None else None
        if menu is not None:
            menu.popup(self.viewport().mapToGlobal(pos))

    def mousePressEvent(self, event: QMouseEvent) -> None:  # noqa: N802 (Qt override)
        # a plain click on the one facet chosen leaves it (as "All papers" does)
        index = self.indexAt(event.position().toPoint())
        key = _decode(index.data(KeyRole)) if index.isValid() else None
        if (
            event.button() == Qt.MouseButton.LeftButton
            and event.modifiers() == Qt.KeyboardModifier.NoModifier
            and key is not None
            and self.selected_keys() == [key]
        ):
            self.clear()
            event.accept()
            return
        super().mousePressEvent(event)

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

    def _on_selection(self, chosen: QItemSelection) -> None:
        """ "All papers" and the facets exclude each other: choosing it leaves every
        facet, choosing a facet leaves it, leaving the last facet chooses it."""
        if self._updating:
            return
        all_index = self._find(ALL)
        self._updating = True
        try:
            selection = self.selectionModel()
            if all_index is not None:
                flag = QItemSelectionModel.SelectionFlag
                if chosen.contains(all_index):
                    selection.select(all_index, flag.ClearAndSelect)
                elif self.selected_keys():
                    selection.select(all_index, flag.Deselect)
                else:
                    selection.select(all_index, flag.Select)
        finally:
            self._updating = False
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
        *,
        total: int | None = None,
        tags_elsewhere: bool = False,
    ) -> None:
        """Rebuild the tree with new counts, keeping what was chosen and expanded
        (`facets` None: not counted yet, rather than zeros). `total`: how many papers
        "All papers" are; `tags_elsewhere`: papers not counted here have tags."""
        chosen = set(self.selected_keys())
        expanded = self._expanded_keys()
        self._shown = (facets, smart_counts, total, tags_elsewhere)
        self._counted = facets is not None
        self._smart = dict(smart)
        self._updating = True
        try:
            self._model.clear()
            root = self._model.invisibleRootItem()
            everything = self._item(*ALL, self.tr(ALL_LABEL), total)
            everything.setToolTip(plain.tooltip(self.tr("Every paper the search box matches")))
            root.appendRow(everything)
            if smart:
                group = self._group(root, "smart")
                for name in sorted(smart, key=str.casefold):
                    count = (smart_counts or {}).get(name)
                    group.appendRow(self._item("smart", name, name, count))
            group = self._group(root, "status")
            for status in Status:
                count = None if facets is None else facets.status.get(status.value, 0)
                group.appendRow(
                    self._item("status", status.value, names.status(status.value), count)
                )
            if facets is None:
                for key in ("tag", "venue", "year"):
                    self._group(root, key).appendRow(
                        self._hint(self.tr(COUNTING), self.tr("The papers are being counted"))
                    )
            else:
                self._fill_groups(root, facets, tags_elsewhere)
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
                if index is None and facets is not None and key[0] in GROUPS:
                    # none left by the other groups' choices: still shown, to be left
                    group = self._model.itemFromIndex(self._find(("group", key[0])))
                    group.appendRow(self._item(key[0], key[1], key[1], 0))
                    index = self._find(key)
                if index is not None:
                    selection.select(index, QItemSelectionModel.SelectionFlag.Select)
            if not self.selected_keys():
                selection.select(everything.index(), QItemSelectionModel.SelectionFlag.Select)
        finally:
            self._updating = False
        if chosen != set(self.selected_keys()):
            self.facets_changed.emit()

    def _fill_groups(self, root: QStandardItem, facets: Facets, tags_elsewhere: bool) -> None:
        tags = self._group(root, "tag")
        self._fill_tags(tags, facets)
        if not tags.hasChildren() and tags_elsewhere:
            tags.appendRow(
                self._hint(
                    self.tr(NO_TAGS_HERE),
                    self.tr("Other papers have tags: clear the search to see them"),
                )
            )
        elif not tags.hasChildren():  # an empty heading said nothing of how to get some
            tags.appendRow(
                self._hint(
                    self.tr(NO_TAGS),
                    self.tr(
                        "No paper has a tag yet: press t to tag the "
                        "paper shown, or type in its Tags box"
                    ),
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
        item = QStandardItem(self.tr(GROUPS[name]))
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
        text = label if count is None else f"{label}  ({i18n.number(count)})"
        item = QStandardItem(text)
        item.setData(_encode((group, value)), KeyRole)
        if group in GROUPS:
            heading = QCoreApplication.translate("FacetPanel", GROUPS[group])
            tip = i18n.fill(QCoreApplication.translate("FacetPanel", "%1: %2"), heading, text)
            item.setToolTip(plain.tooltip(tip))
        return item

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        """Another language: the tree shown again in it (its counts and choices kept)."""
        if event.type() == QEvent.Type.LanguageChange:
            facets, smart_counts, total, elsewhere = self._shown
            self.set_counts(
                facets, self._smart, smart_counts, total=total, tags_elsewhere=elsewhere
            )
            self.setAccessibleName(self.tr("Facets"))
        super().changeEvent(event)

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
