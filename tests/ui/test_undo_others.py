"""Undo in the window undoes only the window's edit (issue 18, item 2): press `3`,
then the command line writes a note and a tag (and, in the variant, the status);
Ctrl+Z takes back only what the `3` changed and nobody changed since."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtCore import Qt

from reader.core.models import Status
from reader.opening import open_library

REPO = Path(__file__).resolve().parents[2]


def cli(folder: Path, *args: str) -> None:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    subprocess.run(
        [sys.executable, "-m", "reader", "--data-dir", str(folder), *args],
        check=True,
        cwd=REPO,
        env=env,
        stdout=subprocess.DEVNULL,
        timeout=60,
    )


def press_3_then_cli(qtbot, app, folder: Path, *more: tuple[str, ...]) -> str:
    w = app.window
    lib = app.controller.library
    view = w.sidebar.view
    rect = view.visualRect(view.model().index(2, 0))
    qtbot.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    pid = view.model().id_at(2)
    qtbot.keyClick(view, Qt.Key.Key_3)
    assert lib.status(pid) is Status.READ
    cli(folder, "note", pid, "--set", "x")
    cli(folder, "tag", pid, "t")
    for args in more:
        cli(folder, *(a.replace("ID", pid) for a in args))
    qtbot.waitUntil(lambda: "t" in lib.tags(pid), timeout=10_000)  # the window's poll
    return pid


def test_undo_leaves_the_command_lines_note_and_tag(qtbot, make_app, tmp_path):
    folder = tmp_path / "library"
    app = make_app(folder)
    lib = app.controller.library
    pid = press_3_then_cli(qtbot, app, folder)
    qtbot.keyClick(app.window.sidebar.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    on_disk = open_library(folder).library
    for where in (lib, on_disk):
        assert where.status(pid) is Status.UNREAD  # the window's edit undone
        assert where.annotation(pid).note == "x"  # the command line's stay
        assert where.tags(pid) == ("t",)
    assert "elsewhere" not in app.window.statusBar().currentMessage()
    # redo: the status again, theirs still there
    qtbot.keyClick(
        app.window.sidebar.view,
        Qt.Key.Key_Z,
        Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier,
    )
    on_disk = open_library(folder).library
    for where in (lib, on_disk):
        assert where.status(pid) is Status.READ
        assert where.annotation(pid).note == "x"
        assert where.tags(pid) == ("t",)


def test_undo_keeps_a_status_set_elsewhere_since_and_says_so(qtbot, make_app, tmp_path):
    folder = tmp_path / "library"
    app = make_app(folder)
    lib = app.controller.library
    pid = press_3_then_cli(qtbot, app, folder, ("status", "ID", "reading"))
    qtbot.waitUntil(lambda: lib.status(pid) is Status.READING, timeout=10_000)
    qtbot.keyClick(app.window.sidebar.view, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    on_disk = open_library(folder).library
    for where in (lib, on_disk):
        assert where.status(pid) is Status.READING  # theirs, not our "before" (unread)
        assert where.annotation(pid).note == "x"
        assert where.tags(pid) == ("t",)
    message = app.window.statusBar().currentMessage()
    title = lib.paper(pid).title
    assert message.startswith("Undo left 1 change made elsewhere since: status of “")
    assert title[:20] in message
    assert "\n" not in message
