"""Removing and restoring papers keeps the window and the library in agreement: the
trash once emptied brings nothing back, the facets count what they list after each
removal and return, a paper put back takes its place in the list (selected and
shown), and the status bar says what a merge or an undo did."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMessageBox

from reader.core.models import Annotation, Paper
from reader.ui.facets import KeyRole, _decode
from tests.helpers.libraries import fresh
from tests.ui.test_window import click_facet, click_row

CTRL = Qt.KeyboardModifier.ControlModifier
LEFT = Qt.MouseButton.LeftButton
COUNTED = re.compile(r"\((\d+)\)$")


def undo(qtbot, app):
    qtbot.keyClick(app.window.sidebar.view, Qt.Key.Key_Z, CTRL)


def type_note(qtbot, app, text):
    editor = app.window.pane.note_editor.editor
    editor.setFocus()
    qtbot.keyClicks(editor, text)
    app.window.sidebar.view.setFocus()  # (leaving the editor saves the note)


def trash_dialog(app):
    from reader.ui.hygiene import TrashDialog

    app.actions.show_trash.trigger()
    return app.window.findChild(TrashDialog)


def facet_counts(app):
    """Every facet with a count, as the panel shows it now: key -> count."""
    sidebar = app.window.sidebar
    sidebar.refresh_facets()
    model = sidebar.facets.model()
    counts, todo = {}, [model.index(r, 0) for r in range(model.rowCount())]
    while todo:
        index = todo.pop()
        todo += [model.index(r, 0, index) for r in range(model.rowCount(index))]
        key, found = _decode(index.data(KeyRole)), COUNTED.search(index.data() or "")
        if key and found and key[0] != "group":
            counts[key] = int(found[1])
    return counts


def assert_facets_count_what_they_list(qtbot, app):
    """Each facet's count is how many papers clicking it lists."""
    listed = {}
    counts = facet_counts(app)
    for key in counts:
        click_facet(qtbot, app, ("all", ""))  # (a choice narrows the other groups)
        click_facet(qtbot, app, key)
        listed[key] = app.window.sidebar.model.rowCount()
    click_facet(qtbot, app, ("all", ""))
    assert counts == listed
    return counts


# -- 1. the trash emptied -------------------------------------------------------


def test_after_emptying_the_trash_undo_brings_nothing_back(qtbot, app, monkeypatch, tmp_path):
    w, lib = app.window, app.controller.library
    app.finish_setup()
    pid = click_row(qtbot, app, 0)
    type_note(qtbot, app, "my note")
    assert lib.annotation(pid).note == "my note"
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_Delete)
    assert pid not in lib and w.sidebar.count_label.text().startswith("18 papers")
    dialog = trash_dialog(app)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    qtbot.mouseClick(dialog.empty, LEFT)
    dialog.close()
    assert lib.trash() == []
    assert not app.actions.undo.isEnabled() and not app.actions.redo.isEnabled()
    undo(qtbot, app)
    undo(qtbot, app)
    assert pid not in lib and pid not in w.sidebar.model.ids()
    assert w.sidebar.count_label.text().startswith("18 papers")
    assert pid not in fresh(tmp_path / "library")  # (as the command line lists it)


def test_a_paper_purged_elsewhere_is_not_brought_back_by_undo(qtbot, app, tmp_path):
    """The trash emptied by another program (the command line): the window's undo of
    the deletion finds nothing to put back, and the window and library agree."""
    w, lib = app.window, app.controller.library
    app.finish_setup()
    pid = click_row(qtbot, app, 2)
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_Delete)
    assert fresh(tmp_path / "library").empty_trash() == 1
    undo(qtbot, app)
    assert pid not in lib and pid not in w.sidebar.model.ids()
    assert "1 paper not put back" in w.statusBar().currentMessage()
    assert pid not in fresh(tmp_path / "library")
    assert w.sidebar.count_label.text().startswith("18 papers")


# -- 2. the facets count what they list -------------------------------------------


def test_facets_follow_a_delete_an_undo_and_a_put_back(qtbot, app):
    w, lib = app.window, app.controller.library
    app.finish_setup()
    pid = click_row(qtbot, app, 3)
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_3)  # Read
    app.controller.add_tags(["zz"])
    before = assert_facets_count_what_they_list(qtbot, app)
    assert before[("status", "read")] == 1 and before[("tag", "zz")] == 1
    click_row(qtbot, app, 3)
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_Delete)
    assert pid not in lib
    after = assert_facets_count_what_they_list(qtbot, app)
    assert after[("all", "")] == 18 and ("tag", "zz") not in after
    assert after[("status", "read")] == 0
    undo(qtbot, app)
    assert assert_facets_count_what_they_list(qtbot, app) == before
    click_row(qtbot, app, 3)
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_Delete)
    dialog = trash_dialog(app)
    dialog.list.item(0).setSelected(True)
    qtbot.mouseClick(dialog.put_back, LEFT)
    dialog.close()
    assert assert_facets_count_what_they_list(qtbot, app) == before


def test_facets_follow_a_merge_and_its_undo(qtbot, app):
    w, lib = app.window, app.controller.library
    app.finish_setup()
    ids = w.sidebar.model.ids()
    lib.add_tags(ids[4:6], ["alpha"])
    before = assert_facets_count_what_they_list(qtbot, app)
    assert before[("tag", "alpha")] == 2
    click_row(qtbot, app, 5)
    click_row(qtbot, app, 4, CTRL)
    app.actions.merge_papers.trigger()
    assert ids[5] not in lib
    after = assert_facets_count_what_they_list(qtbot, app)
    assert after[("tag", "alpha")] == 1 and after[("all", "")] == 18
    undo(qtbot, app)
    assert assert_facets_count_what_they_list(qtbot, app) == before


def test_facets_follow_an_import_and_its_undo(qtbot, app, tmp_path):
    from reader.formats import jsonfile
    from reader.ui.tasks import TaskRunner

    w = app.window
    w.transfers._runner = TaskRunner(synchronous=True)
    app.finish_setup()
    before = assert_facets_count_what_they_list(qtbot, app)
    new = [
        Paper(f"new-{k}", f"A new paper {k}", ("A. Author",), "An abstract.", "NewConf", 1999)
        for k in (1, 2)
    ]
    path = tmp_path / "more.json"
    path.write_text(jsonfile.export([(p, Annotation(p.id)) for p in new]), "utf-8")
    w.transfers.import_files([path])
    for box in w.findChildren(QMessageBox):
        box.close()
    imported = assert_facets_count_what_they_list(qtbot, app)
    assert imported[("venue", "NewConf")] == 2 and imported[("all", "")] == 21
    undo(qtbot, app)
    assert assert_facets_count_what_they_list(qtbot, app) == before


# -- 3. a paper put back takes its place --------------------------------------------


def test_undo_of_a_delete_puts_the_paper_back_in_its_place_selected_and_shown(qtbot, app):
    w, lib = app.window, app.controller.library
    app.finish_setup()
    ids = w.sidebar.model.ids()
    pid = click_row(qtbot, app, 6)
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_Delete)
    assert "Moved 1 paper to the Trash" in w.statusBar().currentMessage()
    assert w.pane.paper_id != pid
    undo(qtbot, app)
    assert w.sidebar.model.ids() == ids == lib.paper_ids()
    assert w.sidebar.current_id() == pid and w.sidebar.selected_ids() == [pid]
    assert w.pane.paper_id == pid
    assert "Moved" not in w.statusBar().currentMessage()
    assert "Put back 1 paper" in w.statusBar().currentMessage()


def test_put_back_from_the_trash_returns_papers_to_their_places(qtbot, app, tmp_path):
    w, lib = app.window, app.controller.library
    app.finish_setup()
    ids = w.sidebar.model.ids()
    click_row(qtbot, app, 2)
    click_row(qtbot, app, 9, CTRL)
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_Delete)
    click_row(qtbot, app, 0)
    dialog = trash_dialog(app)
    for row in range(dialog.list.count()):
        dialog.list.item(row).setSelected(True)
    qtbot.mouseClick(dialog.put_back, LEFT)
    dialog.close()
    assert w.sidebar.model.ids() == ids == lib.paper_ids()
    assert fresh(tmp_path / "library").paper_ids() == ids
    assert w.sidebar.selected_ids() == [ids[2], ids[9]]
    assert w.pane.paper_id in (ids[2], ids[9])


def test_undo_of_a_merge_puts_the_other_paper_back_in_its_place(qtbot, app):
    w, lib = app.window, app.controller.library
    app.finish_setup()
    ids = w.sidebar.model.ids()
    click_row(qtbot, app, 3)
    click_row(qtbot, app, 8, CTRL)
    app.actions.merge_papers.trigger()
    assert ids[3] not in lib
    undo(qtbot, app)
    assert w.sidebar.model.ids() == ids == lib.paper_ids()


# -- a merge says what it did ----------------------------------------------------------


def test_a_merge_says_what_went_into_what_and_its_undo_what_came_back(qtbot, app):
    w, lib = app.window, app.controller.library
    app.finish_setup()
    ids = w.sidebar.model.ids()
    kept, gone = lib.paper(ids[7]).title, lib.paper(ids[1]).title
    click_row(qtbot, app, 1)
    click_row(qtbot, app, 7, CTRL)  # shown: row 7, which keeps everything
    app.actions.merge_papers.trigger()
    assert ids[1] not in lib
    told = w.statusBar().currentMessage()
    assert told.startswith(f"Merged “{gone[:20]}")
    assert f"into “{kept[:20]}" in told and "Undo" in told
    undo(qtbot, app)
    assert ids[1] in lib
    assert w.statusBar().currentMessage().startswith(f"Merge undone: “{gone[:20]}")
    assert w.sidebar.selected_ids() == [ids[1], ids[7]] and w.pane.paper_id == ids[7]


def test_a_merge_of_three_says_how_many_went_into_which(qtbot, app):
    w, lib = app.window, app.controller.library
    app.finish_setup()
    ids = w.sidebar.model.ids()
    click_row(qtbot, app, 2)
    click_row(qtbot, app, 4, Qt.KeyboardModifier.ShiftModifier)  # shown: row 4
    app.actions.merge_papers.trigger()
    assert ids[2] not in lib and ids[3] not in lib
    told = w.statusBar().currentMessage()
    assert told.startswith(f"Merged 2 papers into “{lib.paper(ids[4]).title[:20]}")


def test_redo_of_an_import_brings_back_no_paper_forgotten_since(qtbot, app, tmp_path):
    """An import undone (its papers to the trash), the trash emptied by another
    program, then redone: the papers forgotten stay forgotten."""
    from reader.formats import jsonfile
    from reader.ui.tasks import TaskRunner

    w, lib = app.window, app.controller.library
    w.transfers._runner = TaskRunner(synchronous=True)
    app.finish_setup()
    new = [Paper(f"new-{k}", f"A new paper {k}", ("A. Author",), "Abstract.") for k in (1, 2)]
    path = tmp_path / "more.json"
    path.write_text(jsonfile.export([(p, Annotation(p.id)) for p in new]), "utf-8")
    w.transfers.import_files([path])
    for box in w.findChildren(QMessageBox):
        box.close()
    assert len(lib) == 21
    undo(qtbot, app)
    assert fresh(tmp_path / "library").empty_trash() == 2
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_Z, CTRL | Qt.KeyboardModifier.ShiftModifier)
    assert len(lib) == 19 == w.sidebar.model.rowCount()
    assert "new-1" not in fresh(tmp_path / "library")
