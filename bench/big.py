"""The window on one big library: opening it with and without its index, memory,
typing and selecting; each figure from a fresh process (bench/run.py's children).

Not a timed test. Progress goes to stderr; the LAST line of stdout is one JSON object:

    python bench/big.py --papers 1000000 --workdir DIR   (generated once, kept in DIR)
    python bench/big.py --library FOLDER --cache DIR     (a library you have)

With --fresh the index is deleted first: the first open makes it from the library
folder (list shown, then searchable: `index_warm_ms` of that process). Times are ms.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import run  # noqa: E402  (bench/run.py)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--papers", type=int, default=1_000_000)
    ap.add_argument("--workdir", type=Path, help="where a generated library is kept")
    ap.add_argument("--library", type=Path, help="a library folder to open instead")
    ap.add_argument("--cache", type=Path, help="its index's cache folder")
    ap.add_argument("--fresh", action="store_true", help="delete the index first")
    args = ap.parse_args(argv)
    if args.library is None:
        if args.workdir is None:
            ap.error("--workdir or --library")
        import generate

        run.compile_ours()
        args.library = args.workdir / f"lib-{args.papers}"
        if not generate.catalogue_mb(args.library):
            run.log(f"generating {args.papers:,} papers in {args.library}")
            generate.write_library(args.library, args.papers, 1)
    run.CACHE = args.cache or args.library.parent / "cache"
    out: dict[str, Any] = {"library": str(args.library)}
    if args.fresh:
        shutil.rmtree(run.CACHE, ignore_errors=True)
        run.log("the first open: the index made from the library folder")
        first = run.run_child("interact", str(args.library))
        out["no_index"] = {
            "list_shown_ms": first["start_to_paint_ms"],
            "all_listed_ms": first["start_to_paint_ms"] + first["caught_up_ms"],
            "longest_pause_listing_ms": first["longest_turn_catching_up_ms"],
            "searchable_ms": first["start_to_paint_ms"] + first["index_warm_ms"],
            "rss_mb": first["rss_now_mb"],
            "longest_pause_typing_ms": first["longest_turn_typing_ms"],
        }
    run.log("opening with the index present, twice")
    opened = [run.run_child("open", str(args.library)) for _ in range(2)]
    run.log("typing and selecting, the index warmed")
    used = run.run_child("interact", str(args.library))
    out.update(
        {
            "open_ms": min(o["start_to_paint_ms"] for o in opened),
            "rss_after_open_mb": min(o["rss_now_mb"] for o in opened),
            "index_warm_ms": used["index_warm_ms"],
            "rss_index_warm_mb": used["rss_warm_now_mb"],
            "keystroke_ms": run.summary(used["keystrokes"]),
            "longest_pause_typing_ms": used["longest_turn_typing_ms"],
            "select_ms": run.summary(used["selections"]),
            "rss_end_mb": used["rss_end_mb"],
        }
    )
    print(json.dumps(out))


if __name__ == "__main__":
    main()
