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


def test_a_note_saved_as_typed_renders_neither_the_page_nor_the_list(qtbot, app, monkeypatch):
    from reader.ui.note_editor import SAVE_DEBOUNCE_MS

    w = app.window
    pane, model = w.pane, w.sidebar.model
    pages, rows = [], []
    monkeypatch.setattr(pane.browser, "set_page", lambda html, *a: pages.append(html))
    model.dataChanged.connect(lambda *_: rows.append(1))
    model.modelReset.connect(lambda: rows.append(1))
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_N)
    qtbot.keyClicks(pane.note_editor.editor, "A thought")
    qtbot.wait(SAVE_DEBOUNCE_MS + 200)
    assert app.controller.library.annotation(pane.paper_id).note == "A thought"
    assert pages == [] and rows == []  # the save changed the note alone
    assert pane.note_editor.editor.toPlainText() == "A thought"
