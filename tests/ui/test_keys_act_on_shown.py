"""What the reader shows is what the keys act on, in every way of moving through the
list: a status key after Ctrl+End marks the paper on screen, not the one clicked
before; Home and End go to the first and last paper."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from reader.core.models import Status

CTRL = Qt.KeyboardModifier.ControlModifier
NONE = Qt.KeyboardModifier.NoModifier


def click_row(qtbot, app, row, modifier=NONE):
    view = app.window.sidebar.view
    rect = view.visualRect(view.model().index(row, 0))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, modifier, rect.center())
    return view.model().id_at(row)


@pytest.mark.parametrize(
    ("key", "modifier", "row"),
    [
        (Qt.Key.Key_End, CTRL, -1),
        (Qt.Key.Key_End, NONE, -1),
        (Qt.Key.Key_Home, CTRL, 0),
        (Qt.Key.Key_Home, NONE, 0),
        (Qt.Key.Key_Down, CTRL, 6),
        (Qt.Key.Key_Up, CTRL, 4),
        (Qt.Key.Key_PageDown, CTRL, None),
        (Qt.Key.Key_Down, NONE, 6),
    ],
)
def test_a_status_key_marks_the_paper_shown_after_moving(qtbot, app, key, modifier, row):
    sidebar, lib = app.window.sidebar, app.controller.library
    clicked = click_row(qtbot, app, 5)
    qtbot.keyClick(sidebar.view, key, modifier)
    shown = app.window.pane.paper_id
    assert shown != clicked
    if row is not None:
        assert shown == sidebar.model.id_at(row % sidebar.model.rowCount())
    assert sidebar.selected_ids() == [shown]  # the row shown is the row selected
    qtbot.keyClick(sidebar.view, Qt.Key.Key_3)
    assert lib.status(shown) is Status.READ
    assert lib.status(clicked) is Status.UNREAD


def test_a_selection_of_several_is_acted_on_while_one_of_them_is_shown(qtbot, app):
    sidebar, lib = app.window.sidebar, app.controller.library
    first = click_row(qtbot, app, 2)
    last = click_row(qtbot, app, 4, Qt.KeyboardModifier.ShiftModifier)
    assert app.window.pane.paper_id == last
    qtbot.keyClick(sidebar.view, Qt.Key.Key_3)
    marked = [pid for pid in sidebar.model.ids() if lib.status(pid) is Status.READ]
    assert marked == sidebar.model.ids()[2:5]
    assert first in marked


def test_the_count_says_how_many_are_selected_when_several_are(qtbot, app):
    sidebar = app.window.sidebar
    click_row(qtbot, app, 2)
    assert sidebar.count_label.text() == "19 papers · 0 read"
    click_row(qtbot, app, 6, Qt.KeyboardModifier.ShiftModifier)
    assert sidebar.count_label.text() == "19 papers · 0 read · 5 selected"
    click_row(qtbot, app, 9, Qt.KeyboardModifier.ControlModifier)
    assert sidebar.count_label.text() == "19 papers · 0 read · 6 selected"
    qtbot.keyClick(sidebar.view, Qt.Key.Key_3)  # all six marked read
    assert sidebar.count_label.text() == "19 papers · 6 read · 6 selected"
    click_row(qtbot, app, 0)
    assert sidebar.count_label.text() == "19 papers · 6 read"


def test_undoing_a_triage_decision_selects_that_paper_alone(qtbot, app):
    w = app.window
    app.finish_setup()
    app.actions.triage.trigger()
    decided = w.pane.paper_id
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_I)
    assert w.sidebar.selected_ids() == [w.pane.paper_id] != [decided]
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert w.pane.paper_id == decided
    assert w.sidebar.selected_ids() == [decided]  # one row, not two
