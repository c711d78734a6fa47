"""File → Import / Export in the window: progress, Cancel, drag-and-drop, errors."""

import os
from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication, QMessageBox, QPushButton

from reader.ui.tasks import TaskRunner
from tests.datafiles import ICML_LIST, SEED_TEXT
from tests.helpers.libraries import catalogue_files, catalogue_ids, own_file


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
    sync_app.actions.import_files.trigger()
    assert reports, "no report"
    report = reports[0]
    assert report.added > 3000
    sidebar = sync_app.window.sidebar
    assert sidebar.model.rowCount() == len(sync_app.controller.library) == 19 + report.added
    assert f"{19 + report.added:,} papers" in sidebar.count_label.text()
    folder = tmp_path / "library"
    assert list(catalogue_files(folder)) == [  # the sample's file, then the import's
        "devices/this-device/papers/000001.jsonl",
        "devices/this-device/papers/000002.jsonl",
    ]
    assert len(set(catalogue_ids(folder))) == 19 + report.added
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
    before = catalogue_files(tmp_path / "library")
    failures = []
    transfers.import_failed.connect(failures.append)
    transfers.import_files([ICML_LIST, ICML_LIST])
    progress = transfers.progress
    progress.show()
    button = progress.findChild(QPushButton)
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: transfers.task is None, timeout=30_000)
    assert failures == ["Import cancelled; nothing was changed."]
    assert catalogue_files(tmp_path / "library") == before
    assert len(app.controller.library) == 19
    for box in QApplication.topLevelWidgets():
        if isinstance(box, QMessageBox):
            box.close()


@pytest.fixture
def held_write(monkeypatch):
    """The worker's write of an import held until go_on is set: (writing, go_on)."""
    import threading

    import reader.importing

    writing, go_on = threading.Event(), threading.Event()
    write = reader.importing.write_import

    def held(lib, prepared):
        writing.set()
        go_on.wait(30)
        write(lib, prepared)

    monkeypatch.setattr(reader.importing, "write_import", held)
    return writing, go_on


def test_a_cancel_once_papers_json_is_being_written_lets_the_import_finish(
    qtbot, make_app, held_write, tmp_path
):
    from reader.opening import open_library

    writing, go_on = held_write
    app = make_app()
    transfers = app.window.transfers
    reports, failures = [], []
    transfers.import_finished.connect(reports.append)
    transfers.import_failed.connect(failures.append)
    transfers.import_files([ICML_LIST])
    qtbot.waitUntil(writing.is_set, timeout=30_000)
    transfers.cancel()  # too late: the papers are being written
    go_on.set()
    qtbot.waitUntil(lambda: bool(reports or failures), timeout=30_000)
    assert not failures and reports[0].added > 3000
    assert len(app.controller.library) == 19 + reports[0].added
    assert len(open_library(tmp_path / "library").library) == 19 + reports[0].added
    for box in QApplication.topLevelWidgets():
        if isinstance(box, QMessageBox):
            box.close()


def test_edits_made_while_an_import_is_written_are_kept(qtbot, make_app, held_write, tmp_path):
    from reader.core.models import Status
    from reader.opening import open_library

    writing, go_on = held_write
    app = make_app()
    transfers, controller = app.window.transfers, app.controller
    pid = controller.library.paper_ids()[0]
    reports = []
    transfers.import_finished.connect(reports.append)
    transfers.import_files([ICML_LIST])
    qtbot.waitUntil(writing.is_set, timeout=30_000)
    controller.set_status(Status.READ, [pid])  # read and matched, not yet written
    go_on.set()
    qtbot.waitUntil(lambda: bool(reports), timeout=30_000)
    added = reports[0].added
    assert controller.library.status(pid) is Status.READ and len(controller.library) == 19 + added
    reopened = open_library(tmp_path / "library").library
    assert reopened.status(pid) is Status.READ and len(reopened) == 19 + added
    controller.undo_stack.undo()  # the import, the last step (it finished last)
    assert len(open_library(tmp_path / "library").library) == 19
    controller.undo_stack.undo()  # the edit made meanwhile
    assert open_library(tmp_path / "library").library.status(pid) is Status.UNREAD
    controller.undo_stack.redo()
    assert open_library(tmp_path / "library").library.status(pid) is Status.READ
    for box in QApplication.topLevelWidgets():
        if isinstance(box, QMessageBox):
            box.close()


#: papers in the library the responsiveness test imports into: at this size, taking the
#: import into the catalogue and its indexes takes seconds
BIG_LIBRARY = 100_000
#: the longest the GUI thread may go without handling an event during an import (see
#: test_window_stays_responsive_while_importing for why)
FROZEN_S = 0.25


@pytest.fixture
def big_library(tmp_path):
    """A library folder of BIG_LIBRARY made-up papers (one catalogue file, 81 MB: no
    seeding, no annotations yet), written in ~2 s (bench/generate.py's realistic papers
    take ~8 s), removed afterwards (pytest keeps its last temporary folders)."""
    import random
    import shutil

    from reader.core.models import Paper
    from reader.store.paper_files import write_file

    rng = random.Random(7)
    words = SEED_TEXT.read_text("utf-8").split()  # the ICML abstracts' words
    venues = ["ICML 2025", "NeurIPS 2024", "ICLR 2025", "COLT 2024", "TMLR"]
    papers = []
    for i in range(BIG_LIBRARY):
        title, abstract = rng.randrange(len(words) - 10), rng.randrange(len(words) - 60)
        papers.append(
            Paper(
                id=f"g{i:07d}",
                title=" ".join(words[title : title + 5 + i % 6]),
                authors=tuple(
                    f"Author {(i * 7919 + k * 104_729) % 20_000}" for k in range(2 + i % 5)
                ),
                abstract=" ".join(words[abstract : abstract + 60]),
                venue=venues[i % len(venues)],
                year=2020 + i % 6,
                url=f"https://example.org/paper/{i}",
                presentation="Poster",
                track="main",
                source="generated",
                added="2025-01-01T00:00:00+00:00",
            )
        )
    folder = tmp_path / "big" / "library"
    write_file(folder / "devices" / "generator", papers, "1735689600000.0000.generator")
    yield folder
    shutil.rmtree(folder.parent, ignore_errors=True)


def test_window_stays_responsive_while_importing(qtbot, make_app, big_library, monkeypatch):
    """A 10 ms timer on the GUI thread keeps ticking from the moment an import into a
    big library starts until its report arrives, the list then showing the new papers."""
    import time
    from itertools import pairwise

    from PySide6.QtCore import QTimer

    app = make_app(big_library)
    transfers, sidebar = app.window.transfers, app.window.sidebar
    # (its index made anew: the papers its first parts took in are listed first)
    qtbot.waitUntil(lambda: app.catch_up is None or app.catch_up.done, timeout=60_000)
    assert sidebar.model.rowCount() == BIG_LIBRARY
    # the window settles first (what it leaves for after its first paint: the search
    # index, Markdown loaded...): the gaps are the import's
    qtbot.waitUntil(lambda: sidebar.index_made and sidebar.index.prepared, timeout=60_000)
    ticks: list[float] = []
    timer = QTimer(interval=10, timerType=Qt.TimerType.PreciseTimer)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    reports, failures, shown = [], [], []

    def reported(report):
        ticks.append(time.perf_counter())
        timer.stop()
        reports.append(report)
        shown.append(sidebar.model.rowCount())

    transfers.import_finished.connect(reported)
    transfers.import_failed.connect(failures.append)
    timer.start()
    ticks.append(time.perf_counter())
    transfers.import_files([ICML_LIST])
    qtbot.waitUntil(lambda: bool(reports or failures), timeout=120_000)
    assert not failures
    added = reports[0].added
    assert added > 3000
    assert shown == [BIG_LIBRARY + added] and len(app.controller.library) == BIG_LIBRARY + added
    longest = max(b - a for a, b in pairwise(ticks))
    # The worker reads, matches and writes; the GUI thread only takes in what it made
    # (~50 ms here). With that work on the GUI thread the window froze for 1.5-2 s
    # here (the whole catalogue file parsed and rewritten, its index updated);
    # off it, the longest pause is ~40 ms, ~130 ms on 2 cores loaded by other jobs
    # (the worker preempted while it holds the interpreter, for a piece of JSON say).
    # 250 ms leaves room for such noise and still catches blocking work coming back.
    assert longest < FROZEN_S, f"the window froze for {longest * 1000:.0f} ms during the import"
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
    before = catalogue_files(tmp_path / "library")
    failures = []
    sync_app.window.transfers.import_failed.connect(failures.append)
    sync_app.window.transfers.import_files([junk])
    assert len(failures) == 1 and "junk.json" in failures[0]
    assert catalogue_files(tmp_path / "library") == before
    for box in QApplication.topLevelWidgets():
        if isinstance(box, QMessageBox):
            box.close()


def test_an_import_that_cannot_be_saved_says_so_and_changes_nothing(qtbot, sync_app, tmp_path):
    before = catalogue_files(tmp_path / "library")
    own_file(tmp_path / "library", "papers").chmod(0o555)
    failures = []
    sync_app.window.transfers.import_failed.connect(failures.append)
    sync_app.window.transfers.import_files([ICML_LIST])
    assert len(failures) == 1 and failures[0].startswith("Import not saved: ")
    assert "read-only" in failures[0]
    assert catalogue_files(tmp_path / "library") == before
    assert len(sync_app.controller.library) == 19
    for box in QApplication.topLevelWidgets():
        if isinstance(box, QMessageBox):
            box.close()


def test_export_selection_as_bibtex(qtbot, sync_app, tmp_path):
    import bibtexparser

    ids = sync_app.controller.library.paper_ids()[:3]
    out = sync_app.window.transfers.export(ids, "bibtex", tmp_path / "out.bib")
    parsed = bibtexparser.parse_string(out.read_text("utf-8"))
    assert len(parsed.entries) == 3


def test_export_says_what_it_wrote_where(qtbot, sync_app, tmp_path):
    messages = []
    sync_app.window.transfers.message.connect(messages.append)
    [pid] = sync_app.controller.library.paper_ids()[:1]
    target = Path(os.fsdecode(os.fsencode(tmp_path) + b"/lat\xe9.bib"))
    sync_app.window.transfers.export([pid], "bibtex", target)
    assert messages == [f"Exported 1 paper to {tmp_path}/lat\ufffd.bib"]
    assert os.path.exists(os.fsencode(target))


def test_import_report_does_not_block_the_window(qtbot, sync_app):
    sync_app.window.transfers.import_files([SEED_TEXT])
    boxes = [
        b for b in QApplication.topLevelWidgets() if isinstance(b, QMessageBox) and b.isVisible()
    ]
    assert boxes and not boxes[0].isModal()
    qtbot.keyClick(sync_app.window.sidebar.view, Qt.Key.Key_J)  # still usable
    for box in boxes:
        box.close()


def test_after_an_import_the_next_open_shows_the_same_papers_in_the_same_order(
    qtbot, sync_app, monkeypatch, make_app
):
    from PySide6.QtWidgets import QFileDialog

    from reader.core.models import Paper
    from reader.opening import open_library

    folder = sync_app.opened.folder.folder
    # another program's import meanwhile: its own file, kept beside the window's
    open_library(folder).library.add_papers([Paper("theirs", "Added by another window")])
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *a, **k: ([str(ICML_LIST)], ""))
    sync_app.actions.import_files.trigger()
    papers = sync_app.controller.library.papers()
    assert len(papers) > 3000 and "theirs" not in sync_app.controller.library
    again = open_library(folder).library
    assert [p for p in again.papers() if p.id != "theirs"] == papers
    assert "theirs" in again
    for box in QApplication.topLevelWidgets():
        if isinstance(box, QMessageBox):
            box.close()


def test_the_file_dialogs_open_in_the_home_folder_then_where_the_last_file_was(
    qtbot, sync_app, monkeypatch, tmp_path
):
    from PySide6.QtWidgets import QFileDialog

    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    asked = []

    def choose(_parent, _caption, start, *_rest, **_kw):
        asked.append(start)
        return [str(SEED_TEXT)], ""

    monkeypatch.setattr(QFileDialog, "getOpenFileNames", choose)
    sync_app.actions.import_files.trigger()  # not the program's working folder
    sync_app.actions.import_files.trigger()
    assert asked == [str(tmp_path / "home"), str(SEED_TEXT.parent)]
    saved = []

    def save_as(_parent, _caption, start, *_rest, **_kw):
        saved.append(start)
        return "", ""

    monkeypatch.setattr(QFileDialog, "getSaveFileName", save_as)
    sync_app.window.transfers.choose_and_export(sync_app.controller.library.paper_ids(), "all")
    assert saved == [str(SEED_TEXT.parent / "papers.json")]
    for box in QApplication.topLevelWidgets():
        if isinstance(box, QMessageBox):
            box.close()


def test_an_import_is_undone_as_one_step_and_redone(qtbot, sync_app, tmp_path):
    import dataclasses

    from reader.core.models import Annotation, Paper
    from reader.formats import jsonfile

    lib = sync_app.controller.library
    old = lib.papers()[0]
    changed = dataclasses.replace(old, pdf="https://example.org/paper.pdf")  # (it had none)
    new = [Paper(f"new-{k}", f"A new paper {k}", ("A. Author",), "An abstract.") for k in (1, 2)]
    path = tmp_path / "more.json"
    path.write_text(jsonfile.export([(p, Annotation(p.id)) for p in (changed, *new)]), "utf-8")
    reports = []
    sync_app.window.transfers.import_finished.connect(reports.append)
    sync_app.window.transfers.import_files([path])
    assert reports and reports[0].added == 2 and reports[0].updated == 1
    assert len(lib) == 21 and lib.paper(old.id).pdf == "https://example.org/paper.pdf"
    stack = sync_app.controller.undo_stack
    assert stack.undoText().startswith("Import of")
    stack.undo()
    assert len(lib) == 19 and "new-1" not in sync_app.window.sidebar.model.ids()
    assert lib.paper(old.id) == old  # the earlier version back
    stack.redo()
    assert len(lib) == 21 and lib.paper(old.id).pdf == "https://example.org/paper.pdf"
    for box in QApplication.topLevelWidgets():
        if isinstance(box, QMessageBox):
            box.close()


def test_an_imports_papers_are_worded_for_search_on_its_worker(
    qtbot, make_app, monkeypatch, tmp_path
):
    # the window's search then takes them in without wording them on the GUI thread
    import json
    import threading

    from reader.store import catalogue_db
    from reader.store.catalogue_words import IndexWords

    monkeypatch.setattr(catalogue_db, "SMALL_LIBRARY_BYTES", 0)  # (its index a file)
    app = make_app()
    sidebar = app.window.sidebar
    qtbot.waitUntil(lambda: sidebar.index_made and sidebar.index.prepared, timeout=30_000)
    worded_on: list[str] = []
    real = IndexWords._word

    def word(self, wait, rowids=()):
        done = real(self, wait, rowids)
        if done:
            worded_on.append(threading.current_thread().name)
        return done

    monkeypatch.setattr(IndexWords, "_word", word)
    source = tmp_path / "three.json"
    papers = [{"id": f"q{i}", "title": f"Quokka census {i}"} for i in range(3)]
    source.write_text(json.dumps(papers), encoding="utf-8")
    reports = []
    app.window.transfers.import_finished.connect(reports.append)
    app.window.transfers.import_files([source])
    qtbot.waitUntil(lambda: bool(reports), timeout=30_000)
    qtbot.keyClicks(sidebar.search, "quokka")
    qtbot.waitUntil(lambda: sidebar.model.rowCount() == 3, timeout=10_000)
    assert worded_on and threading.main_thread().name not in worded_on
