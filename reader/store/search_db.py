"""The catalogue's words in SQLite FTS5: a local, disposable index in the cache folder.

One database per library (named after where its catalogue is), holding for each
paper its id, a digest of its searched text, and the word texts (reader.core.words)
of its authors, title and abstract, each with the marks of its capitalised words
(what an acronym typed in capitals finds), which FTS5's ``ascii`` tokenizer splits
at the spaces exactly as the matching in Python does. Nothing the user wrote is in it,
and nothing here is trusted: every open checks the papers' digests against the
catalogue (in steps, a slice of idle time each) and indexes what differs; a
database that cannot be read, or was made by other rules, is moved aside and made
anew from the catalogue."""

from __future__ import annotations

import contextlib
import sqlite3
import zlib
from array import array
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from reader.core import say
from reader.core.models import Paper
from reader.core.search_text import catalogue_words
from reader.core.words import fts_query
from reader.store.cachefile import cache_dir, library_name, quick_check, set_aside

#: the rules the words were made by: a database of other rules is made anew
SCHEMA = 2  # (2: the marks of words that begin with capitals: reader.core.words)
#: papers indexed per step of syncing() (~10 ms)
STEP_PAPERS = 100
#: papers whose digests are compared per step (their abstracts fetched: ~15 ms)
DIGEST_STEP = 2_000
COLUMNS = ("authors", "title", "abstract")
#: how much more a word in the authors or the title weighs than one in the abstract
AUTHORS_WEIGHT = 3.0
TITLE_WEIGHT = 5.0

_SCHEMA_SQL = """
CREATE TABLE papers (rowid INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, digest INTEGER NOT NULL);
CREATE VIRTUAL TABLE words USING fts5(authors, title, abstract, tokenize='ascii', prefix='1 2');
"""


#: papers with their abstracts, in their order (see Library.completed)
Whole = Callable[[Sequence[Paper]], Iterator[Paper]]


class SearchDBError(RuntimeError):
    """The index could not be read or written (it is made anew next time)."""


def digest(paper: Paper) -> int:
    """A digest of what the index holds of `paper` (it is indexed again if it changed)."""
    text = "\x1f".join((paper.title, "\x1e".join(paper.authors), paper.abstract))
    return zlib.crc32(text.encode("utf-8", "surrogatepass"))


class SearchDB:
    """The words of one library's papers (or, with no path, of papers kept in memory).

    Papers are known to the caller by their *position*, a number it gives each (the
    search index's record number): syncing() takes them as a list, update() with
    their positions, and find() answers with positions."""

    def __init__(self, path: Path | None, tell: Callable[[str], None] | None = None) -> None:
        """`tell` is told what went wrong and was mended (also kept in `problems`)."""
        self.path = path
        self._db: sqlite3.Connection | None = None
        self._tell = tell
        self.problems: list[str] = []
        #: each row's position (-1: none), by rowid
        self._position = array("q")
        #: the SearchDB a reader() was made from (a reader only reads, and trusts it)
        self._source: SearchDB | None = None
        #: whether the file was found sound (PRAGMA quick_check), or made here
        self._checked = False

    def reader(self) -> SearchDB | None:
        """A twin for another thread: its own connection to the same file, reading
        only, with this one's positions (None for a database in memory)."""
        if self.path is None:
            return None
        twin = SearchDB(self.path)
        twin._source = self
        return twin

    @classmethod
    def for_library(cls, folder: Path, tell: Callable[[str], None] | None = None) -> SearchDB:
        """The index of the library in `folder`, in the cache folder."""
        return cls(cache_dir() / "search" / f"{library_name(folder)}.sqlite3", tell)

    def _problem(self, text: str) -> None:
        self.problems.append(text)
        if self._tell is not None:
            self._tell(text)

    @classmethod
    def in_memory(cls) -> SearchDB:
        return cls(None)

    # -- the connection -----------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            try:
                self._db = self._open()
            except (sqlite3.Error, OSError) as exc:
                if self.path is None:
                    raise SearchDBError(str(exc)) from exc
                self._move_aside(exc)
                try:
                    self._db = self._open()
                except (sqlite3.Error, OSError) as again:
                    self._problem(
                        say._(
                            "The search index cannot be kept in {folder} ({error}); it is kept"
                            " in memory and made anew at each start."
                        ).format(folder=self.path.parent, error=again)
                    )
                    self.path = None
                    self._db = self._open()
        return self._db

    def _open(self) -> sqlite3.Connection:
        if self._source is not None:  # (checked by its source, which keeps it in step)
            assert self.path is not None
            return sqlite3.connect(
                f"{self.path.as_uri()}?mode=ro", uri=True, timeout=10, check_same_thread=False
            )
        if self.path is None:
            db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        else:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            db = sqlite3.connect(
                self.path, timeout=10, isolation_level=None, check_same_thread=False
            )
        try:  # (what is not ours is looked at, never written)
            version = db.execute("PRAGMA user_version").fetchone()[0]
            empty = version == 0 and not db.execute("SELECT 1 FROM sqlite_master").fetchone()
            if not empty and version != SCHEMA:
                raise sqlite3.DatabaseError(f"made by other rules (version {version})")
            if self.path is not None:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("PRAGMA synchronous=OFF")  # a cache: a torn one is made anew
            if empty:
                db.executescript(f"BEGIN; {_SCHEMA_SQL} PRAGMA user_version={SCHEMA}; COMMIT;")
            self._checked = empty  # (one found is checked by syncing(), one made is sound)
        except BaseException:
            db.close()
            raise
        return db

    def _move_aside(self, exc: BaseException) -> None:
        """Set a database that cannot be used aside (never trusted, never deleted)."""
        assert self.path is not None
        self.close()
        if not self.path.exists():
            return  # (nothing to set aside: the folder cannot be made)
        set_aside(self.path)
        self._problem(
            say._(
                "The search index {path} could not be used ({error}); it was moved aside"
                " and is made anew."
            ).format(path=self.path, error=exc)
        )

    def __del__(self) -> None:  # (a connection left open is a ResourceWarning in 3.13)
        self.close()

    def close(self) -> None:
        """Close the connection (a later use opens it again); from any thread: each
        SearchDB is used by one thread at a time (reader() makes another's)."""
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
            self._db = None
        self._position = array("q")

    # -- keeping it in step ---------------------------------------------------------

    def syncing(self, papers: Sequence[Paper], whole: Whole = iter) -> Generator[None, None, None]:
        """Bring the index in step with `papers` (all the catalogue's papers, each at
        its position; `whole` gives a few of them with their abstracts, as a library
        lists them without), a step (~10-30 ms) per yield: papers whose digest differs
        are indexed again, papers no longer there dropped. A damaged database is set
        aside and made anew."""
        try:
            yield from self._syncing(papers, whole)
        except sqlite3.Error as exc:
            if self.path is None:
                raise SearchDBError(str(exc)) from exc
            self._move_aside(exc)
            yield from self._syncing(papers, whole)

    def _syncing(self, papers: Sequence[Paper], whole: Whole) -> Generator[None, None, None]:
        db = self._connection()
        if self.path is not None and not self._checked:
            # the whole file is read (~0.3 s at 100k papers, seconds from a cold
            # disk): on a thread of its own, yielding meanwhile
            with ThreadPoolExecutor(1, thread_name_prefix="quick_check") as pool:
                check = pool.submit(quick_check, self.path, 10)
                while not check.done():
                    yield
                if (found := check.result()) != "ok":
                    raise sqlite3.DatabaseError(found)
            self._checked = True
        self._position = array("q")
        yield
        known: dict[str, tuple[int, int]] = {}
        rows = db.execute("SELECT id, rowid, digest FROM papers")
        while chunk := rows.fetchmany(DIGEST_STEP):
            known.update((pid, (rowid, dig)) for pid, rowid, dig in chunk)
            yield
        position = self._position
        top = max((rowid for rowid, _ in known.values()), default=0)
        position.extend([-1] * (top + 1))
        todo: list[int] = []
        for start in range(0, len(papers), DIGEST_STEP):
            for r, paper in enumerate(whole(papers[start : start + DIGEST_STEP]), start):
                rowid, dig = known.pop(paper.id, (0, None))
                if dig == digest(paper):
                    position[rowid] = r
                else:
                    todo.append(r)
            yield
        gone = list(known)
        for start in range(0, len(gone), STEP_PAPERS * 10):
            self.update((), gone[start : start + STEP_PAPERS * 10])
            yield
        for start in range(0, len(todo), STEP_PAPERS):
            rs = todo[start : start + STEP_PAPERS]
            self.update(zip(rs, whole([papers[r] for r in rs]), strict=True), ())
            yield

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
                cur = db.execute(
                    "INSERT INTO papers(rowid, id, digest) VALUES (?, ?, ?)",
                    (rowid, paper.id, digest(paper)),
                )
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
        if not terms:
            return {}
        expression = " AND ".join(f"({fts_query(words, None, COLUMNS)})" for words in terms)
        try:
            rows = self._connection().execute(
                f"SELECT rowid, bm25(words, {AUTHORS_WEIGHT}, {TITLE_WEIGHT}, 1.0)"
                " FROM words WHERE words MATCH ?",
                (expression,),
            )
            found = rows.fetchall()
        except sqlite3.Error as exc:
            raise SearchDBError(str(exc)) from exc
        position, top = (self._source or self)._position, len((self._source or self)._position)
        return {position[i]: score for i, score in found if i < top and position[i] >= 0}

    def find(self, words: str, column: str | None = None) -> list[int]:
        """The positions of the papers whose authors, title or abstract (or `column`
        of them) hold the word text `words`, the last word as a prefix."""
        if column is not None and column not in COLUMNS:
            raise ValueError(column)
        try:
            (found,) = (
                self._connection()
                .execute(
                    "SELECT group_concat(rowid) FROM words WHERE words MATCH ?",
                    (fts_query(words, column, COLUMNS),),
                )
                .fetchone()
            )
        except sqlite3.Error as exc:  # set aside: the next syncing() makes it anew
            if self._source is not None:
                self.close()
            elif self.path is None:
                self.close()
            else:
                self._move_aside(exc)
            raise SearchDBError(str(exc)) from exc
        if not found:
            return []
        position = (self._source or self)._position
        try:
            rs = list(map(position.__getitem__, map(int, found.split(","))))
        except IndexError:  # rows another program added since: not ours to know
            top = len(position)
            rs = [position[i] if i < top else -1 for i in map(int, found.split(","))]
        return [r for r in rs if r >= 0] if -1 in rs else rs
