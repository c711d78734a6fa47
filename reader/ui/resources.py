"""Icons and style sheets, loaded by path from the installed package."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import TYPE_CHECKING

from reader.paths import package_folder

if TYPE_CHECKING:
    from PySide6.QtGui import QIcon

APP_ICON = "icons/paper-reader.svg"
THEME = "themes/reader_pane.qss"
SCROLL_BARS = "themes/scroll_bars.qss"
#: the compiled catalogues of the window's texts (reader.ui.i18n)
TRANSLATIONS = ("translations/paper_reader_en.qm", "translations/paper_reader_zh_CN.qm")


def resource_path(name: str) -> Path:
    return package_folder("reader.resources", "resources") / name


def app_icon() -> QIcon:
    """The window icon. Set after the first paint: its SVG loads Qt's SVG icon engine
    and QtSvg (two shared libraries), and the QIcon class's Python type."""
    from PySide6.QtGui import QIcon

    return QIcon(str(resource_path(APP_ICON)))


@functools.cache
def stylesheet(name: str = THEME) -> str:
    """A style sheet, read once: by default the reader pane's (status buttons, tag
    chips, section labels; the sidebar's sort button has it too)."""
    try:
        return resource_path(name).read_text("utf-8")
    except OSError:
        return ""


def check_installed() -> None:
    """Raise if the package lacks its resources or bundled library (CI runs this
    against a non-editable install)."""
    from reader import paths

    for path in (
        resource_path(APP_ICON),
        resource_path(THEME),
        resource_path(SCROLL_BARS),
        *(resource_path(name) for name in TRANSLATIONS),
        paths.bundled_sample(),
    ):
        if not path.is_file():
            raise FileNotFoundError(f"missing from the installed package: {path}")
