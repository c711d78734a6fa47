"""A process importing papers and wording them in the catalogue's index killed (SIGKILL)
at random moments: the next open finds exactly what the reference does (SQLite's own
journal undoes the half-written step; rows not yet worded are worded then)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from reader.core.index import SearchIndex
from reader.core.library import Library
from reader.core.query import parse
from reader.core.search_text import make_record
from reader.store import catalogue_db
from reader.store.files import LibraryFolder

REPO = Path(__file__).resolve().parents[2]
WORDS = ["diffusion", "graph", "policy", "ising", "transformer", "rl", "kernel", "flow"]

CHILD = """
import random, sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from reader.core.library import Library
from reader.core.models import Paper
from reader.store import catalogue_db
from reader.store.files import LibraryFolder
catalogue_db.SMALL_LIBRARY_BYTES = 0  # (the index in a file, as a big library's)
words = {words!r}
rng = random.Random(int(sys.argv[3]))
lib = Library(LibraryFolder(Path(sys.argv[2])))
search = lib.search_words()
print("ready", flush=True)
for round_ in range(1_000):
    # an import: new papers, and papers imported before written anew ("quokka")
    papers = [
        Paper(f"p{{rng.randrange(3_000)}}",
              " ".join(rng.choice(words) for _ in range(4)) + (" quokka" if round_ % 3 else ""),
              ("A B",), " ".join(rng.choice(words) for _ in range(30)))
        for _ in range(300)
    ]
    lib.add_papers(list({{p.id: p for p in papers}}.values()))
    for _ in search.syncing(lib.paper_ids(), lambda ids: []):
        pass
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_killed_while_importing_and_wording_then_opened_finds_what_the_reference_does(
    tmp_path, monkeypatch
):
    monkeypatch.setattr(catalogue_db, "SMALL_LIBRARY_BYTES", 0)
    rng = random.Random(7)
    script = CHILD.format(words=WORDS)
    for round_ in range(6):
        folder = tmp_path / f"library-{round_}"
        with subprocess.Popen(
            [sys.executable, "-c", script, str(REPO), str(folder), str(rng.randrange(1000))],
            stdout=subprocess.PIPE,
            text=True,
        ) as child:
            assert child.stdout is not None and child.stdout.readline().strip() == "ready"
            time.sleep(rng.uniform(0.3, 2.0))
            os.kill(child.pid, signal.SIGKILL)
            child.wait()
            assert child.returncode == -signal.SIGKILL  # (killed, not done)
        store = LibraryFolder(folder)
        lib = Library(store)
        assert store.catalogue.path is not None  # (the file the killed process wrote)
        papers = lib.full_papers(lib.paper_ids())
        index = SearchIndex(lib, lib.search_words())
        for text in ("ising", "quokka", '"graph policy"', "title:rl", "kern -flow"):
            query = parse(text)
            expected = [p.id for p in papers if query.matches(make_record(p, None))]
            assert index.filter(query) == expected, (round_, text)
        assert store.catalogue.problems == [], round_
        index.close()
        store.close()
