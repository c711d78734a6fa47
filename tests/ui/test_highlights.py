"""Highlighting the abstract as a user does: select, press a colour key, comment, undo."""

import dataclasses
import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QApplication, QInputDialog, QMenu

from reader.core.models import Status
from reader.formats import jsonfile, markdown_export
from reader.ui import highlights, plain
from reader.ui.highlight_list import MARK_ALPHA, ORPHAN_TEXT, HighlightModel

DA_KD = "t-079022f112"  # its abstract says "knowledge distillation" several times
OTHER = "t-2702e2f312"
QUOTE = "it still suffers from high training cost"


@pytest.fixture
def hl(app):
    highlighter = app.highlighter  # (made by the window's setup, run now)
    assert app.window.sidebar.select_paper(DA_KD)
    return highlighter


def select_text(qtbot, window, quote, nth=0, *, drag=True):
    """Select the nth occurrence of `quote` in the abstract by a mouse drag (or by
    setting the browser's text cursor)."""
    browser = window.pane.browser
    text = browser.toPlainText()
    start = -1
    for _ in range(nth + 1):
        start = text.index(quote, start + 1)
    end = start + len(quote)
    browser.setFocus()
    if drag:
        browser.ensureCursorVisible()

        def point(pos):
            cursor = QTextCursor(browser.document())
            cursor.setPosition(pos)
            return browser.cursorRect(cursor).center()

        viewport = browser.viewport()
        qtbot.mousePress(viewport, Qt.MouseButton.LeftButton, pos=point(start))
        qtbot.mouseMove(viewport, point(end))
        qtbot.mouseRelease(viewport, Qt.MouseButton.LeftButton, pos=point(end))
    else:
        cursor = browser.textCursor()
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        browser.setTextCursor(cursor)
    assert browser.textCursor().selectedText() == quote
    return start, end


def marks(window):
    """(start, end, rgb) of every highlight drawn over the abstract."""
    out = []
    for sel in window.pane.browser.extraSelections():
        color = sel.format.background().color()
        if color.alpha() != MARK_ALPHA:
            continue  # a search mark
        out.append((sel.cursor.selectionStart(), sel.cursor.selectionEnd(), color.name()))
    return out


def rows(window):
    model = window.pane.highlight_panel.model
    return [model.index(r).data() for r in range(model.rowCount())]


def test_highlight_by_key_is_listed_and_drawn(qtbot, app, hl):
    w = app.window
    lib = app.controller.library
    start, end = select_text(qtbot, w, QUOTE)
    qtbot.keyClick(w.pane.browser, Qt.Key.Key_1)
    (h,) = lib.annotation(DA_KD).highlights
    assert (h.quote, h.color) == (QUOTE, "yellow")
    assert h.prefix.endswith("(i.e., the teacher model), ")
    assert h.suffix.startswith(". Existing LLM")
    assert w.pane.highlight_panel.isVisible()
    assert rows(w) == [f"“{QUOTE}”"]
    assert marks(w) == [(start, end, hl.palette.color_of("yellow").name())]
    assert lib.status(DA_KD) is Status.UNREAD  # 1 in the abstract is not "mark unread"
    assert w.statusBar().currentMessage() == "Highlighted as claim · C adds a comment"


def test_select_by_keyboard_and_highlight(qtbot, app, hl):
    w = app.window
    browser = w.pane.browser
    start = browser.toPlainText().index(QUOTE)
    cursor = browser.textCursor()
    cursor.setPosition(start)
    browser.setTextCursor(cursor)
    browser.setFocus()
    for _ in "it still":
        qtbot.keyClick(browser, Qt.Key.Key_Right, Qt.KeyboardModifier.ShiftModifier)
    assert browser.textCursor().selectedText() == "it still"
    qtbot.keyClick(browser, Qt.Key.Key_2)
    assert [h.quote for h in app.controller.library.annotation(DA_KD).highlights] == ["it still"]


def test_number_keys_in_the_list_still_set_the_status(qtbot, app, hl):
    w = app.window
    select_text(qtbot, w, QUOTE, drag=False)
    w.sidebar.view.setFocus()
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_2)
    assert app.controller.library.status(DA_KD) is Status.READING
    assert app.controller.library.annotation(DA_KD).highlights == ()


def test_repeated_words_are_anchored_to_the_occurrence_selected(qtbot, app, hl):
    w = app.window
    start, end = select_text(qtbot, w, "knowledge distillation", nth=2)
    qtbot.keyClick(w.pane.browser, Qt.Key.Key_3)
    assert marks(w) == [(start, end, hl.palette.color_of("green").name())]
    w.sidebar.select_paper(OTHER)
    assert marks(w) == [] and rows(w) == []
    assert not w.pane.highlight_panel.isVisible()
    w.sidebar.select_paper(DA_KD)  # re-rendered: found at the same place
    assert marks(w) == [(start, end, hl.palette.color_of("green").name())]


def test_highlight_survives_a_reimport_with_changed_spacing_and_orphans_when_gone(qtbot, app, hl):
    w = app.window
    lib = app.controller.library
    select_text(qtbot, w, QUOTE)
    qtbot.keyClick(w.pane.browser, Qt.Key.Key_2)
    paper = lib.full_paper(DA_KD)
    respaced = paper.abstract.replace("suffers from", "suffers\n   from")
    respaced = "A new first sentence.\n\n" + respaced
    lib.add_papers([dataclasses.replace(paper, abstract=respaced)])
    text = w.pane.browser.toPlainText()
    assert "A new first sentence." in text
    (span,) = [(s, e) for s, e, _ in marks(w)]
    assert " ".join(text[span[0] : span[1]].split()) == QUOTE
    assert rows(w) == [f"“{QUOTE}”"]

    gone = paper.abstract.replace("high training", "a")
    lib.add_papers([dataclasses.replace(paper, abstract=gone)])
    assert marks(w) == []
    assert rows(w) == [f"“{QUOTE}”\n({ORPHAN_TEXT})"]
    model = w.pane.highlight_panel.model
    assert model.index(0).data(HighlightModel.FoundRole) is False
    assert len(lib.annotation(DA_KD).highlights) == 1  # kept, never silently dropped


def test_undo_and_redo_a_highlight(qtbot, app, hl):
    w = app.window
    lib = app.controller.library
    select_text(qtbot, w, QUOTE)
    qtbot.keyClick(w.pane.browser, Qt.Key.Key_4)
    assert len(lib.annotation(DA_KD).highlights) == 1
    assert app.controller.undo_stack.undoText() == "Highlight as question"
    qtbot.keyClick(w.pane.browser, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert lib.annotation(DA_KD).highlights == ()
    assert marks(w) == [] and not w.pane.highlight_panel.isVisible()
    qtbot.keyClick(
        w.pane.browser,
        Qt.Key.Key_Z,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert lib.annotation(DA_KD).highlights[0].color == "pink"


def test_same_span_again_recolours_instead_of_adding(qtbot, app, hl):
    w = app.window
    lib = app.controller.library
    select_text(qtbot, w, QUOTE)
    qtbot.keyClick(w.pane.browser, Qt.Key.Key_1)
    select_text(qtbot, w, QUOTE, drag=False)
    qtbot.keyClick(w.pane.browser, Qt.Key.Key_2)
    (h,) = lib.annotation(DA_KD).highlights
    assert h.color == "blue"


def test_comment_by_key_is_listed_and_found_by_search(qtbot, app, hl, monkeypatch):
    w = app.window
    lib = app.controller.library
    asked = []

    def get_text(parent, title, label, text):
        asked.append((label, text))
        return "contradicts the scaling story", True

    monkeypatch.setattr(QInputDialog, "getMultiLineText", get_text)
    select_text(qtbot, w, QUOTE)
    qtbot.keyClick(w.pane.browser, Qt.Key.Key_1)
    qtbot.keyClick(w.pane.browser, Qt.Key.Key_C)
    assert asked and QUOTE[:20] in asked[0][0]
    assert lib.annotation(DA_KD).highlights[0].comment == "contradicts the scaling story"
    assert rows(w) == [f"“{QUOTE}”\nComment: contradicts the scaling story"]

    qtbot.keyClicks(w.sidebar.search, "scaling story")
    qtbot.waitUntil(lambda: w.sidebar.model.ids() == [DA_KD])


def test_list_keys_comment_delete_and_choose(qtbot, app, hl, monkeypatch):
    w = app.window
    lib = app.controller.library
    monkeypatch.setattr(QInputDialog, "getMultiLineText", lambda *a: ("why?", True))
    first = select_text(qtbot, w, "knowledge distillation", nth=0)
    qtbot.keyClick(w.pane.browser, Qt.Key.Key_1)
    select_text(qtbot, w, QUOTE)
    qtbot.keyClick(w.pane.browser, Qt.Key.Key_2)
    view = w.pane.highlight_panel.view
    view.setFocus()
    qtbot.mouseClick(
        view.viewport(),
        Qt.MouseButton.LeftButton,
        pos=view.visualRect(view.model().index(0, 0)).center(),
    )
    assert w.pane.browser.textCursor().position() == first[0]  # scrolled to it
    qtbot.keyClick(view, Qt.Key.Key_Return)
    assert lib.annotation(DA_KD).highlights[0].comment == "why?"
    assert view.currentIndex().row() == 0  # still chosen after the list refreshed
    qtbot.keyClick(view, Qt.Key.Key_Delete)
    assert [h.quote for h in lib.annotation(DA_KD).highlights] == [QUOTE]
    assert view.currentIndex().row() == 0  # on to the next one
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert len(lib.annotation(DA_KD).highlights) == 2


def test_h_opens_the_palette_and_the_context_menu_offers_colours(qtbot, app, hl):
    w = app.window
    lib = app.controller.library
    select_text(qtbot, w, QUOTE)
    qtbot.keyClick(w.pane.browser, Qt.Key.Key_H)
    menu = hl.palette_menu
    assert menu is not None and menu.isVisible()
    assert [a.text() for a in menu.actions()] == [
        "Highlight as claim",
        "Highlight as method",
        "Highlight as result",
        "Highlight as question",
    ]
    menu.actions()[2].trigger()
    menu.close()
    assert lib.annotation(DA_KD).highlights[0].color == "green"

    browser = w.pane.browser
    span = marks(w)[0]
    cursor = QTextCursor(browser.document())
    cursor.setPosition(span[0] + 3)
    pos = browser.cursorRect(cursor).center()
    browser.customContextMenuRequested.emit(pos)
    popup = QApplication.activePopupWidget()
    assert isinstance(popup, QMenu)
    texts = [a.text() for a in popup.actions()]
    assert "Comment on Highlight…" in texts and "Remove Highlight" in texts
    next(a for a in popup.actions() if a.text() == "Remove Highlight").trigger()
    popup.close()
    assert lib.annotation(DA_KD).highlights == ()


def test_rename_colours(qtbot, app, hl):
    w = app.window
    action = app.actions.by_name["rename_highlight_colours"]
    with qtbot.waitSignal(hl.palette.renamed) as renamed:
        action.trigger()
        dialog = w.findChild(highlights.RenameColoursDialog)
        assert [f.text() for f in dialog.fields] == ["claim", "method", "result", "question"]
        dialog.fields[0].setText("  key finding ")
        dialog.fields[3].setText("")  # blank: back to the default
        dialog.accept()
    assert renamed.args == [["key finding", "method", "result", "question"]]
    assert hl.colour_actions[0].text() == "Highlight as key finding"
    select_text(qtbot, w, QUOTE)
    qtbot.keyClick(w.pane.browser, Qt.Key.Key_1)
    tip = w.pane.highlight_panel.model.index(0).data(Qt.ItemDataRole.ToolTipRole)
    assert tip == plain.tooltip("Key finding")


def test_palette_names_given_at_install_are_used():
    palette = highlights.HighlightPalette(["a", "", "c"])
    assert palette.names() == ["a", "method", "c", "question"]
    palette.set_names(["x"])
    assert palette.names()[0] == "x"


def test_highlights_are_exported_with_the_paper(qtbot, app, hl, monkeypatch):
    w = app.window
    lib = app.controller.library
    monkeypatch.setattr(QInputDialog, "getMultiLineText", lambda *a: ("a costly method", True))
    select_text(qtbot, w, QUOTE)
    qtbot.keyClick(w.pane.browser, Qt.Key.Key_1)
    qtbot.keyClick(w.pane.browser, Qt.Key.Key_C)
    items = [(lib.paper(DA_KD), lib.annotation(DA_KD))]
    (md,) = markdown_export.export(items).values()
    assert QUOTE in md and "a costly method" in md
    exported = json.loads(jsonfile.export(items))
    (h,) = exported["annotations"][0]["highlights"]
    assert (h["quote"], h["comment"], h["color"]) == (QUOTE, "a costly method", "yellow")
    assert h["prefix"] and h["suffix"]


def test_highlight_key_without_a_selection_explains(qtbot, app, hl):
    w = app.window
    w.pane.browser.setFocus()
    qtbot.keyClick(w.pane.browser, Qt.Key.Key_1)
    assert app.controller.library.annotation(DA_KD).highlights == ()
    assert (
        w.statusBar().currentMessage()
        == "Select text in the abstract first, then press 1–4 to highlight it"
    )


def test_colour_names_are_kept_in_the_library(qtbot, make_app, monkeypatch):
    from reader.core.prefs import HIGHLIGHT_NAMES

    app = make_app()
    palette = app.highlighter.palette
    palette.renamed.emit(["finding", "how", "numbers", "doubt"])
    assert app.controller.library.prefs.get(HIGHLIGHT_NAMES) == [
        "finding",
        "how",
        "numbers",
        "doubt",
    ]
    app.window.close()
    again = make_app()
    assert again.highlighter.palette.names()[0] == "finding"


def test_highlight_model_passes_qt_model_tester(qtmodeltester):
    from reader.core.models import Highlight
    from reader.ui.highlight_list import HighlightModel, HighlightPalette, HighlightRow

    model = HighlightModel(HighlightPalette())
    model.set_rows(
        [
            HighlightRow(Highlight("a", "quote one", color="yellow", comment="c"), (0, 9)),
            HighlightRow(Highlight("b", "gone", color="blue"), None),
        ]
    )
    qtmodeltester.check(model, force_py=True)


def test_a_comment_longer_than_a_line_field_holds_is_kept_whole(qtbot, app, hl):
    from dataclasses import replace

    from PySide6.QtCore import QTimer

    w = app.window
    lib = app.controller.library
    select_text(qtbot, w, QUOTE)
    qtbot.keyClick(w.pane.browser, Qt.Key.Key_1)
    [h] = lib.annotation(DA_KD).highlights
    long_comment = "why " * 10_000  # 40,000 characters: a QLineEdit keeps 32,767
    lib.set_highlights(DA_KD, [replace(h, comment=long_comment.strip())])
    seen = []

    def accept() -> None:
        dialog = next(d for d in QApplication.topLevelWidgets() if isinstance(d, QInputDialog))
        seen.append(len(dialog.textValue()))
        dialog.accept()

    QTimer.singleShot(0, accept)
    app.highlighter.comment(h.id)
    assert seen == [len(long_comment.strip())]
    assert lib.annotation(DA_KD).highlights[0].comment == long_comment.strip()
