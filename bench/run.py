"""Speed and size of Paper Reader at N papers, each figure from a fresh process."""

# Not a timed test. Progress goes to stderr; the LAST line of stdout is one JSON object:
#   python bench/run.py --papers 100000 [--workdir DIR --keep]
# Each measurement runs in a child process (this script with --child ...) so that
# start-up, memory and caches are those of a real launch. Times are milliseconds.

from __future__ import annotations

import argparse
import compileall
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
BENCH = Path(__file__).resolve().parent
QUERIES = ["diffusion model", "author:muller", "status:unread theta", "tag:rl transformer"]
SELECTIONS = 30
SAVES = 20


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return round(ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)], 1)


def summary(values: list[float]) -> dict[str, float]:
    return {
        "p50": percentile(values, 50),
        "p95": percentile(values, 95),
        "max": round(max(values), 1),
    }


# -- children -------------------------------------------------------------------------


def _first_paint(qapp: Any, window: Any, watched: Any) -> float:
    """Show `window`, run the event loop until `watched` has painted once; the time then."""
    from PySide6.QtCore import QEvent, QObject

    class Watch(QObject):
        painted = False

        def eventFilter(self, obj: Any, event: Any) -> bool:  # noqa: N802 (Qt override)
            if event.type() == QEvent.Type.Paint:
                self.painted = True
            return False

    watch = Watch()
    watched.installEventFilter(watch)
    window.resize(1200, 800)
    window.show()
    while not watch.painted:
        qapp.processEvents()
    watched.removeEventFilter(watch)
    return time.perf_counter()


def child_bare() -> dict[str, Any]:
    """An empty window with the same widgets as the app's first paint, none of them
    filled: a menu bar with its six menus and a status bar; a splitter of three panes:
    a tree (the facets); a search box, a sort combo box and button, a table of 20
    rows and a label (the sidebar); a text browser (the abstract) over three tool
    buttons, a label and a line edit (status and tags), a label and a plain-text
    editor beside a text browser (the note), in a stack (the reader pane)."""
    from PySide6.QtCore import QStringListModel, Qt
    from PySide6.QtWidgets import (
        QApplication,
        QComboBox,
        QHBoxLayout,
        QLabel,
        QLineEdit,
        QMainWindow,
        QPlainTextEdit,
        QSplitter,
        QStackedWidget,
        QTableView,
        QTextBrowser,
        QToolButton,
        QTreeView,
        QVBoxLayout,
        QWidget,
    )

    qapp = QApplication(sys.argv[:1])
    window = QMainWindow()
    for title in ("File", "Edit", "Paper", "View", "Go", "Help"):
        window.menuBar().addMenu(title)
    window.statusBar()
    splitter = QSplitter(Qt.Orientation.Horizontal, window)
    QTreeView(splitter)
    side = QWidget(splitter)
    layout = QVBoxLayout(side)
    layout.addWidget(QLineEdit(side))
    row = QHBoxLayout()
    row.addWidget(QComboBox(side), 1)
    row.addWidget(QToolButton(side))
    layout.addLayout(row)
    view = QTableView(side)
    view.setModel(QStringListModel(["A paper"] * 20, view))
    layout.addWidget(view)
    layout.addWidget(QLabel(side))
    stack = QStackedWidget(splitter)
    reader = QSplitter(Qt.Orientation.Vertical, stack)
    QTextBrowser(reader)
    lower = QWidget(reader)
    lower_layout = QVBoxLayout(lower)
    row = QHBoxLayout()
    for _ in range(3):
        row.addWidget(QToolButton(lower))
    row.addWidget(QLabel(lower))
    row.addWidget(QLineEdit(lower), 1)
    lower_layout.addLayout(row)
    lower_layout.addWidget(QLabel(lower))
    note = QSplitter(Qt.Orientation.Horizontal, lower)
    QPlainTextEdit(note)
    QTextBrowser(note)
    lower_layout.addWidget(note, 1)
    stack.addWidget(reader)
    window.setCentralWidget(splitter)
    return {"painted": _first_paint(qapp, window, view.viewport())}


def child_bare_minimal() -> dict[str, Any]:
    """The bare window of earlier runs, fewer widgets than the app: splitter, table
    list, browser, line edit (reported beside the other, for comparison)."""
    from PySide6.QtCore import QStringListModel, Qt
    from PySide6.QtWidgets import (
        QApplication,
        QLineEdit,
        QMainWindow,
        QSplitter,
        QTableView,
        QTextBrowser,
        QVBoxLayout,
        QWidget,
    )

    qapp = QApplication(sys.argv[:1])
    window = QMainWindow()
    splitter = QSplitter(Qt.Orientation.Horizontal, window)
    side = QWidget(splitter)
    layout = QVBoxLayout(side)
    layout.addWidget(QLineEdit(side))
    view = QTableView(side)
    view.setModel(QStringListModel(["A paper"] * 20, view))
    layout.addWidget(view)
    splitter.addWidget(side)
    splitter.addWidget(QTextBrowser(splitter))
    window.setCentralWidget(splitter)
    return {"painted": _first_paint(qapp, window, view.viewport())}


def _rss_mb() -> float:
    """The peak resident memory so far."""
    import resource

    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(peak / (1 << 20) if sys.platform == "darwin" else peak / 1024, 1)


def _rss_now_mb() -> float | None:
    """The resident memory now (Linux only)."""
    try:
        pages = int(Path("/proc/self/statm").read_text().split()[1])
    except (OSError, IndexError, ValueError):
        return None
    return round(pages * os.sysconf("SC_PAGE_SIZE") / (1 << 20), 1)


class _Painted:
    """Counts paint events of a widget (an event filter)."""

    def __init__(self, widget: Any) -> None:
        from PySide6.QtCore import QEvent, QObject

        outer = self

        class Filter(QObject):
            def eventFilter(self, obj: Any, event: Any) -> bool:  # noqa: N802 (Qt override)
                if event.type() == QEvent.Type.Paint:
                    outer.count += 1
                return False

        self.count = 0
        self._filter = Filter()
        widget.installEventFilter(self._filter)


#: the longest event-loop turn seen by _until (ms): the longest a key could wait to be handled
longest_turn_ms = 0.0


def _until(qapp: Any, done: Any, limit_s: float = 120.0) -> None:
    global longest_turn_ms
    deadline = time.perf_counter() + limit_s
    while not done():
        start = time.perf_counter()
        qapp.processEvents()
        now = time.perf_counter()
        longest_turn_ms = max(longest_turn_ms, (now - start) * 1000)
        if now > deadline:
            raise RuntimeError("the window never got there")


def _settle(qapp: Any, sidebar: Any, painted: _Painted | None = None) -> None:
    """Run the event loop until the sidebar has refilled its list (and, given
    `painted`, until the list has been painted since)."""
    done: list[bool] = []

    def filtered() -> None:
        done.append(True)
        if painted is not None:
            painted.count = 0

    sidebar.filtered.connect(filtered)
    _until(qapp, lambda: bool(done) and (painted is None or painted.count > 0))
    sidebar.filtered.disconnect(filtered)


def _clear(qapp: Any, sidebar: Any) -> None:
    if sidebar.search.text():
        sidebar.search.clear()
        _settle(qapp, sidebar)


def _keystrokes(qapp: Any, sidebar: Any) -> list[float]:
    """Type each query one key at a time: key press to the list repainted."""
    from PySide6.QtTest import QTest

    times = []
    painted = _Painted(sidebar.view.viewport())
    for query in QUERIES:
        _clear(qapp, sidebar)
        for char in query:
            start = time.perf_counter()
            QTest.keyClick(sidebar.search, char)
            _settle(qapp, sidebar, painted)
            times.append((time.perf_counter() - start) * 1000)
    _clear(qapp, sidebar)
    return times


def _selections(qapp: Any, app: Any) -> list[float]:
    """Select papers spread over the list: to the abstract painted in the reader pane."""
    sidebar, browser = app.window.sidebar, app.window.pane.browser
    rows = sidebar.model.rowCount()
    painted = _Painted(browser.viewport())
    times = []
    app.controller.settle_pane()  # the pane follows the list once typing pauses
    for k in range(SELECTIONS):
        index = sidebar.model.index((k * 7919) % rows)
        if index == sidebar.view.currentIndex():  # selecting it again would paint nothing
            index = sidebar.model.index((k * 7919 + 1) % rows)
        start = time.perf_counter()
        painted.count = 0
        sidebar.view.setCurrentIndex(index)
        _until(qapp, lambda: painted.count > 0)
        times.append((time.perf_counter() - start) * 1000)
    return times


def child_app(folder: Path, interact: bool, warm: bool) -> dict[str, Any]:
    """The real window on `folder`: first paint, memory, then typing and selecting."""
    global longest_turn_ms
    # started as the program starts (reader.cli.main): the collector held, the window's
    # modules imported before PySide6 (see reader/ui/__init__.py)
    from reader.core import collector

    collector.hold()
    from reader.ui import app as ui_app  # (before PySide6 itself: see reader/ui/__init__.py)
    from reader.ui.app import make_qapplication

    from PySide6.QtCore import QSettings  # isort: skip

    build = ui_app.build

    qapp = make_qapplication(sys.argv[:1])
    settings = QSettings(str(Path(tempfile.mkdtemp()) / "window.ini"), QSettings.Format.IniFormat)
    app = build(folder, settings)
    out: dict[str, Any] = {
        "painted": _first_paint(qapp, app.window, app.window.sidebar.view.viewport())
    }
    out["rss_mb"], out["rss_now_mb"] = _rss_mb(), _rss_now_mb()
    if not interact:
        return out
    if warm:  # what idle time does after the first paint
        start = time.perf_counter()
        # an index made anew: the papers taken in after the first paint come in steps
        _until(qapp, lambda: app.catch_up is None or app.catch_up.done, limit_s=600)
        out["caught_up_ms"] = round((time.perf_counter() - start) * 1000)
        out["longest_turn_catching_up_ms"] = round(longest_turn_ms, 1)
        index = app.controller.index
        while not index.warm(0.008):
            qapp.processEvents()
        out["index_warm_ms"] = round((time.perf_counter() - start) * 1000)
        out["rss_warm_mb"], out["rss_warm_now_mb"] = _rss_mb(), _rss_now_mb()
    longest_turn_ms = 0.0
    out["keystrokes"] = _keystrokes(qapp, app.window.sidebar)
    out["longest_turn_typing_ms"] = round(longest_turn_ms, 1)
    out["selections"] = _selections(qapp, app)
    out["rss_end_mb"] = _rss_mb()
    return out


def child_save(folder: Path) -> dict[str, Any]:
    """Durable single-note saves: the median of SAVES after five warm-up saves."""
    from reader.core.library import Library
    from reader.store.files import LibraryFolder

    library = Library(LibraryFolder(folder))
    ids = library.paper_ids()
    times = []
    for i in range(SAVES + 5):
        start = time.perf_counter()
        library.set_note(ids[i % len(ids)], f"note {i} {time.time_ns()}: " + "words " * 50)
        if i >= 5:
            times.append((time.perf_counter() - start) * 1000)
    return {"save_ms": round(statistics.median(times), 2)}


def child_import(source: Path, folder: Path) -> dict[str, Any]:
    from reader.core.library import Library
    from reader.importing import import_files
    from reader.store.files import LibraryFolder

    library = Library(LibraryFolder(folder))
    start = time.perf_counter()
    report = import_files(library, [source])
    return {"import_ms": round((time.perf_counter() - start) * 1000), "added": report.added}


# -- the parent -----------------------------------------------------------------------


#: set: a child leaves as soon as it has printed (bench/coldstart.py --instructions)
EXIT_AT_ONCE = "READER_BENCH_EXIT_AT_ONCE"
#: processes of each size for the durable saves
SAVE_RUNS = 3
#: fresh processes of each kind (bare window, the same with fewer widgets, cold start):
#: the machine runs at two speeds by turns (seen here: every phase of a start 1.4x
#: slower in the slow one), so the min and median of enough of them
COLD_RUNS = 9
#: the children's cache folder (the catalogue's and the search's indexes)
CACHE: Path | None = None


def child_env() -> dict[str, str]:
    """The environment of a child: offscreen, our modules importable, the bench's cache."""
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "PYTHONPATH": os.pathsep.join([str(REPO), str(BENCH)]),
    }
    if CACHE is not None:
        env["READER_CACHE_DIR"] = str(CACHE)
    return env


def child_command(*args: str, script: Path = Path(__file__)) -> list[str]:
    """The command line of a child of this bench (see main()'s --child), or of the
    bench in `script`."""
    return [sys.executable, str(script), "--child", *args]


def run_child(*args: str, script: Path = Path(__file__)) -> dict[str, Any]:
    """A child's JSON (its last line of output); its start to its first paint, if it
    says when it painted."""
    env = child_env()
    start = time.perf_counter()
    done = subprocess.run(
        child_command(*args, script=script), env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"child {args} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    if "painted" in result:
        result["start_to_paint_ms"] = round((result.pop("painted") - start) * 1000)
    return result


def paired_ratio(cold: list[int], bare: list[int]) -> float:
    """The median of cold/bare over the runs of one round (bare, bare-minimal, cold):
    the machine changes speed between runs, seldom within a round, so each round's
    ratio cancels most of it."""
    return round(statistics.median(c / b for c, b in zip(cold, bare, strict=True)), 2)


def cold_runs(sample: Path, runs: int) -> dict[str, list[int]]:
    """Start-to-paint ms of `runs` fresh processes of each: the bare window, the older
    bare window with fewer widgets, and the app on `sample`."""
    out: dict[str, list[int]] = {"bare": [], "bare_minimal": [], "cold": []}
    for _ in range(runs):  # interleaved: the machine is shared and noisy
        out["bare"].append(run_child("bare")["start_to_paint_ms"])
        out["bare_minimal"].append(run_child("bare-minimal")["start_to_paint_ms"])
        out["cold"].append(run_child("open", str(sample))["start_to_paint_ms"])
    return out


def compile_ours() -> None:
    """Our modules compiled, as an installed app has them (pip compiles a wheel's
    modules on install). Otherwise every child compiles them again wherever
    PYTHONDONTWRITEBYTECODE is set (it is on our CI machines), while the bare window's
    PySide6 comes compiled: not the same race."""
    compileall.compile_dir(REPO / "reader", quiet=1)


def prepare(workdir: Path, n: int, seed: int) -> dict[str, Path]:
    """The libraries and files the children use (kept between runs with --workdir)."""
    compile_ours()
    sys.path.insert(0, str(BENCH))
    import generate

    from reader.opening import open_library

    paths = {
        "sample": workdir / "sample",
        "big": workdir / f"lib-{n}-{seed}",
        "small": workdir / "lib-19",
        "json": workdir / f"import-{n}-{seed}.json",
    }
    if not (paths["sample"] / "devices").exists():
        open_library(paths["sample"]).folder.close()  # seeds the bundled sample
    for key, size in (("big", n), ("small", 19)):
        if not generate.catalogue_mb(paths[key]):
            log(f"generating {size:,} papers in {paths[key]}")
            generate.write_library(paths[key], size, seed)
    if not paths["json"].exists():
        paths["json"].write_text(
            json.dumps(generate.import_json(generate.make_papers(n, seed))), encoding="utf-8"
        )
    return paths


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--papers", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--workdir", type=Path, help="keep generated libraries here between runs")
    ap.add_argument("--child", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        mode, *rest = args.child
        if mode == "bare":
            result = child_bare()
        elif mode == "bare-minimal":
            result = child_bare_minimal()
        elif mode in ("open", "interact", "interact-cold"):
            result = child_app(Path(rest[0]), mode != "open", mode == "interact")
        elif mode == "save":
            result = child_save(Path(rest[0]))
        else:
            result = child_import(Path(rest[0]), Path(rest[1]))
        print(json.dumps(result), flush=True)
        if os.environ.get(EXIT_AT_ONCE):  # counted to here, not through the interpreter's exit
            os._exit(0)
        return

    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="reader-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    paths = prepare(workdir, args.papers, args.seed)
    global CACHE
    CACHE = workdir / "cache"
    shutil.rmtree(CACHE, ignore_errors=True)  # the first open makes the catalogue's index
    log("bare window, cold start (bundled sample), open")
    runs = cold_runs(paths["sample"], COLD_RUNS)
    bare, bare_minimal, cold = runs["bare"], runs["bare_minimal"], runs["cold"]
    first_open = run_child("open", str(paths["big"]))  # no index yet: made from the files
    opened = [run_child("open", str(paths["big"])) for _ in range(2)]
    log("typing and selecting (index warmed after the first paint), then before it is warm")
    used = run_child("interact", str(paths["big"]))
    cold_typing = run_child("interact-cold", str(paths["big"]))
    log("saves and import")
    # interleaved, three of each, taking turns to go first: a save waits for the disk,
    # which has slow spells
    saves = []
    for i in range(SAVE_RUNS):
        order = ("big", "small") if i % 2 == 0 else ("small", "big")
        ran = {key: run_child("save", str(paths[key]))["save_ms"] for key in order}
        saves.append((ran["big"], ran["small"]))
    save = statistics.median(big for big, _ in saves)
    save_small = statistics.median(small for _, small in saves)
    target = workdir / "import-target"
    shutil.rmtree(target, ignore_errors=True)
    imported = run_child("import", str(paths["json"]), str(target))
    shutil.rmtree(target, ignore_errors=True)

    sys.path.insert(0, str(BENCH))
    import generate

    json_mb = generate.catalogue_mb(paths["big"])
    open_ms = min(o["start_to_paint_ms"] for o in opened)
    rss_mb = max(o["rss_mb"] for o in [first_open, *opened])
    result = {
        "papers": args.papers,
        "bare_window_ms": min(bare),
        "cold_start_ms": min(cold),
        "open_ms": open_ms,
        "open_ms_first": first_open["start_to_paint_ms"],
        "rss_mb": rss_mb,
        "keystroke_ms": summary(used["keystrokes"]),
        "select_ms": summary(used["selections"]),
        "save_ms": save,
        "save_ms_small": save_small,
        "import_ms": imported["import_ms"],
        # side by side with the budgets (DESIGN.md, Speed and size)
        "cold_vs_bare": round(min(cold) / min(bare), 2),
        "cold_vs_bare_median": round(statistics.median(cold) / statistics.median(bare), 2),
        "cold_vs_bare_paired": paired_ratio(cold, bare),
        "bare_minimal_ms": min(bare_minimal),
        "cold_vs_bare_minimal": round(min(cold) / min(bare_minimal), 2),
        "save_vs_small": round(
            statistics.median(big / small for big, small in saves), 2
        ),  # (paired)
        "catalogue_mb": round(json_mb, 1),
        "rss_vs_catalogue": round(rss_mb / json_mb, 2),
        "index_warm_ms": used.get("index_warm_ms"),
        "rss_now_mb": min(o["rss_now_mb"] or 0 for o in opened),
        "rss_warm_mb": used.get("rss_warm_mb"),
        "rss_warm_now_mb": used.get("rss_warm_now_mb"),
        "rss_end_mb": used.get("rss_end_mb"),
        "keystroke_ms_before_warm": summary(cold_typing["keystrokes"]),
        # keys typed from the first paint on are echoed while the search gets ready: the
        # longest the window did not answer (one event-loop turn) while typing
        "longest_pause_typing_before_warm_ms": cold_typing["longest_turn_typing_ms"],
        "longest_pause_typing_ms": used["longest_turn_typing_ms"],
        "load_average": round(os.getloadavg()[0], 2),
    }
    if not args.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
