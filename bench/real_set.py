"""Paper Reader on a real set of ~50,000 papers, measured as bench/run.py measures a
generated library, and what searching it finds.

The set is assembled from public conference lists: the JSON files of the
papercopilot/paperlists repository (one per conference and year, `<conf>/<conf><year>.json`)
in a folder given on the command line (this script never downloads them, and nothing of
them is kept in the repository). Whole lists are taken, newest year first, until the set
holds --papers papers; each is converted to our import JSON (bench/generate.py's shape),
imported by the program as a user would, then opened, typed in and read from. Not a timed
test: progress goes to stderr, and the LAST line of stdout is one JSON object:

    python bench/real_set.py /tmp/paperlists [--papers 50000] [--workdir DIR]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import run  # noqa: E402 (bench/run.py: its children and summaries)

#: what the issue asks search to find as words (whole words and word prefixes only)
TERMS = ["Ising", "RL", "AUC", "transform"]
#: the file name of a conference list: its conference and year
LIST_NAME = re.compile(r"([a-z0-9]+?)(\d{4})\.json")
#: for `paper-reader list`: a query of two common words
LIST_QUERY = "diffusion transformer"


def _text(value: Any) -> str:
    return value.strip() if isinstance(value, str) else ""


def convert(item: dict[str, Any], conference: str, year: int, n: int) -> dict[str, Any] | None:
    """One paper of a conference list in our import JSON (None: no title)."""
    title = _text(item.get("title"))
    if not title:
        return None
    authors = [a.strip() for a in _text(item.get("author")).split(";") if a.strip()]
    # a list's own ids are only unique within it: prefixed with the conference and year
    own = _text(str(item.get("id") or "")) or str(n)
    paper = {
        "id": f"{conference}{year}-{own}",
        "title": title,
        "authors": authors,
        "abstract": _text(item.get("abstract")),
        "venue": f"{conference.upper()} {year}",
        "year": year,
        "url": _text(item.get("site")),
        "status": _text(item.get("status")),
    }
    for ours, theirs in (("pdf", "pdf"), ("doi", "doi"), ("arxiv", "arxiv")):
        if value := _text(item.get(theirs)):
            paper[ours] = value
    return paper


def assemble(folder: Path, wanted: int) -> tuple[list[dict[str, Any]], list[str]]:
    """Papers of the lists in `folder`, whole lists newest year first, until `wanted`;
    the papers and the lists taken."""
    lists = []
    for path in folder.glob("*/*.json"):
        if found := LIST_NAME.fullmatch(path.name):
            lists.append((int(found.group(2)), found.group(1), path))
    lists.sort(key=lambda entry: (-entry[0], entry[1]))
    papers: list[dict[str, Any]] = []
    taken: list[str] = []
    for year, conference, path in lists:
        if len(papers) >= wanted:
            break
        try:
            items = json.loads(path.read_bytes())
        except (OSError, ValueError) as exc:
            run.log(f"skipped {path}: {exc}")
            continue
        if not isinstance(items, list):
            continue
        converted = [convert(x, conference, year, n) for n, x in enumerate(items)]
        papers += [p for p in converted if p is not None and isinstance(p, dict)]
        taken.append(f"{conference}{year}")
    return papers[:wanted], taken


def searches(library_dir: Path) -> dict[str, Any]:
    """What each of TERMS finds as words against the papers holding it as letters
    anywhere (the old substring search), with the first few titles found."""
    from reader.core.index import SearchIndex
    from reader.core.library import Library
    from reader.core.query import parse
    from reader.store.files import LibraryFolder

    lib = Library(LibraryFolder(library_dir))
    index = SearchIndex(lib, lib.search_words())
    index.warm()
    whole = {p.id: p for p in lib.completed(lib.papers())}
    out: dict[str, Any] = {}
    for term in TERMS:
        start = time.perf_counter()
        found = index.filter(parse(term))
        ms = (time.perf_counter() - start) * 1000
        inside = sum(
            term.lower() in f"{p.title} {' '.join(p.authors)} {p.abstract}".lower()
            for p in whole.values()
        )
        # the words each paper found holds that start with the term (what it was found by)
        word = re.compile(rf"\b{re.escape(term)}\w*", re.IGNORECASE)
        forms: Counter[str] = Counter()
        for pid in found:
            p = whole[pid]
            forms.update(
                {w.lower() for w in word.findall(f"{p.title} {' '.join(p.authors)} {p.abstract}")}
            )
        out[term] = {
            "as_words": len(found),
            "as_letters_anywhere": inside,
            "query_ms": round(ms, 1),
            "papers_holding_each_word": dict(forms.most_common(8)),
            "titles": [whole[pid].title[:90] for pid in found[:3]],
        }
    index.close()
    return out


def cli_list(library_dir: Path) -> dict[str, Any]:
    """`paper-reader list QUERY` against the CLI's own start-up (`--help`), best of 3."""

    def best(*args: str) -> float:
        times = []
        for _ in range(3):
            start = time.perf_counter()
            subprocess.run(
                [sys.executable, "-m", "reader", *args],
                env=run.child_env(),
                capture_output=True,
                check=True,
            )
            times.append((time.perf_counter() - start) * 1000)
        return min(times)

    listed = best("list", LIST_QUERY, "--data-dir", str(library_dir))
    startup = best("--help")
    return {
        "list_ms": round(listed),
        "startup_ms": round(startup),
        "ratio": round(listed / startup, 2),
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("folder", type=Path, help="the conference lists (<conf>/<conf><year>.json)")
    ap.add_argument("--papers", type=int, default=50_000)
    ap.add_argument("--workdir", type=Path, help="keep the set, library and index here")
    args = ap.parse_args(argv)
    workdir = args.workdir or Path(tempfile.mkdtemp(prefix="reader-real-"))
    workdir.mkdir(parents=True, exist_ok=True)
    run.compile_ours()
    papers, taken = assemble(args.folder, args.papers)
    if not papers:
        raise SystemExit(f"no conference list found in {args.folder}")
    source = workdir / f"real-{len(papers)}.json"
    source.write_text(json.dumps(papers), encoding="utf-8")
    run.CACHE = workdir / "cache"
    shutil.rmtree(run.CACHE, ignore_errors=True)
    library = workdir / "library"
    shutil.rmtree(library, ignore_errors=True)
    run.log(f"importing {len(papers):,} papers of {len(taken)} lists")
    imported = run.run_child("import", str(source), str(library))
    run.log("opening (the first open makes the index), typing and selecting")
    first = run.run_child("open", str(library))
    opened = [run.run_child("open", str(library)) for _ in range(2)]
    used = run.run_child("interact", str(library))
    run.log("searching, and paper-reader list")
    os.environ["READER_CACHE_DIR"] = str(run.CACHE)
    found = searches(library)
    listing = cli_list(library)
    result = {
        "papers": imported["added"],
        "lists": len(taken),
        "with_abstract": sum(1 for p in papers if p["abstract"]),
        "import_json_mb": round(source.stat().st_size / (1 << 20), 1),
        "import_ms": imported["import_ms"],
        "open_ms": min(o["start_to_paint_ms"] for o in opened),
        "open_ms_first": first["start_to_paint_ms"],
        "rss_mb": max(o["rss_mb"] for o in opened),
        "rss_now_mb": min(o["rss_now_mb"] or 0 for o in opened),
        "rss_warm_now_mb": used.get("rss_warm_now_mb"),
        "index_warm_ms": used.get("index_warm_ms"),
        "keystroke_ms": run.summary(used["keystrokes"]),
        "select_ms": run.summary(used["selections"]),
        "longest_pause_typing_ms": used["longest_turn_typing_ms"],
        "cli_list": listing,
        "search": found,
        "load_average": round(os.getloadavg()[0], 2),
    }
    if not args.workdir:
        shutil.rmtree(workdir, ignore_errors=True)
    print(json.dumps(result))


if __name__ == "__main__":
    main()
