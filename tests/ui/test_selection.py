"""The abstract's lines keep a comfortable measure, and the papers next to the one
shown (prepared while the list is idle) are shown as they are now."""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import Qt

from reader.core.links import plain_title
from reader.ui.app import NeighbourPrefetch
from reader.ui.browser import ReadingBrowser


def _pause(qtbot) -> None:
    """Longer than the list's idle pause, after which the neighbours are prepared."""
    qtbot.wait(NeighbourPrefetch.IDLE_MS + 150)


def test_pausing_at_either_end_of_the_list_then_moving_on_shows_the_next_paper(qtbot, app):
    # the first and the last paper have one neighbour each: a pause there and then k
    # (or j) shows the paper next to it (an error in an idle step fails the test too)
    w, library = app.window, app.controller.library
    ids = w.sidebar.model.ids()
    w.sidebar.view.setFocus()
    for end, key, then in ((ids[-1], Qt.Key.Key_K, ids[-2]), (ids[0], Qt.Key.Key_J, ids[1])):
        w.sidebar.select_paper(end)
        _pause(qtbot)
        qtbot.keyClick(w.sidebar.view, key)
        assert w.pane.paper_id == then
        assert plain_title(library.paper(then).title) in w.pane.browser.toPlainText()


def test_a_neighbour_changed_after_it_was_prepared_shows_its_new_text(qtbot, app):
    w, library = app.window, app.controller.library
    ids = w.sidebar.model.ids()
    w.sidebar.select_paper(ids[5])
    _pause(qtbot)  # ids[4] and ids[6] prepared meanwhile
    old = library.paper(ids[6])
    library.add_papers([dataclasses.replace(old, abstract="A quokka abstract, re-imported.")])
    w.sidebar.select_paper(ids[6])
    assert w.pane.paper_id == ids[6]
    assert "A quokka abstract, re-imported." in w.pane.browser.toPlainText()


def test_the_lines_keep_their_measure_when_the_pane_is_taller_or_shorter_and_follow_its_width(
    qtbot,
):
    browser = ReadingBrowser(720)
    qtbot.addWidget(browser)
    browser.resize(900, 400)
    browser.show()
    qtbot.waitExposed(browser)
    assert browser.lineWrapColumnOrWidth() == 720  # the measure: the pane is wider
    browser.resize(900, 300)  # height only: the measure stays
    qtbot.waitUntil(lambda: browser.height() == 300)
    assert browser.lineWrapColumnOrWidth() == 720
    browser.resize(500, 300)  # narrower than the measure: lines follow
    qtbot.waitUntil(lambda: browser.lineWrapColumnOrWidth() < 720)
    margins = 2 * int(browser.document().documentMargin())
    assert browser.lineWrapColumnOrWidth() + margins <= browser.viewport().width()
    browser.resize(900, 300)  # and back
    qtbot.waitUntil(lambda: browser.lineWrapColumnOrWidth() == 720)


def test_a_paper_with_highlights_gets_the_highlight_list(qtbot, app):
    from reader.core.models import Highlight

    w = app.window
    ids = w.sidebar.model.ids()
    lib = app.controller.library
    text = w.pane.browser.toPlainText()
    start = text.index("Knowledge") if "Knowledge" in text else 0
    quote = text[start : start + 9]
    lib.set_highlights(ids[0], [Highlight(id="h1", quote=quote, color="yellow")])
    w.sidebar.select_paper(ids[1])
    w.sidebar.select_paper(ids[0])
    assert w.pane.highlight_panel.isVisibleTo(w.pane)
    assert w.pane.highlight_panel.model.rowCount() == 1
    w.sidebar.select_paper(ids[1])
    assert not w.pane.highlight_panel.isVisibleTo(w.pane)


def test_a_long_abstracts_lines_clear_its_scroll_bar_and_a_short_one_after_keeps_them(qtbot):
    from reader.core.models import Paper
    from reader.ui.reader_view import paper_html

    browser = ReadingBrowser(720)
    qtbot.addWidget(browser)
    browser.resize(500, 300)  # narrower than the measure: the pane's width counts
    browser.show()
    qtbot.waitExposed(browser)
    bar = browser.verticalScrollBar()
    margins = 2 * int(browser.document().documentMargin())
    browser.set_page(paper_html(Paper(id="long", title="Long", abstract="word " * 5000)))
    qtbot.waitUntil(bar.isVisible)
    width = browser.lineWrapColumnOrWidth()
    assert width + margins <= browser.viewport().width()  # no line runs under the bar
    browser.set_page("<p>short</p>")  # the bar goes
    qtbot.waitUntil(lambda: not bar.isVisible())
    assert browser.lineWrapColumnOrWidth() == width  # the same lines as beside the bar


def test_an_edited_paper_is_rendered_from_its_new_text():
    import dataclasses

    from reader.core.models import Paper
    from reader.ui.reader_view import paper_html

    paper = Paper(id="p1", title="Old title", abstract="The old abstract.")
    assert "old abstract" in paper_html(paper)
    edited = dataclasses.replace(paper, abstract="A new abstract.")
    assert "new abstract" in paper_html(edited) and "old abstract" not in paper_html(edited)
    assert "Old title" in paper_html(dataclasses.replace(paper))  # an equal paper: the same page


def test_the_scroll_bar_stays_between_two_long_abstracts_and_goes_for_a_short_one(qtbot):
    from PySide6.QtCore import QEvent, QObject

    browser = ReadingBrowser(720)
    qtbot.addWidget(browser)
    browser.resize(700, 300)
    browser.show()
    qtbot.waitExposed(browser)
    bar = browser.verticalScrollBar()
    browser.set_page("<p>long</p>" * 80)
    qtbot.waitUntil(bar.isVisible)

    class Hides(QObject):
        count = 0

        def eventFilter(self, obj, event):  # noqa: N802 (Qt override)
            self.count += event.type() == QEvent.Type.Hide
            return False

    hides = Hides()
    bar.installEventFilter(hides)
    bar.setValue(bar.maximum())
    browser.set_page("<p>another long one</p>" * 90)
    assert hides.count == 0 and bar.isVisible() and bar.maximum() > 0
    assert bar.value() == 0  # a new page opens at its top
    assert "another long one" in browser.toPlainText()
    browser.set_page("<p>short</p>")
    assert not bar.isVisible() and browser.toPlainText() == "short"
    bar.removeEventFilter(hides)
