"""A steady layout: tags, triage numbers and the window's size never push the panes
around (a paper with many tags widened the reader and squeezed the list)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication


def sizes(w):
    for _ in range(3):  # (layout requests post further ones: let them all run)
        QApplication.processEvents()
    return w.splitter.sizes()


def test_many_tags_or_none_the_panes_keep_their_widths(qtbot, app):
    w, lib = app.window, app.controller.library
    w.resize(900, 600)
    ids = w.sidebar.model.ids()
    lib.add_tags(ids[1:2], ["theory", "method/diffusion", "reinforcement-learning", "robots"])
    lib.add_tags(ids[1:2], ["a-rather-long-tag-name-that-takes-room", "benchmarks"])
    w.sidebar.view.setCurrentIndex(w.sidebar.model.index(0))
    before = sizes(w)
    w.sidebar.view.setCurrentIndex(w.sidebar.model.index(1))
    assert len(w.pane.tag_editor.chips()) == 6
    qtbot.wait(50)
    assert sizes(w) == before
    assert w.pane.minimumSizeHint().width() <= w.splitter.sizes()[2]
    assert w.width() == 900
    w.sidebar.view.setCurrentIndex(w.sidebar.model.index(0))
    assert sizes(w) == before


def test_the_triage_numbers_growing_move_nothing(qtbot, app):
    w = app.window
    w.resize(900, 600)
    app.finish_setup()
    app.actions.triage.trigger()
    before = sizes(w)
    for _ in range(10):  # "9 / 19" becomes "10 / 19", then the predicted-interest line
        qtbot.keyClick(w.sidebar.view, Qt.Key.Key_I)
        qtbot.keyClick(w.sidebar.view, Qt.Key.Key_S)
    assert sizes(w) == before
    assert w.width() == 900
    bar = app.triage_bar
    assert bar.exit_button.geometry().right() <= bar.width()  # every button inside it


def test_at_900_by_600_the_facets_and_titles_keep_room(qtbot, app):
    w = app.window
    w.resize(900, 600)
    facets, listed, _right = sizes(w)
    assert facets >= 170 and listed >= 240
    assert not w.sidebar.facets.horizontalScrollBar().isVisible()


def test_the_abstract_has_most_of_the_readers_height(qtbot, app):
    w = app.window
    w.resize(900, 600)
    QApplication.processEvents()
    abstract, lower = w.pane.splitter.sizes()
    assert abstract >= 1.5 * lower  # (empty note boxes took half of it)


def test_a_paper_mentioned_in_notes_moves_no_note_down(qtbot, app):
    w, lib = app.window, app.controller.library
    ids = w.sidebar.model.ids()
    app.finish_setup()  # (note links: "Mentioned in 1 note")
    mentioned = lib.paper(ids[1]).title
    lib.set_note(ids[0], f"See [[{mentioned}]].")
    w.sidebar.select_paper(ids[2])
    editor = w.pane.note_editor
    top = editor.mapTo(w, editor.rect().topLeft()).y()
    w.sidebar.select_paper(ids[1])
    qtbot.waitUntil(w.pane.backlinks.isVisible)
    QApplication.processEvents()
    assert editor.mapTo(w, editor.rect().topLeft()).y() == top
