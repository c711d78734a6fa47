"""Search over the SQLite FTS5 index: making it, opening it again, queries, and what
a word finds on real abstracts against what a substring would.

    python bench/search.py                 (100k generated papers: a few minutes)
    python bench/search.py --papers 3300   (seconds)

Progress goes to stderr; the LAST line of stdout is one JSON object. In-process;
the index file goes to a temporary cache folder. Not a timed test."""

from __future__ import annotations

import argparse
import csv
import gc
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(REPO), str(REPO / "bench")]

from generate import catalogue_mb, write_library

from reader.core.index import SearchIndex
from reader.core.library import Library
from reader.core.models import Paper
from reader.core.query import parse
from reader.store.files import LibraryFolder
from reader.store.search_db import SearchDB

#: what a user types, a key at a time, then whole queries
TYPED = "diffusion model"
QUERIES = [
    "a",
    "di",
    "diffusion",
    '"diffusion model"',
    "author:muller",
    "title:graph",
    "learning -diffusion",
    "transformer OR attention",
    "zzqx",
]
REAL_TERMS = ["ising", "rl", "auc", "gan", "bert", "transform"]


def log(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


class _Store:
    """A library kept in memory: what is measured is the index, not the files."""

    def __init__(self, papers: list[Paper]) -> None:
        self.papers = papers

    def load_papers(self) -> list[Paper]:
        return list(self.papers)

    def load_annotations(self) -> dict[str, Any]:
        return {}

    def write_annotations(self, changes: Any) -> None:
        pass

    def add_papers(self, papers: Any) -> None:
        pass

    def reload_annotations(self) -> None:
        return None


def _timed_open(folder: Path) -> tuple[SearchIndex, float]:
    """The library in `folder` opened and its search index made, words and all."""
    start = time.perf_counter()
    lib = Library(LibraryFolder(folder))
    index = SearchIndex(lib, lib.search_words())
    index.prepare()
    return index, (time.perf_counter() - start) * 1000


def _query_ms(index: SearchIndex, text: str, repeats: int = 5) -> dict[str, Any]:
    times, found = [], 0
    for _ in range(repeats):
        index._cache.clear()  # each run a first search of the text, not a cached one
        start = time.perf_counter()
        found = len(index.filter(parse(text)))
        times.append((time.perf_counter() - start) * 1000)
    return {"median_ms": round(statistics.median(times), 1), "found": found}


def generated(n: int, workdir: Path) -> dict[str, Any]:
    folder, cache = workdir / f"lib-{n}", workdir / "cache"
    if not catalogue_mb(folder):
        log(f"generating {n} papers")
        write_library(folder, n, seed=1)
    os.environ["READER_CACHE_DIR"] = str(cache)
    shutil.rmtree(cache, ignore_errors=True)
    log("opening it with no index: the catalogue's index made, its words too")
    index, made_ms = _timed_open(folder)
    size_mb = sum(p.stat().st_size for p in cache.rglob("*.sqlite3*")) / 1e6
    log("opening it again (the index in step: nothing read again)")
    index.close()
    index.__dict__.clear()
    gc.collect()
    index, reopen_ms = _timed_open(folder)
    typing = []
    for i in range(1, len(TYPED) + 1):  # as typed: the cache helps, as in the window
        start = time.perf_counter()
        index.filter(parse(TYPED[:i]))
        typing.append((time.perf_counter() - start) * 1000)
    return {
        "papers": n,
        "made_ms": round(made_ms),
        "reopened_ms": round(reopen_ms),
        "index_files_mb": round(size_mb, 1),
        "typing_per_key_ms": {
            "median": round(statistics.median(typing), 1),
            "max": round(max(typing), 1),
        },
        "queries": {text: _query_ms(index, text) for text in QUERIES},
    }


def real(folder: Path) -> dict[str, Any]:
    """On real abstracts (tests/data/screening, IJCAI 2021 and 2023): the papers a
    term finds as a word (or word start) against the papers holding it anywhere."""
    papers: dict[str, Paper] = {}
    for name in ("ijcai21-kr.csv", "ijcai23-nlp.csv"):
        with open(folder / name, encoding="utf-8", newline="") as f:
            for row in csv.DictReader(f):
                pid = f"{name[:7]}-{len(papers)}"
                papers[row["title"]] = Paper(pid, row["title"], (row["authors"],), row["abstract"])
    lib = Library(_Store(list(papers.values())))
    index = SearchIndex(lib, SearchDB.in_memory())
    out: dict[str, Any] = {"papers": len(papers)}
    for term in REAL_TERMS:
        inside = sum(term in f"{p.title} {p.abstract}".lower() for p in papers.values())
        out[term] = {"as_a_word": len(index.filter(parse(term))), "as_a_substring": inside}
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--papers", type=int, default=100_000)
    args = parser.parse_args()
    start = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="search-bench-") as tmp:
        os.environ["READER_CACHE_DIR"] = tmp
        result = {
            "generated": generated(args.papers, Path(tmp)),
            "real": real(REPO / "tests" / "data" / "screening"),
        }
    result["seconds"] = round(time.perf_counter() - start, 1)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
