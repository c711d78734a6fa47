"""Child process for the SIGTERM test: the real app, with text typed into a note
and a debounce so long that only the quit path can save it."""

import sys
from pathlib import Path

from PySide6.QtCore import QTimer
from PySide6.QtTest import QTest

from reader.ui import app as app_module
from reader.ui import note_editor

note_editor.SAVE_DEBOUNCE_MS = 600_000


def main() -> int:
    folder = Path(sys.argv[1])
    qapp = app_module.make_qapplication(sys.argv[:1])
    app = app_module.build(folder)
    qapp.aboutToQuit.connect(app.controller.flush)
    app_module.install_quit_signals(qapp)
    app.window.show()

    def type_note() -> None:
        editor = app.window.pane.note_editor.editor
        editor.setFocus()
        QTest.keyClicks(editor, sys.argv[2])
        print(app.window.pane.paper_id, flush=True)  # typed: the test may kill now

    QTimer.singleShot(200, type_note)
    return qapp.exec()


if __name__ == "__main__":
    sys.exit(main())
