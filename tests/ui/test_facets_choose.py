"""Choosing and leaving facets as a hand expects: "All papers" at the top, a second
click on a facet leaves it, and the Tags group tells "none here" from "none yet"."""

from __future__ import annotations

from reader.core.models import Status
from reader.ui.facets import ALL, NO_TAGS, NO_TAGS_HERE
from tests.ui.test_window import click_facet


def _tag_rows(facets) -> list[str]:
    model, tags = facets.model(), facets._find(("group", "tag"))
    return [model.index(r, 0, tags).data() for r in range(model.rowCount(tags))]


def test_all_papers_is_chosen_until_a_facet_is_and_leaves_every_facet(qtbot, app):
    w, lib = app.window, app.controller.library
    sidebar, facets = w.sidebar, w.sidebar.facets
    ids = sidebar.model.ids()
    lib.set_status(ids[:2], Status.READ)
    sidebar.refresh_facets()
    everything = facets._find(ALL)
    assert everything.data() == "All papers  (19)"
    assert facets.selectionModel().isSelected(everything)
    click_facet(qtbot, app, ("status", "read"))
    assert sidebar.model.ids() == ids[:2]
    assert not facets.selectionModel().isSelected(facets._find(ALL))
    click_facet(qtbot, app, ALL)
    assert sidebar.model.ids() == ids
    assert facets.selected_keys() == []
    assert facets.selectionModel().isSelected(facets._find(ALL))


def test_a_second_click_on_the_facet_chosen_leaves_it(qtbot, app):
    w, lib = app.window, app.controller.library
    ids = w.sidebar.model.ids()
    lib.set_status(ids[3:4], Status.READING)
    click_facet(qtbot, app, ("status", "reading"))
    assert w.sidebar.model.ids() == ids[3:4]
    click_facet(qtbot, app, ("status", "reading"))
    assert w.sidebar.model.ids() == ids
    assert w.sidebar.facets.selected_keys() == []


def test_the_tags_group_says_none_here_when_only_other_papers_have_tags(qtbot, app):
    w, lib = app.window, app.controller.library
    sidebar = w.sidebar
    sidebar.refresh_facets()
    assert _tag_rows(sidebar.facets) == [NO_TAGS]  # none yet: how to get one
    qtbot.keyClicks(sidebar.search, "distillation")
    qtbot.waitUntil(lambda: 0 < sidebar.model.rowCount() < 19)
    listed = set(sidebar.model.ids())
    lib.add_tags([next(pid for pid in lib.paper_ids() if pid not in listed)], ["rl"])
    sidebar.refresh_facets()
    assert _tag_rows(sidebar.facets) == [NO_TAGS_HERE]


def test_a_long_facet_keeps_its_count_in_sight_and_in_its_tooltip(qtbot, app):
    from PySide6.QtCore import Qt

    w, lib = app.window, app.controller.library
    long_tag = "a-tag-name-much-too-long-for-the-facet-pane-at-nine-hundred-pixels"
    lib.add_tags(w.sidebar.model.ids()[:3], [long_tag])
    w.sidebar.refresh_facets()
    facets = w.sidebar.facets
    item = facets._find(("tag", long_tag))
    assert item.data().endswith("(3)")
    assert "(3)" in item.data(Qt.ItemDataRole.ToolTipRole)  # all of it, count too
    # cut in its middle when narrow: the end, the count, stays in sight
    assert facets.textElideMode() == Qt.TextElideMode.ElideMiddle
