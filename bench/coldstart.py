"""Cold start vs a bare window: the min start-to-paint of several interleaved fresh processes."""

# Not a timed test. Prints one JSON object:
#   python bench/coldstart.py [--runs 5] [--workdir DIR]
# The sample library is the bundled one, seeded by reader.opening.open_library.

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from run import run_child  # noqa: E402  (bench/run.py, beside this file)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--workdir", type=Path)
    args = ap.parse_args(argv)
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
    print(json.dumps({"bare_ms": min(bare), "cold_ms": min(cold), "ratio": round(min(cold) / min(bare), 2),
                      "bare_all": bare, "cold_all": cold}))


if __name__ == "__main__":
    main()
