"""The sidebar: search box, sort order, the paper list and its counts."""

from __future__ import annotations

import sys
from collections.abc import Callable, Generator, Iterable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QSizePolicy,
    QStackedWidget,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from reader.core.facets import Facets
from reader.core.library import Library
from reader.core.models import Status
from reader.core.sorting import LEARNT, SORT_KEYS, sort_ids
from reader.ui import i18n, names, plain, resources
from reader.ui.facets import FacetPanel
from reader.ui.paper_list import PaperListModel, PaperListView

if TYPE_CHECKING:
    from concurrent.futures import Future

    from reader.core.index import Fetched, SearchIndex
    from reader.ui.interest import Interest

# The search (reader.core.index, reader.core.query and theirs: some 40M instructions
# to import) is loaded by the first search, facet count or edit, not for the first
# paint: the whole library in its order needs neither.

#: facet counts are one linear pass over the results: done once typing pauses
FACET_REFRESH_MS = 150
#: the search's preparation done per event-loop turn while a typed query waits for it
PREPARE_SLICE_S = 0.010
#: how often a search waiting for its words (found on a thread of their own) looks
FETCH_POLL_MS = 4
#: how often a query waiting for the catalogue's index (taking files in) looks again
WAITING_MS = 200
#: the colour of the note under the search box when a query falls back to plain words
HINT_COLOUR = "#b26b00"


def _quiet_warning(label: QLabel) -> None:
    """An amber, smaller text: a note on the query, not an error."""
    palette = label.palette()
    palette.setColor(QPalette.ColorRole.WindowText, QColor(HINT_COLOUR))
    label.setPalette(palette)
    font = label.font()
    if font.pointSizeF() > 0:  # (-1 for a font sized in pixels)
        font.setPointSizeF(font.pointSizeF() * 0.85)
    else:
        font.setPixelSize(max(1, round(font.pixelSize() * 0.85)))
    label.setFont(font)


class Sidebar(QWidget):
    """Narrows the list by a query and the chosen facets, sorts it, and counts it.

    Signals:
        filtered(): the list was refilled (the selection may have changed).
    """

    filtered = Signal()

    def __init__(
        self,
        library: Library,
        make_index: Callable[[], Generator[None, None, SearchIndex]],
        facets: FacetPanel,
        parent: QWidget | None = None,
    ) -> None:
        """`make_index` starts making the search index: a generator that yields
        between the parts of the making and returns the index."""
        super().__init__(parent)
        self._library = library
        self._make_index = make_index
        self._making: Generator[None, None, SearchIndex] | None = None
        #: papers edited while the index is being made (it takes them in once made, in order)
        self._edited: dict[str, None] = {}
        self._index: SearchIndex | None = None
        #: True: the facet counts due wait for the index rather than make it (the
        #: window sets it until its first paint, whatever the machine's speed)
        self.index_waits = False
        self.facets = facets
        self.saved_searches: dict[str, str] = {}
        self.search = QLineEdit(self)
        self.search.setClearButtonEnabled(True)
        self.sort_combo = _SortCombo(self)
        for key in SORT_KEYS:
            self.sort_combo.addItem("", key)
        self.sort_combo.about_to_show = self._offer_learnt_sorts
        self.sort_combo.view().setRowHidden(self.sort_combo.findData("like"), True)
        #: predicted interest (see use_interest); None: the learnt orders are not offered
        self.interest: Interest | None = None
        self.sort_order = QToolButton(self)
        self.sort_order.setCheckable(True)
        self.sort_order.setText("↓")
        self.sort_order.setStyleSheet(
            resources.stylesheet()
        )  # checked: the highlight, as the status buttons
        self.model = PaperListModel(library, self)
        self.view = PaperListView(self)
        self.view.setModel(self.model)
        self.count_label = plain.PlainLabel(parent=self)
        self.count_label.setObjectName("countLabel")
        # quieter than the list, still readable (Mid was 1.7:1 on the window's grey)
        self.count_label.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.count_label.setContentsMargins(4, 2, 4, 2)
        self.hint = plain.PlainLabel(parent=self)  # (a warning may quote the query)
        self.hint.setObjectName("queryHint")
        _quiet_warning(self.hint)
        self.hint.setContentsMargins(4, 2, 4, 2)
        # the line under the list says the count, or how the query was read: the list
        # keeps its place whatever is typed (a note above it pushed it down and back)
        self.hint.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.count_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self._bottom = QStackedWidget(self)
        self._bottom.addWidget(self.count_label)
        self._bottom.addWidget(self.hint)

        sort_row = QHBoxLayout()
        sort_row.addWidget(self.sort_combo, 1)
        sort_row.addWidget(self.sort_order)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 0, 6)
        layout.addWidget(self.search)
        layout.addLayout(sort_row)
        layout.addWidget(self.view, 1)
        layout.addWidget(self._bottom)

        #: (papers shown, papers in the library, read among those shown)
        self._counts: tuple[int, int, int] | None = None
        self._selected = 0
        self.retranslate()
        self._table_wired = False
        self.view.selectionModel().selectionChanged.connect(lambda *_: self._show_selected())
        self._order: list[str] = []
        self._text_ids: list[str] = []
        self._shown: list[str] = []  # what the list shows, as filter() returned it
        self._typing = QTimer(self, singleShot=True, interval=0)
        self._typing.timeout.connect(self._typed)
        #: True while the list is refilled for a keystroke in the search box
        self.typing = False
        self._facet_timer = QTimer(self, singleShot=True, interval=FACET_REFRESH_MS)
        self._facet_timer.timeout.connect(self._facets_due)
        #: the next turn: the next step of what the count waits for
        self._facet_steps = QTimer(self, singleShot=True, interval=0)
        self._facet_steps.timeout.connect(self._facets_due)
        self.search.textChanged.connect(lambda _text: self._typing.start())
        #: the words of the query typed, being found off the GUI thread, and what then
        self._fetching: Future[Fetched] | None = None
        self._fetched_then: QTimer = self._typing
        self._fetch_poll = QTimer(self, singleShot=True, interval=FETCH_POLL_MS)
        self._fetch_poll.timeout.connect(self._fetch_looked)
        self._choosing = QTimer(self, singleShot=True, interval=0)
        # a facet chosen (or left): filtered once the search is ready, as for typing
        self._choosing.timeout.connect(self.refill)
        self.facets.facets_changed.connect(self.refill)
        #: the sort the user had when a search chose "Relevance" for them (None: the
        #: sort shown is the user's own choice)
        self._sort_before_search: tuple[str, bool] | None = None
        self.sort_combo.currentIndexChanged.connect(lambda _i: self._sort_chosen())
        self.sort_order.toggled.connect(lambda _on: self._sort_chosen())
        self.resort()

    @property
    def index(self) -> SearchIndex:
        """The search index, made by its first use (or the rest of it, at once)."""
        while self._index is None:
            self._make_part()
        return self._index

    def _make_part(self) -> None:
        """A part of making the index (~15 ms at 100k papers; the last one makes it)."""
        if self._making is None:
            self._making = self._make_index()
        try:
            next(self._making)
        except StopIteration as made:
            self._making, index = None, made.value
            if self._edited:
                index.update(self._edited)
                self._edited = {}
            self._index = index
        except BaseException:
            self._making, self._edited = None, {}  # (the next use starts again)
            raise

    def papers_changed(self, paper_ids: Iterable[str]) -> None:
        """Edits for the index to take in (one made later reads the library then)."""
        if self._index is not None:
            self._index.update(paper_ids)
        elif self._making is not None:
            self._edited.update(dict.fromkeys(paper_ids))

    def close_search(self) -> None:
        """Stop the search's threads and its counting (the window closes)."""
        self._fetch_poll.stop()
        self._facet_timer.stop()
        if self._index is not None:
            self._index.close()

    @property
    def index_made(self) -> bool:
        return self._index is not None

    # -- filtering and sorting ---------------------------------------------

    def sort_key(self) -> tuple[str, bool]:
        return self.sort_combo.currentData(), self.sort_order.isChecked()

    def chosen_sort(self) -> tuple[str, bool]:
        """The sort the user chose (not the relevance a search chose for them)."""
        return self._sort_before_search or self.sort_key()

    def _sort_chosen(self) -> None:
        self._sort_before_search = None
        self.resort()

    def _sort_follows_search(self) -> None:
        """A search sorts by relevance, unless the user chose an order of their own
        (any but the library's); clearing it brings the user's order back."""
        searching = bool(self.search.text().strip())
        if searching and self._sort_before_search is None and self.sort_key() == ("library", False):
            self._show_sort("relevance", False)
            self._sort_before_search = ("library", False)
        elif not searching and self._sort_before_search is not None:
            self._show_sort(*self._sort_before_search)
            self._sort_before_search = None

    # -- the table --------------------------------------------------------------

    def set_table(self, on: bool) -> None:
        """Show the papers as a table (columns to sort by and choose) or as the list,
        the paper shown (and the selection) the same in both: what keys act on."""
        current, selected = self.current_id(), self.selected_ids()
        self.view.set_table(on)  # (the model is reset: its selection goes)
        if current:
            self.select_paper(current)
            self._select_also([pid for pid in selected if pid != current])
        header = self.view.horizontalHeader()
        if on and not self._table_wired:
            self._table_wired = True
            header.sectionClicked.connect(self._column_clicked)
            header.customContextMenuRequested.connect(
                lambda pos: self.view.column_menu().popup(header.mapToGlobal(pos))
            )
        self._show_sort(*self.sort_key())

    def _column_clicked(self, column: int) -> None:
        """A click on a column's heading sorts by it (again: the other way round)."""
        from reader.ui.paper_list import COLUMNS

        key = COLUMNS[column][1]
        now, descending = self.sort_key()
        if not key:  # (the tags: no order of their own)
            self._show_sort(now, descending)
            return
        self.set_sort(key, not descending if key == now else False)

    def _show_sort(self, key: str, descending: bool) -> None:
        """Show this sort in the combo box and button, without re-sorting."""
        if self.model.table:
            from reader.ui.paper_list import COLUMNS

            columns = [k for _heading, k in COLUMNS]
            order = Qt.SortOrder.DescendingOrder if descending else Qt.SortOrder.AscendingOrder
            header = self.view.horizontalHeader()
            header.setSortIndicator(columns.index(key) if key in columns else -1, order)
        pos = self.sort_combo.findData(key)
        self.sort_combo.blockSignals(True)
        self.sort_order.blockSignals(True)
        self.sort_combo.setCurrentIndex(max(pos, 0))
        self.sort_order.setChecked(descending)
        self.sort_combo.blockSignals(False)
        self.sort_order.blockSignals(False)
        self.sort_order.setText("↑" if descending else "↓")

    def set_sort(self, key: str, descending: bool) -> None:
        self._sort_before_search = None
        self._show_sort(key, descending)
        self.resort()

    def resort(self) -> None:
        """Recompute the order of the whole library (sort choice or papers changed).
        Annotation edits do not re-sort, so the list holds still while triaging."""
        key, descending = self.sort_key()
        self.sort_order.setText("↑" if descending else "↓")
        if key in LEARNT:
            self._order = self._learnt_order(key)
            self._order = self._order[::-1] if descending else self._order
        else:
            self._order = sort_ids(
                self._library, self._library.paper_ids(), key, descending=descending
            )
        self.model.score_of = self._scores(key)
        self.refill()

    # -- predicted interest -------------------------------------------------

    def use_interest(self, interest: Interest) -> None:
        """Offer the orders `interest` learns, and follow its new models."""
        self.interest = interest
        interest.changed.connect(self._learnt)

    def _learnt(self, which: str) -> None:
        if which == "like":
            self._offer_learnt_sorts()
            if self.interest is not None and self.interest.like_wanted:
                self.interest.like_wanted = False
                self.set_sort("like", False)  # (More Like This asked for it)
                return
        if self.sort_key()[0] == which:
            self.resort()

    def _learnt_order(self, key: str) -> list[str]:
        """Every paper in the order the model `key` ranks them (papers it has not
        seen last, as the library has them); the library's order until it is learnt."""
        ids = self._library.paper_ids()
        order = self.interest.orders.get(key) if self.interest is not None else None
        if order is None:
            if self.interest is not None and key == "interest":
                self.interest.refresh()  # (sorted again when it is learnt)
            return ids
        known = set(order)
        papers = self._library.papers_by_id()
        return [pid for pid in order if pid in papers] + [p for p in ids if p not in known]

    def _scores(self, key: str) -> Callable[[str], float] | None:
        model = self.interest.models.get(key) if self.interest and key in LEARNT else None
        return model.score if model is not None and model.can_rank else None

    def _offer_learnt_sorts(self) -> None:
        """ "Predicted interest" once the library says what interests the user (a
        decision, a status, a rating, a tag); "More like this" once it was asked for."""
        from reader.core.interest import can_sort

        view = self.sort_combo.view()
        row = self.sort_combo.findData("interest")
        item = self.sort_combo.model().item(row)  # type: ignore[attr-defined]
        item.setEnabled(can_sort(self._library))
        like = self.sort_combo.findData("like")
        ready = self.interest is not None and "like" in self.interest.models
        view.setRowHidden(like, not ready)
        if ready and self.interest is not None:
            label = i18n.fill(self.tr("Like %1"), self.interest.like_what)
            self.sort_combo.setItemText(like, i18n.fill(self.tr("Sort: %1"), label))

    def query_text(self) -> str:
        return " ".join(p for p in (self.search.text().strip(), self.facets.query()) if p)

    def _typed(self) -> None:
        self._sort_follows_search()  # ("library" and "relevance" share the order below)
        if self._search_waits():
            return
        self.typing = True
        try:
            self.apply_filters()
        finally:
            self.typing = False

    def _search_waits(self, again: QTimer | None = None) -> bool:
        """True while the search is not ready for the query typed, after a step of
        its preparation (the typed query runs once it is): typing right after the
        window opened waits for no more than a step (~10-20 ms) between keys, not for
        it all (~1 s at 100k papers)."""
        if not (self.search.text().strip() or self.facets.query()):
            return False
        if self.prepare_search() and self._words_found():
            return False
        self.count_label.setText(self.tr("Searching…"))
        if self._fetching is not None:  # the query runs once its words are found
            self._fetched_then = again or self._typing
            self._fetch_poll.start()
        elif self.index_waiting:  # (the catalogue's index takes files in: not every turn)
            QTimer.singleShot(WAITING_MS, self, (again or self._typing).start)
        else:
            (again or self._typing).start()  # the next step, or the query, next turn
        return True

    def _words_found(self) -> bool:
        """True if the index knows the papers of every word of the query; else they
        are looked up on a thread of their own (a broad word at a million papers
        takes longer than a frame) and False until they are."""
        from reader.core.query import parse

        if self._fetching is not None:
            return False
        index = self.index
        wanted = [
            term
            for text in (self.search.text(), self.facets.query())
            for term in index.words_wanted(parse(text))
        ]
        self._fetching = index.fetch_words(wanted) if wanted else None
        return self._fetching is None  # (none: filter() finds them itself)

    def _fetch_looked(self) -> None:
        fetching = self._fetching
        if fetching is None:
            return
        if not fetching.done():
            self._fetch_poll.start()
            return
        self._fetching = None
        try:
            self.index.take_words(fetching.result())
        except RuntimeError:
            pass  # (filter() looks the words up itself, and says what went wrong)
        self._fetched_then.start()

    def refill(self) -> None:
        """apply_filters(), at once if the search is ready for the query and facets
        (or there are none), else once it is (see _search_waits)."""
        if not self._search_waits(self._choosing):
            self.apply_filters()

    def prepare_search(self) -> bool:
        """True if the index is ready to search; else a step of making it ready (the
        window's idle steps call it too)."""
        if self._index is None:
            if "reader.core.index" not in sys.modules:
                import reader.core.index  # noqa: F401  (~60 ms of modules: a step of their own)
            else:
                self._make_part()  # (~15 ms each at 100k papers, 9 of them)
            return False
        return self._index.prepare(PREPARE_SLICE_S)

    @property
    def index_waiting(self) -> bool:
        """The search index waits for the catalogue's thread (its files taken in first)."""
        return self._index is not None and self._index.waiting

    @property
    def search_pending(self) -> bool:
        """A typed query (or facet choice) waits for its turn, or for the search."""
        return self._typing.isActive() or self._choosing.isActive() or self._fetching is not None

    def apply_filters(self) -> None:
        """Refill the list from the current query and facets, keeping the selection."""
        selected = self.selected_ids()
        current = self.current_id()
        old_row = max(self.view.currentIndex().row(), 0)
        text, facet_text = self.search.text(), self.facets.query()
        if self._index is None and not text.strip() and not facet_text:  # the start: everything
            self._show_hint("")
            ids = self._text_ids = self._order
            self.model.highlight_terms = ()
        else:
            from reader.core.query import parse

            text_query = parse(text)
            self._show_hint(text_query.warning)
            self._text_ids = self.index.filter(text_query, self._order)
            ids = (
                self.index.filter(parse(facet_text), self._text_ids)
                if facet_text
                else self._text_ids
            )
            self.model.highlight_terms = text_query.terms
            key, descending = self.sort_key()
            if key == "relevance" and text.strip():
                ids = self.index.ranked(text_query, ids)
                ids = ids[::-1] if descending else ids
        self.model.set_ids(ids)
        self._shown = ids  # filter()'s own list: counted from its set
        self.select_ids(selected, current)
        if ids and (current or self.typing) and not self.view.currentIndex().isValid():
            # the paper shown left the list (or none was: the last search matched
            # nothing): a new search shows its best match; an edit (marked read under
            # status:unread) shows the paper that took its place
            row = 0 if self.typing else min(old_row, len(ids) - 1)
            self.view.setCurrentIndex(self.model.index(row))
        self.update_counts()
        self.schedule_facets()
        self.filtered.emit()

    def _show_hint(self, warning: str) -> None:
        """How the query was read (a warning), in the count's place; "": the count."""
        plain_words = "Searching plain words: "  # (reader.core.query's; its reason stays)
        if warning.startswith(plain_words):
            warning = i18n.fill(self.tr("Searching plain words: %1"), warning[len(plain_words) :])
        self.hint.setText(warning)
        self.hint.setToolTip(plain.tooltip(warning) if warning else "")
        self._bottom.setCurrentWidget(self.hint if warning else self.count_label)

    def update_counts(self) -> None:
        """The counter under the list: what it shows (filter()'s own list, counted from
        its set rather than paper by paper)."""
        ids = self._shown
        total = len(self._library)
        if self._index is None and len(ids) == total:
            read = self._library.count_status(Status.READ)
        else:
            read = self.index.count_status(ids, Status.READ)
        self._counts = (len(ids), total, read)
        self._show_counts()

    def _show_selected(self) -> None:
        """The count, and how many papers are selected when more than one is: what
        the keys and the Paper menu act on (see PaperController.target_ids)."""
        spans = sorted((r.top(), r.bottom() + 1) for r in self.view.selectionModel().selection())
        selected, end = 0, 0
        for top, bottom in spans:  # ranges may overlap
            if bottom > end:
                selected += bottom - max(top, end)
                end = bottom
        self._selected = selected
        self._show_counts()

    def _show_counts(self) -> None:
        shown, total, read = self._counts
        if shown == total:
            papers = self.tr("%Ln paper(s)", "", total)
        else:
            papers = i18n.fill(self.tr("%1 of %Ln paper(s)", "", total), i18n.number(shown))
        text = i18n.fill(self.tr("%1 · %2 read"), papers, i18n.number(read))
        if self._selected > 1:
            text = i18n.fill(self.tr("%1 · %Ln selected", "", self._selected), text)
        self.count_label.setText(text)

    def retranslate(self) -> None:
        """The sidebar's texts in the language in use (again after a switch)."""
        self.search.setPlaceholderText(
            self.tr("Search  (tag:x  status:unread  author:…  year:>=2024)")
        )
        self.search.setAccessibleName(self.tr("Search papers"))
        self.sort_combo.setAccessibleName(self.tr("Sort by"))
        for row in range(self.sort_combo.count()):
            key = self.sort_combo.itemData(row)
            label = names.sort_order(key)
            if key == "like" and self.interest is not None and "like" in self.interest.models:
                label = i18n.fill(self.tr("Like %1"), self.interest.like_what)
            self.sort_combo.setItemText(row, i18n.fill(self.tr("Sort: %1"), label))
        self.sort_order.setAccessibleName(self.tr("Descending order"))
        self.sort_order.setToolTip(self.tr("Reverse the order"))
        self.count_label.setAccessibleName(self.tr("Paper count"))
        if self._counts is not None:
            self._show_counts()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802 (Qt override)
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)

    def schedule_facets(self) -> None:
        """Count the facets once typing (or triaging) pauses."""
        self._facet_steps.stop()
        self._facet_timer.start()

    def _facets_due(self) -> None:
        if self.index_waits and not self.index_made:
            return  # counted once the window has painted (stop_waiting_for_index)
        # counted once the index is ready and the values grouped, a step a turn and
        # the count in a turn of its own: no long pause (a typed query waiting for the
        # search makes its preparation's steps: not two steps a turn)
        if self.search_pending:
            self.schedule_facets()
            return
        index = self._index
        if index is not None and index.prepared and index.prepare_tallies():
            self.refresh_facets()
        else:
            self.prepare_search()  # a step of it, if it is not ready
            self._facet_steps.start()

    def stop_waiting_for_index(self) -> None:
        """Count the facets soon: they waited for the first paint (the count makes
        the index, if nothing did before)."""
        self.index_waits = False
        self.schedule_facets()

    def refresh_facets(self) -> None:
        """Recount the facets over what the search box matches (debounced: this is
        the one linear pass left after a keystroke)."""
        self._facet_timer.stop()
        self._facet_steps.stop()
        from reader.core.query import parse

        ids, index = self._text_ids, self.index

        def tally(group: str) -> Any:
            # over what the search box and the facets of the other groups leave: a
            # group's own values stay choosable as alternatives (they combine by OR)
            query = self.facets.query(leaving=group)
            return index.tally(index.filter(parse(query), ids) if query else ids, group)

        facets = Facets(tally("status"), tally("tag"), tally("venue"), tally("year"))
        smart_counts = {name: index.count(parse(q)) for name, q in self.saved_searches.items()}
        elsewhere = not facets.tags and bool(index.tally(self._order, "tag"))
        self.facets.set_counts(
            facets, self.saved_searches, smart_counts, total=len(ids), tags_elsewhere=elsewhere
        )

    # -- selection --------------------------------------------------------

    def current_id(self) -> str:
        index = self.view.currentIndex()
        return self.model.id_at(index.row()) if index.isValid() else ""

    def selected_ids(self) -> list[str]:
        """The selected papers in the list's order: read from the selection's ranges
        (Ctrl+A at 100k papers is one), not row by row (0.5 s there)."""
        spans = sorted((r.top(), r.bottom() + 1) for r in self.view.selectionModel().selection())
        out: list[str] = []
        end = 0
        for top, bottom in spans:  # ranges may overlap
            if bottom > end:
                out += self.model.ids_in(max(top, end), bottom)
                end = bottom
        return out

    def select_ids(self, ids: list[str], current: str = "") -> None:
        from PySide6.QtCore import QItemSelection, QItemSelectionModel

        selection = QItemSelection()
        if ids:
            from reader.core.orders import runs  # (not before the first paint)

            rows = sorted(row for row in map(self.model.row_of, ids) if row >= 0)
            for top, bottom in runs(rows):  # (a row at a time: 0.5 s for 100k selected)
                selection.select(self.model.index(top), self.model.index(bottom))
        sm = self.view.selectionModel()
        flags = (
            QItemSelectionModel.SelectionFlag.ClearAndSelect
            | QItemSelectionModel.SelectionFlag.Rows
        )
        row = self.model.row_of(current) if current else -1
        if row >= 0:
            sm.setCurrentIndex(self.model.index(row), QItemSelectionModel.SelectionFlag.NoUpdate)
        sm.select(selection, flags)
        if row >= 0:
            self.view.scrollTo(self.model.index(row))

    def select_paper(self, paper_id: str) -> bool:
        row = self.model.row_of(paper_id)
        if row < 0:
            return False
        self._select_row(row)
        self.view.scrollTo(self.model.index(row), QAbstractItemView.ScrollHint.PositionAtCenter)
        return True

    def move(self, step: int) -> None:
        """Select the next (step 1) or previous (-1) paper."""
        count = self.model.rowCount()
        if not count:
            return
        row = self.view.currentIndex().row()
        row = 0 if row < 0 else max(0, min(count - 1, row + step))
        self._select_row(row)

    def _select_also(self, ids: list[str]) -> None:
        """Add the rows of `ids` to the selection, in ranges (Ctrl+A's 100k rows are one)."""
        from PySide6.QtCore import QItemSelection, QItemSelectionModel

        rows = sorted(r for r in map(self.model.row_of, ids) if r >= 0)
        selection = QItemSelection()
        start = end = -2
        for row in [*rows, -2]:
            if row == end + 1:
                end = row
                continue
            if start >= 0:
                selection.select(self.model.index(start), self.model.index(end))
            start = end = row
        flags = QItemSelectionModel.SelectionFlag
        self.view.selectionModel().select(selection, flags.Select | flags.Rows)

    def _select_row(self, row: int) -> None:
        """Row `row` the one current and selected. (The view's setCurrentIndex reads
        the keys held: with Ctrl down, Ctrl+Z say, it added the row to the selection.)"""
        from PySide6.QtCore import QItemSelectionModel

        flags = QItemSelectionModel.SelectionFlag
        self.view.selectionModel().setCurrentIndex(
            self.model.index(row), flags.ClearAndSelect | flags.Rows
        )


class _SortCombo(QComboBox):
    """The sort menu, brought up to date as it opens (which orders can be learnt)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.about_to_show: Callable[[], None] = lambda: None

    def showPopup(self) -> None:  # noqa: N802 (Qt override)
        self.about_to_show()
        super().showPopup()
