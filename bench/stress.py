"""Storage stress: SIGKILLed savers, two writers, durable save time at 19 and 100k papers."""

# Not a timed test. Progress goes to stderr; the last line of stdout is one JSON object:
#   python bench/stress.py --kills 1000

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "tests" / "helpers")]

from store_harness import KillHarness, make_library, run_two_writers, synthetic_papers

from reader.core.library import Library
from reader.store import journal
from reader.store.files import LibraryFolder


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def kills(n: int, workdir: Path, seed: int) -> dict[str, object]:
    workdir.mkdir()
    harness = KillHarness(workdir, seed=seed)
    start = time.perf_counter()
    try:
        for i in range(n):
            harness.kill_once(max_delay_s=0.08)
            if (i + 1) % 100 == 0:
                log(
                    f"  {i + 1} kills, {harness.report.acknowledged} acknowledged, "
                    f"{harness.report.lost} lost, "
                    f"{harness.report.torn_injected} torn journal lines left "
                    f"before a saver, {harness.report.folded_not_emptied} kills between a fold and "
                    "emptying the journal"
                )
    finally:
        harness.close()
    return {**harness.report.as_dict(), "seconds": round(time.perf_counter() - start, 1)}


def two_writers(runs: int, updates: int, workdir: Path) -> dict[str, object]:
    total, lost, problems = 0, 0, []
    for run in range(runs):
        # every other run folds the journal often, between the other writer's appends
        fold_bytes = 2048 if run % 2 else journal.FOLD_BYTES
        result = run_two_writers(workdir / f"run{run}", updates, fold_bytes=fold_bytes)
        total += int(result["updates"])
        lost += int(result["lost"])
        problems += result["problems"]
        log(
            f"  run {run + 1} (journal folded past {fold_bytes} bytes): "
            f"{result['updates']} updates, {result['lost']} lost"
        )
    return {"runs": runs, "updates": total, "lost": lost, "problems": problems[:10]}


def build(folder: Path, n_papers: int) -> tuple[Library, dict[str, float]]:
    start = time.perf_counter()
    make_library(folder, synthetic_papers(n_papers, abstract_chars=1000))
    built = time.perf_counter()
    lib = Library(LibraryFolder(folder))
    loaded = time.perf_counter()
    return lib, {
        "generate_s": round(built - start, 2),
        "open_s": round(loaded - built, 2),
        "papers_json_mb": round((folder / "papers.json").stat().st_size / 1e6, 1),
    }


def save_times(sizes: list[int], samples: int, workdir: Path) -> dict[str, object]:
    libs = {}
    for n in sizes:
        libs[n], info = build(workdir / f"save-{n}", n)
        log(f"  {n} papers: {info}")
    # ids picked once: building a 100k list between saves would evict the CPU caches
    # and bill the big library for the benchmark's own work
    ids = {n: lib.paper_ids()[:19] for n, lib in libs.items()}
    wall: dict[int, list[float]] = {n: [] for n in sizes}
    cpu: dict[int, list[float]] = {n: [] for n in sizes}
    for i in range(samples + 10):
        # interleaved, order swapped every round: disk noise and the journal commit
        # left by the previous save hit both sizes alike
        for n in sizes if i % 2 else sizes[::-1]:
            lib = libs[n]
            pid = ids[n][i % 19]
            start, start_cpu = time.perf_counter(), time.process_time()
            lib.set_note(pid, f"note {i}: " + "words " * 50)
            if i >= 10:  # the first saves warm caches
                wall[n].append((time.perf_counter() - start) * 1000)
                cpu[n].append((time.process_time() - start_cpu) * 1000)
    out: dict[str, object] = {
        str(n): {
            "median_ms": round(statistics.median(wall[n]), 2),
            "p90_ms": round(statistics.quantiles(wall[n], n=10)[-1], 2),
            "cpu_median_ms": round(statistics.median(cpu[n]), 2),
            "samples": len(wall[n]),
        }
        for n in sizes
    }
    small, big = sizes[0], sizes[-1]
    out["ratio_median"] = round(statistics.median(wall[big]) / statistics.median(wall[small]), 2)
    out["ratio_cpu_median"] = round(statistics.median(cpu[big]) / statistics.median(cpu[small]), 2)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--kills", type=int, default=1000)
    parser.add_argument("--two-writer-runs", type=int, default=5)
    parser.add_argument("--updates", type=int, default=200, help="rounds per writer per run")
    parser.add_argument("--papers", type=int, default=100_000)
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", type=Path, help="work folder (default: a temporary one)")
    args = parser.parse_args()
    workdir = Path(tempfile.mkdtemp(prefix="stress-", dir=args.dir))
    start = time.perf_counter()
    try:
        log(f"kills: {args.kills} in {workdir}")
        result: dict[str, object] = {"kills": kills(args.kills, workdir / "kills", args.seed)}
        log(f"two writers: {args.two_writer_runs} runs of {args.updates} rounds each")
        result["two_writers"] = two_writers(args.two_writer_runs, args.updates, workdir / "two")
        log(f"durable save time at 19 and {args.papers} papers")
        result["save"] = save_times([19, args.papers], args.samples, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    result["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
