"""Cold start vs a bare window: start-to-paint of several interleaved fresh processes."""

# Not a timed test. Prints one JSON object (min and median of each, and every run):
#   python bench/coldstart.py [--runs 5] [--workdir DIR]
# The sample library is the bundled one, seeded by reader.opening.open_library.

from __future__ import annotations

import argparse
import compileall
import json
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import REPO, run_child  # noqa: E402  (bench/run.py, beside this file)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--workdir", type=Path)
    args = ap.parse_args(argv)
    # our modules compiled, as an installed app has them (see prepare() in run.py): where
    # PYTHONDONTWRITEBYTECODE is set, a module edited since its last compile would
    # otherwise be compiled again by every child
    compileall.compile_dir(REPO / "reader", quiet=1)
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="reader-coldstart-"))
    sample = workdir / "sample"
    if not (sample / "papers.json").exists():
        from reader.opening import open_library

        open_library(sample).folder.close()  # seeds the bundled sample
    bare: list[int] = []
    cold: list[int] = []
    for _ in range(args.runs):  # interleaved: the machine is shared and noisy
        bare.append(run_child("bare")["start_to_paint_ms"])
        cold.append(run_child("open", str(sample))["start_to_paint_ms"])
    bare_median, cold_median = statistics.median(bare), statistics.median(cold)
    print(json.dumps({"bare_ms": min(bare), "cold_ms": min(cold), "ratio": round(min(cold) / min(bare), 2),
                      "bare_median_ms": bare_median, "cold_median_ms": cold_median,
                      "ratio_median": round(cold_median / bare_median, 2),
                      "bare_all": bare, "cold_all": cold}))


if __name__ == "__main__":
    main()
