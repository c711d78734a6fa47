"""A process making the search index killed (SIGKILL) at random moments: the next
open finds exactly what the reference does, and reports no damage (SQLite's own
journal undoes the half-written step; the digests find what is missing)."""

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
from reader.core.models import Paper
from reader.core.query import parse
from reader.core.search_text import make_record
from reader.store.search_db import SearchDB
from tests.helpers.libraries import MemoryStore

REPO = Path(__file__).resolve().parents[2]
WORDS = ["diffusion", "graph", "policy", "ising", "transformer", "rl", "kernel", "flow"]

CHILD = """
import sys
sys.path.insert(0, sys.argv[1])
from pathlib import Path
from reader.core.models import Paper
from reader.store.search_db import SearchDB
import random
words = {words!r}
rng = random.Random(int(sys.argv[3]))
papers = [
    Paper(f"p{{i}}", " ".join(rng.choice(words) for _ in range(4)), ("A B",),
          " ".join(rng.choice(words) for _ in range(30)))
    for i in range(int(sys.argv[4]))
]
db = SearchDB(Path(sys.argv[2]))
print("ready", flush=True)
for _ in db.syncing(papers):
    pass
# then changes, as edits of a window make them, one after another
for i in range(10_000):
    p = papers[i % len(papers)]
    db.update([(i % len(papers), Paper(p.id, p.title + " quokka", p.authors, p.abstract))])
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
def test_killed_while_indexing_then_opened_finds_what_the_reference_does(tmp_path):
    path = tmp_path / "words.sqlite3"
    rng = random.Random(7)
    script = CHILD.format(words=WORDS)
    for round_ in range(6):
        seed, n = rng.randrange(1000), 1500
        with subprocess.Popen(
            [sys.executable, "-c", script, str(REPO), str(path), str(seed), str(n)],
            stdout=subprocess.PIPE,
            text=True,
        ) as child:
            assert child.stdout is not None and child.stdout.readline().strip() == "ready"
            time.sleep(rng.uniform(0.05, 0.6))
            os.kill(child.pid, signal.SIGKILL)
            child.wait()
            assert child.returncode == -signal.SIGKILL  # (killed, not done)
        # what the next open has: other papers than the killed process's (another
        # seed), so that every row it left is checked
        gen = random.Random(seed + 1)
        papers = [
            Paper(
                f"p{i}",
                " ".join(gen.choice(WORDS) for _ in range(4)),
                ("A B",),
                " ".join(gen.choice(WORDS) for _ in range(30)),
            )
            for i in range(n)
        ]
        lib = Library(MemoryStore(papers))
        db = SearchDB(path)
        index = SearchIndex(lib, db)
        for text in ("ising", "quokka", '"graph policy"', "title:rl", "kern -flow"):
            query = parse(text)
            expected = [p.id for p in papers if query.matches(make_record(p, None))]
            assert index.filter(query) == expected, (round_, text)
        assert db.problems == [], round_
        db.close()
