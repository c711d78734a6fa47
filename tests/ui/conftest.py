"""Fixtures that build the real window through the composition root."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QSettings


@pytest.fixture
def make_app(qtbot, tmp_path: Path):
    """Build the window on a library folder (default: a fresh seeded one)."""
    built = []

    def make(folder: Path | None = None):
        from reader.ui.app import build

        folder = folder or tmp_path / "library"
        settings = QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat)
        app = build(folder, settings)
        qtbot.addWidget(app.window)
        app.window.show()
        app.window.activateWindow()
        qtbot.waitUntil(app.window.isActiveWindow)
        built.append(app)
        return app

    yield make
    for app in built:
        app.poll.stop()


@pytest.fixture
def app(make_app):
    return make_app()
