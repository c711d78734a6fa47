"""Tag management, coloured-tag keys, smart lists and triage keys in the window."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QColorDialog, QInputDialog, QMessageBox

from reader.ui.tag_manager import TagManager
from tests.ui.test_window import click_facet, click_row


def manager(app):
    app.actions.manage_tags.trigger()
    return next(
        w for w in QApplication.topLevelWidgets() if isinstance(w, TagManager) and w.isVisible()
    )


def test_rename_merge_delete_and_undo(qtbot, app, monkeypatch):
    lib = app.controller.library
    ids = app.window.sidebar.model.ids()
    lib.add_tags(ids[:2], ["rl"])
    lib.add_tags(ids[2:3], ["reinforcement-learning"])
    dialog = manager(app)
    assert dialog.select("rl")
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("reinforcement-learning", True))
    asked = []
    monkeypatch.setattr(
        QMessageBox,
        "question",
        lambda *a, **k: asked.append(a[2]) or QMessageBox.StandardButton.Yes,
    )
    qtbot.mouseClick(dialog.rename_button, Qt.MouseButton.LeftButton)
    assert asked and "Merge" in asked[0]
    assert lib.tag_counts() == {"reinforcement-learning": 3}
    assert dialog.model.rowCount() == 1
    assert not dialog.isModal()
    qtbot.keyClick(dialog.table, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert lib.tag_counts() == {"rl": 2, "reinforcement-learning": 1}
    assert dialog.select("rl")
    qtbot.mouseClick(dialog.delete_button, Qt.MouseButton.LeftButton)
    assert "rl" not in lib.tag_counts()
    dialog.close()


def test_colour_and_alt_number_toggles(qtbot, app, monkeypatch):
    lib = app.controller.library
    w = app.window
    ids = w.sidebar.model.ids()
    lib.add_tags(ids[:1], ["must-read"])
    dialog = manager(app)
    dialog.select("must-read")
    monkeypatch.setattr(QColorDialog, "getColor", lambda *a, **k: QColor("#cc3344"))
    qtbot.mouseClick(dialog.colour_button, Qt.MouseButton.LeftButton)
    assert lib.tag_colours() == {"must-read": "#cc3344"}
    assert w.sidebar.model.tag_colours == {"must-read": "#cc3344"}
    dialog.close()
    # select papers 2-4 and toggle the first coloured tag on, then off
    click_row(qtbot, app, 2)
    view = w.sidebar.view
    rect = view.visualRect(view.model().index(4, 0))
    qtbot.mouseClick(
        view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.ShiftModifier, rect.center()
    )
    chosen = w.sidebar.selected_ids()
    qtbot.keyClick(view, Qt.Key.Key_1, Qt.KeyboardModifier.AltModifier)
    assert all("must-read" in lib.tags(p) for p in chosen)
    qtbot.keyClick(view, Qt.Key.Key_1, Qt.KeyboardModifier.AltModifier)
    assert not any("must-read" in lib.tags(p) for p in chosen)
    qtbot.keyClick(view, Qt.Key.Key_2, Qt.KeyboardModifier.AltModifier)  # no second colour: nothing
    assert not any(lib.tags(p) for p in chosen)


def test_saved_search_is_a_live_smart_list(qtbot, app, monkeypatch):
    w = app.window
    lib = app.controller.library
    qtbot.keyClicks(w.sidebar.search, "tag:later")
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("Later", True))
    qtbot.keyClick(w.sidebar.search, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    assert lib.prefs.saved_searches() == {"Later": "tag:later"}
    w.sidebar.search.clear()
    qtbot.waitUntil(lambda: w.sidebar.model.rowCount() == 19)
    click_facet(qtbot, app, ("smart", "Later"))
    assert w.sidebar.model.rowCount() == 0
    ids = lib.paper_ids()
    lib.add_tags(ids[3:5], ["later"])  # the list stays live
    assert w.sidebar.model.ids() == ids[3:5]
    w.sidebar.refresh_facets()
    assert w.sidebar.facets._find(("smart", "Later")).data() == "Later  (2)"


def test_triage_keys_configurable_and_kept(qtbot, make_app, monkeypatch):
    app = make_app()
    monkeypatch.setattr(
        QInputDialog,
        "getMultiLineText",
        lambda *a, **k: ("m tag must-read Must read\nx status read Done", True),
    )
    app.actions.triage_setup.trigger()
    assert [d.label for d in app.triage.decisions] == ["Must read", "Done"]
    app.window.close()
    again = make_app()
    w = again.window
    again.actions.triage.trigger()
    pid = w.pane.paper_id
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_M)
    assert again.controller.library.tags(pid) == ("must-read",)
    assert again.triage_bar.label.text() == "1 / 19 triaged · 1 must read · 0 done"


def test_bad_triage_keys_are_refused(qtbot, app, monkeypatch):
    monkeypatch.setattr(QInputDialog, "getMultiLineText", lambda *a, **k: ("mm tag x", True))
    app.actions.triage_setup.trigger()
    boxes = [
        b for b in QApplication.topLevelWidgets() if isinstance(b, QMessageBox) and b.isVisible()
    ]
    assert boxes and "line 1" in boxes[0].text()
    assert [d.key for d in app.triage.decisions] == ["i", "l", "s"]
    for box in boxes:
        box.close()


def _tag_rows(facets) -> list[str]:
    model, tags = facets.model(), facets._find(("group", "tag"))
    return [model.index(r, 0, tags).data() for r in range(model.rowCount(tags))]


def test_the_tags_facet_says_how_to_get_tags_until_there_are_some(qtbot, app):
    from reader.ui.facets import NO_TAGS

    sidebar = app.window.sidebar
    sidebar.refresh_facets()
    assert _tag_rows(sidebar.facets) == [NO_TAGS]
    hint = sidebar.facets.model().index(0, 0, sidebar.facets._find(("group", "tag")))
    assert not hint.flags() & (Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled)
    app.controller.library.add_tags([sidebar.current_id()], ["rl"])
    sidebar.refresh_facets()
    assert _tag_rows(sidebar.facets) == ["rl  (1)"]


def test_the_tag_table_fills_its_dialog(qtbot, app):
    app.controller.library.add_tags(app.window.sidebar.model.ids()[:1], ["rl"])
    dialog = manager(app)
    qtbot.waitExposed(dialog)
    table = dialog.table
    widths = sum(table.columnWidth(c) for c in range(dialog.model.columnCount()))
    assert widths >= table.viewport().width() - 2  # no empty band at the right
    dialog.close()
