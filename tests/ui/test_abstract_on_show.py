"""The window's library holds no abstract: the pane fetches the paper's abstract from the
catalogue's index when it shows the paper, and search finds words of abstracts."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from reader.core.models import NOT_LOADED, Paper
from reader.store import catalogue_db
from reader.store.files import LibraryFolder

ABSTRACTS = {
    f"p{i}": f"Abstract number {i}: the {word} of the lattice, measured."
    for i, word in enumerate(["quokka", "numbat", "wombat", "bilby", "dunnart"])
}


@pytest.fixture
def folder(tmp_path, monkeypatch):
    monkeypatch.setattr(catalogue_db, "SMALL_LIBRARY_BYTES", 0)  # (an index on disk)
    folder = tmp_path / "lib"
    store = LibraryFolder(folder)
    store.add_papers(
        [Paper(pid, f"Paper {pid}", ("Ann Lee",), text) for pid, text in ABSTRACTS.items()]
    )
    store.close()
    return folder


def test_the_pane_shows_the_abstract_the_library_does_not_hold(qtbot, make_app, folder):
    app = make_app(folder)
    w, library = app.window, app.controller.library
    assert all(p.abstract == NOT_LOADED for p in library.papers())
    view = w.sidebar.view
    view.setFocus()
    shown: list[str] = []
    for key in [Qt.Key.Key_Home] + [Qt.Key.Key_J] * (len(ABSTRACTS) - 1):
        qtbot.keyClick(view, key)
        qtbot.waitUntil(lambda: w.pane.paper_id not in ("", *shown))
        shown.append(w.pane.paper_id)
        assert ABSTRACTS[w.pane.paper_id] in w.pane.browser.toPlainText()
    assert sorted(shown) == sorted(ABSTRACTS)
    # what the pane showed was fetched, not kept: the library still holds none
    assert all(p.abstract == NOT_LOADED for p in library.papers())


def test_typing_a_word_of_an_abstract_finds_its_paper(qtbot, make_app, folder):
    app = make_app(folder)
    w = app.window
    qtbot.keyClicks(w.sidebar.search, "bilby")
    qtbot.waitUntil(lambda: w.sidebar.model.ids() == ["p3"], timeout=10_000)
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_Home)
    qtbot.waitUntil(lambda: w.pane.paper_id == "p3")
    assert ABSTRACTS["p3"] in w.pane.browser.toPlainText()
