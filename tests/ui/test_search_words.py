"""Typing in the search box of the real window: words found in the SQLite index on a
thread of their own, whole words and word starts only."""

from __future__ import annotations

import threading

from reader.core.query import parse
from reader.core.search_text import make_record
from reader.store import catalogue_db
from reader.store.catalogue_words import IndexWords


def _reference(library, text):
    query = parse(text)
    return [
        pid
        for pid in library.paper_ids()
        if query.matches(make_record(library.paper(pid), library.annotation(pid)))
    ]


def test_typed_words_are_found_off_the_gui_thread_and_shown(qtbot, make_app, monkeypatch):
    # (a library of a few papers is indexed in memory and searched on the GUI thread:
    # this one's index is a file, as a big library's is)
    monkeypatch.setattr(catalogue_db, "SMALL_LIBRARY_BYTES", 0)
    app = make_app()
    where: list[str] = []
    find = IndexWords.find

    def spied(self, words, column, n):
        where.append(threading.current_thread().name)
        return find(self, words, column, n)

    monkeypatch.setattr(IndexWords, "find", spied)
    sidebar, library = app.window.sidebar, app.controller.library
    qtbot.waitUntil(lambda: sidebar.prepare_search(), timeout=10_000)
    sidebar.search.setFocus()
    qtbot.keyClicks(sidebar.search, "distil")
    expected = _reference(library, "distil")
    assert 0 < len(expected) < 19
    qtbot.waitUntil(lambda: sidebar.model.ids() == expected, timeout=5_000)
    assert where and all(name != threading.main_thread().name for name in where)
    assert sidebar.count_label.text().startswith(f"{len(expected)} of 19 papers")
    sidebar.search.clear()
    qtbot.keyClicks(sidebar.search, "istil")  # inside a word: nothing
    qtbot.waitUntil(lambda: sidebar.model.ids() == [], timeout=5_000)
    assert sidebar.count_label.text().startswith("0 of 19 papers")


def test_a_typed_search_sorts_by_relevance_unless_the_user_chose_an_order(qtbot, app):
    sidebar, library = app.window.sidebar, app.controller.library
    qtbot.waitUntil(lambda: sidebar.prepare_search(), timeout=10_000)
    assert sidebar.sort_key() == ("library", False)
    qtbot.keyClicks(sidebar.search, "distillation")
    expected = _reference(library, "distillation")
    qtbot.waitUntil(lambda: set(sidebar.model.ids()) == set(expected), timeout=5_000)
    assert sidebar.sort_combo.currentText() == "Sort: Relevance"
    ranked = sidebar.index.ranked(parse("distillation"), expected)
    assert sidebar.model.ids() == ranked
    titled = [pid for pid in expected if "distillation" in library.paper(pid).title.lower()]
    assert titled and set(ranked[: len(titled)]) == set(titled)  # title matches first
    app.save_state()
    assert app.settings.load().sort_key == "library"  # the user's own choice is kept
    sidebar.search.clear()
    qtbot.waitUntil(lambda: sidebar.model.rowCount() == 19, timeout=5_000)
    assert sidebar.sort_key() == ("library", False)
    assert sidebar.model.ids() == library.paper_ids()
    sidebar.sort_combo.setCurrentIndex(sidebar.sort_combo.findData("title"))  # the user's
    qtbot.keyClicks(sidebar.search, "distillation")
    qtbot.waitUntil(lambda: set(sidebar.model.ids()) == set(expected), timeout=5_000)
    assert sidebar.sort_key() == ("title", False)
