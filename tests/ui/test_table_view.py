"""View → Table View: the papers a line each in columns (title, first author, venue,
year, status, tags, added) sorted by a click on a heading, columns resized, hidden
and shown from the header's menu, all remembered; the keys act as in the list."""

from __future__ import annotations

from PySide6.QtCore import QPoint, Qt

from reader.core.models import Status


def heading_click(qtbot, view, column):
    header = view.horizontalHeader()
    x = header.sectionViewportPosition(column) + header.sectionSize(column) // 2
    qtbot.mouseClick(
        header.viewport(), Qt.MouseButton.LeftButton, pos=QPoint(x, header.height() // 2)
    )


def test_the_table_shows_columns_and_sorts_by_a_heading(qtbot, app):
    w, lib = app.window, app.controller.library
    app.finish_setup()
    sidebar, view = w.sidebar, w.sidebar.view
    app.actions.table_view.trigger()
    assert sidebar.model.columnCount() == 7 and view.horizontalHeader().isVisible()
    model = sidebar.model
    pid = model.id_at(0)
    paper = lib.paper(pid)
    row = [model.data(model.index(0, c)) for c in range(7)]
    assert row[1] == paper.authors[0] and row[2] == "ICML 2025" and row[3] == "2025"
    assert row[4] == "Unread"
    assert row[6]  # the bundled sample's papers were added when the library was made
    heading_click(qtbot, view, 1)  # First author
    assert sidebar.sort_key() == ("author", False)
    family = [lib.paper(p).authors[0].split()[-1].casefold() for p in model.ids()]
    assert family == sorted(family)
    heading_click(qtbot, view, 1)  # again: the other way round
    assert sidebar.sort_key() == ("author", True)
    heading_click(qtbot, view, 3)
    assert sidebar.sort_key() == ("year", False)
    assert view.horizontalHeader().sortIndicatorSection() == 3


def test_keys_act_on_the_paper_shown_in_the_table_too(qtbot, app):
    w, lib = app.window, app.controller.library
    app.finish_setup()
    app.actions.table_view.trigger()
    view = w.sidebar.view
    view.setCurrentIndex(w.sidebar.model.index(2, 3))
    qtbot.keyClick(view, Qt.Key.Key_End, Qt.KeyboardModifier.ControlModifier)
    shown = w.pane.paper_id
    assert shown == w.sidebar.model.id_at(18) and w.sidebar.selected_ids() == [shown]
    qtbot.keyClick(view, Qt.Key.Key_3)
    assert lib.status(shown) is Status.READ
    model = w.sidebar.model
    assert model.data(model.index(18, 4)) == "Read"


def test_the_table_and_its_columns_are_remembered(qtbot, make_app):
    app = make_app()
    w = app.window
    app.finish_setup()
    app.actions.table_view.trigger()
    menu = w.sidebar.view.column_menu()
    venue = next(a for a in menu.actions() if a.text() == "Venue")
    venue.trigger()  # hidden
    header = w.sidebar.view.horizontalHeader()
    assert header.isSectionHidden(2)
    header.resizeSection(0, 420)
    w.close()
    again = make_app()
    header = again.window.sidebar.view.horizontalHeader()
    assert again.window.sidebar.model.table and header.isVisible()
    assert header.isSectionHidden(2) and header.sectionSize(0) == 420
    again.finish_setup()
    assert again.actions.table_view.isChecked()
    again.actions.table_view.trigger()  # back to the list
    assert again.window.sidebar.model.columnCount() == 1
    assert not again.window.sidebar.view.horizontalHeader().isVisible()


def test_the_table_gets_room_for_its_columns(qtbot, app):
    w = app.window
    app.finish_setup()
    _facets, listed, reader = w.splitter.sizes()
    assert listed < reader
    app.actions.table_view.trigger()
    _facets, listed_now, reader_now = w.splitter.sizes()
    assert listed_now >= reader_now - 10 and listed_now > listed


def test_two_line_titles_show_more_of_a_long_title_and_are_remembered(qtbot, make_app):
    app = make_app()
    w = app.window
    app.finish_setup()
    w.resize(1000, 700)
    view = w.sidebar.view
    delegate = view.itemDelegate()
    row = next(r for r in range(w.sidebar.model.rowCount()) if len(w.sidebar.model.row(r)[0]) > 80)
    title = w.sidebar.model.row(row)[0]
    fonts = delegate._fonts_for(view.font())
    width = view.visualRect(w.sidebar.model.index(row)).width() - 60
    one = delegate._title(title, width, fonts.unread, fonts)
    assert len(one) == 1 and one[0][0].endswith("…")
    height = view.rowHeight(row)
    app.actions.two_line_titles.trigger()
    assert view.rowHeight(row) > height
    two = delegate._title(title, width, fonts.unread, fonts)
    assert len(two) == 2
    shown = two[0][0] + " " + two[1][0].rstrip("…")
    assert len(shown) > len(one[0][0])  # more of the title
    assert title.startswith(two[0][0])  # broken after a word
    w.close()
    again = make_app()
    assert again.window.sidebar.view.title_lines() == 2


def test_switching_views_keeps_the_paper_shown_and_the_selection_for_the_keys(qtbot, app):
    w, lib = app.window, app.controller.library
    app.finish_setup()
    sidebar, view = w.sidebar, w.sidebar.view
    rect = view.visualRect(sidebar.model.index(3))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    shown = w.pane.paper_id
    assert shown == sidebar.model.id_at(3)
    for _ in range(2):  # to the table, then back to the list
        qtbot.keyClick(
            view,
            Qt.Key.Key_T,
            Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.AltModifier,
        )
        assert sidebar.current_id() == shown == w.pane.paper_id
        assert sidebar.selected_ids() == [shown]
    qtbot.keyClick(view, Qt.Key.Key_3)
    assert lib.status(shown) == Status.READ
    qtbot.keyClick(view, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
    two = sidebar.selected_ids()
    assert len(two) == 2
    app.actions.table_view.trigger()
    assert sidebar.selected_ids() == two and "2 selected" in sidebar.count_label.text()
