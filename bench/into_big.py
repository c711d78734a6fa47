"""A few papers imported into a big library through the window (File → Import's path:
read, matched and written on the worker thread, taken in on the GUI thread): how much
of the GUI thread's time they cost, in all and in its longest event-loop turn.

Not a timed test. Progress goes to stderr; the LAST line of stdout is one JSON object:

    python bench/into_big.py --library FOLDER --cache DIR [--papers 200]

The import goes into a copy (the library's files linked, never rewritten in place;
its index copied), made in --workdir and deleted after. Times are ms: `gui_cpu_ms` is
the GUI thread's CPU time from the import's start until the search is ready again
(time.thread_time: the worker's share of the interpreter not counted), `longest_turn_ms`
the longest the window did not answer meanwhile.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import generate  # noqa: E402  (bench/generate.py)
import run  # noqa: E402  (bench/run.py)


def child(folder: Path, source: Path) -> dict[str, Any]:
    from reader.ui.app import build, make_qapplication

    from PySide6.QtCore import QEventLoop, QSettings  # isort: skip

    qapp = make_qapplication(sys.argv[:1])
    settings = QSettings(str(folder.parent / "window.ini"), QSettings.Format.IniFormat)
    app = build(folder, settings)
    run._first_paint(qapp, app.window, app.window.sidebar.view.viewport())
    run._until(qapp, lambda: app.catch_up is None or app.catch_up.done, limit_s=900)
    index = app.controller.index
    # the window settled first: its search ready and its facets counted (what it does
    # in the first seconds after it opens), so that what is measured is the import's
    while not (index.warm(0.008) and index.prepare_tallies()):
        qapp.processEvents()
    rows_before = app.window.sidebar.model.rowCount()
    finished: list[object] = []
    transfers = app.window.transfers
    transfers.import_finished.connect(finished.append)
    transfers.import_failed.connect(finished.append)
    wait = QEventLoop.ProcessEventsFlag.WaitForMoreEvents
    start, cpu, longest = time.perf_counter(), time.thread_time(), 0.0
    transfers.import_files([source], "json")
    while not (finished and index.prepared):
        turn = time.thread_time()
        qapp.processEvents(wait)  # (waits for an event: its timers' at least)
        longest = max(longest, time.thread_time() - turn)
    return {
        "papers_before": rows_before,
        "added": app.window.sidebar.model.rowCount() - rows_before,
        "gui_cpu_ms": round((time.thread_time() - cpu) * 1000, 1),
        "longest_turn_ms": round(longest * 1000, 1),
        "wall_ms": round((time.perf_counter() - start) * 1000),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--library", type=Path, required=True)
    ap.add_argument("--cache", type=Path, required=True, help="its index's cache folder")
    ap.add_argument("--papers", type=int, default=200)
    ap.add_argument("--workdir", type=Path, default=None)
    ap.add_argument("--child", nargs=2, type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        print(json.dumps(child(*args.child)))
        return
    work = Path(tempfile.mkdtemp(dir=args.workdir, prefix="into-big-"))
    try:
        run.log("copying the library (linked) and its index")
        library = work / "library"
        subprocess.run(["cp", "-al", str(args.library), str(library)], check=True)
        shutil.copytree(args.cache, work / "cache")
        # the copy is another library to the index's name: its index moved to match
        os.environ["READER_CACHE_DIR"] = str(work / "cache")
        from reader.store.cachefile import library_name

        old, new = library_name(args.library), library_name(library)
        for kept in (work / "cache").rglob(f"{old}*"):
            kept.rename(kept.with_name(kept.name.replace(old, new)))
        seed = int(time.time())
        made = generate.make_papers(args.papers, seed=seed)
        # (ids of this run's own: a library a run imported into takes them as new too)
        papers = [dataclasses.replace(p, id=f"new{seed}-{p.id}") for p in made]
        source = work / "new.json"
        source.write_text(json.dumps(generate.import_json(papers)), encoding="utf-8")
        run.log(f"importing {args.papers} papers into {library}")
        done = subprocess.run(
            [sys.executable, __file__, "--library", str(args.library), "--cache",
             str(args.cache), "--child", str(library), str(source)],
            capture_output=True, text=True, env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        )  # fmt: skip
        if done.returncode:
            raise SystemExit(done.stderr[-3000:])
        print(done.stdout.strip().splitlines()[-1])
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
