"""Window state in one typed place (QSettings holds only window state)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from PySide6.QtCore import QByteArray, QSettings


@dataclass
class WindowState:
    geometry: QByteArray | None = None
    window_state: QByteArray | None = None
    #: facets | list | reader
    panes: QByteArray | None = None
    reader_splitter: QByteArray | None = None
    last_paper: str = ""
    sort_key: str = "library"
    sort_descending: int = 0
    zoom: int = 0
    theme: str = "system"


class WindowSettings:
    """Reads and writes WindowState; `settings` is injected so tests use a temp file."""

    def __init__(self, settings: QSettings) -> None:
        self._settings = settings

    def load(self) -> WindowState:
        state = WindowState()
        for f in fields(WindowState):
            value: Any = self._settings.value(f"window/{f.name}")
            if value is None:
                continue
            default = getattr(state, f.name)
            if isinstance(default, int):
                try:
                    value = int(value)
                except (TypeError, ValueError):
                    continue
            elif isinstance(default, str):
                value = str(value)
            elif not isinstance(value, QByteArray):
                continue
            setattr(state, f.name, value)
        return state

    def save(self, state: WindowState) -> None:
        for f in fields(WindowState):
            value = getattr(state, f.name)
            if value is not None:
                self._settings.setValue(f"window/{f.name}", value)
        self._settings.sync()
