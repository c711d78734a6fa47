"""The whole app on a temporary library: edit in the window, quit, start again,
find every edit; and the real program started as a user starts it."""

import json
import os
import signal
import subprocess
import sys
import time

from PySide6.QtCore import QSettings, Qt

from reader.core.models import Status


def _build(tmp_path):
    from reader.ui.app import build

    settings = QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat)
    return build(tmp_path / "library", settings)


def test_edit_quit_restart_finds_every_edit(qtbot, tmp_path):
    app = _build(tmp_path)
    w = app.window
    qtbot.addWidget(w)
    w.show()
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    view = w.sidebar.view
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_J)
    pid = w.pane.paper_id
    qtbot.keyClick(view, Qt.Key.Key_2)
    qtbot.keyClick(view, Qt.Key.Key_T)
    qtbot.keyClicks(w.pane.tag_editor.entry, "to-discuss")
    qtbot.keyClick(w.pane.tag_editor.entry, Qt.Key.Key_Return)
    view.setFocus()
    qtbot.keyClick(view, Qt.Key.Key_N)
    assert w.pane.note_editor.editor.hasFocus()
    qtbot.keyClicks(w.pane.note_editor.editor, "Compare with $K^2$VAE.")
    w.close()  # quit straight after typing: nothing may be lost
    app.poll.stop()

    again = _build(tmp_path)
    qtbot.addWidget(again.window)
    lib = again.controller.library
    assert lib.status(pid) is Status.READING
    assert lib.tags(pid) == ("to-discuss",)
    assert lib.annotation(pid).note == "Compare with $K^2$VAE."
    assert again.window.pane.paper_id == pid  # last paper restored
    assert again.window.pane.note_editor.text() == "Compare with $K^2$VAE."
    again.poll.stop()


def test_real_program_starts_and_quits_on_sigterm(tmp_path):
    lib = tmp_path / "library"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "reader", "--data-dir", str(lib)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not (lib / "window.ini").exists() and not list(lib.glob("devices/*/papers/*.jsonl")):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the window never opened its library"
            time.sleep(0.1)
        time.sleep(1.5)
        assert proc.poll() is None, proc.communicate()
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert (lib / "window.ini").exists()  # state saved on the way out
    listed = subprocess.run(
        [sys.executable, "-m", "reader", "--data-dir", str(lib), "list", "--json"],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert len(json.loads(listed.stdout)) == 19


def test_sigterm_saves_typed_note(tmp_path):
    """Type, then SIGTERM the real process before the debounce: the text is saved."""
    lib = tmp_path / "library"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    child = os.path.join(os.path.dirname(__file__), "..", "helpers", "typing_child.py")
    proc = subprocess.Popen(
        [sys.executable, child, str(lib), "typed just before SIGTERM"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        pid = proc.stdout.readline().strip()
        assert pid, proc.communicate(timeout=30)
        proc.send_signal(signal.SIGTERM)
        proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0
    from reader.opening import open_library

    assert open_library(lib).library.annotation(pid).note == "typed just before SIGTERM"


def test_second_launch_brings_the_first_forward(tmp_path, monkeypatch):
    import shutil
    import socket
    import tempfile

    from reader.ui.single_instance import server_name

    lib = tmp_path / "library"
    # the socket goes in the user's private runtime folder: a throwaway one (mode 0700)
    runtime = tempfile.mkdtemp(prefix="pr-run-")
    monkeypatch.setenv("XDG_RUNTIME_DIR", runtime)
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    first = subprocess.Popen(
        [sys.executable, "-m", "reader", "--data-dir", str(lib)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    address = server_name(lib)
    assert address is not None and os.path.isabs(address)
    try:
        deadline = time.monotonic() + 60
        while True:  # wait until the first window listens
            assert first.poll() is None, first.communicate()
            assert time.monotonic() < deadline, "the first window never listened"
            with socket.socket(socket.AF_UNIX) as probe:
                if probe.connect_ex(address) == 0:
                    break
            time.sleep(0.1)
        second = subprocess.run(
            [sys.executable, "-m", "reader", "--data-dir", str(lib)],
            env=env,
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert second.returncode == 0
        assert "already open" in second.stderr
        assert first.poll() is None  # the first keeps running
    finally:
        first.send_signal(signal.SIGTERM)
        first.communicate(timeout=30)
        shutil.rmtree(runtime, ignore_errors=True)
