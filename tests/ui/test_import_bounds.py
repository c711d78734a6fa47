"""Imports in the window are bounded: what is not a regular file or is over the size
limit is refused in one line, Cancel ends any import within a second (the next one
runs at once, the process still exits), and a failed import leaves the library folder
byte-identical outside backups/ (issue 17, items 2 and 7)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton

from tests.datafiles import SEED_TEXT
from tests.helpers.libraries import catalogue_files, own_file
from tests.unit.test_bounded_reads import FAILURES, failing_import, folder_bytes

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="FIFOs and devices")

#: the longest a refusal, a failure or a cancel may take to reach the window here
WAIT_MS = 20_000


def _close_boxes() -> None:
    for box in QApplication.topLevelWidgets():
        if isinstance(box, QMessageBox):
            box.close()


@pytest.fixture
def written(make_app, tmp_path: Path):
    """The window on a library with the user's own writing in it (a tag, a note)."""
    app = make_app()
    from reader.core.models import Status

    controller = app.controller
    pid = controller.library.paper_ids()[0]
    controller.add_tags(["rl"], [pid])
    controller.set_status(Status.READ, [pid])
    controller.flush()
    # a fold would change it
    assert own_file(tmp_path / "library", "annotations.journal").exists()
    return app


@pytest.mark.parametrize("kind", FAILURES)
def test_a_failed_import_changes_nothing_outside_backups(qtbot, written, tmp_path, kind):
    app, folder = written, tmp_path / "library"
    transfers = app.window.transfers
    path = failing_import(kind, folder, tmp_path)
    before = folder_bytes(folder)
    reports, failures = [], []
    transfers.import_finished.connect(reports.append)
    transfers.import_failed.connect(failures.append)
    transfers.import_files([path])
    qtbot.waitUntil(lambda: bool(reports or failures), timeout=WAIT_MS)
    assert not reports and len(failures) == 1 and "\n" not in failures[0], failures
    assert transfers.task is None
    assert folder_bytes(folder) == before
    _close_boxes()


@pytest.mark.parametrize(("kind", "word"), [("fifo", "FIFO"), ("device", "device")])
def test_such_a_file_is_refused_and_the_next_import_runs(qtbot, make_app, tmp_path, kind, word):
    app = make_app()
    transfers = app.window.transfers
    path = failing_import(kind, tmp_path / "library", tmp_path)
    reports, failures, messages = [], [], []
    transfers.import_finished.connect(reports.append)
    transfers.import_failed.connect(failures.append)
    transfers.message.connect(messages.append)
    transfers.import_files([path])
    qtbot.waitUntil(lambda: bool(failures), timeout=WAIT_MS)
    assert word in failures[0] and str(path) in failures[0]
    transfers.import_files([SEED_TEXT])
    qtbot.waitUntil(lambda: bool(reports), timeout=WAIT_MS)
    assert "An import is already running." not in messages
    _close_boxes()


@pytest.fixture
def slow_parse(monkeypatch):
    """The JSON parser held (as a huge file's would be, between two looks at Cancel)
    until `release` is set: (parsing, release)."""
    from reader.formats import jsonfile

    parsing, release = threading.Event(), threading.Event()
    read = jsonfile.read

    def held(text, name):
        parsing.set()
        release.wait(60)
        return read(text, name)

    monkeypatch.setattr(jsonfile, "read", held)
    yield parsing, release
    release.set()


def test_cancel_ends_an_import_within_a_second(qtbot, make_app, tmp_path, slow_parse):
    parsing, release = slow_parse
    app = make_app()
    transfers = app.window.transfers
    before = catalogue_files(tmp_path / "library")
    listed = tmp_path / "list.json"
    listed.write_text('[{"title": "Held in the parser"}]')
    reports, failures, messages = [], [], []
    transfers.import_finished.connect(reports.append)
    transfers.import_failed.connect(failures.append)
    transfers.message.connect(messages.append)
    transfers.import_files([listed])
    qtbot.waitUntil(parsing.is_set, timeout=WAIT_MS)
    progress = transfers.progress
    progress.show()
    qtbot.mouseClick(progress.findChild(QPushButton), Qt.MouseButton.LeftButton)
    # ended by the click itself, the worker still held in the parser (no clock read:
    # these machines are shared; what matters is that nothing waits for the worker)
    assert failures == ["Import cancelled; nothing was changed."] and not release.is_set()
    assert failures == ["Import cancelled; nothing was changed."] and transfers.task is None
    # the next import runs at once, the cancelled one still in its parser
    transfers.import_files([SEED_TEXT])
    qtbot.waitUntil(lambda: bool(reports), timeout=WAIT_MS)
    assert "An import is already running." not in messages and not release.is_set()
    release.set()  # the cancelled one goes on to its next look at Cancel, and stops
    qtbot.wait(200)
    assert failures == ["Import cancelled; nothing was changed."] and len(reports) == 1
    assert len(app.controller.library) == 19
    assert catalogue_files(tmp_path / "library") == before
    _close_boxes()


EXITS = """
import sys, threading, time
from pathlib import Path
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication
from reader.formats import jsonfile

parsing = threading.Event()
def held(text, name):
    parsing.set()
    time.sleep(300)  # a parser that never looks at Cancel
qapp = QApplication([])
from reader.ui.app import build
folder, listed = Path(sys.argv[1]), Path(sys.argv[2])
app = build(folder, QSettings(str(folder.parent / "w.ini"), QSettings.Format.IniFormat))
app.window.show()
jsonfile.read = held  # (the library seeded: its sample is JSON too)
transfers = app.window.transfers
transfers.import_files([listed])
def step():
    if parsing.is_set():
        transfers.cancel()
        app.window.close()
        qapp.quit()
    else:
        QTimer.singleShot(20, step)
QTimer.singleShot(20, step)
qapp.exec()
print("closed", flush=True)
"""


def test_the_program_exits_with_an_import_cancelled_in_its_parser(tmp_path):
    listed = tmp_path / "list.json"
    listed.write_text('[{"title": "Held in the parser"}]')
    script = tmp_path / "exits.py"
    script.write_text(textwrap.dedent(EXITS))
    started = time.monotonic()
    try:
        done = subprocess.run(
            [sys.executable, str(script), str(tmp_path / "library"), str(listed)],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=Path(__file__).parents[2],
            env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        )
    except subprocess.TimeoutExpired:
        pytest.fail("the program did not exit after its import was cancelled")
    assert done.stdout.strip() == "closed", done.stderr
    assert time.monotonic() - started < 30
