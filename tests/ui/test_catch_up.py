"""A big library whose catalogue's index is gone opens with the papers taken in first;
the others come into the window while it is in use, and search finds them all."""

from __future__ import annotations

import pytest

from reader.core.models import TRASH, Paper
from reader.store import catalogue_db, paper_files


@pytest.fixture
def catching_up(monkeypatch):
    """Any library folder's index a file, one taken in anew in parts of 10 papers, its
    window opened once 50 are in."""
    monkeypatch.setattr(catalogue_db, "SMALL_LIBRARY_BYTES", 0)
    monkeypatch.setattr(catalogue_db, "CATCH_UP_BYTES", 0)
    monkeypatch.setattr(catalogue_db, "FIRST_PAPERS", 50)
    monkeypatch.setattr(catalogue_db, "TAKE_PART", 10)


def _library(folder, n):
    desk = [
        Paper(id=f"p{i:04}", title=f"Paper {i} on graphs", abstract=f"Abstract {i}")
        for i in range(n)
    ]
    desk[-1] = Paper(id=desk[-1].id, title="Quokka networks, the last", abstract="x")
    paper_files.write_file(folder / "devices" / "desk", desk, "1000000000001.0000.desk")
    # another device's later file: a paper of the first part retitled, one deleted
    laptop = [Paper(id="p0001", title="Retitled on the laptop", abstract="y")]
    paper_files.write_file(
        folder / "devices" / "laptop", laptop, "1000000000002.0000.laptop", {"p0002": TRASH}
    )
    return [p.id for p in desk if p.id != "p0002"]


def test_a_library_whose_index_is_made_anew_lists_its_first_papers_then_the_rest(
    qtbot, make_app, tmp_path, catching_up
):
    folder = tmp_path / "library"
    expected = _library(folder, 3000)
    app = make_app(folder)
    library, sidebar = app.controller.library, app.window.sidebar
    assert app.catch_up is not None
    first = len(library)
    assert 50 <= first < 3000  # shown with the first parts taken in
    qtbot.waitUntil(lambda: app.catch_up.done, timeout=20_000)
    assert library.paper_ids() == expected  # in the catalogue's order, the deleted gone
    assert library.paper("p0001").title == "Retitled on the laptop"
    assert sidebar.model.rowCount() == len(expected)
    assert "3,000" in app.window.statusBar().currentMessage() or "2,999" in (
        app.window.statusBar().currentMessage()
    )
    sidebar.search.setFocus()
    qtbot.keyClicks(sidebar.search, "quokka")
    qtbot.waitUntil(lambda: sidebar.model.rowCount() == 1, timeout=10_000)
    assert sidebar.model.id_at(0) == expected[-1]
    # the next open finds the index whole: every paper listed at once
    app.window.close()
    again = make_app(folder)
    assert again.catch_up is None
    assert again.controller.library.paper_ids() == expected


def test_a_query_typed_while_the_papers_come_in_waits_without_holding_the_window(
    qtbot, make_app, tmp_path, monkeypatch, catching_up
):
    import time
    from itertools import pairwise

    from PySide6.QtCore import QTimer

    numbered = catalogue_db.CatalogueDB._next_taken

    def slowly(self, db):  # (a big library's take: a few seconds)
        time.sleep(0.01)
        return numbered(self, db)

    monkeypatch.setattr(catalogue_db.CatalogueDB, "_next_taken", slowly)
    folder = tmp_path / "library"
    expected = _library(folder, 3000)
    app = make_app(folder)
    sidebar = app.window.sidebar
    ticks: list[float] = []
    timer = QTimer(interval=10)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start()
    sidebar.search.setFocus()
    qtbot.keyClicks(sidebar.search, "quokka")
    qtbot.waitUntil(lambda: sidebar.count_label.text() == "Searching…", timeout=5_000)
    qtbot.waitUntil(lambda: app.catch_up.done, timeout=30_000)
    timer.stop()
    # the window went on answering while the take went on (~3 s): the query waited
    assert max(b - a for a, b in pairwise(ticks)) < 0.5
    qtbot.waitUntil(lambda: sidebar.model.rowCount() == 1, timeout=30_000)
    assert sidebar.model.id_at(0) == expected[-1]
