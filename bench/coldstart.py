"""Cold start vs a bare window with the same widgets (and vs the older bare window with
fewer): start-to-paint of several interleaved fresh processes."""

# Not a timed test. Prints one JSON object (min and median of each, and every run):
#   python bench/coldstart.py [--runs 5] [--workdir DIR]
# With --instructions, one run of each under valgrind's callgrind instead: the CPU
# instructions to the first paint, which the machine's load does not change.
# The sample library is the bundled one, seeded by reader.opening.open_library.

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import EXIT_AT_ONCE, child_command, child_env, cold_runs, compile_ours, paired_ratio  # noqa: E402  (bench/run.py)


def instructions(*child: str) -> int:
    """CPU instructions a child runs from its start to its first paint (callgrind)."""
    env = {**child_env(), EXIT_AT_ONCE: "1"}
    with tempfile.TemporaryDirectory() as out:
        done = subprocess.run(
            [
                "valgrind",
                "--tool=callgrind",
                f"--callgrind-out-file={out}/cg",
                *child_command(*child),
            ],
            env=env,
            capture_output=True,
            text=True,
            check=True,
        )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"no instruction count from valgrind:\n{done.stderr[-2000:]}")
    return int(found[1])


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--workdir", type=Path)
    ap.add_argument(
        "--instructions", action="store_true", help="count instructions (valgrind) instead"
    )
    args = ap.parse_args(argv)
    compile_ours()
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="reader-coldstart-"))
    sample = workdir / "sample"
    if not (sample / "devices").exists():
        from reader.opening import open_library

        open_library(sample).folder.close()  # seeds the bundled sample
    if args.instructions:
        counts = {
            "bare": instructions("bare"),
            "bare_minimal": instructions("bare-minimal"),
            "cold": instructions("open", str(sample)),
        }
        print(
            json.dumps(
                {
                    **{f"{k}_minstr": round(v / 1e6, 1) for k, v in counts.items()},
                    "ratio": round(counts["cold"] / counts["bare"], 3),
                    "ratio_minimal": round(counts["cold"] / counts["bare_minimal"], 3),
                }
            )
        )
        return
    runs = cold_runs(sample, args.runs)
    bare, minimal, cold = runs["bare"], runs["bare_minimal"], runs["cold"]
    bare_median, cold_median = statistics.median(bare), statistics.median(cold)
    print(
        json.dumps(
            {
                "bare_ms": min(bare),
                "cold_ms": min(cold),
                "ratio": round(min(cold) / min(bare), 2),
                "bare_median_ms": bare_median,
                "cold_median_ms": cold_median,
                "ratio_median": round(cold_median / bare_median, 2),
                "ratio_paired": paired_ratio(cold, bare),
                "bare_minimal_ms": min(minimal),
                "ratio_minimal": round(min(cold) / min(minimal), 2),
                "ratio_minimal_median": round(cold_median / statistics.median(minimal), 2),
                "bare_all": bare,
                "bare_minimal_all": minimal,
                "cold_all": cold,
            }
        )
    )


if __name__ == "__main__":
    main()
