"""Window state in one typed place (QSettings holds only window state)."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QByteArray, QSettings


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

    def save(self, state: WindowState) -> None:
        for name in WindowState.NAMES:
            value = getattr(state, name)
            if value is not None:
                self._settings.setValue(f"window/{name}", value)
        self._settings.sync()
