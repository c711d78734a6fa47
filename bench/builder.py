"""Time and peak memory of the process that builds a big catalogue's token indexes
(reader.store.index_builder), run on the texts of a search index bench/run.py saved.

    python bench/builder.py --workdir DIR   (the --workdir of an earlier bench/run.py)

The builder runs under /usr/bin/time, so its peak is its own (a child's resource
usage as its parent sees it includes the parent's memory from before the exec).
The last line of stdout is one JSON object."""

from __future__ import annotations

import argparse
import json
import marshal
import re
import struct
import subprocess
import sys
import tempfile
from pathlib import Path

HEADER = struct.Struct("<8sBB32sQI")  # as reader.store.search_cache writes it


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--workdir", type=Path, required=True)
    args = ap.parse_args()
    index = min((args.workdir / "cache" / "search").glob("*.index"))
    (texts,) = index.parent.glob(index.stem + "-*.texts")
    data = index.read_bytes()
    digest = HEADER.unpack(data[: HEADER.size])[3]
    length, starts, ends, _lines = marshal.loads(data[HEADER.size :])
    with (
        tempfile.TemporaryDirectory() as out,
        open(texts, "rb") as text_file,
        tempfile.TemporaryFile() as layout,
    ):
        layout.write(starts + ends)
        layout.flush()
        layout.seek(0)
        fds = (text_file.fileno(), layout.fileno())
        argv = [out, "bench", digest.hex(), str(len(ends) // 8), str(length), *map(str, fds)]
        done = subprocess.run(
            ["/usr/bin/time", "-v", sys.executable, "-m", "reader.store.index_builder", *argv],
            pass_fds=fds,
            capture_output=True,
            text=True,
            check=True,
        )
        saved = sorted(p.name for p in Path(out).iterdir())
    wall = re.search(r"Elapsed \(wall clock\) time.*: (?:(\d+):)?(\d+):([\d.]+)", done.stderr)
    assert wall is not None
    hours, minutes, seconds = wall.groups()
    peak = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    assert peak is not None
    print(
        json.dumps(
            {
                "papers": len(ends) // 8,
                "builder_s": round(int(hours or 0) * 3600 + int(minutes) * 60 + float(seconds), 2),
                "builder_rss_mb": round(int(peak.group(1)) / 1024, 1),
                "saved": saved,
            }
        )
    )


if __name__ == "__main__":
    main()
