"""The command line's start in English and in Chinese: `paper-reader list QUERY` against
`paper-reader --version` (the command line's own start), on the bundled sample.

    python bench/cli_lang.py [--runs 9] [--instructions] [--source DIR]

Prints JSON: milliseconds (median and minimum of --runs, the cases taken in turn), or with
--instructions the CPU instructions of one run of each under valgrind's callgrind, which
the machine's load does not change. --source runs another checkout's reader (its folder).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCALE = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def cases(library: Path) -> dict[str, tuple[list[str], dict[str, str]]]:
    listing = ["--data-dir", str(library), "list", "diffusion"]
    return {
        "version": (["--version"], {}),
        "list_en": (listing, {}),
        "list_lang_zh_CN": (["--lang", "zh_CN", *listing], {}),
        "list_LANG_zh_CN": (listing, {"LANG": "zh_CN.UTF-8"}),
    }


def instructions(command: list[str], cwd: Path, env: dict[str, str]) -> int:
    with tempfile.TemporaryDirectory() as out:
        done = subprocess.run(
            ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}/cg", *command],
            cwd=cwd,
            env=env,
            capture_output=True,
            text=True,
        )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if done.returncode != 0 or not found:
        raise SystemExit(f"no instruction count from valgrind:\n{done.stderr[-2000:]}")
    return int(found[1])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--instructions", action="store_true")
    ap.add_argument("--source", type=Path, default=ROOT)
    args = ap.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="reader-cli-lang-"))
    env = {k: v for k, v in os.environ.items() if k not in LOCALE}
    env.update(READER_CACHE_DIR=str(work / "cache"), PYTHONDONTWRITEBYTECODE="")
    library = work / "library"
    python = [sys.executable, "-m", "reader"]
    known = cases(library)
    for name, (command, extra) in list(known.items()):  # seeded, indexed, compiled
        done = subprocess.run([*python, *command], cwd=args.source, env={**env, **extra},
                              capture_output=True)  # fmt: skip
        if done.returncode != 0:  # (a checkout from before --lang)
            del known[name]
    result: dict[str, object] = {
        "source": str(args.source),
        "not_run": sorted(set(cases(library)) - set(known)),
    }
    if args.instructions:
        counts = {
            name: instructions([*python, *command], args.source, {**env, **extra})
            for name, (command, extra) in known.items()
        }
        result["instructions"] = counts
        base = counts["version"]
        result["ratio_to_version"] = {k: round(v / base, 3) for k, v in counts.items()}
    else:
        times: dict[str, list[float]] = {name: [] for name in known}
        for _ in range(args.runs):
            for name, (command, extra) in known.items():
                start = time.perf_counter()
                subprocess.run([*python, *command], cwd=args.source, env={**env, **extra},
                               capture_output=True, check=True)  # fmt: skip
                times[name].append((time.perf_counter() - start) * 1000)
        result["ms"] = {
            name: {"median": round(statistics.median(v), 1), "min": round(min(v), 1)}
            for name, v in times.items()
        }
        base = statistics.median(times["version"])
        result["ratio_to_version"] = {
            name: round(statistics.median(v) / base, 3) for name, v in times.items()
        }
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
