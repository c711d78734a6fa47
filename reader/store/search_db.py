"""The words of papers kept in memory, in SQLite FTS5 in memory: for a library whose
store has no catalogue's index (reader.store.catalogue_words keeps a library folder's).

It holds for each paper its id, a digest of its searched text, and the word texts
(reader.core.words) of its authors, title and abstract, each with the marks of its
capitalised words (what an acronym typed in capitals finds), which FTS5's ``ascii``
tokenizer splits at the spaces exactly as the matching in Python does; syncing()
indexes the papers whose digest differs."""

from __future__ import annotations

import contextlib
import sqlite3
from array import array
from collections.abc import Generator, Iterable, Sequence

from reader.core.models import Paper
from reader.core.paper_table import Whole
from reader.core.search_text import catalogue_words
from reader.store.cachefile import owned
from reader.store.catalogue_words import bits_found, bm25_scores

#: papers indexed per step of syncing() (~10 ms)
STEP_PAPERS = 100

_SCHEMA_SQL = """
CREATE TABLE papers (rowid INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL);
CREATE VIRTUAL TABLE words USING fts5(authors, title, abstract, tokenize='ascii', prefix='1 2');
"""


class SearchDBError(RuntimeError):
    """The words could not be read or written."""


class SearchDB:
    """The words of papers kept in memory.

    Papers are known to the caller by their *position*, a number it gives each (the
    search index's record number): syncing() takes them as a list, update() with
    their positions, and find() answers with positions."""

    def __init__(self) -> None:
        self._db = owned(
            self, sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        )
        self._db.executescript(f"BEGIN; {_SCHEMA_SQL} COMMIT;")
        #: each row's position (-1: none), by rowid
        self._position = array("q")

    @classmethod
    def in_memory(cls) -> SearchDB:
        return cls()

    def reader(self) -> None:
        """No twin for another thread: searches stay on the caller's."""
        return None

    def close(self) -> None:
        with contextlib.suppress(sqlite3.Error):
            self._db.close()

    def _connection(self) -> sqlite3.Connection:
        return self._db

    # -- keeping it in step ---------------------------------------------------------

    def syncing(self, ids: Sequence[str], whole: Whole) -> Generator[str | None, None, None]:
        """Index the papers of `ids` (all of them, each at its position; `whole` reads
        some of them with their abstracts), a step (~10-30 ms) per yield."""
        try:
            self._db.executescript("BEGIN; DELETE FROM papers; DELETE FROM words; COMMIT;")
            self._position = array("q")
            for start in range(0, len(ids), STEP_PAPERS):
                rs = range(start, min(start + STEP_PAPERS, len(ids)))
                self.update(zip(rs, whole(ids[start : rs.stop]), strict=True), ())
                yield None
        except sqlite3.Error as exc:
            raise SearchDBError(str(exc)) from exc

    def update(self, papers: Iterable[tuple[int, Paper]], gone: Iterable[str] = ()) -> None:
        """Index these (position, paper) pairs (new or changed papers) and drop the
        papers `gone` (ids), at once."""
        db = self._connection()
        position = self._position
        db.execute("BEGIN IMMEDIATE")
        try:
            for pid in gone:
                self._drop(db, pid)
            for r, paper in papers:
                rowid = self._drop(db, paper.id)
                cur = db.execute("INSERT INTO papers(rowid, id) VALUES (?, ?)", (rowid, paper.id))
                rowid = cur.lastrowid
                assert rowid is not None
                db.execute(
                    "INSERT INTO words(rowid, authors, title, abstract) VALUES (?, ?, ?, ?)",
                    (rowid, *catalogue_words(paper)),
                )
                if rowid >= len(position):
                    position.extend([-1] * (rowid + 1 - len(position)))
                position[rowid] = r
            db.execute("COMMIT")
        except BaseException:
            with contextlib.suppress(sqlite3.Error):
                db.execute("ROLLBACK")
            raise

    def _drop(self, db: sqlite3.Connection, pid: str) -> int | None:
        """Remove paper `pid`'s row, if any; the rowid it had."""
        found = db.execute("SELECT rowid FROM papers WHERE id = ?", (pid,)).fetchone()
        if found is None:
            return None
        db.execute("DELETE FROM words WHERE rowid = ?", found)
        db.execute("DELETE FROM papers WHERE rowid = ?", found)
        rowid = int(found[0])
        if rowid < len(self._position):
            self._position[rowid] = -1
        return rowid

    # -- searching ------------------------------------------------------------------

    def scores(self, terms: Sequence[str]) -> dict[int, float]:
        """Each paper holding all the word texts `terms`: its position and its BM25
        score (lower is better) over authors, title and abstract, a word in the title
        weighing as much as TITLE_WEIGHT in the abstract. (Only the papers holding
        them all are scored: the few a search found, not the many of its broadest word.)"""
        try:
            return bm25_scores(self._db, terms, self._position)
        except sqlite3.Error as exc:
            raise SearchDBError(str(exc)) from exc

    def find(self, words: str, column: str | None, n: int) -> int:
        """The papers (a bitset of positions, all below `n`) whose authors, title or
        abstract (or `column` of them) hold the word text `words`, the last word as a
        prefix."""
        try:
            return bits_found(self._db, words, column, self._position, n)
        except sqlite3.Error as exc:
            raise SearchDBError(str(exc)) from exc
