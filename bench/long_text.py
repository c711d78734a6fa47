"""Long unbroken text in the window: the longest frame while a paper with a huge
one-word title, abstract or note is imported, shown, hovered, scrolled, searched,
typed into and pasted into.

Not a timed test. Progress goes to stderr; the last line of stdout is one JSON object:
    python bench/long_text.py [--sizes 10000000] [--fields title,abstract,note]
                              [--baseline-sizes 200000] [--baseline REV] [--timeout 180]

Each (field, size) runs in a fresh process: the window built as the tests build it
(reader.ui.app.build on a fresh seeded library, offscreen), the paper added by
importing a generated file of our own JSON format. A 10 ms QTimer ticks on the GUI
thread throughout; each phase reports the longest gap between two ticks (the longest
frame the window could not draw) and how long the phase took:

    after_import      the 3 s after the import returns (the list, facets, index take it in)
    show              the paper selected: the list row and the reader pane show it
    hover             the mouse over its list row (its tooltip), then over the pane
    scroll            the list, the reader pane and the note scrolled to the end and back
    search            three letters of the long word typed in the search box, then cleared
    type              5 characters typed at the end of the note (QTest.keyClicks, 50 ms apart)
    paste             a one-word text of the same size pasted at the end of the note
    paste_to_limit    (when that paste is over a note's limit, so refused) a one-word
                      paste that takes the note to the limit: kept whole, shown in part
    type_after_paste  3 characters typed after the paste
    edit_anyway       (a note shown in part) the user's "Edit Anyway", then 3 keys: the
                      window warns that it may pause; not counted in within_budget

A note holds at most reader.core.cleaning.MAX_NOTE_CHARS (1,000,000): a larger one in
an import is refused (reported under "import"), and the note case imports one of
that size instead.

--baseline-sizes runs those sizes again with the code of git revision --baseline
(HEAD by default: the tree without uncommitted changes), exported with `git archive`
to a temporary folder, for a before/after ratio of the worst gaps.

A process still running after --timeout seconds is killed: its unfinished phase is
reported with "timed_out" and the time it had run (a lower bound of its longest gap).
The budget: every gap under 100 ms.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import IO, Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

BUDGET_MS = 100
TICK_MS = 10
PAPER_ID = "long-paper"
#: phases the user asks for, warned that the window may pause: not in the budget
OPT_IN = frozenset({"edit_anyway"})


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


# -- the child: one field and size in a fresh window --------------------------------


class Ticker:
    """A 10 ms timer on the GUI thread; the longest gap between its ticks."""

    def __init__(self) -> None:
        from PySide6.QtCore import Qt, QTimer

        self.timer = QTimer(interval=TICK_MS, timerType=Qt.TimerType.PreciseTimer)
        self.timer.timeout.connect(self._tick)
        self.last = 0.0
        self.longest = 0.0

    def _tick(self) -> None:
        now = time.perf_counter()
        self.longest = max(self.longest, now - self.last)
        self.last = now

    def start(self) -> None:
        self.last, self.longest = time.perf_counter(), 0.0
        self.timer.start()

    def stop(self) -> float:
        self._tick()
        self.timer.stop()
        return self.longest


def spin(seconds: float) -> None:
    """Run the event loop for `seconds` (the work scheduled in it runs meanwhile)."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    QTimer.singleShot(round(seconds * 1000), loop.quit)
    loop.exec()


def phase(name: str, ticker: Ticker, steps: list[tuple[int, Any]], settle_s: float) -> None:
    """Run `steps` (delay in ms from the phase's start, callable) in the event loop,
    then let it settle for `settle_s`; print the phase's longest gap."""
    from PySide6.QtCore import QTimer

    print(json.dumps({"phase": name, "started": True}), flush=True)
    start = time.perf_counter()
    ticker.start()
    for delay, step in steps:
        QTimer.singleShot(delay, step)
    spin((max((d for d, _ in steps), default=0)) / 1000 + settle_s)
    longest = ticker.stop()
    seconds = time.perf_counter() - start
    print(
        json.dumps(
            {"phase": name, "max_gap_ms": round(longest * 1000, 1), "seconds": round(seconds, 2)}
        ),
        flush=True,
    )


def child(field: str, size: int, work: Path) -> None:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QEvent, QPoint, QSettings
    from PySide6.QtGui import QGuiApplication, QHelpEvent, QTextCursor
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication

    from reader.core.cleaning import MAX_NOTE_CHARS
    from reader.core.models import Annotation, Paper
    from reader.formats import jsonfile
    from reader.importing import import_files
    from reader.ui.app import QT_ARGS, build

    qapp = QApplication(["long_text", *QT_ARGS])
    os.environ["READER_CACHE_DIR"] = str(work / "cache")
    settings = QSettings(str(work / "window.ini"), QSettings.Format.IniFormat)
    app = build(work / "library", settings)
    window = app.window
    window.resize(1400, 900)
    window.show()
    window.activateWindow()
    spin(3.0)  # the steps after the first paint, the index while idle
    ticker = Ticker()
    library = app.controller.library
    sidebar, pane = window.sidebar, window.pane
    note_editor = pane.note_editor
    editor = note_editor.editor

    def import_paper(note_size: int) -> dict[str, Any]:
        word = "w" * size
        paper = Paper(
            PAPER_ID,
            word if field == "title" else "A paper with a long " + field,
            ("A. Author",),
            word if field == "abstract" else "An abstract of a few words.",
            venue="ICML 2025",
            year=2025,
        )
        note = "n" * note_size if field == "note" else "A short note."
        path = work / "long.json"
        path.write_text(
            jsonfile.export([(paper, Annotation(PAPER_ID, note=note))]), encoding="utf-8"
        )
        out: dict[str, Any] = {"note_chars": len(note)}
        try:
            start = time.perf_counter()
            out["report"] = import_files(library, [path]).summary()
            out["seconds"] = round(time.perf_counter() - start, 2)
        except Exception as exc:  # noqa: BLE001 - reported: a note over the library's limit
            out["error"] = f"{type(exc).__name__}: {exc}"[:300]
        return out

    imported = import_paper(size)
    if "error" in imported and field == "note" and size > MAX_NOTE_CHARS:
        imported = {"refused": imported, **import_paper(MAX_NOTE_CHARS)}
    if PAPER_ID in library:
        imported["stored"] = {
            "title": len(library.paper(PAPER_ID).title),
            "abstract": len(library.abstract(PAPER_ID)),
            "note": len(library.annotation(PAPER_ID).note),
        }
    print(json.dumps({"import": imported}), flush=True)
    phase("after_import", ticker, [], 3.0)
    if PAPER_ID not in library:
        return

    sidebar.move(0)  # another paper first, so that selecting ours shows it anew
    if sidebar.current_id() == PAPER_ID:
        sidebar.move(1)
    spin(1.0)
    phase("show", ticker, [(0, lambda: sidebar.select_paper(PAPER_ID))], 2.0)

    def hover_row() -> None:
        view = sidebar.view
        centre = view.visualRect(view.currentIndex()).center()
        QTest.mouseMove(view.viewport(), centre)
        tip = QHelpEvent(QEvent.Type.ToolTip, centre, view.viewport().mapToGlobal(centre))
        QApplication.sendEvent(view.viewport(), tip)

    def hover_pane() -> None:
        for widget in (pane.browser.viewport(), editor.viewport(), note_editor.preview.viewport()):
            point = QPoint(40, 30)
            QTest.mouseMove(widget, point)
            tip = QHelpEvent(QEvent.Type.ToolTip, point, widget.mapToGlobal(point))
            QApplication.sendEvent(widget, tip)

    phase("hover", ticker, [(0, hover_row), (300, hover_pane)], 1.0)

    def scroll(to_end: bool) -> None:
        bars = [sidebar.view.verticalScrollBar()]
        bars += [w.verticalScrollBar() for w in (pane.browser, editor, note_editor.preview)]
        bars += [w.horizontalScrollBar() for w in (pane.browser, editor, note_editor.preview)]
        for bar in bars:
            bar.setValue(bar.maximum() if to_end else bar.minimum())

    phase("scroll", ticker, [(0, lambda: scroll(True)), (300, lambda: scroll(False))], 1.0)

    def search(text: str) -> None:
        sidebar.search.setFocus()
        sidebar.search.setText(text)

    keys = [(150 * (i + 1), lambda i=i: search("w" * (i + 1))) for i in range(3)]
    phase("search", ticker, [*keys, (800, lambda: search(""))], 1.5)
    sidebar.select_paper(PAPER_ID)
    spin(0.5)

    def to_end() -> None:
        editor.setFocus()
        editor.moveCursor(QTextCursor.MoveOperation.End)

    keys = [(0, to_end)] + [(50 * (i + 1), lambda: QTest.keyClicks(editor, "x")) for i in range(5)]
    phase("type", ticker, keys, 1.5)

    def paste(text: str) -> None:
        QGuiApplication.clipboard().setText(text)
        to_end()
        editor.paste()

    pasted = "p" * size
    phase("paste", ticker, [(0, lambda: paste(pasted))], 2.0)
    notices = {"paste": note_editor.notice() if hasattr(note_editor, "notice") else ""}
    room = MAX_NOTE_CHARS - len(note_editor.text())
    if 0 < room < size:
        pasted = "q" * room
        phase("paste_to_limit", ticker, [(0, lambda: paste(pasted))], 2.0)
        notices["paste_to_limit"] = note_editor.notice() if hasattr(note_editor, "notice") else ""
    keys = [(50 * (i + 1), lambda: QTest.keyClicks(editor, "y")) for i in range(3)]
    phase("type_after_paste", ticker, [(0, to_end), *keys], 1.5)
    stored = {"note_shown_whole": len(note_editor.text()), "note_stored": 0}
    note_editor.flush()
    stored["note_stored"] = len(library.annotation(PAPER_ID).note)
    print(json.dumps({"notices": notices, "after_paste": stored}), flush=True)
    if getattr(note_editor, "is_long", lambda: False)():
        keys = [(300 + 50 * (i + 1), lambda: QTest.keyClicks(editor, "z")) for i in range(3)]
        steps = [(0, note_editor.edit_anyway), (300, to_end), *keys]
        phase("edit_anyway", ticker, steps, 2.0)
    app.poll.stop()
    window.close()
    qapp.processEvents()


# -- the parent: one child per case, killed after the timeout -------------------------


def run_case(field: str, size: int, timeout: float, code: Path = REPO) -> dict[str, Any]:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    work = tempfile.mkdtemp(prefix="reader-long-text-")
    cmd = [sys.executable, __file__, "--child", field, str(size), work, "--code", str(code)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=env)
    result: dict[str, Any] = {"phases": {}}
    started: tuple[str, float] | None = None
    deadline = time.monotonic() + timeout
    assert proc.stdout is not None
    lines: queue.Queue[str | None] = queue.Queue()

    def read(stream: IO[str]) -> None:
        for line in stream:
            lines.put(line)
        lines.put(None)

    threading.Thread(target=read, args=(proc.stdout,), daemon=True).start()
    while True:
        try:
            line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:  # the deadline: the phase under way has run this long
            proc.kill()
            proc.wait()
            if started is not None:
                result["phases"][started[0]] = {
                    "timed_out": True,
                    "max_gap_ms_at_least": round((time.monotonic() - started[1]) * 1000),
                }
            result["killed_after_s"] = timeout
            break
        if line is None:
            proc.wait()
            break
        if not line.startswith("{"):
            continue
        item = json.loads(line)
        if "phase" in item and item.get("started"):
            started = (item["phase"], time.monotonic())
            log(f"  {field} {size:,}: {item['phase']}…")
        elif "phase" in item:
            result["phases"][item["phase"]] = {k: v for k, v in item.items() if k != "phase"}
            log(f"  {field} {size:,}: {item['phase']} longest gap {item['max_gap_ms']} ms")
            started = None
        else:
            result.update(item)
    result["returncode"] = proc.returncode
    shutil.rmtree(work, ignore_errors=True)
    gaps = [
        p.get("max_gap_ms", p.get("max_gap_ms_at_least", 0))
        for name, p in result["phases"].items()
        if name not in OPT_IN
    ]
    result["worst_gap_ms"] = max(gaps, default=None)
    result["within_budget"] = (
        bool(gaps) and not result.get("killed_after_s") and max(gaps) < BUDGET_MS
    )
    return result


def baseline_code(rev: str, folder: Path) -> Path:
    """The package as it is at git revision `rev`, exported to `folder`."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", rev, "reader", "resources", "data"],
        check=True,
        capture_output=True,
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(folder)], input=archive, check=True)
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000000")
    parser.add_argument("--fields", default="title,abstract,note")
    parser.add_argument("--baseline-sizes", default="200000", help="'' for none")
    parser.add_argument("--baseline", default="HEAD", help="the git revision compared with")
    parser.add_argument("--timeout", type=float, default=180.0, help="seconds a case may take")
    parser.add_argument("--child", nargs=3, help=argparse.SUPPRESS)  # field, size, folder
    parser.add_argument("--code", type=Path, default=REPO, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        sys.path.insert(0, str(args.code))
        child(args.child[0], int(args.child[1]), Path(args.child[2]))
        return
    fields = args.fields.split(",")
    out: dict[str, Any] = {"budget_ms": BUDGET_MS, "cases": {}}
    for size in (int(s) for s in args.sizes.split(",") if s):
        for field in fields:
            log(f"{field} of {size:,} characters")
            out["cases"][f"{field}:{size}"] = run_case(field, size, args.timeout)
    out["all_within_budget"] = all(c["within_budget"] for c in out["cases"].values())
    baseline_sizes = [int(s) for s in args.baseline_sizes.split(",") if s]
    if baseline_sizes:
        compared: dict[str, Any] = {}
        with tempfile.TemporaryDirectory(prefix="reader-long-text-base-") as folder:
            code = baseline_code(args.baseline, Path(folder))
            for size in baseline_sizes:
                for field in fields:
                    log(f"{field} of {size:,} characters: {args.baseline} and now")
                    before = run_case(field, size, args.timeout, code)
                    after = run_case(field, size, args.timeout)
                    worst = before["worst_gap_ms"], after["worst_gap_ms"]
                    compared[f"{field}:{size}"] = {
                        "worst_gap_ms_before": worst[0],
                        "worst_gap_ms_now": worst[1],
                        "before_at_least": bool(before.get("killed_after_s")),
                        "ratio": round(worst[0] / worst[1], 1) if all(worst) else None,
                        "phases_before": before["phases"],
                        "phases_now": after["phases"],
                    }
        out["baseline"] = {"revision": args.baseline, "cases": compared}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
