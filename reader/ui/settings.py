"""Window state in one typed place (QSettings holds only window state)."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

from PySide6.QtCore import QByteArray, QFile, QSettings

#: The window's state, inside the library folder.
SETTINGS_FILE = "window.ini"


def open_settings(folder: Path) -> QSettings:
    """The QSettings of SETTINGS_FILE inside the library `folder`, whatever its name."""
    return QSettings(settings_path(folder), QSettings.Format.IniFormat)


def settings_path(folder: Path) -> str:
    """The name under which Qt finds SETTINGS_FILE inside `folder`.

    Qt names files in UTF-8: given the str of a folder whose name is not (b"lat\\xe9" on
    Linux, "lat\\udce9" to Python), it writes to a new folder named with U+FFFD instead
    ("lat\ufffd", beside the library). For such a folder the name is one Qt can say: on
    Linux, through a descriptor of the folder held open (/proc/self/fd/N/window.ini);
    elsewhere, a file of its own in the user's cache folder (outside the library, but no
    new folder beside it).
    """
    path = os.fsdecode(Path(folder) / SETTINGS_FILE)
    if os.name != "posix" or bytes(QFile.encodeName(path).data()) == os.fsencode(path):
        return path
    if sys.platform.startswith("linux") and os.path.isdir("/proc/self/fd"):
        try:
            return f"/proc/self/fd/{_folder_fd(Path(folder))}/{SETTINGS_FILE}"
        except OSError:
            pass
    import hashlib

    from reader.store.cachefile import cache_dir

    digest = hashlib.sha1(os.fsencode(os.path.abspath(folder))).hexdigest()[:16]
    return os.fsdecode(cache_dir() / "windows" / f"{digest}.ini")


#: folder (its absolute name) -> a descriptor of it, open for as long as the program runs:
#: a descriptor's number, once closed, may name another folder
_FOLDER_FDS: dict[bytes, int] = {}


def _folder_fd(folder: Path) -> int:
    key = os.fsencode(os.path.abspath(folder))
    st = os.stat(key)
    fd = _FOLDER_FDS.get(key)
    if fd is not None:
        held = os.fstat(fd)
        if (held.st_dev, held.st_ino) == (st.st_dev, st.st_ino):
            return fd
    fd = os.open(key, os.O_RDONLY | os.O_DIRECTORY)  # (not inherited: Python's default)
    _FOLDER_FDS[key] = fd
    return fd


class WindowState:
    """What the window remembers, each under window/<name>. (A plain class: a dataclass
    is ~1 ms of the program's start.)"""

    NAMES = (
        "geometry",
        "window_state",
        "panes",
        "reader_splitter",
        "last_paper",
        "sort_key",
        "sort_descending",
        "zoom",
        "theme",
        "table_view",
        "table_header",
        "title_lines",
    )

    def __init__(
        self,
        geometry: QByteArray | None = None,
        window_state: QByteArray | None = None,
        panes: QByteArray | None = None,
        reader_splitter: QByteArray | None = None,
        last_paper: str = "",
        sort_key: str = "library",
        sort_descending: int = 0,
        zoom: int = 0,
        theme: str = "system",
        table_view: int = 0,
        table_header: QByteArray | None = None,
        title_lines: int = 1,
    ) -> None:
        self.geometry = geometry
        self.window_state = window_state
        #: facets | list | reader
        self.panes = panes
        self.reader_splitter = reader_splitter
        self.last_paper = last_paper
        self.sort_key = sort_key
        self.sort_descending = sort_descending
        self.zoom = zoom
        self.theme = theme
        #: the papers as a table (1) or as the list (0), and the table's columns
        #: (widths, order, hidden ones: QHeaderView.saveState)
        self.table_view = table_view
        self.table_header = table_header
        #: lines a title takes in the list (1 or 2)
        self.title_lines = title_lines


class WindowSettings:
    """Reads and writes WindowState; `settings` is injected so tests use a temp file."""

    def __init__(self, settings: QSettings) -> None:
        self._settings = settings

    def load(self) -> WindowState:
        state = WindowState()
        for name in WindowState.NAMES:
            value: Any = self._settings.value(f"window/{name}")
            if value is None:
                continue
            default = getattr(state, name)
            if isinstance(default, int):
                try:
                    value = int(value)
                except (TypeError, ValueError):
                    continue
            elif isinstance(default, str):
                value = str(value)
            elif not isinstance(value, QByteArray):
                continue
            setattr(state, name, value)
        return state

    def language(self) -> str | None:
        """What View → Language chose for this library (None: follow the system)."""
        from reader.language import LANGUAGE_KEY, normalise

        value = self._settings.value(LANGUAGE_KEY)
        return normalise(value) if isinstance(value, str) else None

    def set_language(self, code: str | None) -> None:
        """Remember View → Language's choice (None: follow the system)."""
        from reader.language import LANGUAGE_KEY

        if code:
            self._settings.setValue(LANGUAGE_KEY, code)
        else:
            self._settings.remove(LANGUAGE_KEY)
        self._settings.sync()

    def save(self, state: WindowState) -> None:
        for name in WindowState.NAMES:
            value = getattr(state, name)
            if value is not None:
                self._settings.setValue(f"window/{name}", value)
        self._settings.sync()
