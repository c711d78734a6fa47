"""The window driven as a user drives it: clicks, keys, typing."""

import unicodedata

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtWidgets import QApplication

from reader.core.models import Status
from reader.ui.controller import PANE_AFTER_TYPING_MS
from reader.ui.note_editor import SAVE_DEBOUNCE_MS


def click_row(qtbot, app, row, modifier=Qt.KeyboardModifier.NoModifier):
    view = app.window.sidebar.view
    rect = view.visualRect(view.model().index(row, 0))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, modifier, rect.center())
    return view.model().id_at(row)


def test_opens_on_the_sample_with_first_paper_shown(app):
    w = app.window
    lib = app.controller.library
    assert w.sidebar.model.rowCount() == 19
    assert w.sidebar.count_label.text() == "19 papers · 0 read"
    first = w.sidebar.model.id_at(0)
    assert w.pane.paper_id == first
    assert lib.paper(first).title.split(":")[0] in w.pane.browser.toPlainText()


def test_click_selects_and_shows_abstract(qtbot, app):
    pid = click_row(qtbot, app, 4)
    paper = app.controller.library.paper(pid)
    text = app.window.pane.browser.toPlainText()
    assert app.window.pane.paper_id == pid
    assert paper.authors[0] in text
    assert "ICML 2025" in text and "2025" in text
    assert "$" not in text.split("\n")[0]


def test_status_by_keyboard_and_undo(qtbot, app):
    w = app.window
    lib = app.controller.library
    pid = click_row(qtbot, app, 2)
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_2)
    assert lib.status(pid) is Status.READING
    assert w.pane.status_buttons.button(2).isChecked()
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_3)
    assert lib.status(pid) is Status.READ
    assert w.sidebar.count_label.text() == "19 papers · 1 read"
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert lib.status(pid) is Status.READING
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert lib.status(pid) is Status.UNREAD
    qtbot.keyClick(
        w.sidebar.view,
        Qt.Key.Key_Z,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    assert lib.status(pid) is Status.READING


def test_status_buttons_in_pane(qtbot, app):
    pid = click_row(qtbot, app, 1)
    qtbot.mouseClick(app.window.pane.status_buttons.button(3), Qt.MouseButton.LeftButton)
    assert app.controller.library.status(pid) is Status.READ


def test_multi_select_and_bulk_status(qtbot, app):
    w = app.window
    click_row(qtbot, app, 0)
    view = w.sidebar.view
    click_row(qtbot, app, 3, Qt.KeyboardModifier.ShiftModifier)
    ids = w.sidebar.selected_ids()
    assert len(ids) == 4
    qtbot.keyClick(view, Qt.Key.Key_3)
    assert all(app.controller.library.status(i) is Status.READ for i in ids)
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert all(app.controller.library.status(i) is Status.UNREAD for i in ids)


def test_select_all_then_ctrl_clicks_give_the_selected_papers_in_list_order(qtbot, app):
    w = app.window
    view, lib = w.sidebar.view, app.controller.library
    ids = w.sidebar.model.ids()
    click_row(qtbot, app, 0)
    qtbot.keyClick(view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    assert w.sidebar.selected_ids() == ids
    for row in (2, 3, 9, 3):  # Ctrl-click: out of the selection (and 3 back in)
        click_row(qtbot, app, row, Qt.KeyboardModifier.ControlModifier)
    chosen = [pid for row, pid in enumerate(ids) if row not in (2, 9)]
    assert w.sidebar.selected_ids() == chosen
    qtbot.keyClick(view, Qt.Key.Key_2)
    assert [pid for pid in ids if lib.status(pid) is Status.READING] == chosen
    w.sidebar.apply_filters()  # a refill keeps the selection
    assert w.sidebar.selected_ids() == chosen
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert lib.annotations() == {}  # undo left nothing behind


def test_add_tag_through_completer_and_remove_by_click(qtbot, app):
    w = app.window
    lib = app.controller.library
    other = w.sidebar.model.id_at(7)
    lib.add_tags([other], ["reinforcement-learning"])
    pid = click_row(qtbot, app, 1)
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_T)
    entry = w.pane.tag_editor.entry
    assert entry.hasFocus()
    qtbot.keyClicks(entry, "reinf")
    popup = entry.completer().popup()
    qtbot.waitUntil(popup.isVisible)
    qtbot.keyClick(popup, Qt.Key.Key_Down)
    qtbot.keyClick(popup, Qt.Key.Key_Return)
    qtbot.keyClick(entry, Qt.Key.Key_Return)
    assert lib.tags(pid) == ("reinforcement-learning",)
    qtbot.keyClicks(entry, "theory, to-read")
    qtbot.keyClick(entry, Qt.Key.Key_Return)
    assert lib.tags(pid) == ("reinforcement-learning", "theory", "to-read")
    chips = w.pane.tag_editor.chips()
    assert [c.text().split()[0] for c in chips] == ["reinforcement-learning", "theory", "to-read"]
    qtbot.mouseClick(chips[1], Qt.MouseButton.LeftButton)
    assert lib.tags(pid) == ("reinforcement-learning", "to-read")
    qtbot.keyClick(entry, Qt.Key.Key_Backspace)
    assert lib.tags(pid) == ("reinforcement-learning",)


def click_facet(qtbot, app, key, ctrl=False):
    facets = app.window.sidebar.facets
    app.window.sidebar.refresh_facets()
    index = facets._find(key)
    facets.scrollTo(index)
    rect = facets.visualRect(index)
    modifier = Qt.KeyboardModifier.ControlModifier if ctrl else Qt.KeyboardModifier.NoModifier
    qtbot.mouseClick(facets.viewport(), Qt.MouseButton.LeftButton, modifier, rect.center())
    # the list follows at once if the search is ready, else once its preparation ends
    # (a step a turn: on a busy machine, more than one)
    qtbot.waitUntil(lambda: not app.window.sidebar.search_pending)


def test_narrow_to_tag_and_status_with_facets(qtbot, app):
    w = app.window
    lib = app.controller.library
    ids = w.sidebar.model.ids()
    lib.add_tags(ids[:3], ["rl"])
    lib.add_tags(ids[3:4], ["method/diffusion"])
    lib.add_tags(ids[4:5], ["method/flow"])
    lib.set_status(ids[1:2], Status.READ)
    click_facet(qtbot, app, ("tag", "rl"))
    assert w.sidebar.model.ids() == ids[:3]
    click_facet(qtbot, app, ("status", "read"), ctrl=True)  # combine
    assert w.sidebar.model.ids() == ids[1:2]
    assert w.sidebar.count_label.text() == "1 of 19 papers · 1 read"
    # the other groups' counts follow: under Read, no paper is tagged method
    w.sidebar.refresh_facets()
    assert w.sidebar.facets._find(("tag", "method")) is None
    assert w.sidebar.facets._find(("tag", "rl")).data() == "rl  (1)"
    assert w.sidebar.facets._find(("status", "unread")).data() == "Unread  (2)"  # rl's others
    click_facet(qtbot, app, ("all", ""))  # every facet left
    assert w.sidebar.model.ids() == ids
    click_facet(qtbot, app, ("tag", "method"))  # a parent includes its children
    assert w.sidebar.model.ids() == ids[3:5]
    click_facet(qtbot, app, ("tag", "rl"), ctrl=True)  # two tags: either
    assert w.sidebar.model.ids() == ids[:5]


def test_facet_counts_follow_the_search(qtbot, app):
    w = app.window
    lib = app.controller.library
    ids = w.sidebar.model.ids()
    lib.add_tags(ids, ["all"])
    qtbot.keyClicks(w.sidebar.search, "distillation")
    qtbot.waitUntil(lambda: w.sidebar.model.rowCount() < 19)
    w.sidebar.refresh_facets()
    n = w.sidebar.model.rowCount()
    label = w.sidebar.facets._find(("tag", "all")).data()
    assert label == f"all  ({n})"


def test_sort_by_title_and_remembered(qtbot, make_app):
    app = make_app()
    sidebar = app.window.sidebar
    sidebar.sort_combo.setCurrentIndex(sidebar.sort_combo.findData("title"))
    titles = [sidebar.model.data(sidebar.model.index(r)) for r in range(sidebar.model.rowCount())]
    assert titles == sorted(titles, key=lambda t: t.casefold().lstrip("\"'“"))
    qtbot.mouseClick(sidebar.sort_order, Qt.MouseButton.LeftButton)
    assert sidebar.model.data(sidebar.model.index(0)) == titles[-1]
    app.window.close()
    again = make_app()
    assert again.window.sidebar.sort_key() == ("title", True)


def test_note_typed_saved_after_debounce_and_previewed(qtbot, app):
    w = app.window
    lib = app.controller.library
    pid = click_row(qtbot, app, 5)
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_N)
    editor = w.pane.note_editor.editor
    assert editor.hasFocus()
    qtbot.keyClicks(editor, "**Key idea**: $\\Theta(1)$ memory")
    qtbot.waitUntil(
        lambda: lib.annotation(pid).note == "**Key idea**: $\\Theta(1)$ memory",
        timeout=SAVE_DEBOUNCE_MS * 4,
    )
    preview = w.pane.note_editor.preview
    qtbot.waitUntil(lambda: "Key idea" in preview.toPlainText())
    assert "**" not in preview.toPlainText()
    assert "Θ" in preview.toPlainText()


@pytest.mark.parametrize("delay_ms", [0, 10, 50])
def test_note_lands_on_original_paper_when_switching_fast(qtbot, app, delay_ms):
    w = app.window
    lib = app.controller.library
    pid = click_row(qtbot, app, 5)
    w.pane.note_editor.editor.setFocus()
    qtbot.keyClicks(w.pane.note_editor.editor, "quick thought")
    qtbot.wait(delay_ms)
    other = click_row(qtbot, app, 6)
    assert lib.annotation(pid).note == "quick thought"
    assert lib.annotation(other).note == ""
    assert w.pane.note_editor.text() == ""


@pytest.mark.parametrize("delay_ms", [0, 50])
def test_note_saved_when_window_closes_fast(qtbot, make_app, tmp_path, delay_ms):
    app = make_app()
    pid = click_row(qtbot, app, 2)
    app.window.pane.note_editor.editor.setFocus()
    qtbot.keyClicks(app.window.pane.note_editor.editor, "typed then closed")
    qtbot.wait(delay_ms)
    app.window.close()
    from reader.opening import open_library

    assert open_library(tmp_path / "library").library.annotation(pid).note == "typed then closed"


def test_note_undo_from_list(qtbot, app):
    w = app.window
    lib = app.controller.library
    pid = click_row(qtbot, app, 3)
    w.pane.note_editor.editor.setFocus()
    qtbot.keyClicks(w.pane.note_editor.editor, "draft")
    w.sidebar.view.setFocus()  # focus out saves
    assert lib.annotation(pid).note == "draft"
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert lib.annotation(pid).note == ""
    assert w.pane.note_editor.text() == ""


def test_context_menu_sets_status(qtbot, app, monkeypatch):
    from reader.ui import actions as actions_module

    pid = click_row(qtbot, app, 8)
    menu = actions_module.list_context_menu(app.controller, app.actions, QPoint(5, 5))
    texts = [a.text() for a in menu.actions()]
    assert "Mark Reading" in texts
    next(a for a in menu.actions() if a.text() == "Mark Reading").trigger()
    assert app.controller.library.status(pid) is Status.READING


def test_empty_state_when_nothing_matches(qtbot, app):
    w = app.window
    qtbot.keyClicks(w.sidebar.search, "qqqqzzzz")
    qtbot.waitUntil(lambda: w.sidebar.model.rowCount() == 0)
    qtbot.waitUntil(lambda: w.pane.currentWidget() is w.pane.empty)  # once typing pauses
    assert "No paper matches “qqqqzzzz”" in w.pane.empty.toPlainText()
    assert w.sidebar.count_label.text() == "0 of 19 papers · 0 read"
    w.sidebar.search.clear()
    qtbot.waitUntil(lambda: w.sidebar.model.rowCount() == 19)
    w.sidebar.view.clearSelection()
    w.sidebar.view.setCurrentIndex(w.sidebar.model.index(-1))
    qtbot.waitUntil(lambda: "Select a paper" in w.pane.empty.toPlainText())


def test_jk_navigation(qtbot, app):
    w = app.window
    click_row(qtbot, app, 0)
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_J)
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_J)
    assert w.pane.paper_id == w.sidebar.model.id_at(2)
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_K)
    assert w.pane.paper_id == w.sidebar.model.id_at(1)
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_Slash)
    assert w.sidebar.search.hasFocus()


def test_window_state_restored(qtbot, make_app):
    app = make_app()
    pid = click_row(qtbot, app, 11)
    app.window.resize(760, 560)  # the offscreen screen is 800x600
    app.window.close()
    again = make_app()
    assert again.window.pane.paper_id == pid
    assert again.window.size().width() == 760


def test_outside_change_is_picked_up(qtbot, app, tmp_path):
    from reader.opening import open_library

    pid = app.window.pane.paper_id
    other = open_library(tmp_path / "library").library
    other.add_tags([pid], ["from-cli"])
    qtbot.waitUntil(lambda: app.window.pane.tag_editor.tags() == ["from-cli"], timeout=5000)
    assert app.controller.library.tags(pid) == ("from-cli",)


def test_paper_link_opens_browser_only_on_click(qtbot, app, monkeypatch):
    from PySide6.QtGui import QDesktopServices

    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url.toString()))
    assert opened == []
    w = app.window
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_O)
    paper = app.controller.library.paper(w.pane.paper_id)
    assert opened == [paper.url]
    QApplication.processEvents()


def test_search_matches_marked_in_pane(qtbot, app):
    w = app.window
    qtbot.keyClicks(w.sidebar.search, "distillation")
    qtbot.waitUntil(lambda: w.sidebar.model.rowCount() < 19)
    w.sidebar.select_paper(w.sidebar.model.id_at(0))
    assert w.sidebar.model.highlight_terms == ("distillation",)
    qtbot.waitUntil(lambda: w.pane.browser.extraSelections() != [])
    marks = w.pane.browser.extraSelections()
    assert all(m.cursor.selectedText().lower() == "distillation" for m in marks)
    w.sidebar.search.clear()
    qtbot.waitUntil(lambda: w.sidebar.model.rowCount() == 19)
    qtbot.waitUntil(lambda: w.pane.browser.extraSelections() == [])


def test_a_tex_symbol_found_by_its_name_is_marked_in_the_pane(qtbot, app):
    """ "theta" finds the paper whose abstract has $\\Theta(...)$: the pane marks the Θ
    it shows, where the word itself is not."""
    w = app.window
    qtbot.keyClicks(w.sidebar.search, "theta")
    qtbot.waitUntil(lambda: w.sidebar.model.rowCount() == 1)
    w.sidebar.select_paper(w.sidebar.model.id_at(0))
    qtbot.waitUntil(lambda: w.pane.browser.extraSelections() != [])
    assert [m.cursor.selectedText() for m in w.pane.browser.extraSelections()] == ["Θ"]


def test_search_marks_in_the_pane_ignore_accents_as_search_does(qtbot, app):
    w = app.window
    lib = app.controller.library
    pid, author = next((p.id, a) for p in lib.papers() for a in p.authors if not a.isascii())
    plain = unicodedata.normalize("NFKD", author)
    plain = "".join(c for c in plain if not unicodedata.combining(c))
    word = next(
        part for part, shown in zip(plain.split(), author.split(), strict=False) if part != shown
    )
    qtbot.keyClicks(w.sidebar.search, word.lower())
    qtbot.waitUntil(lambda: pid in w.sidebar.model.ids())
    w.sidebar.select_paper(pid)
    qtbot.waitUntil(lambda: w.pane.browser.extraSelections() != [])
    marked = [m.cursor.selectedText() for m in w.pane.browser.extraSelections()]
    assert any(not text.isascii() and text.casefold() in author.casefold() for text in marked), (
        marked
    )


def test_marks_after_characters_past_ffff_fall_on_the_word(qtbot, app):
    from reader.core.models import Paper

    w = app.window
    lib = app.controller.library
    lib.add_papers(
        [
            Paper(
                "math",
                "Learning on 𝒳 and 𝒴 spaces",
                ("Ana Núñez",),
                "Over $\\mathcal{X}$ we show 𝒳-quokkas beat 𝔼 quokkas.",
                "ICML",
                2025,
            )
        ]
    )
    qtbot.keyClicks(w.sidebar.search, "quokkas")
    qtbot.waitUntil(lambda: w.sidebar.model.ids() == ["math"])
    w.sidebar.select_paper("math")
    qtbot.waitUntil(lambda: w.pane.browser.extraSelections() != [])
    assert [m.cursor.selectedText() for m in w.pane.browser.extraSelections()] == [
        "quokkas",
        "quokkas",
    ]


def test_while_typing_the_pane_follows_the_list_once_typing_pauses(qtbot, app):
    w, controller = app.window, app.controller
    click_row(qtbot, app, 0)
    shown = w.pane.paper_id
    assert w.pane.browser.extraSelections() == []
    controller._pane_timer.setInterval(60_000)  # a pause that never comes in this test
    qtbot.keyClicks(w.sidebar.search, "a")
    qtbot.waitUntil(lambda: w.sidebar.model.highlight_terms == ("a",))
    assert w.sidebar.current_id() == shown
    assert w.pane.browser.extraSelections() == []  # the keystroke's frame went to the list
    # an action on "the current paper" first brings the pane up to date
    assert controller.target_ids() == [shown]
    assert w.pane.browser.extraSelections() != []
    # and with the real pause, it follows by itself
    controller._pane_timer.setInterval(PANE_AFTER_TYPING_MS)
    qtbot.keyClicks(w.sidebar.search, "b")
    qtbot.waitUntil(lambda: w.sidebar.model.highlight_terms == ("ab",))

    def marked() -> list[str]:
        return [m.cursor.selectedText().lower() for m in w.pane.browser.extraSelections()]

    qtbot.waitUntil(lambda: marked() and set(marked()) == {"ab"})  # the pane, once typing paused
    assert w.pane.paper_id == w.sidebar.current_id()


def test_copy_abstract_as_text_and_latex(qtbot, app):
    from PySide6.QtGui import QGuiApplication
    from PySide6.QtWidgets import QMenu

    w = app.window
    lib = app.controller.library
    pid = next(p.id for p in lib.full_papers(lib.paper_ids()) if "$" in p.abstract)
    w.sidebar.select_paper(pid)
    shown = []
    original_popup = QMenu.popup
    QMenu.popup = lambda menu, *a: shown.append(menu)
    try:
        w.pane._browser_menu(w.pane.browser.rect().center())
    finally:
        QMenu.popup = original_popup
    menu = shown[0]
    by_text = {a.text(): a for a in menu.actions()}
    by_text["Copy Abstract as LaTeX Source"].trigger()
    assert QGuiApplication.clipboard().text() == lib.abstract(pid)
    by_text["Copy Abstract as Text"].trigger()
    assert "$" not in QGuiApplication.clipboard().text()


def test_when_the_paper_shown_is_filtered_out_the_best_match_is_shown(qtbot, app):
    w = app.window
    lib = app.controller.library
    # a paper whose text lacks the word, then a search for it
    shown = next(
        pid
        for pid in w.sidebar.model.ids()
        if "distillation" not in (lib.paper(pid).title + lib.abstract(pid)).lower()
    )
    w.sidebar.select_paper(shown)
    assert w.pane.paper_id == shown
    qtbot.keyClicks(w.sidebar.search, "distillation")
    qtbot.waitUntil(lambda: w.sidebar.model.rowCount() < 19)
    top = w.sidebar.model.id_at(0)
    assert w.sidebar.current_id() == top != shown
    qtbot.waitUntil(lambda: w.pane.paper_id == top)


def test_a_search_that_matches_after_one_that_matched_nothing_shows_its_best_match(qtbot, app):
    w = app.window
    qtbot.keyClicks(w.sidebar.search, "xylophonequokka")
    qtbot.waitUntil(lambda: w.sidebar.model.rowCount() == 0)
    assert w.sidebar.current_id() == ""
    w.sidebar.search.clear()
    qtbot.keyClicks(w.sidebar.search, "distillation")
    qtbot.waitUntil(lambda: 0 < w.sidebar.model.rowCount() < 19)
    top = w.sidebar.model.id_at(0)
    assert w.sidebar.current_id() == top
    qtbot.waitUntil(lambda: w.pane.paper_id == top)


def test_a_paper_that_leaves_a_filtered_list_gives_its_place_to_the_next(qtbot, app):
    w = app.window
    qtbot.keyClicks(w.sidebar.search, "status:unread")
    qtbot.waitUntil(
        lambda: not w.sidebar.search_pending and w.sidebar.query_text() == "status:unread"
    )
    click_row(qtbot, app, 2)
    following = w.sidebar.model.id_at(3)
    app.controller.set_status(Status.READ)
    qtbot.waitUntil(lambda: w.sidebar.model.rowCount() == 18)
    assert w.sidebar.current_id() == following == w.sidebar.model.id_at(2)
    assert w.pane.paper_id == following
