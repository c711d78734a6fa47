"""Library hygiene in the window: Delete moves papers to the trash (undo puts them
back), the Trash dialog puts back or empties, Merge Selected Papers and the Possible
Duplicates view make two papers one, nothing written about either lost."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from reader.core.models import Paper
from tests.ui.test_window import click_row


def test_delete_moves_the_selection_to_the_trash_and_undo_puts_it_back(qtbot, app):
    w, lib = app.window, app.controller.library
    app.finish_setup()
    first = click_row(qtbot, app, 2)
    lib.set_note(first, "my note")
    second = click_row(qtbot, app, 3, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_Delete)
    assert first not in w.sidebar.model.ids() and second not in w.sidebar.model.ids()
    assert w.sidebar.count_label.text().startswith("17 papers")
    assert {p.id for p in lib.trash()} == {first, second}
    assert "Moved 2 papers to the Trash" in w.statusBar().currentMessage()
    w.pane.setFocus()
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert {first, second} <= set(w.sidebar.model.ids())
    assert lib.annotation(first).note == "my note" and lib.trash() == []


def test_the_trash_dialog_puts_back_and_empties(qtbot, app, monkeypatch):
    from reader.ui.hygiene import TrashDialog

    w, lib = app.window, app.controller.library
    app.finish_setup()
    ids = w.sidebar.model.ids()
    lib.set_note(ids[1], "forgotten when emptied")
    lib.delete_papers(ids[:2])
    app.actions.show_trash.trigger()
    dialog = w.findChild(TrashDialog)
    assert dialog.list.count() == 2
    dialog.list.item(0).setSelected(True)
    qtbot.mouseClick(dialog.put_back, Qt.MouseButton.LeftButton)
    assert ids[0] in w.sidebar.model.ids() and dialog.list.count() == 1
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    qtbot.mouseClick(dialog.empty, Qt.MouseButton.LeftButton)
    assert lib.trash() == [] and ids[1] not in lib.annotations()
    assert not dialog.empty.isEnabled()


def test_merge_selected_papers_keeps_everything_in_the_one_shown(qtbot, app):
    w, lib = app.window, app.controller.library
    app.finish_setup()
    ids = w.sidebar.model.ids()
    lib.add_tags(ids[4:5], ["rl"])
    lib.add_tags(ids[5:6], ["theory"])
    lib.set_note(ids[5], "from the other")
    click_row(qtbot, app, 5)
    click_row(qtbot, app, 4, Qt.KeyboardModifier.ControlModifier)  # shown: row 4
    app.actions.merge_papers.trigger()
    assert set(lib.tags(ids[4])) == {"rl", "theory"} and ids[5] not in lib
    assert lib.annotation(ids[4]).note == "from the other"
    w.controller.undo_stack.undo()  # one step
    assert ids[5] in lib and lib.tags(ids[4]) == ("rl",)


def test_possible_duplicates_found_as_imports_match_and_merged(qtbot, app):
    from reader.ui.hygiene import DuplicatesDialog

    w, lib = app.window, app.controller.library
    app.finish_setup()
    micro = Paper("a-1", "AUC\u00b5 Is All You Need", ("A. Author",), "About AUC.")
    mu = Paper("a-2", "AUC\u03bc is all you need", ("A. Author",), "About AUC.")
    lib.add_papers([micro, mu])
    lib.add_tags(["a-2"], ["metrics"])
    app.actions.show_duplicates.trigger()
    dialog = w.findChild(DuplicatesDialog)
    assert dialog.groups() == [["a-1", "a-2"]]
    qtbot.mouseClick(dialog.merge, Qt.MouseButton.LeftButton)
    assert "a-2" not in lib and lib.tags("a-1") == ("metrics",)
    assert dialog.groups() == []
