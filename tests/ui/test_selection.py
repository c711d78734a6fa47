"""Selecting a paper does only what the abstract needs; the rest waits for idle time."""

from __future__ import annotations

from reader.ui import app as app_module
from reader.ui.browser import ReadingBrowser


def test_the_neighbours_abstracts_are_prepared_while_idle(qtbot, app, monkeypatch):
    prepared: list[str] = []
    monkeypatch.setattr(app_module, "paper_html", lambda paper: prepared.append(paper.id))
    sidebar = app.window.sidebar
    ids = sidebar.model.ids()
    sidebar.select_paper(ids[5])
    assert prepared == []  # not while the paper is being shown
    qtbot.waitUntil(lambda: prepared == [ids[6], ids[4]])


def test_the_first_and_last_papers_have_one_neighbour(qtbot, app, monkeypatch):
    prepared: list[str] = []
    monkeypatch.setattr(app_module, "paper_html", lambda paper: prepared.append(paper.id))
    sidebar = app.window.sidebar
    ids = sidebar.model.ids()
    sidebar.select_paper(ids[-1])
    qtbot.waitUntil(lambda: prepared == [ids[-2]])


def test_a_taller_or_shorter_pane_does_not_lay_the_abstract_out_again(qtbot, monkeypatch):
    browser = ReadingBrowser(720)
    qtbot.addWidget(browser)
    browser.resize(900, 400)
    browser.show()
    qtbot.waitExposed(browser)
    width = browser.lineWrapColumnOrWidth()
    calls: list[int] = []
    monkeypatch.setattr(browser, "setLineWrapColumnOrWidth", calls.append)
    browser.resize(900, 300)  # height only: the measure stays
    qtbot.waitUntil(lambda: browser.height() == 300)
    assert calls == [] and browser.lineWrapColumnOrWidth() == width
    browser.resize(500, 300)  # narrower than the measure: lines follow
    qtbot.waitUntil(lambda: bool(calls))
    assert calls[-1] < width


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


def test_a_long_abstract_after_a_short_one_keeps_the_measure(qtbot, app, monkeypatch):
    from reader.core.models import Paper
    from reader.ui.reader_view import paper_html

    browser = app.window.pane.browser
    width = browser.lineWrapColumnOrWidth()
    calls: list[int] = []
    monkeypatch.setattr(browser, "setLineWrapColumnOrWidth", calls.append)
    long = Paper(id="long", title="Long", abstract="word " * 5000)
    browser.setHtml(paper_html(long))  # a vertical scroll bar appears
    qtbot.waitUntil(browser.verticalScrollBar().isVisible)
    browser.setHtml("<p>short</p>")  # and goes
    qtbot.waitUntil(lambda: not browser.verticalScrollBar().isVisible())
    assert calls == [] and browser.lineWrapColumnOrWidth() == width


def test_a_neighbour_prepared_while_idle_is_shown_without_rendering_it_again(
    qtbot, app, monkeypatch
):
    from reader.ui import reader_view

    sidebar, pane = app.window.sidebar, app.window.pane
    ids = sidebar.model.ids()
    reader_view.paper_html.cache_clear()
    sidebar.select_paper(ids[5])
    library = app.controller.library
    qtbot.waitUntil(lambda: reader_view.paper_html.cache_info().currsize == 3)  # 5, then 6 and 4
    rendered: list[str] = []
    abstract_html = reader_view.abstract_html
    monkeypatch.setattr(
        reader_view, "abstract_html", lambda text: rendered.append(text) or abstract_html(text)
    )
    sidebar.select_paper(ids[6])
    assert pane.paper_id == ids[6] and rendered == []
    assert library.paper(ids[6]).title.split()[0] in pane.browser.toPlainText()


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
