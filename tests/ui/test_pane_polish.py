"""Small things a reader notices in the pane: no caret blinking in the abstract, and
the search's marks apart from every highlight colour."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor

from reader.ui.highlight_list import COLOURS


def test_the_abstract_shows_no_caret_yet_shift_arrows_still_choose_text(qtbot, app):
    browser = app.window.pane.browser
    browser.setFocus()
    qtbot.waitUntil(browser.hasFocus)
    assert browser.cursorWidth() == 0
    for _ in range(5):
        qtbot.keyClick(browser, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    assert len(browser.textCursor().selectedText()) == 5


def test_search_marks_are_not_a_highlight_colour(qtbot, app):
    sidebar, pane = app.window.sidebar, app.window.pane
    qtbot.keyClicks(sidebar.search, "distillation")
    qtbot.waitUntil(lambda: bool(pane._search_marks))
    mark = pane._search_marks[0].format.background().color()
    for name, colour in COLOURS:
        hue = abs(mark.hslHue() - QColor(colour).hslHue())
        assert min(hue, 360 - hue) > 15, name
