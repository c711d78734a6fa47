"""File → Import / Export in the window: progress, Cancel, drag-and-drop, errors."""

from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton

from reader.ui.tasks import TaskRunner
from tests.datafiles import ICML_LIST, SEED_TEXT


@pytest.fixture
def sync_app(make_app, tmp_path):
    from reader.ui.app import build  # noqa: F401  (make_app builds through it)

    app = make_app()
    app.window.transfers._runner = TaskRunner(synchronous=True)
    return app


def test_import_conference_list_through_file_menu(qtbot, sync_app, monkeypatch, tmp_path):
    from PySide6.QtWidgets import QFileDialog

    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(ICML_LIST)], ""))
    reports = []
    sync_app.window.transfers.import_finished.connect(reports.append)
    sync_app.window.actions.import_files.trigger()
    assert reports, "no report"
    report = reports[0]
    assert report.added > 3000
    sidebar = sync_app.window.sidebar
    assert sidebar.model.rowCount() == len(sync_app.controller.library) == 19 + report.added
    assert f"{19 + report.added:,} papers" in sidebar.count_label.text()
    box = next(
        w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()
    )
    assert "added" in box.text()
    box.close()


def test_reimporting_the_seed_text_adds_nothing(qtbot, sync_app):
    reports = []
    sync_app.window.transfers.import_finished.connect(reports.append)
    sync_app.window.transfers.import_files([SEED_TEXT])
    assert reports[0].added == 0
    assert len(sync_app.controller.library) == 19


def test_cancel_writes_nothing(qtbot, make_app, tmp_path):
    app = make_app()
    transfers = app.window.transfers
    papers = tmp_path / "library" / "papers.json"
    before = papers.read_bytes()
    failures = []
    transfers.import_failed.connect(failures.append)
    transfers.import_files([ICML_LIST, ICML_LIST])
    progress = transfers.progress
    progress.show()
    button = progress.findChild(QPushButton)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: transfers.task is None, timeout=30_000)
    assert failures == ["Import cancelled; nothing was changed."]
    assert papers.read_bytes() == before
    assert len(app.controller.library) == 19
    for box in QApplication.topLevelWidgets():
        if isinstance(box, QMessageBox):
            box.close()


def test_window_stays_responsive_while_importing(qtbot, make_app):
    app = make_app()
    transfers = app.window.transfers
    done = []
    transfers.import_finished.connect(done.append)
    transfers.import_files([ICML_LIST])
    # the GUI thread keeps handling input while the worker reads
    qtbot.keyClick(app.window.sidebar.view, Qt.Key.Key_J)
    qtbot.waitUntil(lambda: bool(done), timeout=60_000)
    assert app.window.sidebar.model.rowCount() > 3000
    for box in QApplication.topLevelWidgets():
        if isinstance(box, QMessageBox):
            box.close()


def test_drop_files_onto_window_imports_them(qtbot, sync_app, tmp_path):
    bib = Path(__file__).parents[1] / "data" / "formats" / "icml2025_sample.bib"
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(bib))])
    reports = []
    sync_app.window.transfers.import_finished.connect(reports.append)
    import warnings

    with warnings.catch_warnings():
        # PySide6 6.12 offers only this (deprecated) constructor; 6.11 has QPointF too
        warnings.simplefilter("ignore", DeprecationWarning)
        enter = QDragEnterEvent(
            QPoint(50, 50),
            Qt.DropAction.CopyAction,
            mime,
            Qt.MouseButton.LeftButton,
            Qt.KeyboardModifier.NoModifier,
        )
    QApplication.sendEvent(sync_app.window, enter)
    assert enter.isAccepted()
    event = QDropEvent(
        QPointF(50, 50),
        Qt.DropAction.CopyAction,
        mime,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    QApplication.sendEvent(sync_app.window, event)
    assert reports and reports[0].added > 0
    for box in QApplication.topLevelWidgets():
        if isinstance(box, QMessageBox):
            box.close()


def test_bad_file_is_a_clear_message_and_changes_nothing(qtbot, sync_app, tmp_path):
    junk = tmp_path / "junk.json"
    junk.write_bytes(b"\x00\x01\x02 not a list")
    papers = tmp_path / "library" / "papers.json"
    before = papers.read_bytes()
    failures = []
    sync_app.window.transfers.import_failed.connect(failures.append)
    sync_app.window.transfers.import_files([junk])
    assert len(failures) == 1 and "junk.json" in failures[0]
    assert papers.read_bytes() == before
    for box in QApplication.topLevelWidgets():
        if isinstance(box, QMessageBox):
            box.close()


def test_export_selection_as_bibtex(qtbot, sync_app, tmp_path):
    import bibtexparser

    ids = sync_app.controller.library.paper_ids()[:3]
    out = sync_app.window.transfers.export(ids, "bibtex", tmp_path / "out.bib")
    parsed = bibtexparser.parse_string(out.read_text("utf-8"))
    assert len(parsed.entries) == 3


def test_import_report_does_not_block_the_window(qtbot, sync_app):
    sync_app.window.transfers.import_files([SEED_TEXT])
    boxes = [
        b for b in QApplication.topLevelWidgets() if isinstance(b, QMessageBox) and b.isVisible()
    ]
    assert boxes and not boxes[0].isModal()
    qtbot.keyClick(sync_app.window.sidebar.view, Qt.Key.Key_J)  # still usable
    for box in boxes:
        box.close()


def test_after_an_import_the_next_open_reads_a_fresh_snapshot(
    qtbot, small_min, sync_app, monkeypatch
):
    from PySide6.QtWidgets import QFileDialog

    from reader.store.catalogue import read_catalogue

    papers_json = sync_app.opened.folder.papers_path
    qtbot.waitUntil(lambda: not sync_app.snapshot_pending())  # the first open's
    assert small_min.load(papers_json) is not None
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(ICML_LIST)], ""))
    sync_app.window.actions.import_files.trigger()
    assert small_min.load(papers_json) is None  # the old one is outdated at once
    assert sync_app.snapshot_pending()
    qtbot.waitUntil(lambda: not sync_app.snapshot_pending())
    fresh = small_min.load(papers_json)
    assert fresh is not None and len(fresh) == len(sync_app.controller.library) > 3000
    assert list(fresh.items()) == list(read_catalogue(papers_json).items())  # as papers.json reads


def test_no_snapshot_after_an_import_if_another_process_wrote_papers_json(
    qtbot, small_min, sync_app
):
    from reader.core.models import Paper
    from reader.opening import open_library

    folder = sync_app.opened.folder.folder
    qtbot.waitUntil(lambda: not sync_app.snapshot_pending())
    open_library(folder).library.add_papers([Paper("theirs", "Added by another window")])
    sync_app.window.transfers.import_files([ICML_LIST])
    for _ in range(50):
        QApplication.processEvents()
    assert not sync_app.snapshot_pending()
    assert small_min.load(folder / "papers.json") is None  # this window never read "theirs"
    assert "theirs" in open_library(folder).library
