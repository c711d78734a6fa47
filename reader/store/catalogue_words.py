"""The catalogue's words in SQLite FTS5, in the catalogue's own index (catalogue_db).

Beside each paper's row, the word texts (reader.core.words) of its authors, title
and abstract, each with the marks of its capitalised words (what an acronym typed in
capitals finds), which FTS5's ``ascii`` tokenizer splits at the spaces exactly as the
matching in Python does. A row the catalogue writes (a paper imported, changed,
deleted) is marked unworded, and its words are made anew by the next step of
syncing() or by update(): the index is searchable as soon as its unworded rows are
worded, without reading anything else again. The search index (reader.core.index)
knows a paper by its position; this keeps each row's position."""

from __future__ import annotations

import contextlib
import sqlite3
from array import array
from collections.abc import Generator, Iterable, Iterator, Sequence
from typing import TYPE_CHECKING

from reader.core.bitsets import bits_of
from reader.core.models import Paper
from reader.core.paper_table import WAITING, Whole
from reader.core.search_text import catalogue_words
from reader.core.words import fts_query
from reader.store.cachefile import owned

if TYPE_CHECKING:
    from reader.store.catalogue_db import CatalogueDB

_WORDS_TABLE = (
    "CREATE VIRTUAL TABLE words"
    " USING fts5(authors, title, abstract, tokenize='ascii', prefix='1 2')"
)
#: part of the catalogue's schema (catalogue_db.SCHEMA)
WORDS_SQL = f"CREATE INDEX unworded ON papers(rowid) WHERE worded = 0; {_WORDS_TABLE};"
COLUMNS = ("authors", "title", "abstract")
#: how much more a word in the authors or the title weighs than one in the abstract
AUTHORS_WEIGHT = 3.0
TITLE_WEIGHT = 5.0
#: between the authors of a paper in its row (as catalogue_db writes them)
AUTHORS_SEP = "\x1f"
#: a word's rows (as text: ~7 characters a row) taken through numpy from this many
#: characters on (a command's few do not wait for it to load)
NUMPY_FROM = 100_000
#: rows worded per step of syncing() (~5-20 ms: ~170 us a paper with a long abstract)
STEP_ROWS = 100
#: rows whose positions are read per step of syncing()
POSITION_STEP = 20_000
#: the rows to word: their text, and whether they are a paper's now
_ROWS = """
SELECT p.rowid, p.id, p.deleted = '', p.title, p.authors, coalesce(a.text, '')
FROM papers AS p LEFT JOIN abstracts AS a ON a.rowid = p.rowid
"""
_UNWORDED = f"{_ROWS} WHERE p.worded = 0 LIMIT ?"
#: the papers' rows after a rowid, in order
_IN_ORDER = "SELECT rowid, id FROM papers WHERE deleted = '' AND rowid > ? ORDER BY rowid LIMIT ?"


class WordsError(RuntimeError):
    """The words could not be read or written."""


class IndexWords:
    """The catalogue's words (reader.core.index.CatalogueWords) in its index."""

    def __init__(self, catalogue: CatalogueDB, source: IndexWords | None = None) -> None:
        self._catalogue = catalogue
        #: each row's position (-1: none), by rowid
        self._position = array("q")
        #: the words a reader() was made from, and the reader's own connection
        self._source = source
        self._db: sqlite3.Connection | None = None
        #: the words could not be read: the next syncing() makes them anew
        self._remake = False

    def reader(self) -> IndexWords | None:
        """A twin for another thread: a connection of its own to the same file,
        reading only, with this one's positions (None for an index in memory)."""
        if self._catalogue.path is None:
            return None
        return IndexWords(self._catalogue, self)

    def close(self) -> None:
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
            self._db = None

    @contextlib.contextmanager
    def _reading(self) -> Iterator[sqlite3.Connection]:
        if self._source is None:
            with self._catalogue.reading() as db:
                yield db
            return
        if self._db is None:
            path = self._catalogue.path
            assert path is not None
            self._db = owned(
                self,
                sqlite3.connect(
                    f"{path.as_uri()}?mode=ro", uri=True, timeout=10, check_same_thread=False
                ),
            )
        yield self._db

    # -- keeping in step ------------------------------------------------------------

    def syncing(self, ids: Sequence[str], whole: Whole) -> Generator[str | None, None, None]:
        """Know each paper of `ids` by its position there, then word the rows not yet
        worded (read here: `whole` is not needed), a step (~10-20 ms) per yield; WAITING
        while the catalogue's thread takes files in. Words that could not be read (see
        find()) are made anew, every row worded again."""
        try:
            if self._remake:
                self._remake = False
                with self._catalogue.writing() as db:
                    assert db is not None
                    db.executescript(
                        "BEGIN IMMEDIATE; DROP TABLE IF EXISTS words;"
                        f" {_WORDS_TABLE}; UPDATE papers SET worded = 0; COMMIT;"
                    )
            yield from self._syncing(ids)
        except sqlite3.Error as exc:
            self._remake = True
            raise WordsError(str(exc)) from exc

    def _syncing(self, ids: Sequence[str]) -> Generator[str | None, None, None]:
        yield from self._known(ids)
        while True:
            if self._catalogue.taking():  # (its files first, taken at full speed)
                yield WAITING
            elif self._word(wait=False):
                yield None
            else:
                return

    def _known(self, ids: Sequence[str]) -> Generator[None, None, None]:
        """Each row's position: its place in `ids` when they are the papers' rows in
        their order (as the library read them: ids compared a part at a time), else
        each paper's place in `ids` looked up."""
        position, after, start = array("q"), -1, 0
        while True:
            with self._reading() as db:
                part = db.execute(_IN_ORDER, (after, POSITION_STEP)).fetchall()
            if not part:
                break
            if [pid for _rowid, pid in part] != ids[start : start + len(part)]:
                yield from self._looked_up(ids)
                return
            after = part[-1][0]
            position.extend([-1] * (after + 1 - len(position)))
            for r, (rowid, _pid) in enumerate(part, start):
                position[rowid] = r
            start += len(part)
            yield
        if start != len(ids):
            yield from self._looked_up(ids)
            return
        self._position = position

    def _looked_up(self, ids: Sequence[str]) -> Generator[None, None, None]:
        """Each row's position: its paper's place in `ids`."""
        places: dict[str, int] = {}
        for start in range(0, len(ids), POSITION_STEP):
            part = ids[start : start + POSITION_STEP]
            places.update(zip(part, range(start, start + len(part)), strict=True))
            yield
        with self._reading() as db:  # (one query: a row written since is not in it)
            rows = db.execute("SELECT rowid, id FROM papers WHERE deleted = ''").fetchall()
        position = array("q", [-1]) * (max((r for r, _id in rows), default=0) + 1)
        for start in range(0, len(rows), POSITION_STEP):
            for rowid, pid in rows[start : start + POSITION_STEP]:
                position[rowid] = places.get(pid, -1)
            yield
        del rows, places
        self._position = position

    def _word(self, wait: bool, rowids: Sequence[int] = ()) -> bool:
        """Word the rows `rowids` not worded, or up to STEP_ROWS unworded rows; False
        once none is left (True also when another thread writes the index, and not
        `wait`)."""
        with self._catalogue.writing(wait) as db:
            if db is None:
                return True
            if rowids:  # (these rows, if the catalogue wrote them since they were worded)
                marks = ",".join("?" * len(rowids))
                rows = db.execute(
                    f"{_ROWS} WHERE p.rowid IN ({marks}) AND p.worded = 0", rowids
                ).fetchall()
            else:
                rows = db.execute(_UNWORDED, (STEP_ROWS,)).fetchall()
            if not rows:
                return False
            db.execute("BEGIN IMMEDIATE")
            try:
                for rowid, pid, live, title, authors, abstract in rows:
                    db.execute("DELETE FROM words WHERE rowid = ?", (rowid,))
                    if live:
                        names = tuple(authors.split(AUTHORS_SEP)) if authors else ()
                        paper = Paper(pid, title, names, abstract)
                        db.execute(
                            "INSERT INTO words (rowid, authors, title, abstract)"
                            " VALUES (?, ?, ?, ?)",
                            (rowid, *catalogue_words(paper)),
                        )
                db.executemany(
                    "UPDATE papers SET worded = 1 WHERE rowid = ?", [(r[0],) for r in rows]
                )
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        return True

    def word_papers(self, ids: Sequence[str]) -> None:
        """Word the rows of these papers the catalogue wrote, from any thread: an
        import's worker does, so that the window's update() finds them worded."""
        try:
            with self._reading() as db:
                rows = [rowid for _pid, rowid in _rows_of(db, ids, "AND +worded = 0")]
            for start in range(0, len(rows), STEP_ROWS):
                self._word(True, rows[start : start + STEP_ROWS])
        except sqlite3.Error as exc:
            raise WordsError(str(exc)) from exc

    def update(self, papers: Iterable[tuple[int, Paper]], gone: Iterable[str] = ()) -> None:
        """Know these (position, paper) pairs (papers new or written anew) at their
        positions and word the rows the catalogue wrote; forget the papers `gone`."""
        try:
            place = {paper.id: r for r, paper in papers}
            with self._reading() as db:
                found = [
                    (rowid, place[pid])
                    for pid, rowid in _rows_of(db, list(place), "AND +deleted = ''")
                ]
                dropped = [rowid for _pid, rowid in _rows_of(db, list(gone))]
            # those rows alone (an import's others: in the steps of syncing())
            for start in range(0, len(found) + len(dropped), STEP_ROWS):
                rows = [rowid for rowid, _r in found] + dropped
                self._word(True, rows[start : start + STEP_ROWS])
        except sqlite3.Error as exc:
            raise WordsError(str(exc)) from exc
        position = self._position
        top = max((rowid for rowid, _r in found), default=-1)
        if top >= len(position):
            position.extend([-1] * (top + 1 - len(position)))
        for rowid, r in found:
            position[rowid] = r
        for rowid in dropped:
            if rowid < len(position):
                position[rowid] = -1

    # -- searching ------------------------------------------------------------------

    def _positions(self) -> array[int]:
        return (self._source or self)._position

    def scores(self, terms: Sequence[str]) -> dict[int, float]:
        """Each paper holding all the word texts `terms`: its position and its BM25
        score (lower is better) over authors, title and abstract, a word in the title
        weighing as much as TITLE_WEIGHT in the abstract. (Only the papers holding
        them all are scored: the few a search found, not the many of its broadest word.)"""
        try:
            with self._reading() as db:
                return bm25_scores(db, terms, self._positions())
        except sqlite3.Error as exc:
            raise WordsError(str(exc)) from exc

    def find(self, words: str, column: str | None, n: int) -> int:
        """The papers (a bitset of positions, all below `n`) whose authors, title or
        abstract (or `column` of them) hold the word text `words`, the last word as a
        prefix."""
        try:
            with self._reading() as db:
                return bits_found(db, words, column, self._positions(), n)
        except sqlite3.Error as exc:
            (self._source or self)._remake = True
            raise WordsError(str(exc)) from exc


def _rows_of(db: sqlite3.Connection, ids: Sequence[str], where: str = "") -> list[tuple[str, int]]:
    """(id, rowid) of the papers of `ids` (and `where`: see catalogue_db._FROM), a
    query a hundred of them."""
    found: list[tuple[str, int]] = []
    for start in range(0, len(ids), STEP_ROWS):
        part = ids[start : start + STEP_ROWS]
        marks = ",".join("?" * len(part))
        found += db.execute(f"SELECT id, rowid FROM papers WHERE id IN ({marks}) {where}", part)
    return found


def bm25_scores(
    db: sqlite3.Connection, terms: Sequence[str], position: array[int]
) -> dict[int, float]:
    """IndexWords.scores() (and search_db's) in the words of `db`, each row known by its
    `position` (-1: none; a row past its end: another program's, not ours to know)."""
    if not terms:
        return {}
    expression = " AND ".join(f"({fts_query(words, None, COLUMNS)})" for words in terms)
    found = db.execute(
        f"SELECT rowid, bm25(words, {AUTHORS_WEIGHT}, {TITLE_WEIGHT}, 1.0)"
        " FROM words WHERE words MATCH ?",
        (expression,),
    ).fetchall()
    top = len(position)
    return {position[i]: score for i, score in found if i < top and position[i] >= 0}


def bits_found(
    db: sqlite3.Connection, words: str, column: str | None, position: array[int], n: int
) -> int:
    """IndexWords.find() (and search_db's) in the words of `db` (see bm25_scores), the
    papers known by their `position` among `n` (IndexError: a position not below `n`,
    a paper added since). A broad word's million rows are read as one text and taken
    through numpy (~50 ms at 1M papers; ~0.5 s one int at a time)."""
    if column is not None and column not in COLUMNS:
        raise ValueError(column)
    (found,) = db.execute(
        "SELECT group_concat(rowid) FROM words WHERE words MATCH ?",
        (fts_query(words, column, COLUMNS),),
    ).fetchone()
    if not found:
        return 0
    if len(found) < NUMPY_FROM:  # (a few thousand rows: no need to load numpy, ~0.1 s)
        top = len(position)
        known_rows = [r for i in map(int, found.split(",")) if i < top and (r := position[i]) >= 0]
        if known_rows and max(known_rows) >= n:
            raise IndexError(max(known_rows))
        return bits_of(known_rows, n)
    import numpy as np  # (preloaded by the window while idle)

    rows = np.fromstring(found, dtype=np.int64, sep=",")
    positions = np.array(position, dtype=np.int64)  # (a copy: `position` may grow)
    known = positions[rows[rows < len(positions)]]
    known = known[known >= 0]
    if not known.size:
        return 0
    if known.max() >= n:
        raise IndexError(int(known.max()))
    mask = np.zeros(n, dtype=np.uint8)
    mask[known] = 1
    return int.from_bytes(np.packbits(mask, bitorder="little").tobytes(), "little")
