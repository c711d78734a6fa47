"""Typing a query: a half-typed one already narrows the list, and a note on how a query
was read never moves the list."""

from __future__ import annotations

from reader.core.models import Status


def test_a_half_typed_query_narrows_the_list_as_if_closed(qtbot, app):
    w, lib = app.window, app.controller.library
    sidebar = w.sidebar
    ids = sidebar.model.ids()
    lib.add_tags(ids[-2:], ["rl"])  # (not about distillation, as the first is)
    qtbot.keyClicks(sidebar.search, "(tag:rl OR distillation")
    qtbot.waitUntil(lambda: not sidebar.search_pending)
    shown = set(sidebar.model.ids())
    assert set(ids[-2:]) <= shown and len(shown) < len(ids)
    others = shown - set(ids[-2:])  # (and the papers about distillation)
    assert others and all(
        "distillation" in (lib.paper(p).title + lib.abstract(p)).lower() for p in others
    )
    assert sidebar.count_label.isVisible() and not sidebar.hint.isVisible()


def test_a_note_on_the_query_takes_the_counts_place_and_the_list_stays(qtbot, app):
    w, lib = app.window, app.controller.library
    sidebar = w.sidebar
    lib.set_status(sidebar.model.ids()[:1], Status.READ)
    top = sidebar.view.geometry().top()
    qtbot.keyClicks(sidebar.search, "year:soon")
    qtbot.waitUntil(lambda: sidebar.hint.isVisible())
    assert "plain words" in sidebar.hint.text()
    assert not sidebar.count_label.isVisible()
    assert sidebar.view.geometry().top() == top
    sidebar.search.clear()
    qtbot.waitUntil(lambda: sidebar.count_label.isVisible())
    assert sidebar.count_label.text() == "19 papers · 1 read"
    assert sidebar.view.geometry().top() == top
