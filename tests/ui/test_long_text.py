"""Megabytes of one word in a title, an abstract or a note: shown in part, wrapped
within the pane, kept and exported whole."""

import json
import re

import pytest
from PySide6.QtCore import QMimeData
from PySide6.QtGui import QTextOption
from PySide6.QtTest import QTest

from reader.core.models import Annotation, Paper
from reader.exporting import export_text
from reader.formats import jsonfile
from reader.importing import import_files
from reader.render.html import BREAK_RUNS_AT
from reader.ui.note_editor import LONG_NOTE_SHOWN, MAX_EDIT_LINE, MAX_WORD_WRAP_RUN
from reader.ui.paper_delegate import MAX_ROW_CHARS

MB = 1_000_000
TITLE, ABSTRACT, NOTE = "t" * MB, "a" * MB, "n" * MB  # (a note holds at most 1 MB)


@pytest.fixture
def long_paper(app, tmp_path):
    """A paper with a one-word title, abstract and note of 1 MB each, imported from
    a file of our own JSON format, and shown."""
    path = tmp_path / "long.json"
    paper = Paper("long", TITLE, ("A. Author",), ABSTRACT, venue="ICML 2025", year=2025)
    path.write_text(jsonfile.export([(paper, Annotation("long", note=NOTE))]), encoding="utf-8")
    import_files(app.controller.library, [path])
    assert app.window.sidebar.select_paper("long")
    assert app.window.pane.paper_id == "long"
    return app


def test_the_pane_shows_the_start_of_a_long_title_and_abstract_and_says_so(qtbot, long_paper):
    browser = long_paper.window.pane.browser
    shown = browser.toPlainText()
    assert shown.startswith("t" * 500)
    assert shown.count("shortened for display: 1,000,000 characters in total") == 2
    assert "the abstract goes on for" in shown
    assert len(shown) < 60_000


def longest_run(text: str) -> int:
    """The most characters of `text` with no place to break a line between them."""
    return max(map(len, re.split(r"[\s\u200b]", text)))


def test_a_long_word_wraps_within_the_pane(qtbot, long_paper):
    pane = long_paper.window.pane
    for browser in (pane.browser, pane.note_editor.preview):
        pane.note_editor.render_preview()
        assert browser.wordWrapMode() == QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere
        # Qt looks along a whole run for each line it breaks: each one is short
        assert longest_run(browser.toPlainText()) <= BREAK_RUNS_AT
        assert browser.document().idealWidth() <= browser.viewport().width()
        assert browser.horizontalScrollBar().maximum() == 0


def test_the_list_row_paints_a_short_part_of_a_long_title(qtbot, long_paper):
    view = long_paper.window.sidebar.view
    delegate = view.itemDelegate()
    view.viewport().grab()  # paints the rows shown, ours among them
    laid_out = [text for text, _width, _font in delegate._texts]
    assert any(text.startswith("t" * 10) for text in laid_out)
    assert max(map(len, laid_out)) <= MAX_ROW_CHARS + 1


def test_everything_is_stored_and_exported_whole(qtbot, long_paper):
    lib = long_paper.controller.library
    long_paper.window.pane.note_editor.flush()
    assert lib.paper("long").title == TITLE
    assert lib.abstract("long") == ABSTRACT
    assert lib.annotation("long").note == NOTE
    exported = json.loads(export_text(lib, ["long"], "json"))
    assert exported["papers"][0]["title"] == TITLE
    assert exported["papers"][0]["abstract"] == ABSTRACT
    assert exported["annotations"][0]["note"] == NOTE


def test_a_note_with_a_megabyte_line_is_shown_read_only_in_part(qtbot, long_paper):
    editor = long_paper.window.pane.note_editor
    assert editor.is_long() and editor.editor.isReadOnly()
    shown = editor.editor.toPlainText()
    assert shown.startswith("n" * 1000) and len(shown) < LONG_NOTE_SHOWN + 200
    assert "note shortened for display: 1,000,000 characters in total" in shown
    assert "too long to edit here" in editor.notice()
    assert editor.text() == NOTE and not editor.is_dirty()
    editor.render_preview()
    assert "note shortened for display" in editor.preview.toPlainText()
    long_paper.window.sidebar.move(1)  # away and back: nothing was saved over the note
    long_paper.window.sidebar.select_paper("long")
    assert long_paper.controller.library.annotation("long").note == NOTE


def test_edit_anyway_loads_the_whole_note_wrapping_anywhere(qtbot, long_paper):
    editor = long_paper.window.pane.note_editor
    editor.edit_anyway()
    assert not editor.is_long() and not editor.editor.isReadOnly()
    assert editor.editor.toPlainText() == NOTE
    assert editor.editor.wordWrapMode() == QTextOption.WrapMode.WrapAnywhere
    assert editor.notice() == ""


def paste(note_editor, text: str) -> None:
    mime = QMimeData()
    mime.setText(text)
    note_editor.editor.insertFromMimeData(mime)


def test_a_paste_too_long_for_a_note_is_refused_and_said_so(qtbot, app):
    editor = app.window.pane.note_editor
    editor.editor.setPlainText("kept")
    paste(editor, "p" * 10 * MB)
    assert editor.text() == "kept"
    assert "Not pasted" in editor.notice() and "1,000,000" in editor.notice()


def test_a_paste_too_long_to_edit_is_kept_and_saved_whole(qtbot, app):
    editor = app.window.pane.note_editor
    pid = editor.paper_id
    editor.editor.setPlainText("start ")
    editor.editor.moveCursor(editor.editor.textCursor().MoveOperation.End)
    paste(editor, "p" * (MAX_EDIT_LINE + 1))
    assert editor.is_long()
    assert editor.text() == "start " + "p" * (MAX_EDIT_LINE + 1)
    editor.flush()
    assert app.controller.library.annotation(pid).note == "start " + "p" * (MAX_EDIT_LINE + 1)


def test_a_long_word_makes_the_editor_wrap_anywhere(qtbot, app):
    editor = app.window.pane.note_editor
    editor.editor.setPlainText("some words")
    assert editor.editor.wordWrapMode() == QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere
    paste(editor, "q" * (MAX_WORD_WRAP_RUN + 1))  # short enough to edit, too long a word
    assert not editor.is_long()
    assert editor.editor.wordWrapMode() == QTextOption.WrapMode.WrapAnywhere
    assert editor.text() == "q" * (MAX_WORD_WRAP_RUN + 1) + "some words"


def test_typing_a_long_word_makes_the_editor_wrap_anywhere(qtbot, app):
    editor = app.window.pane.note_editor
    editor.editor.setPlainText("w" * MAX_WORD_WRAP_RUN)
    editor.editor.moveCursor(editor.editor.textCursor().MoveOperation.End)
    assert editor.editor.wordWrapMode() == QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere
    QTest.keyClicks(editor.editor, "ww")
    assert editor.editor.wordWrapMode() == QTextOption.WrapMode.WrapAnywhere
    assert editor.text() == "w" * (MAX_WORD_WRAP_RUN + 2)


def test_every_field_of_the_header_is_shown_in_part(qtbot):
    from reader.ui.reader_view import MAX_SHOWN_ABSTRACT, paper_html

    big = "v" * 10 * MB
    authors = (big, big, *(f"Author {i}" for i in range(1_000)))
    paper = Paper("x", big, authors, big, venue=big, presentation=big, url="https://" + big)
    html = paper_html(paper)
    assert len(html) < MAX_SHOWN_ABSTRACT + 8_000  # title 1,000, authors 5,000, fields
    assert html.count("shortened for display: 10,000,000 characters in total") == 2
    assert " more</p>" in html  # the authors: "…, Author 197 and 803 more"
    assert "https://" not in html  # no link of megabytes


def test_the_list_model_gives_the_start_of_a_long_title(qtbot, long_paper):
    from PySide6.QtCore import Qt

    model = long_paper.window.sidebar.model
    index = model.index(model.row_of("long"))
    title, _authors, _status, _tags = model.row(index.row())
    assert title.startswith("t" * 100) and title.endswith("…")
    assert len(title) <= MAX_ROW_CHARS
    for role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
        assert len(model.data(index, role)) < MAX_ROW_CHARS + 50


def test_search_marks_in_a_long_word_are_few(qtbot, long_paper):
    from reader.ui.reader_view import MAX_MARKS

    pane = long_paper.window.pane
    pane.mark_terms(["a"])  # the abstract's shown part is one word of "a"s: one start
    marks = pane.browser.extraSelections()
    assert 1 <= len(marks) <= 40  # ("A. Author", "abstract", "and"...: each where a word starts)
    assert {m.cursor.selectedText().lower() for m in marks} == {"a"}
    pane.mark_terms(["a", "aa"])
    assert len(pane.browser.extraSelections()) <= MAX_MARKS


def test_note_links_show_the_start_of_a_long_title(qtbot, app, tmp_path):
    from reader.core.links import MAX_TITLE_CHARS

    path = tmp_path / "linked.json"
    source = Paper("src", TITLE, ("A. Author",), "An abstract.")
    target = Paper("dst", "A Short Title", ("B. Author",), "Another abstract.")
    note = Annotation("src", note="See [[A Short Title]].")
    path.write_text(jsonfile.export([(source, note), (target, Annotation("dst"))]), "utf-8")
    import_files(app.controller.library, [path])
    links = app.note_links
    assert app.window.sidebar.select_paper("dst")
    links.show_backlinks("dst")  # "Mentioned in 1 note: ttt…"
    label = app.window.pane.backlinks.text()
    assert "Mentioned in 1 note" in label and "t" * 100 in label
    assert len(label) < MAX_TITLE_CHARS + 300
    offered = links.catalogue.matches("ttt")  # completion after [[ttt
    assert offered and all(len(t) <= MAX_TITLE_CHARS + 1 for t in offered)
    assert app.controller.library.paper("src").title == TITLE


def test_a_highlight_row_shows_the_start_of_a_long_comment(qtbot):
    from reader.core.models import Highlight
    from reader.ui.highlight_list import HighlightModel, HighlightPalette, HighlightRow

    comment = "c" * 100_000  # (a highlight's comment holds at most 100,000 characters)
    model = HighlightModel(HighlightPalette())
    model.set_rows([HighlightRow(Highlight("h", "a quote", comment=comment), (0, 7))])
    shown = model.data(model.index(0))
    assert "c" * 100 in shown and shown.endswith("…") and len(shown) < 1_000
    assert model.data(model.index(0), HighlightModel.CommentRole) == comment
