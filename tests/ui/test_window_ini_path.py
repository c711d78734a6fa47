"""window.ini goes inside the library folder whatever the folder's name: Qt names files in
UTF-8, so a folder whose name is not (bytes on Linux) needs a name Qt can say."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QByteArray

from reader.ui.settings import (
    SETTINGS_FILE,
    WindowSettings,
    WindowState,
    open_settings,
    settings_path,
)

needs_bytes_names = pytest.mark.skipif(
    sys.platform in ("win32", "darwin"), reason="file names there are always Unicode"
)


def _latin1_folder(tmp_path: Path) -> Path:
    folder = os.fsencode(tmp_path) + b"/lat\xe9"
    os.mkdir(folder)
    return Path(os.fsdecode(folder))


def _round_trip(folder: Path) -> WindowState:
    state = WindowState(geometry=QByteArray(b"\x00\x01geometry"), last_paper="p-1", zoom=3)
    WindowSettings(open_settings(folder)).save(state)
    return WindowSettings(open_settings(folder)).load()


def _check(loaded: WindowState) -> None:
    assert loaded.geometry == QByteArray(b"\x00\x01geometry")
    assert (loaded.last_paper, loaded.zoom) == ("p-1", 3)


@needs_bytes_names
def test_a_folder_name_that_is_not_utf8_gets_window_ini_inside(tmp_path: Path) -> None:
    folder = _latin1_folder(tmp_path)
    _check(_round_trip(folder))
    assert os.listdir(os.fsencode(tmp_path)) == [b"lat\xe9"]  # no "lat\xef\xbf\xbd" beside it
    assert os.listdir(os.fsencode(folder)) == [SETTINGS_FILE.encode()]


@needs_bytes_names
def test_two_such_folders_keep_their_own_settings(tmp_path: Path) -> None:
    one = _latin1_folder(tmp_path)
    other = Path(os.fsdecode(os.fsencode(tmp_path) + b"/\xff\xfe"))
    os.mkdir(os.fsencode(other))
    _check(_round_trip(one))
    WindowSettings(open_settings(other)).save(WindowState(zoom=-2))
    assert WindowSettings(open_settings(other)).load().zoom == -2
    assert WindowSettings(open_settings(one)).load().zoom == 3


def test_a_utf8_folder_name_is_given_as_it_is(tmp_path: Path) -> None:
    folder = tmp_path / "bibliothèque ∑"
    folder.mkdir()
    assert settings_path(folder) == str(folder / SETTINGS_FILE)
    _check(_round_trip(folder))
    assert os.listdir(folder) == [SETTINGS_FILE]


@needs_bytes_names
def test_the_window_keeps_its_state_in_such_a_folder(qtbot, tmp_path: Path) -> None:
    from reader.ui.app import build

    folder = _latin1_folder(tmp_path)
    app = build(folder)
    qtbot.addWidget(app.window)
    app.window.close()
    app.poll.stop()
    assert os.listdir(os.fsencode(tmp_path)) == [b"lat\xe9"]
    assert SETTINGS_FILE.encode() in os.listdir(os.fsencode(folder))
