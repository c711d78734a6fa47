"""Themes, text zoom, and accessible names."""

from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QApplication

from reader.core.models import Status


def window_lightness():
    return QApplication.palette().color(QPalette.ColorRole.Window).lightness()


def base_lightness(widget):
    return widget.palette().color(QPalette.ColorRole.Base).lightness()


def test_dark_theme_override_and_back(qtbot, make_app):
    app = make_app()
    app.actions.theme_dark.trigger()
    assert window_lightness() < 80
    QApplication.processEvents()
    # the widgets themselves follow, not only the application palette
    assert base_lightness(app.window.sidebar.view) < 80
    assert base_lightness(app.window.pane.browser) < 80
    assert app.actions.theme_dark.isChecked()
    app.actions.theme_light.trigger()
    assert window_lightness() > 180
    app.actions.theme_dark.trigger()
    app.window.close()
    again = make_app()
    assert again.window.appearance.theme == "dark" and window_lightness() < 80
    again.actions.theme_system.trigger()  # offscreen reports no dark scheme
    assert window_lightness() > 180


def test_zoom_keys_and_remembered(qtbot, make_app):
    app = make_app()
    browser = app.window.pane.browser
    base = browser.font().pointSizeF()
    view = app.window.sidebar.view
    qtbot.keyClick(view, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    qtbot.keyClick(view, Qt.Key.Key_Equal, Qt.KeyboardModifier.ControlModifier)
    assert browser.font().pointSizeF() == base + 2
    qtbot.keyClick(view, Qt.Key.Key_Minus, Qt.KeyboardModifier.ControlModifier)
    assert browser.font().pointSizeF() == base + 1
    app.window.close()
    again = make_app()
    assert again.window.pane.browser.font().pointSizeF() == base + 1
    qtbot.keyClick(again.window.sidebar.view, Qt.Key.Key_0, Qt.KeyboardModifier.ControlModifier)
    assert again.window.pane.browser.font().pointSizeF() == base


def test_main_widgets_have_accessible_names(app):
    w = app.window
    widgets = [
        w.sidebar.view,
        w.sidebar.search,
        w.sidebar.facets,
        w.sidebar.count_label,
        w.sidebar.sort_combo,
        w.pane,
        w.pane.browser,
        w.pane.note_editor.editor,
        w.pane.note_editor.preview,
        w.pane.tag_editor.entry,
        app.triage_bar,
    ]
    names = [x.accessibleName() for x in widgets]
    assert all(names), names
    assert len(set(names)) == len(names)


def _pixel(widget, x, y):
    return widget.grab().toImage().pixelColor(x, y)


def test_the_selected_row_and_the_chosen_status_wear_the_highlight(app):
    w = app.window
    view, palette = w.sidebar.view, QApplication.palette()
    highlight = palette.color(QPalette.ColorRole.Highlight)
    w.sidebar.move(0)
    QApplication.processEvents()
    row = view.visualRect(w.sidebar.model.index(0))
    other = view.visualRect(w.sidebar.model.index(1))
    # the row's background is the view's (selection, focus), its texts the delegate's
    selected = _pixel(view.viewport(), row.right() - 2, row.bottom() - 2)
    assert _pixel(view.viewport(), other.right() - 2, other.bottom() - 2) == palette.color(
        QPalette.ColorRole.Base
    )
    assert selected != palette.color(QPalette.ColorRole.Base)
    assert selected.blue() > selected.red()  # blue (lighter when the view is not focused)
    chosen = w.pane.status_buttons.checkedButton()
    assert chosen.text() == "Unread"
    # the reader pane's own style sheet (the application has none)
    assert _pixel(chosen, 4, chosen.height() // 2) == highlight
    unchosen = w.pane.status_buttons.button(3)
    assert _pixel(unchosen, 4, unchosen.height() // 2) != highlight
    order = w.sidebar.sort_order
    order.setChecked(True)  # descending: the sidebar's own checkable button, styled as the others
    assert _pixel(order, 3, order.height() // 2) == highlight


def test_the_light_palette_is_the_fusion_styles_own(qapp):
    from PySide6.QtWidgets import QStyleFactory

    from reader.ui.theme import light_palette

    ours, fusion = light_palette(), QStyleFactory.create("Fusion").standardPalette()
    for group in (
        QPalette.ColorGroup.Active,
        QPalette.ColorGroup.Inactive,
        QPalette.ColorGroup.Disabled,
    ):
        for role in QPalette.ColorRole:
            if role is not QPalette.ColorRole.NColorRoles:
                argb = QColor.NameFormat.HexArgb  # (Fusion computes some in floating point)
                assert ours.color(group, role).name(argb) == fusion.color(group, role).name(argb), (
                    group,
                    role,
                )


def test_the_paper_count_is_quiet_but_readable(app):
    app.actions.theme_light.trigger()
    label = app.window.sidebar.count_label
    text = label.palette().color(label.foregroundRole())
    ground = label.palette().color(QPalette.ColorRole.Window)

    def luminance(c):
        channel = [
            (v / 255) / 12.92 if v <= 10 else (((v / 255) + 0.055) / 1.055) ** 2.4
            for v in (c.red(), c.green(), c.blue())
        ]
        return 0.2126 * channel[0] + 0.7152 * channel[1] + 0.0722 * channel[2]

    shown = QColor(text)  # the colour over the window's, as painted
    alpha = text.alphaF()
    shown.setRgbF(
        *(
            alpha * a + (1 - alpha) * b
            for a, b in zip(text.getRgbF()[:3], ground.getRgbF()[:3], strict=True)
        )
    )
    light, dark = sorted((luminance(shown), luminance(ground)), reverse=True)
    # Qt's placeholder-text grey: 3.9:1 in the light theme (the palette's Mid it had was
    # 1.7:1), 5:1 in the dark one
    assert (light + 0.05) / (dark + 0.05) >= 3.5
    assert shown != label.palette().color(QPalette.ColorRole.WindowText)  # quieter than the text


def test_scroll_bars_are_flat_in_the_themes_colours(qtbot, app):
    from PySide6.QtWidgets import QScrollBar

    w = app.window
    w.show()
    qtbot.waitExposed(w)
    bar = w.sidebar.view.verticalScrollBar()
    assert bar.isVisible() and bar.maximum() > 0  # 19 rows do not fit
    bar.setValue(0)
    for theme in (app.actions.theme_light, app.actions.theme_dark):
        theme.trigger()
        QApplication.processEvents()
        image = bar.grab().toImage()
        palette = bar.palette()
        # the handle at the top in the palette's Mid, the groove below it the Base:
        # plain colours (Fusion's are gradients, ~0.8 ms a paint)
        assert image.pixelColor(bar.width() // 2, 12) == palette.color(QPalette.ColorRole.Mid)
        assert image.pixelColor(bar.width() // 2, bar.height() - 4) == palette.color(
            QPalette.ColorRole.Base
        )
        # held, the handle wears the highlight (the dark theme's Dark would vanish on its Base)
        qtbot.mousePress(bar, Qt.MouseButton.LeftButton, pos=QPoint(bar.width() // 2, 12))
        assert bar.isSliderDown()
        held = bar.grab().toImage().pixelColor(bar.width() // 2, 12)
        qtbot.mouseRelease(bar, Qt.MouseButton.LeftButton, pos=QPoint(bar.width() // 2, 12))
        assert held == palette.color(QPalette.ColorRole.Highlight)
    assert window_lightness() < 80
    # every scroll bar of the window, once it is set up
    app.finish_setup()
    bars = w.findChildren(QScrollBar)
    assert len(bars) >= 10 and all(b.styleSheet() for b in bars)


def test_links_on_the_page_shown_take_the_new_themes_colour(qtbot, app):
    w = app.window
    pane = w.pane
    pane.note_editor.editor.setPlainText("See [the paper](https://example.org/)")
    pane.note_editor.render_preview()
    for theme in (app.actions.theme_light, app.actions.theme_dark, app.actions.theme_light):
        theme.trigger()
        link = QApplication.palette().color(QPalette.ColorRole.Link)
        for browser in (pane.browser, pane.note_editor.preview):  # the abstract's page, the note's
            colours = {fmt.foreground().color().name() for fmt in _link_formats(browser.document())}
            assert colours == {link.name()}, (theme.text(), browser)
    assert pane.note_editor.editor.toPlainText() == "See [the paper](https://example.org/)"  # kept


def _link_formats(doc):
    block, found = doc.begin(), []
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fmt = it.fragment().charFormat()
            if fmt.anchorHref():
                found.append(fmt)
            it += 1
        block = block.next()
    return found


def _row_image(w, row):
    QApplication.processEvents()
    view = w.sidebar.view
    return view.viewport().grab(view.visualRect(w.sidebar.model.index(row))).toImage()


def _choose(w, row):
    w.sidebar.view.setCurrentIndex(w.sidebar.model.index(row))


def _ink(image, colour):
    """How many of the image's pixels are not `colour`."""
    return sum(
        image.pixelColor(x, y) != colour
        for x in range(0, image.width(), 2)
        for y in range(image.height())
    )


def test_a_row_is_drawn_anew_whenever_what_it_shows_changes(qtbot, app, monkeypatch):
    """A row's texts are drawn once and kept (typing shows the same rows again): what
    is kept follows the paper's status, tags and their colours, the search's marks,
    the selection and the theme, and a row kept no longer is drawn again the same.
    (A row seen once is drawn on a pixmap reused for every such row, a row seen
    again on a pixmap kept: `first` is the one, each `== first` after it the other.)"""
    from reader.ui import paper_delegate

    w, lib = app.window, app.controller.library
    _choose(w, 0)
    pid = w.sidebar.model.id_at(2)
    first = _row_image(w, 2)
    base = QApplication.palette().color(QPalette.ColorRole.Base)
    assert _ink(first, base) > 100  # its title, authors and status mark
    lib.set_status([pid], Status.READ)
    assert _row_image(w, 2) != first
    lib.set_status([pid], Status.UNREAD)
    assert _row_image(w, 2) == first
    lib.add_tags([pid], ["zz-kept"])
    tagged = _row_image(w, 2)
    assert tagged != first
    lib.set_tag_colours({"zz-kept": "#cc3344"})
    assert _row_image(w, 2) not in (first, tagged)
    lib.remove_tags([pid], ["zz-kept"])
    assert _row_image(w, 2) == first
    word = lib.paper(pid).title.split()[0]
    qtbot.keyClicks(w.sidebar.search, word)
    qtbot.waitUntil(lambda: bool(w.sidebar.model.highlight_terms) and not w.sidebar.search_pending)
    row = w.sidebar.model.row_of(pid)
    marked = _row_image(w, row)  # (wider: the fewer rows need no scroll bar)

    def yellow(image):  # the marks' orange, over the row's white or selection blue
        return [
            (x, y)
            for x in range(image.width())
            for y in range(image.height())
            if (c := image.pixelColor(x, y)).red() > c.blue() + 40
        ]

    assert len(yellow(marked)) > 100 and not yellow(first)  # the match marked under the title
    w.sidebar.search.clear()
    qtbot.waitUntil(lambda: not w.sidebar.model.highlight_terms and not w.sidebar.search_pending)
    _choose(w, 0)
    assert _row_image(w, 2) == first
    _choose(w, 2)  # selected: the selection's colours
    assert _row_image(w, 2) != first
    _choose(w, 0)
    assert _row_image(w, 2) == first
    app.actions.theme_dark.trigger()
    dark = _row_image(w, 2)
    assert (
        sum(
            dark.pixelColor(x, y).lightness() > 200
            for x in range(dark.width())
            for y in range(dark.height())
        )
        > 100
    )
    app.actions.theme_light.trigger()
    assert _row_image(w, 2) == first
    # rows the delegate no longer keeps drawn (LAYER_BYTES: room for 3 here, so that the
    # sample's rows go) are drawn again when needed, the same
    monkeypatch.setattr(paper_delegate, "LAYER_BYTES", 3 * first.width() * first.height() * 4)
    for row in range(w.sidebar.model.rowCount()):  # each row drawn selected, then not
        _choose(w, row)
        _row_image(w, row)
    _choose(w, 0)
    assert _row_image(w, 2) == first


def test_a_labels_links_take_the_new_themes_colour(qtbot, app):
    """The "Mentioned in" line after Dark -> Light: its links in the light theme's
    blue, none left in the dark theme's."""
    from PySide6.QtWidgets import QLabel

    label = QLabel('Mentioned in 1 note: <a href="paper-id:x">A paper whose note links here</a>')
    qtbot.addWidget(label)  # (as the pane's "Mentioned in" line: a label of rich text)
    label.show()

    def near(colour: str) -> int:
        QApplication.processEvents()
        image, want = label.grab().toImage(), QColor(colour)
        return sum(
            abs(image.pixelColor(x, y).red() - want.red())
            + abs(image.pixelColor(x, y).green() - want.green())
            + abs(image.pixelColor(x, y).blue() - want.blue())
            < 40
            for x in range(image.width())
            for y in range(image.height())
        )

    app.actions.theme_dark.trigger()
    dark = QApplication.palette().color(QPalette.ColorRole.Link).name()
    assert near(dark) > 20
    app.actions.theme_light.trigger()
    light = QApplication.palette().color(QPalette.ColorRole.Link).name()
    assert near(dark) == 0
    assert near(light) > 20
