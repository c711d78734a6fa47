"""The real window when a library file is damaged or cut short while it is open: it keeps
what it shows, writes it back, keeps the damaged copy aside and says so once."""

from pathlib import Path

from PySide6.QtWidgets import QApplication, QMessageBox

from reader.opening import open_library
from tests.helpers.libraries import own_file

GARBAGE = b"garbage \x00\xff{ not json"
BIG_NOTE = "a 300 KB note written from the command line. " * 6700


def boxes() -> list[QMessageBox]:
    return [
        w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()
    ]


def poll(app, times: int = 4) -> None:
    for _ in range(times):  # what the 1.5 s timer does, several times over
        app.poll.timeout.emit()


def test_garbage_over_annotations_json_while_the_window_is_open(qtbot, app):
    folder: Path = app.opened.folder.folder
    lib = app.controller.library
    pid = app.window.pane.paper_id
    other = lib.paper_ids()[1] if lib.paper_ids()[0] == pid else lib.paper_ids()[0]
    app.opened.backups.take("hourly")
    lib.add_tags([pid], ["mine"])
    cli = open_library(folder).library
    cli.add_tags([pid], ["mine", "cli-1", "cli-2"])
    cli.set_note(other, BIG_NOTE)  # folded into annotations.json
    poll(app, 1)
    qtbot.waitUntil(lambda: app.window.pane.tag_editor.tags() == ["mine", "cli-1", "cli-2"])
    assert boxes() == []

    own_file(folder).write_bytes(GARBAGE)
    poll(app)

    assert app.window.pane.tag_editor.tags() == ["mine", "cli-1", "cli-2"]
    assert lib.annotation(other).note == BIG_NOTE
    [kept] = own_file(folder).parent.glob("annotations.json.damaged-*")
    assert kept.read_bytes() == GARBAGE
    [box] = boxes()  # once, not at every poll
    assert "annotations.json was damaged" in box.text() and str(kept) in box.text()
    assert "annotations.json was damaged" in app.window.statusBar().currentMessage()
    again = open_library(folder)
    assert again.messages == []
    assert again.library.tags(pid) == ("mine", "cli-1", "cli-2")
    assert again.library.annotation(other).note == BIG_NOTE


def test_a_journal_cut_short_while_open_keeps_the_windows_own_edits(qtbot, app):
    folder: Path = app.opened.folder.folder
    lib = app.controller.library
    pid = app.window.pane.paper_id
    lib.add_tags([pid], ["acknowledged"])
    lib.set_note(pid, "typed and saved")
    journal = own_file(folder, "annotations.journal")
    journal.write_bytes(journal.read_bytes()[:20])
    poll(app)

    assert app.window.pane.tag_editor.tags() == ["acknowledged"]
    assert lib.annotation(pid).note == "typed and saved"
    [box] = boxes()
    assert "annotations.journal lost" in box.text()
    again = open_library(folder).library
    assert again.tags(pid) == ("acknowledged",)
    assert again.annotation(pid).note == "typed and saved"
