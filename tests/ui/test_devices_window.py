"""Two windows on two computers (two devices, two copies of the library folder, a
test-side file syncer between them): an edit in one shows in the other within 2 s
of its file arriving; a note edited on both shows the other version, and the user
settles it with a click."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

from PySide6.QtCore import Qt

from reader.core.models import Status
from reader.opening import open_library
from tests.helpers.syncer import full_sync, sync


def two_windows(make_app, monkeypatch, tmp_path: Path):
    laptop = tmp_path / "laptop"
    open_library(laptop).folder.close()
    desktop = tmp_path / "desktop"
    shutil.copytree(laptop, desktop)
    monkeypatch.setenv("READER_DEVICE_ID", "laptop")
    a = make_app(laptop)
    monkeypatch.setenv("READER_DEVICE_ID", "desktop")
    b = make_app(desktop)
    return a, b, {"laptop": laptop, "desktop": desktop}


def click_row(qtbot, app, row: int) -> str:
    view = app.window.sidebar.view
    rect = view.visualRect(view.model().index(row, 0))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    return view.model().id_at(row)


def test_an_edit_on_one_computer_shows_on_the_other_within_2_s(
    qtbot, make_app, monkeypatch, tmp_path
):
    a, b, folders = two_windows(make_app, monkeypatch, tmp_path)
    pid = click_row(qtbot, a, 1)
    assert click_row(qtbot, b, 1) == pid
    a.window.activateWindow()
    qtbot.waitUntil(a.window.isActiveWindow)
    qtbot.keyClick(a.window.sidebar.view, Qt.Key.Key_3)  # read, on the laptop
    assert a.controller.library.status(pid) is Status.READ
    assert b.controller.library.status(pid) is Status.UNREAD
    # the file arrives just after the desktop's window looked: the longest wait
    with qtbot.waitSignal(b.poll.timeout, timeout=5_000):
        pass
    assert sync(folders["laptop"], folders["desktop"], owner="desktop")
    arrived = time.monotonic()
    button = b.window.pane.status_buttons.button(list(Status).index(Status.READ) + 1)
    qtbot.waitUntil(button.isChecked, timeout=2_000)  # the desktop's pane shows it
    assert time.monotonic() - arrived < 2.0
    assert b.controller.library.status(pid) is Status.READ


def test_a_note_conflict_is_shown_and_settled_by_a_click(qtbot, make_app, monkeypatch, tmp_path):
    a, b, folders = two_windows(make_app, monkeypatch, tmp_path)
    pid = click_row(qtbot, a, 0)
    assert click_row(qtbot, b, 0) == pid
    a.controller.library.set_note(pid, "laptop's words")
    b.controller.library.set_note(pid, "desktop's words")
    full_sync(folders)
    panel = None

    def shown() -> bool:
        nonlocal panel
        panel = b.window.pane.note_conflicts
        return panel is not None and panel.isVisible()

    qtbot.waitUntil(shown, timeout=3_000)
    lib = b.controller.library
    texts = {lib.annotation(pid).note, panel.text.toPlainText()}
    assert texts == {"laptop's words", "desktop's words"}
    assert panel.text.isReadOnly()
    qtbot.mouseClick(panel.add_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not panel.isVisible(), timeout=2_000)
    note = b.window.pane.note_editor.text()
    assert "laptop's words" in note and "desktop's words" in note
    assert lib.note_conflicts(pid) == []
    full_sync(folders)
    qtbot.waitUntil(lambda: a.controller.library.annotation(pid).note == note, timeout=3_000)
    assert a.controller.library.note_conflicts(pid) == []
    qtbot.waitUntil(
        lambda: (
            a.window.pane.note_conflicts is None or not a.window.pane.note_conflicts.isVisible()
        ),
        timeout=2_000,
    )


def test_the_window_keeps_its_merge_as_it_closes(qtbot, make_app, monkeypatch, tmp_path):
    """What the window showed as it closed is what the next open shows, taken from the
    cache folder without merging any record anew (a large library's ~250 ms)."""
    from reader.core.library import Library
    from reader.store import merged, view_cache
    from reader.store.files import LibraryFolder

    monkeypatch.setattr(view_cache, "SMALL_BYTES", 0)  # as a large library does
    a, b, folders = two_windows(make_app, monkeypatch, tmp_path)
    pid = click_row(qtbot, b, 2)
    qtbot.keyClick(b.window.sidebar.view, Qt.Key.Key_3)
    full_sync(folders)
    a.window.activateWindow()
    qtbot.waitUntil(a.window.isActiveWindow)
    click_row(qtbot, a, 2)
    qtbot.keyClick(a.window.sidebar.view, Qt.Key.Key_2)  # reading, after the desktop's read
    qtbot.waitUntil(lambda: a.controller.library.status(pid) is Status.READING)
    shown = dict(a.controller.library.annotations())
    a.window.close()
    merges: list[str] = []
    real = merged._merged_one
    monkeypatch.setattr(merged, "_merged_one", lambda *args: merges.append(args[0]) or real(*args))
    again = Library(LibraryFolder(folders["laptop"], device="laptop"))
    assert merges == []
    assert dict(again.annotations()) == shown
