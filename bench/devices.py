"""What must not grow with the library: one save at 19 vs 100k papers and at 10 vs
10,000 annotations (ratios, budget <= 1.5), and opening with other devices' records:
1 device x 10,000 annotations vs 3 devices x 10,000 each (the ms added, budget < 100;
and again with every record merged, as the first open after a sync does).
Measured side by side in one run; not a timed test."""

# Progress goes to stderr; the LAST line of stdout is one JSON object:
#   python bench/devices.py            (100k papers, 10,000 annotations: a few minutes)
#   python bench/devices.py --quick    (10k papers, 5,000 annotations: under a minute)
# Each size can be set (--papers, --annotations, --few, --samples, --opens, --devices).
# Saves are timed in this process, interleaved (disk noise and the journal left by the
# previous save hit every library alike); each open in a fresh process, as a launch.

from __future__ import annotations

import argparse
import gc
import json
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
sys.path[:0] = [str(REPO), str(REPO / "bench")]

from generate import make_annotations, make_papers

from reader.core import collector
from reader.core.library import Library
from reader.core.models import Annotation, Paper, Status
from reader.store.files import LibraryFolder
from reader.store.migrations import migrate

#: the device that saves and opens; the others' folders are made beside its own
ME = "me"
SAVE_BUDGET_RATIO = 1.5
OPEN_BUDGET_MS = 100.0
#: the first saves warm caches: not counted
WARM_SAVES = 10


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def annotations_for(papers: list[Paper], count: int, seed: int) -> dict[str, Annotation]:
    """`count` annotations of `papers` as generate.py makes them (statuses, tags, notes,
    highlights); if it makes fewer, more papers get a status and a tag."""
    made = make_annotations(papers, seed)
    out = dict(list(made.items())[:count])
    for p in papers:
        if len(out) >= count:
            break
        if p.id not in out:
            out[p.id] = Annotation(
                p.id,
                Status.READ if len(out) % 2 else Status.READING,
                ("filler",),
                created="2025-01-02T00:00:00+00:00",
                modified="2025-01-02T00:00:00+00:00",
            )
    if len(out) < count:
        raise SystemExit(f"{count} annotations asked of {len(papers)} papers")
    return out


def write_device(folder: Path, device: str, annotations: dict[str, Annotation]) -> None:
    """`annotations` written as `device` does (plain field values, as generate.py
    writes them), its journal then folded into its annotations.json."""
    store = LibraryFolder(folder, device=device)
    try:
        store.write_annotations({pid: ann.to_dict() for pid, ann in annotations.items()})
        store.fold_journal()
    finally:
        store.close()


def build(folder: Path, papers: list[Paper], annotations: dict[str, Annotation]) -> float:
    """A library of `papers` with `annotations` of device ME; seconds it took."""
    start = time.perf_counter()
    store = LibraryFolder(folder, device=ME)
    try:
        store.add_papers(papers)
        migrate(store)
    finally:
        store.close()
    write_device(folder, ME, annotations)
    return time.perf_counter() - start


def figures(wall: list[float], cpu: list[float]) -> dict[str, object]:
    return {
        "median_ms": round(statistics.median(wall), 3),
        "p90_ms": round(statistics.quantiles(wall, n=10)[-1], 3),
        "cpu_median_ms": round(statistics.median(cpu), 3),
        "samples": len(wall),
    }


def ratio(a: float, b: float) -> float:
    return round(a / b, 2) if b > 0 else float("inf")


# -- save cost ----------------------------------------------------------------------


def save_costs(folders: dict[str, Path], samples: int) -> dict[str, dict[str, Any]]:
    """Median time of one Library.add_tags save on each library, interleaved."""
    libs = {name: Library(LibraryFolder(folder, device=ME)) for name, folder in folders.items()}
    gc.collect()
    gc.freeze()  # as the window does: the loaded libraries out of the collector's scans
    # ids picked once: building a 100k list between saves would evict the CPU caches
    # and bill the big library for the benchmark's own work
    ids = {name: lib.paper_ids()[:19] for name, lib in libs.items()}
    names = list(libs)
    wall: dict[str, list[float]] = {n: [] for n in names}
    cpu: dict[str, list[float]] = {n: [] for n in names}
    for i in range(samples + WARM_SAVES):
        for name in names if i % 2 else names[::-1]:  # the order swapped every round
            lib, pid = libs[name], ids[name][i % len(ids[name])]
            start, start_cpu = time.perf_counter(), time.process_time()
            lib.add_tags([pid], [f"bench-{i}"])
            if i >= WARM_SAVES:
                wall[name].append((time.perf_counter() - start) * 1000)
                cpu[name].append((time.process_time() - start_cpu) * 1000)
    for lib in libs.values():
        close = getattr(lib._store, "close", None)  # (the Library keeps its store private)
        if close is not None:
            close()
    gc.unfreeze()
    return {name: figures(wall[name], cpu[name]) for name in names}


# -- open cost ----------------------------------------------------------------------


def child_open(folder: Path, *, kept: bool = True) -> dict[str, object]:
    """One open, timed in this (fresh) process: Library(LibraryFolder(folder, device=ME)),
    the collector paused and what was loaded frozen as reader.opening.open_library has
    it. Not `kept`: the merge kept at the last close is not looked at (every record
    merged, as after a sync)."""
    if not kept:
        from reader.store import view_cache

        view_cache.SMALL_BYTES = 1 << 62
    from reader.opening import FREEZE_MIN_PAPERS

    start, start_cpu = time.perf_counter(), time.process_time()
    with collector.paused():
        store = LibraryFolder(folder, device=ME)
        made = time.perf_counter()
        lib = Library(store)
        if len(lib) >= FREEZE_MIN_PAPERS:
            # as reader.opening.open_library does: what was loaded out of the
            # collector's scans (else its first pass, as the block ends, scans it all)
            gc.freeze()
    end, end_cpu = time.perf_counter(), time.process_time()
    return {
        "ms": (end - start) * 1000,
        "cpu_ms": (end_cpu - start_cpu) * 1000,
        "folder_ms": (made - start) * 1000,
        "papers": len(lib),
        "annotations": len(lib.annotations()),
    }


def open_once(folder: Path, kept: bool) -> dict[str, Any]:
    flag = "--child-open" if kept else "--child-open-merging"
    done = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), flag, str(folder)],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if done.returncode != 0:
        raise SystemExit(f"open of {folder} failed:\n{done.stderr[-3000:]}")
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def open_costs(folders: dict[str, Path], opens: int, kept: bool) -> dict[str, dict[str, Any]]:
    """Each folder opened `opens` times in fresh processes, interleaved; the first
    round (which makes the catalogue's index, keeps the merge and warms the page
    cache) not counted."""
    names = list(folders)
    runs: dict[str, list[dict[str, Any]]] = {n: [] for n in names}
    for i in range(opens + 1):
        for name in names if i % 2 else names[::-1]:
            one = open_once(folders[name], kept)
            if i:
                runs[name].append(one)
        log(f"  open round {i + 1}/{opens + 1}")
    out = {}
    for name in names:
        ms = [r["ms"] for r in runs[name]]
        out[name] = {
            "median_ms": round(statistics.median(ms), 1),
            "min_ms": round(min(ms), 1),
            "max_ms": round(max(ms), 1),
            "cpu_median_ms": round(statistics.median(r["cpu_ms"] for r in runs[name]), 1),
            "folder_median_ms": round(statistics.median(r["folder_ms"] for r in runs[name]), 1),
            "papers": runs[name][0]["papers"],
            "annotations_shown": runs[name][0]["annotations"],
            "opens": len(ms),
        }
    return out


# -- the run ------------------------------------------------------------------------


def run(args: argparse.Namespace, workdir: Path) -> dict[str, object]:
    n, many, few = args.papers, args.annotations, args.few
    log(f"generating {n} papers (and 19)")
    big = make_papers(n, seed=args.seed)
    small = make_papers(19, seed=args.seed)
    folders = {
        "small": workdir / "small",  # 19 papers, `few` annotations
        "big": workdir / "big",  # n papers, `few` annotations
        "big_annotated": workdir / "big-annotated",  # n papers, `many` annotations
    }
    built = {
        "small": build(folders["small"], small, annotations_for(small, few, args.seed)),
        "big": build(folders["big"], big, annotations_for(big, few, args.seed)),
    }
    mine = annotations_for(big, many, args.seed)
    built["big_annotated"] = build(folders["big_annotated"], big, mine)
    log(f"  built in {', '.join(f'{k} {v:.1f} s' for k, v in built.items())}")

    # the open test's libraries: the big annotated one as it is, and a copy with
    # the other devices' folders beside ME's (before the saves add to its journal)
    one, several = workdir / "open-1-device", workdir / f"open-{args.devices}-devices"
    shutil.copytree(folders["big_annotated"], one)
    shutil.copytree(folders["big_annotated"], several)
    union = dict(mine)
    for k in range(1, args.devices):
        theirs = annotations_for(big, many, args.seed + 10 * k)  # other papers, some the same
        write_device(several, f"other{k}", theirs)
        union.update(theirs)
    # and what the devices wrote, all of it written by one: the cost of the devices alone
    same = workdir / "open-1-device-same-annotations"
    build(same, big, union)

    log(f"save: {args.samples} add_tags saves on each library")
    saves = save_costs(folders, args.samples)
    small_ms = saves["small"]["median_ms"]
    big_ms = saves["big"]["median_ms"]
    annotated_ms = saves["big_annotated"]["median_ms"]
    papers_ratio = ratio(big_ms, small_ms)
    annotations_ratio = ratio(annotated_ms, big_ms)
    save = {
        f"19_papers_{few}_annotations": saves["small"],
        f"{n}_papers_{few}_annotations": saves["big"],
        f"{n}_papers_{many}_annotations": saves["big_annotated"],
        f"ratio_papers_{n}_vs_19": papers_ratio,
        f"ratio_annotations_{many}_vs_{few}": annotations_ratio,
        "ratio_cpu_papers": ratio(saves["big"]["cpu_median_ms"], saves["small"]["cpu_median_ms"]),
        "ratio_cpu_annotations": ratio(
            saves["big_annotated"]["cpu_median_ms"], saves["big"]["cpu_median_ms"]
        ),
        "budget_ratio": SAVE_BUDGET_RATIO,
        "within_budget": papers_ratio <= SAVE_BUDGET_RATIO
        and annotations_ratio <= SAVE_BUDGET_RATIO,
    }

    log(f"open: 1 device vs {args.devices} devices x {many} annotations, {args.opens} opens each")
    opens = open_costs({"1": one, str(args.devices): several, "same": same}, args.opens, True)
    added = round(opens[str(args.devices)]["median_ms"] - opens["1"]["median_ms"], 1)
    log("open again, every record merged (the merge kept at the last close not looked at)")
    merging = open_costs({"1": one, str(args.devices): several}, args.opens, False)
    opened = {
        f"1_device_x_{many}": opens["1"],
        f"{args.devices}_devices_x_{many}": opens[str(args.devices)],
        "1_device_with_the_same_annotations": opens["same"],
        "added_ms": added,
        # the devices' own cost: the same annotations on one device against on several
        "added_ms_vs_same_annotations": round(
            opens[str(args.devices)]["median_ms"] - opens["same"]["median_ms"], 1
        ),
        "added_cpu_ms": round(
            opens[str(args.devices)]["cpu_median_ms"] - opens["1"]["cpu_median_ms"], 1
        ),
        "budget_ms": OPEN_BUDGET_MS,
        "within_budget": added < OPEN_BUDGET_MS,
        # as the first open after another device's files arrived: every record merged
        "merging": {
            f"1_device_x_{many}": merging["1"],
            f"{args.devices}_devices_x_{many}": merging[str(args.devices)],
            "added_ms": round(
                merging[str(args.devices)]["median_ms"] - merging["1"]["median_ms"], 1
            ),
        },
    }
    return {"papers": n, "save": save, "open": opened}


def main() -> int:
    if sys.argv[1:2] in (["--child-open"], ["--child-open-merging"]):
        kept = sys.argv[1] == "--child-open"
        print(json.dumps(child_open(Path(sys.argv[2]), kept=kept)))
        return 0
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="smaller sizes: under a minute")
    parser.add_argument("--papers", type=int, help="the big library (100000; quick: 10000)")
    parser.add_argument(
        "--annotations", type=int, help="the annotated library's, and each device's (10000; 5000)"
    )
    parser.add_argument("--few", type=int, default=10, help="annotations of the other two")
    parser.add_argument("--samples", type=int, help="saves timed per library (200; quick: 60)")
    parser.add_argument("--opens", type=int, help="opens timed per library (7; quick: 3)")
    parser.add_argument("--devices", type=int, default=3, help="devices of the second open")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", type=Path, help="work folder (default: a temporary one)")
    args = parser.parse_args()
    quick = args.quick
    args.papers = args.papers or (10_000 if quick else 100_000)
    args.annotations = args.annotations or (5_000 if quick else 10_000)
    args.samples = args.samples or (60 if quick else 200)
    args.opens = args.opens or (3 if quick else 7)
    if args.annotations > args.papers or args.few > 19 or args.devices < 2:
        parser.error("--annotations <= --papers, --few <= 19, --devices >= 2")
    workdir = Path(tempfile.mkdtemp(prefix="devices-", dir=args.dir))
    # the catalogue's and the search's indexes go to a throwaway folder, never ~/.cache
    os.environ["READER_CACHE_DIR"] = str(workdir / "cache")
    start = time.perf_counter()
    try:
        result = run(args, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    result["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
