"""Changes proposed for files the search work does not own, applied by monkeypatching.

Used only by `bench/run.py --proposed`, to measure what they would gain before they
are made for real in reader/ui (each function below mirrors the proposed code).
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from typing import Any

from reader.core.facets import Facets
from reader.core.models import Status


# reader/ui/paper_list.py, PaperListModel: build the id -> row map only when needed
def set_ids(self: Any, ids: Sequence[str]) -> None:
    """Show exactly these papers, in this order."""
    self.beginResetModel()
    self._ids = list(ids)
    self._rows = None  # a dict of 100k ids costs more than the search: built on demand
    self._scans = 0
    self.endResetModel()


def row_of(self: Any, paper_id: str) -> int:
    if self._rows is None and self._scans < 8:  # a few look-ups: a C scan of the list
        self._scans += 1
        try:
            return int(self._ids.index(paper_id))
        except ValueError:
            return -1
    return int(self._row_map().get(paper_id, -1))


def _row_map(self: Any) -> dict[str, int]:
    if self._rows is None:
        self._rows = dict(zip(self._ids, range(len(self._ids))))
    return self._rows  # type: ignore[no-any-return]


def refresh_papers(self: Any, paper_ids: Any) -> None:
    rows_of = self._row_map()
    rows = [rows_of[pid] for pid in paper_ids if pid in rows_of]
    if rows:
        self.dataChanged.emit(self.index(min(rows)), self.index(max(rows)))


# reader/ui/sidebar.py, Sidebar: counts from the index's sets, not a pass over the ids
def update_counts(self: Any) -> None:
    ids = self.model.ids()
    read = self._index.count_status(ids, Status.READ)
    total = len(self._library)
    shown = f"{len(ids):,} papers" if len(ids) == total else f"{len(ids):,} of {total:,} papers"
    self.count_label.setText(f"{shown} · {read:,} read")


def refresh_facets(self: Any) -> None:
    from reader.core.query import parse

    self._facet_timer.stop()
    smart_counts = {name: len(self._index.filter(parse(q), self._order)) for name, q in self.saved_searches.items()}
    ids, index = self._text_ids, self._index
    facets = Facets(index.tally(ids, "status"), index.tally(ids, "tag"), index.tally(ids, "venue"),
                    index.tally(ids, "year"))
    self.facets.set_counts(facets, self.saved_searches, smart_counts)


def apply() -> None:
    from reader.ui import app, paper_list, sidebar

    model = paper_list.PaperListModel
    model.set_ids, model.row_of, model._row_map, model.refresh_papers = set_ids, row_of, _row_map, refresh_papers
    sidebar.Sidebar.update_counts = update_counts
    sidebar.Sidebar.refresh_facets = refresh_facets
    original = app.build

    # reader/ui/app.py, build(): the index is warmed in idle time; the loaded library
    # leaves the garbage collector's scans (a full pass over 100k papers is ~150 ms)
    def build(*args: Any, **kwargs: Any) -> Any:
        from PySide6.QtCore import QTimer

        built = original(*args, **kwargs)
        gc.freeze()
        index = built.controller.index
        warm = QTimer(built.window, interval=0)
        warm.timeout.connect(lambda: index.warm(0.008) and (warm.stop(), gc.freeze()))
        warm.start()
        built.warm_timer = warm
        return built

    app.build = build
