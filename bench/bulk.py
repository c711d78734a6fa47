"""Bulk edits on the whole library, by keyboard in the real window: Ctrl+A in the
list, then 3 (mark read), Ctrl+Z, Alt+1 (a coloured tag), Ctrl+Z.

Not a timed test. Prints one JSON object on its last line, each key press to the
list repainted, in ms (the median of --runs fresh windows):
    python bench/bulk.py [--papers 100000] [--runs 3] [--workdir DIR]
Each window works on a fresh copy of the generated library, which stays as it was.
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run  # noqa: E402  (bench/run.py)
from run import _Painted, _until, prepare, run_child  # noqa: E402

#: the coloured tag Alt+1 toggles
TAG = "bench/bulk"
STEPS = ("mark_read", "undo_mark", "tag", "undo_tag")


def child(folder: Path) -> dict[str, Any]:
    from reader.core.models import Status
    from reader.ui.app import build, make_qapplication

    from PySide6.QtCore import QSettings, Qt  # isort: skip
    from PySide6.QtTest import QTest  # isort: skip

    qapp = make_qapplication(sys.argv[:1])
    settings = QSettings(str(folder.parent / "window.ini"), QSettings.Format.IniFormat)
    app = build(folder, settings)
    app.window.resize(1200, 800)
    app.window.show()
    view = app.window.sidebar.view
    painted = _Painted(view.viewport())
    _until(qapp, lambda: painted.count > 0)
    # a window in use for a while: the search ready and what idle time makes made
    _until(qapp, lambda: app.controller.index.warm(0.008))
    app.controller.library.set_tag_colours({TAG: "#4e79a7"})
    view.setFocus()
    QTest.keyClick(view, Qt.Key.Key_A, Qt.KeyboardModifier.ControlModifier)
    selected = len(app.controller.target_ids())
    keys = (
        ("3", Qt.KeyboardModifier.NoModifier),
        (Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier),
        (Qt.Key.Key_1, Qt.KeyboardModifier.AltModifier),
        (Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier),
    )
    out: dict[str, Any] = {"selected": selected}
    library = app.controller.library
    for name, (key, modifiers) in zip(STEPS, keys, strict=True):
        for _ in range(20):  # what the last step left for idle time
            qapp.processEvents()
        painted.count = 0
        start = time.perf_counter()
        QTest.keyClick(view, key, modifiers)
        _until(qapp, lambda: painted.count > 0)
        out[name] = round((time.perf_counter() - start) * 1000)
        # that the step did what it says: papers read and papers tagged after it
        out[f"{name}_left"] = [library.count_status(Status.READ), len(library.papers_with_tag(TAG))]
    return out


def run_on_copy(source: Path) -> dict[str, Any]:
    """A child window on a fresh copy of the library in `source`."""
    with tempfile.TemporaryDirectory(prefix="reader-bulk-") as tmp:
        folder = Path(tmp) / "lib"
        shutil.copytree(source, folder)
        return run_child(str(folder), script=Path(__file__))


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--papers", type=int, default=100_000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--workdir", type=Path, help="keep generated libraries here between runs")
    ap.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.child:
        print(json.dumps(child(args.child)), flush=True)
        return
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="reader-bench-"))
    workdir.mkdir(parents=True, exist_ok=True)
    big = prepare(workdir, args.papers, args.seed)["big"]
    run.CACHE = workdir / "cache"  # the children's indexes: not the user's
    runs = [run_on_copy(big) for _ in range(args.runs)]
    result: dict[str, Any] = {"papers": args.papers, "selected": runs[0]["selected"]}
    for name in STEPS:
        result[f"{name}_ms"] = statistics.median(r[name] for r in runs)
    result["all_ms"] = {name: [r[name] for r in runs] for name in STEPS}
    result["read_and_tagged_after"] = {name: runs[0][f"{name}_left"] for name in STEPS}
    if not args.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
