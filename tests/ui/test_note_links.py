"""Links between notes as a user makes and follows them: `[[` completion, clicking a
link in the preview, and "Mentioned in N notes"."""

import dataclasses
from urllib.parse import quote

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor

from reader.core.index import SearchIndex
from reader.core.library import Library
from reader.core.links import MAX_MATCHES, TitleCatalogue, linked_keys, plain_title
from reader.core.models import Paper
from reader.store import catalogue_db
from reader.store.files import LibraryFolder

DA_KD = "t-079022f112"
FLOAT = "t-2702e2f312"  # "Floating-Point Neural Networks Can Represent Almost All ..."
ERWIN = "t-b126cc30ab"


@pytest.fixture
def links(app):
    installed = app.note_links  # (made by the window's setup, run now)
    assert app.window.sidebar.select_paper(DA_KD)
    return installed


def title(app, pid):
    return plain_title(app.controller.library.paper(pid).title)


def type_in_note(qtbot, app, text):
    editor = app.window.pane.note_editor.editor
    editor.setFocus()
    qtbot.keyClicks(editor, text)
    return editor


def set_note(qtbot, app, pid, text):
    app.window.sidebar.select_paper(pid)
    editor = app.window.pane.note_editor.editor
    editor.setPlainText(text)
    app.window.pane.note_editor.flush()
    assert app.controller.library.annotation(pid).note == text


def preview_links(preview):
    """(href, document position) of every link in the note preview."""
    found = []
    block = preview.document().begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            if fragment.charFormat().anchorHref():
                found.append((fragment.charFormat().anchorHref(), fragment.position()))
            it += 1
        block = block.next()
    return found


def click_preview_link(qtbot, app):
    """Click the first link in the note preview, once it is rendered."""
    preview = app.window.pane.note_editor.preview
    qtbot.waitUntil(lambda: bool(preview_links(preview)))
    href, position = preview_links(preview)[0]
    cursor = QTextCursor(preview.document())
    cursor.setPosition(position + 1)
    preview.setTextCursor(cursor)
    preview.ensureCursorVisible()
    pos = preview.cursorRect(cursor).center()
    qtbot.mouseClick(preview.viewport(), Qt.MouseButton.LeftButton, pos=pos)
    return href


def test_double_bracket_offers_titles_and_inserts_the_chosen_one(qtbot, app, links):
    editor = type_in_note(qtbot, app, "Compare [[NEURAL net")
    popup = links.completer.completer.popup()
    assert popup.isVisible()
    offered = links.completer.model.stringList()
    assert offered == [title(app, FLOAT)]
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    assert editor.toPlainText() == f"Compare [[{title(app, FLOAT)}]]"
    assert not popup.isVisible()
    qtbot.keyClicks(editor, " and")
    assert editor.toPlainText().endswith("]] and")


def test_just_typed_brackets_offer_titles_and_escape_dismisses(qtbot, app, links):
    editor = type_in_note(qtbot, app, "[[")
    popup = links.completer.completer.popup()
    assert popup.isVisible()
    assert len(links.completer.model.stringList()) == len(app.controller.library)
    qtbot.keyClick(popup, Qt.Key.Key_Escape)
    assert not popup.isVisible()
    assert editor.toPlainText() == "[["
    qtbot.keyClicks(editor, "zzzz no such title")
    assert not popup.isVisible()


def test_completion_replaces_a_typed_closing_bracket_pair(qtbot, app, links):
    editor = type_in_note(qtbot, app, "[[]]")
    cursor = editor.textCursor()
    cursor.setPosition(2)
    editor.setTextCursor(cursor)
    qtbot.keyClicks(editor, "erwin")
    links.completer.insert(links.completer.model.stringList()[0])
    assert editor.toPlainText() == f"[[{title(app, ERWIN)}]]"


def test_catalogue_is_capped_case_and_accent_blind_and_follows_imports(app, links):
    lib = app.controller.library
    catalogue = links.catalogue
    assert len(catalogue.matches("", limit=5)) == 5
    assert catalogue.matches("erwin: a TREE") == [title(app, ERWIN)]
    new = Paper(id="new-1", title="Schrödinger Bridges $\\Theta(n)$ Revisited", abstract="x")
    lib.add_papers([new])
    assert catalogue.matches("schrodinger") == ["Schrödinger Bridges Θ(n) Revisited"]
    assert catalogue.find("Schrödinger Bridges Θ(n) Revisited") == "new-1"
    assert catalogue.find("schrodinger bridges theta n revisited") == "new-1"  # the TeX source
    assert catalogue.find("SCHRÖDINGER bridges: Θ(n) revisited!") == "new-1"


def test_catalogue_stops_at_the_limit_and_finds_titles_by_words_in_a_library_folder(
    tmp_path, monkeypatch
):
    # the catalogue's index a file (as a big library's): the titles are found through
    # its words (whole words and prefixes, not inside a word)
    monkeypatch.setattr(catalogue_db, "SMALL_LIBRARY_BYTES", 0)
    lib = Library(LibraryFolder(tmp_path / "lib"))
    lib.add_papers(
        [Paper(id=f"p{i}", title=f"Paper number {i} on graphs", abstract="x") for i in range(3000)]
        + [Paper(id="pro", title="Promising graphs", abstract="x")]
    )
    assert lib.search_words() is not None  # (the words in the index's file)
    index = SearchIndex(lib, lib.search_words())
    catalogue = TitleCatalogue(lib, index.titled)
    assert len(catalogue.matches("graphs")) == MAX_MATCHES
    assert catalogue.matches("number 2999 ") == ["Paper number 2999 on graphs"]
    tens = (299, *range(2990, 3000))
    assert catalogue.matches("number 299") == [f"Paper number {n} on graphs" for n in tens]
    assert catalogue.matches("mising") == []  # (not inside "Promising")
    assert catalogue.find("paper number 17 on graphs") == "p17"
    assert catalogue.find("Paper number 17 on") == ""


def test_clicking_a_link_in_the_preview_selects_that_paper(qtbot, app, links):
    w = app.window
    editor = type_in_note(qtbot, app, f"Builds on [[{title(app, FLOAT)}]].")
    text = editor.toPlainText()
    w.pane.note_editor.flush()
    href = click_preview_link(qtbot, app)
    assert href.startswith("paper:")
    assert w.sidebar.current_id() == FLOAT and w.pane.paper_id == FLOAT
    assert app.controller.library.annotation(DA_KD).note == text  # saved before leaving


def test_links_match_titles_loosely_and_unknown_titles_are_reported(qtbot, app, links):
    w = app.window
    loose = title(app, FLOAT).upper().replace("-", " ")
    set_note(qtbot, app, DA_KD, f"[[{loose}]] and [[No Such Paper]]")
    assert links.follow(quote(loose))
    assert w.pane.paper_id == FLOAT
    assert not links.follow("No%20Such%20Paper")
    assert w.statusBar().currentMessage() == "No paper titled “No Such Paper” in this library"
    assert w.pane.paper_id == FLOAT


def test_a_link_to_a_paper_hidden_by_the_search_clears_the_search(qtbot, app, links):
    w = app.window
    set_note(qtbot, app, DA_KD, f"[[{title(app, FLOAT)}]]")
    w.sidebar.search.setText("distillation")
    w.sidebar.apply_filters()
    assert w.sidebar.model.row_of(FLOAT) < 0
    w.sidebar.select_paper(DA_KD)
    click_preview_link(qtbot, app)
    assert w.pane.paper_id == FLOAT
    assert w.sidebar.search.text() == ""


def test_backlinks_say_which_notes_mention_the_paper(qtbot, app, links):
    w = app.window
    label = w.pane.backlinks
    set_note(qtbot, app, DA_KD, f"See [[{title(app, FLOAT)}]].")
    set_note(
        qtbot,
        app,
        ERWIN,
        f"Unlike [[{title(app, FLOAT)}|the float paper]], and [[{title(app, ERWIN)}]]",
    )
    w.sidebar.select_paper(FLOAT)
    assert label.isVisible()
    assert label.text().startswith("Mentioned in 2 notes: ")
    assert title(app, DA_KD).split(":")[0] in label.text() and "Erwin" in label.text()
    w.sidebar.select_paper(ERWIN)  # its own note's link to itself does not count
    assert not label.isVisible()

    w.sidebar.select_paper(FLOAT)
    href = label.text().split('href="')[1].split('"')[0]
    label.linkActivated.emit(href)
    assert w.pane.paper_id == DA_KD

    set_note(qtbot, app, DA_KD, "No links any more.")
    w.sidebar.select_paper(FLOAT)
    assert label.text().startswith("Mentioned in 1 note: ")
    assert "Erwin" in label.text()
    app.controller.undo_stack.undo()  # the note comes back, and so does the mention
    assert label.text().startswith("Mentioned in 2 notes: ")


def test_linked_keys_read_every_link_form():
    note = "a [[One Title]] b [[two  title|label]] `[[x]]` [[]] [[a\nb]]"
    assert linked_keys(note) >= {"one title", "two title"}
    assert linked_keys("no links") == frozenset()


def test_retitled_paper_is_found_by_its_new_title(qtbot, app, links):
    lib = app.controller.library
    paper = lib.paper(ERWIN)
    lib.add_papers([dataclasses.replace(paper, title="Erwin Two")])
    assert links.catalogue.find("Erwin Two") == ERWIN


def test_a_title_with_brackets_is_inserted_as_a_working_link(qtbot, app, links):
    lib = app.controller.library
    lib.add_papers([Paper(id="mask", title="ExLM: The Impact of $\\texttt{[MASK]}$ Tokens")])
    editor = type_in_note(qtbot, app, "[[exlm")
    assert links.completer.model.stringList() == ["ExLM: The Impact of [MASK] Tokens"]
    qtbot.keyClick(links.completer.completer.popup(), Qt.Key.Key_Return)
    assert editor.toPlainText() == "[[ExLM: The Impact of (MASK) Tokens]]"
    href = click_preview_link(qtbot, app)
    assert href.startswith("paper:ExLM")
    assert app.window.pane.paper_id == "mask"
    assert app.window.pane.backlinks.text().startswith("Mentioned in 1 note: ")
