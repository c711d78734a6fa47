"""Fixtures that build the real window through the composition root."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings


@pytest.fixture
def make_app(qtbot, tmp_path: Path):
    """Build the window on a library folder (default: a fresh seeded one), in English
    unless `lang` says otherwise (None: as the program decides, View → Language's choice
    or the system's); the language is English again after the test."""
    from reader.ui import i18n

    built = []

    def make(folder: Path | None = None, lang: str | None = "en"):
        from reader.ui.app import build

        folder = folder or tmp_path / "library"
        settings = QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat)
        app = build(folder, settings, lang=lang)
        qtbot.addWidget(app.window)
        app.window.show()
        app.window.activateWindow()
        qtbot.waitUntil(app.window.isActiveWindow)
        built.append(app)
        return app

    yield make
    for app in built:
        app.poll.stop()
    if i18n.current() != "en":
        i18n.use("en")


@pytest.fixture
def app(make_app):
    return make_app()
