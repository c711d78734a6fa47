"""Keyboard-first triage, the command palette and the shortcut cheat-sheet."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from reader.core.models import Status
from reader.ui.palette import CheatSheet, CommandPalette, fuzzy_score


def _opened(app, action: str, kind: type) -> object:
    """The dialog the user opens with Help's `action`."""
    app.actions.by_name[action].trigger()
    (dialog,) = [d for d in app.window.findChildren(kind) if d.isVisible()]
    return dialog


def test_triage_ten_papers_by_keyboard_and_undo(qtbot, app):
    w = app.window
    lib = app.controller.library
    view = w.sidebar.view
    ids = w.sidebar.model.ids()
    lib.add_tags([ids[1]], ["skip"])  # already triaged: triage passes over it
    view.setFocus()
    qtbot.keyClick(
        view, Qt.Key.Key_T, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    assert app.triage.active and app.triage_bar.isVisible()
    assert app.triage_bar.label.text() == "1 / 19 triaged · 0 interesting · 0 read later · 1 skip"
    keys = [
        Qt.Key.Key_I,
        Qt.Key.Key_S,
        Qt.Key.Key_L,
        Qt.Key.Key_I,
        Qt.Key.Key_S,
        Qt.Key.Key_S,
        Qt.Key.Key_I,
        Qt.Key.Key_L,
        Qt.Key.Key_S,
        Qt.Key.Key_I,
    ]
    seen = []
    for key in keys:
        seen.append(w.pane.paper_id)
        qtbot.keyClick(view, key)
    expected_order = [ids[0], *ids[2:11]]
    assert seen == expected_order  # auto-advance skips what is already triaged
    assert [lib.tags(p) for p in seen[:2]] == [("interesting",), ("skip",)]
    assert lib.status(seen[2]) is Status.READING
    assert app.triage_bar.label.text().startswith(
        "11 / 19 triaged · 4 interesting · 2 read later · 5 skip"
    )
    assert w.pane.paper_id == ids[11]
    # undo the last decision: back on that paper, untriaged again
    qtbot.keyClick(view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert lib.tags(seen[-1]) == ()
    assert w.pane.paper_id == seen[-1]
    # changing one's mind replaces the earlier decision
    qtbot.keyClick(view, Qt.Key.Key_S)
    assert lib.tags(seen[-1]) == ("skip",)
    qtbot.keyClick(view, Qt.Key.Key_Escape)
    assert not app.triage.active and not app.triage_bar.isVisible()
    # out of triage mode the decision keys do nothing
    current = w.pane.paper_id
    qtbot.keyClick(view, Qt.Key.Key_I)
    assert lib.tags(current) == ()


def test_triage_resumes_at_first_untriaged(qtbot, app):
    w = app.window
    ids = w.sidebar.model.ids()
    app.controller.library.add_tags(ids[:4], ["interesting"])
    w.sidebar.select_paper(ids[2])
    app.actions.triage.trigger()
    assert w.pane.paper_id == ids[4]


def test_opening_a_paper_never_marks_it_read(qtbot, app):
    w = app.window
    for _ in range(5):
        qtbot.keyClick(w.sidebar.view, Qt.Key.Key_J)
    assert all(app.controller.library.status(p) is Status.UNREAD for p in w.sidebar.model.ids())


@pytest.mark.parametrize(
    "query, best",
    [
        ("mkr", "Mark Read"),
        ("prev", "Previous Paper"),
        ("triage mode", "Triage Mode"),
        ("exp sel", "Export Selection"),
    ],
)
def test_palette_fuzzy_matches_and_runs(qtbot, app, query, best):
    palette = _opened(app, "palette", CommandPalette)
    qtbot.keyClicks(palette.entry, query)
    first = palette.model.data(palette.model.index(0))
    assert first.startswith(best)
    palette.close()


def test_palette_enter_runs_the_action(qtbot, app):
    w = app.window
    pid = w.pane.paper_id
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    palette = next(
        x for x in QApplication.topLevelWidgets() if isinstance(x, CommandPalette) and x.isVisible()
    )
    qtbot.keyClicks(palette.entry, "mark reading")
    qtbot.keyClick(palette.entry, Qt.Key.Key_Return)
    assert app.controller.library.status(pid) is Status.READING
    assert not palette.isVisible()


def test_cheatsheet_lists_every_shortcut(qtbot, app):
    w = app.window
    w.sidebar.view.setFocus()
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_Question, Qt.KeyboardModifier.ShiftModifier)
    sheet = next(
        x for x in QApplication.topLevelWidgets() if isinstance(x, CheatSheet) and x.isVisible()
    )
    rows = {command: keys for _group, command, keys, _where in sheet.rows()}
    assert rows["Mark Read"] == "3"
    assert rows["Command Palette"].startswith("Ctrl+K")
    with_keys = {a.text().replace("&", "").rstrip("…") for a in app.actions.all() if a.shortcuts()}
    assert with_keys <= set(rows)
    assert rows["Interesting"] == "I"  # triage keys too
    sheet.close()


def test_the_cheatsheet_says_where_each_key_acts_and_names_undo_plainly(qtbot, app):
    w = app.window
    click = w.sidebar.view
    qtbot.keyClick(click, Qt.Key.Key_3)  # something to undo: Undo's own text names it
    assert app.actions.undo.text() != "&Undo"
    sheet = _opened(app, "cheatsheet", CheatSheet)
    where = {(command, keys): place for _group, command, keys, place in sheet.rows()}
    assert where[("Mark Unread", "1")] == "in the list"
    assert where[("Highlight as claim", "1")] == "in the abstract, text chosen"
    assert where[("Interesting", "I")] == "in triage mode"
    assert where[("Undo", "Ctrl+Z")] == "anywhere"
    assert sheet.tree.topLevelItem(0).text(0) == "File"  # grouped by menu, under headings
    sheet.close()


def test_the_palette_lists_a_command_once_with_every_key(qtbot, app):
    palette = _opened(app, "palette", CommandPalette)
    qtbot.keyClicks(palette.entry, "search")
    names = [palette.model.data(palette.model.index(r)) for r in range(palette.model.rowCount())]
    assert names.count("Search") == 1
    row = names.index("Search")
    keys = palette.model.data(palette.model.index(row), palette.model.KeysRole)
    assert keys == "Ctrl+F, /"
    palette.close()


def test_fuzzy_score():
    assert fuzzy_score("mr", "Mark Read") > fuzzy_score("mr", "Import Files…")
    assert fuzzy_score("xyz", "Mark Read") is None
    assert fuzzy_score("", "anything") == 0


def test_palette_model_passes_qt_model_tester(qtmodeltester, app):
    palette = _opened(app, "palette", CommandPalette)
    qtmodeltester.check(palette.model, force_py=True)
    palette.model.set_filter("mark")
    qtmodeltester.check(palette.model, force_py=True)
    palette.close()


def test_facet_model_passes_qt_model_tester(qtmodeltester, app):
    app.controller.library.add_tags(app.window.sidebar.model.ids()[:2], ["a/b", "c"])
    app.window.sidebar.refresh_facets()
    qtmodeltester.check(app.window.sidebar.facets.model(), force_py=True)
