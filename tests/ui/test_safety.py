"""The window's side of never losing an edit: failed saves, closing, backups, damage."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox

from reader.core.models import Status
from reader.opening import open_library
from reader.store.files import LibraryFolder
from reader.store.storage import StorageError
from tests.helpers.libraries import own_file


@pytest.fixture(autouse=True)
def never_block_on_close(monkeypatch):
    """pytest-qt closes windows before fixtures end: a failing test must not leave
    the window stuck in its modal "unsaved edits" question."""
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: QMessageBox.StandardButton.Discard)


@pytest.fixture
def broken_disk(monkeypatch):
    """Every annotation write fails until `fix()` is called."""
    state = {"broken": True}
    real = LibraryFolder.write_annotations

    def write(self, changes):
        if state["broken"]:
            raise StorageError(
                f"{self.annotations_path}: the disk is full (No space left on device)"
            )
        return real(self, changes)

    monkeypatch.setattr(LibraryFolder, "write_annotations", write)
    return state


def close_boxes():
    for w in QApplication.topLevelWidgets():
        if isinstance(w, QMessageBox):
            w.close()


def test_failed_save_keeps_edit_warns_and_retries(qtbot, app, broken_disk, tmp_path):
    w = app.window
    lib = app.controller.library
    pid = w.pane.paper_id
    before = own_file(tmp_path / "library").read_bytes()
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_3)
    assert lib.status(pid) is Status.READ  # kept in memory, shown
    assert lib.pending_count() == 1
    assert own_file(tmp_path / "library").read_bytes() == before  # not damaged
    assert "disk is full" in w.statusBar().currentMessage()
    box = w._save_warning
    assert box is not None and box.isVisible() and not box.isModal()
    assert app.controller.retry_timer.isActive()
    broken_disk["broken"] = False
    app.controller.retry_timer.setInterval(10)
    qtbot.waitUntil(lambda: lib.pending_count() == 0, timeout=5000)
    assert w.statusBar().currentMessage() == "All edits saved."
    assert open_library(tmp_path / "library").library.status(pid) is Status.READ
    close_boxes()


def test_note_typed_while_disk_full_is_written_later(qtbot, app, broken_disk, tmp_path):
    w = app.window
    pid = w.pane.paper_id
    w.pane.note_editor.editor.setFocus()
    qtbot.keyClicks(w.pane.note_editor.editor, "precious words")
    w.sidebar.view.setFocus()  # focus out: save attempted, fails
    assert app.controller.library.annotation(pid).note == "precious words"
    broken_disk["broken"] = False
    assert app.controller.retry_saves()
    assert open_library(tmp_path / "library").library.annotation(pid).note == "precious words"
    close_boxes()


def test_closing_with_unsaved_edits_asks(qtbot, app, broken_disk, monkeypatch):
    w = app.window
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_2)
    answers = [QMessageBox.StandardButton.Cancel]
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: answers.pop(0))
    w.close()
    assert w.isVisible() and answers == []  # cancelled: still open
    answers[:] = [QMessageBox.StandardButton.Retry, QMessageBox.StandardButton.Discard]
    w.close()
    assert not w.isVisible() and answers == []
    close_boxes()


def test_closing_takes_a_verified_backup(qtbot, make_app, tmp_path):
    app = make_app()
    qtbot.keyClick(app.window.sidebar.view, Qt.Key.Key_3)
    backups = app.opened.backups
    n = len(backups.list())
    app.window.close()
    assert len(backups.list()) == n + 1
    newest = backups.list()[0]
    assert backups.check(newest) >= 1


def test_damaged_annotations_file_is_reported_in_the_window(qtbot, make_app, tmp_path):
    first = make_app()
    qtbot.keyClick(first.window.sidebar.view, Qt.Key.Key_3)
    first.window.close()  # leaves a backup
    own_file(tmp_path / "library").write_bytes(b'{"annotations": {"x": ')
    again = make_app()
    boxes = [
        b for b in QApplication.topLevelWidgets() if isinstance(b, QMessageBox) and b.isVisible()
    ]
    assert boxes and "damaged" in boxes[0].text()
    assert not boxes[0].isModal()
    assert again.controller.library.status(again.window.pane.paper_id) is not None
    assert list(own_file(tmp_path / "library").parent.glob("annotations.json.damaged*"))
    close_boxes()
