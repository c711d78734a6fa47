"""The list marks under a row's title what the search found there, as the search finds
it: whole words and word prefixes, an acronym typed in capitals only where it is
written in capitals ("Ising" not in "promising", "AUC" not in "Auctions")."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QApplication

from reader.core.models import Paper

PAPERS = [
    Paper("mk-auc", "Auctions Measured by AUC", ("A. Author",), "Bids."),
    Paper("mk-ising", "Ising Models Look Promising", ("B. Author",), "Spins."),
    Paper("mk-flow", "Flow Matching for Flows", ("C. Author",), "Paths."),
]


@pytest.fixture
def window(qtbot, app):
    app.controller.library.add_papers(PAPERS)
    qtbot.waitUntil(lambda: app.window.sidebar.prepare_search(), timeout=10_000)
    return app.window


def _search(qtbot, sidebar, text: str) -> None:
    sidebar.search.clear()
    sidebar.search.setFocus()
    qtbot.keyClicks(sidebar.search, text)
    assert sidebar.search.text() == text
    qtbot.waitUntil(lambda: not sidebar.search_pending, timeout=5_000)


def _marked(sidebar, pid: str) -> list[str]:
    """The parts of the paper's title the list's delegate marks for the search typed."""
    model = sidebar.model
    title = model.row(model.row_of(pid))[0]
    delegate = sidebar.view.itemDelegate()
    return [title[a:b] for a, b in delegate.match_spans(title, model.highlight_terms)]


def _orange_runs(sidebar, pid: str) -> list[int]:
    """The widths in pixels of the runs of the row's columns that hold the marks'
    orange (over the row's white or its selection's blue), as painted."""
    QApplication.processEvents()
    view = sidebar.view
    image = view.viewport().grab(view.visualRect(sidebar.model.index(sidebar.model.row_of(pid))))
    image = image.toImage()
    columns = [
        any(
            (c := image.pixelColor(x, y)).red() > c.blue() + 40 and c.red() > c.green() + 20
            for y in range(image.height())
        )
        for x in range(image.width())
    ]
    runs, width = [], 0
    for orange in [*columns, False]:
        if orange:
            width += 1
        elif width:
            runs.append(width)
            width = 0
    return runs


@pytest.mark.parametrize(
    ("typed", "pid", "marked"),
    [
        ("AUC", "mk-auc", ["AUC"]),  # an acronym: not the "Auc" of "Auctions"
        ("auc", "mk-auc", ["Auc", "AUC"]),  # a word: both
        ("Ising", "mk-ising", ["Ising"]),  # not the "ising" of "Promising"
        ("prom", "mk-ising", ["Prom"]),  # a word's prefix
        ("flow", "mk-flow", ["Flow", "Flow"]),
        ('"flow matching"', "mk-flow", ["Flow Matching"]),
    ],
)
def test_the_list_marks_what_the_search_finds(qtbot, window, typed, pid, marked):
    sidebar = window.sidebar
    _search(qtbot, sidebar, typed)
    assert pid in sidebar.model.ids()
    assert _marked(sidebar, pid) == marked
    runs = _orange_runs(sidebar, pid)  # one mark painted per place, no other
    assert len(runs) == len(marked)


def test_a_mark_painted_is_as_wide_as_the_word_it_marks(qtbot, window):
    sidebar = window.sidebar
    _search(qtbot, sidebar, "Ising")
    (run,) = _orange_runs(sidebar, "mk-ising")
    _search(qtbot, sidebar, "ising")
    (again,) = _orange_runs(sidebar, "mk-ising")  # (the same place: "ising" starts no other word)
    assert run == again
    _search(qtbot, sidebar, "Ising models")
    wider = _orange_runs(sidebar, "mk-ising")
    assert len(wider) == 2 and wider[0] == run  # "Ising", then "Models"
    _search(qtbot, sidebar, "")
    assert sidebar.model.highlight_terms == ()
    assert _orange_runs(sidebar, "mk-ising") == []
