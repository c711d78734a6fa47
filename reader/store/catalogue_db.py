"""The catalogue as a database: a local, disposable SQLite index of the library's papers.

The papers live in the library folder, one file per import (see paper_files.py);
this database, in the user's cache folder, holds them merged, one row a paper, so
that opening the library reads rows instead of parsing every file. It is kept in
step incrementally: a catalogue file it has not seen is read and merged in alone (a
paper's row is replaced only by a line of a later stamp). If a file it took in has
changed or gone, or the database fails its check, was made by other rules or
cannot be read, it is made anew from the files (a damaged one is set aside first).
Nothing the user wrote is in it."""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from itertools import islice
from pathlib import Path
from typing import Any

from reader.core import say
from reader.core.merge import MATCH_ORDER, MATCH_TABLES, match_keys
from reader.core.models import NOT_LOADED, Paper
from reader.core.paper_table import PaperTable
from reader.store.cachefile import cache_dir, library_name, owned, quick_check, set_aside
from reader.store.catalogue_words import AUTHORS_SEP, WORDS_SQL, IndexWords
from reader.store.paper_files import FileChanged, PapersFile, catalogue_files, scan_file

#: 2: pdf, keywords and primary_area; 3: papers deleted; 4: abstracts in a table of
#: their own (a row of papers is small: the list's columns read quickly at 1M papers)
#: 5: the words of the papers, for full-text search (reader.store.catalogue_words)
#: 6: the listed papers' ids in their order, in an index of their own (read at open)
#: 7: the part of the take each row came in (papers.taken)
#: 8: the keys an import matches papers on, indexed, in columns of papers
#: 9: those keys in a table of their own (the check of papers at open reads none)
#: (an index of other rules is made anew)
SCHEMA = 9
#: a Paper's fields in order, as the columns of papers hold them (the abstract: 1 if
#: the paper has one, its text in abstracts)
_COLUMNS = (
    "id, title, authors, has_abstract, venue, year, url, presentation, track, doi, arxiv,"
    " source, title_derived, added, pdf, keywords, primary_area"
)
#: the columns of keys: a paper's venue, then reader.core.merge.match_keys (None: none)
_KEYS = ("venue", "doi", "arxiv", "title", "abstract", "math")
_KEYS_SQL = (
    "CREATE TABLE keys (rowid INTEGER PRIMARY KEY, venue TEXT, doi TEXT, arxiv TEXT,"
    " title INTEGER, abstract INTEGER, math INTEGER);\n"
    + "\n".join(f"CREATE INDEX by_{key} ON keys({key}) WHERE {key} IS NOT NULL;" for key in _KEYS)
)
#: how Matcher.find() looks for a paper in each table of reader.core.merge.MATCH_TABLES
#: (and "venue"): the column of keys of its kind, and what else its papers are
_FIND = {
    name: (_KEYS[MATCH_ORDER.index(kind) + 1], f"AND p.{only} = 1" if only else "")
    for name, (kind, only) in MATCH_TABLES.items()
} | {"venue": ("venue", "")}
_SCHEMA_SQL = f"""
CREATE TABLE files (name TEXT PRIMARY KEY, size INTEGER NOT NULL, mtime INTEGER NOT NULL);
CREATE TABLE papers (
    rowid INTEGER PRIMARY KEY, id TEXT UNIQUE NOT NULL, rank TEXT NOT NULL,
    deleted TEXT NOT NULL DEFAULT '',
    title TEXT NOT NULL, authors TEXT NOT NULL, has_abstract INTEGER NOT NULL,
    venue TEXT NOT NULL, year INTEGER, url TEXT NOT NULL, presentation TEXT NOT NULL,
    track TEXT NOT NULL, doi TEXT NOT NULL, arxiv TEXT NOT NULL, source TEXT NOT NULL,
    title_derived INTEGER NOT NULL, added TEXT NOT NULL, pdf TEXT NOT NULL,
    keywords TEXT NOT NULL, primary_area TEXT NOT NULL,
    worded INTEGER NOT NULL DEFAULT 0, taken INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE abstracts (rowid INTEGER PRIMARY KEY, text TEXT NOT NULL);
CREATE INDEX listed ON papers(deleted, rowid, id);
CREATE INDEX taking ON papers(taken, rowid);
{_KEYS_SQL}
{WORDS_SQL}
PRAGMA user_version={SCHEMA};
"""
_UPSERT = f"""
INSERT INTO papers (rank, taken, {_COLUMNS})
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (id) DO UPDATE SET
    rank = excluded.rank, taken = excluded.taken, title = excluded.title,
    authors = excluded.authors, has_abstract = excluded.has_abstract, venue = excluded.venue,
    year = excluded.year,
    url = excluded.url, presentation = excluded.presentation, track = excluded.track,
    doi = excluded.doi, arxiv = excluded.arxiv, source = excluded.source,
    title_derived = excluded.title_derived, added = excluded.added, pdf = excluded.pdf,
    keywords = excluded.keywords, primary_area = excluded.primary_area, deleted = '',
    worded = 0
WHERE excluded.rank >= papers.rank
"""
#: the abstract of a paper whose line was taken (its row has the line's rank)
_ABSTRACT = """
INSERT OR REPLACE INTO abstracts (rowid, text)
SELECT rowid, ?1 FROM papers WHERE id = ?2 AND rank = ?3 AND ?1 != ''
"""
#: the keys of a paper whose line was taken (see _ABSTRACT)
_KEYED = f"""
INSERT OR REPLACE INTO keys (rowid, {", ".join(_KEYS)})
SELECT rowid, ?3, ?4, ?5, ?6, ?7, ?8 FROM papers WHERE id = ?1 AND rank = ?2
"""
_NO_ABSTRACT = """
DELETE FROM abstracts WHERE rowid = (SELECT rowid FROM papers WHERE id = ?2 AND rank = ?3)
AND ?1 = ''
"""
#: a paper deleted (to the trash, or purged): its row kept, marked; one the index has
#: not seen yet gets an empty row, no title and no abstract, which no paper has (its
#: line, of an earlier stamp, fills it then)
_DELETE = f"""
INSERT INTO papers (rank, taken, {_COLUMNS}, deleted)
VALUES (?, ?, ?, '', '', 0, '', NULL, '', '', '', '', '', '', 0, '', '', '', '', ?)
ON CONFLICT (id) DO UPDATE SET
    rank = excluded.rank, taken = excluded.taken, deleted = excluded.deleted, worded = 0
WHERE excluded.rank >= papers.rank
"""
#: the line of a paper of an earlier stamp than its deletion: its fields, still deleted
_FILL = f"""
UPDATE papers SET (taken, {_COLUMNS}) = (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
WHERE id = ? AND title = '' AND has_abstract = 0 AND deleted != '' AND rank > ?
RETURNING rowid
"""
_EMPTIED = (
    "BEGIN IMMEDIATE; DELETE FROM papers; DELETE FROM abstracts; DELETE FROM words;"
    " DELETE FROM keys;"
    " DELETE FROM files; COMMIT;"
)
_EMPTY = "SELECT id FROM papers WHERE title = '' AND has_abstract = 0 AND deleted != ''"
#: the fields of a Paper, in order (as _COLUMNS names them)
_FIELDS = tuple(_COLUMNS.split(", "))
#: bytes the write-ahead log is cut back to (a whole import passes through it)
WAL_LIMIT = 64 << 20
#: papers of a file written per statement as it is taken in
TAKE_PART = 1_000
#: catalogue files to take in weighing more than this (an index made anew at 1M
#: papers: half a minute) are taken on a thread, the window shown meanwhile...
CATCH_UP_BYTES = 64 << 20
#: ...once this many papers are in (a second or two)
FIRST_PAPERS = 50_000
#: seconds stop_taking() waits for the thread (a part is ~30 ms)
STOP_WAIT_S = 1.0
#: ids looked up per query when fetching abstracts
FETCH_IDS = 500
#: a library whose catalogue files weigh less than this is indexed in memory at each
#: open: reading its files is quicker than finding the cache folder (platformdirs)
#: and naming a file in it (hashlib, OpenSSL) before the first paint
SMALL_LIBRARY_BYTES = 1 << 20


#: the files SQLite keeps beside a database in WAL mode
_AUX = ("-wal", "-shm")
#: beside an index whose check found it damaged after it was opened
_SUSPECT = ".damaged"
#: between the ids ids() reads joined
_IDS_SEP = "\x1f"


def _ours(db: sqlite3.Connection) -> bool:
    """Whether `db` looks like a catalogue's index of an earlier version (its files and
    papers tables), not some other program's database."""
    names = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    return {"files", "papers"} <= names


def _listed(abstracts: bool) -> str:
    """The columns of a Paper's fields of papers (as p), its abstract read (from
    abstracts, as a) only if `abstracts`."""
    columns = ", ".join(f"p.{name}" for name in _FIELDS)
    return columns.replace("p.has_abstract", "coalesce(a.text, '')") if abstracts else columns


#: what _listed() reads from
_FROM = "papers AS p LEFT JOIN abstracts AS a ON a.rowid = p.rowid"
# A query for some papers by id (or by a key) that also asks `deleted = ''` writes it
# `+deleted = ''`: SQLite (knowing nothing of how many papers are deleted) would go
# through the index of the listed papers, every one of them (~0.15 s at 1M), instead
# of looking the few up (the unary + keeps a term from choosing an index).
#: the papers (not deleted) by the keys an import finds them by
_KEYED_FROM = "keys AS k JOIN papers AS p ON p.rowid = k.rowid AND +p.deleted = ''"


def _paper(row: tuple[Any, ...]) -> Paper:
    """The Paper of a row of _listed()'s columns (an abstract not read: NOT_LOADED)."""
    (pid, title, authors, abstract, venue, year, url, presentation, track, doi, arxiv,
     source, derived, added, pdf, keywords, area) = row  # fmt: skip
    if not isinstance(abstract, str):
        abstract = NOT_LOADED if abstract else ""
    sep = AUTHORS_SEP
    return Paper(
        pid, title, tuple(authors.split(sep)) if authors else (), abstract, venue, year, url,
        presentation, track, doi, arxiv, source, bool(derived), added, pdf,
        tuple(keywords.split(sep)) if keywords else (), area,
    )  # fmt: skip


def _keyed(rank: str, papers: Iterable[Paper]) -> Iterator[tuple[object, ...]]:
    """The _KEYED rows of `papers` (taken with `rank`)."""
    for p in papers:
        yield (p.id, rank, p.venue or None, *match_keys(p))


def _rows(rank: str, taken: int, papers: Iterable[Paper]) -> Iterator[tuple[object, ...]]:
    sep = AUTHORS_SEP
    for p in papers:
        yield (
            rank, taken, p.id, p.title, sep.join(p.authors), int(p.abstract != ""), p.venue,
            p.year, p.url, p.presentation, p.track, p.doi, p.arxiv, p.source,
            int(p.title_derived), p.added, p.pdf, sep.join(p.keywords), p.primary_area,
        )  # fmt: skip


class CatalogueDB:
    """One library's papers in SQLite (with no path: in memory, made anew each time)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self._db: sqlite3.Connection | None = None
        #: an import's worker thread adds while the GUI thread may read
        self._mutex = threading.Lock()
        #: a second connection to the file, for the abstracts fetched while an import's
        #: worker writes (WAL: a reader does not wait for a writer), and its lock
        self._readers: dict[int, sqlite3.Connection] = {}
        self._reading = threading.Lock()
        #: what went wrong with the database and was mended, for the user
        self.problems: list[str] = []
        #: papers taken in from the library's files (as sync() goes: from any thread)
        self.taken = 0
        #: load() may list the papers taken in first, the others taken on a thread (a
        #: window's: a command waits for them all)
        self.opens_early = False
        #: the thread taking in the files load() did not wait for (see taken_since())
        self.catching_up: threading.Thread | None = None
        #: stop_taking() was called
        self._stopping = False
        #: the number of the last part taken in (see _next_taken)
        self._last_taken = 0
        #: the last row load() or taken_since() read: (its part's number, its rowid)
        self.listed_to = (0, 0)
        #: PRAGMA quick_check of the file found (see load())
        self._check: Future[str] | None = None

    @classmethod
    def for_library(cls, folder: Path) -> CatalogueDB:
        weight = sum(size for size, _mtime in catalogue_files(folder).values())
        if weight < SMALL_LIBRARY_BYTES:
            return cls(None)
        return cls(cache_dir() / "catalogues" / f"{library_name(folder)}.sqlite3")

    def close(self) -> None:
        with self._mutex, self._reading:
            self._close_reader()
            if self._db is not None:
                self._db.close()
                self._db = None

    def _close_reader(self) -> None:
        readers, self._readers = self._readers, {}
        for reader in readers.values():
            reader.close()

    # -- the connection -------------------------------------------------------

    def _connection(self) -> sqlite3.Connection:
        if self._db is None:
            try:
                self._db = self._open()
            except (sqlite3.Error, OSError) as exc:
                self._db = self._open_again(exc)
        return self._db

    def _open(self) -> sqlite3.Connection:
        if self.path is None:
            return self._made(
                owned(
                    self, sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
                )
            )
        self.path.parent.mkdir(parents=True, exist_ok=True)
        db = owned(
            self,
            sqlite3.connect(self.path, timeout=30, isolation_level=None, check_same_thread=False),
        )
        try:
            suspect = self.path.with_name(self.path.name + _SUSPECT)
            if suspect.exists():  # (its last check failed: see _check_all)
                found = suspect.read_text(encoding="utf-8", errors="replace")[:200]
                suspect.unlink()
                raise sqlite3.DatabaseError(found)
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version == 0 and not db.execute("SELECT 1 FROM sqlite_master").fetchone():
                return self._made(db)
            if 0 < version < SCHEMA and _ours(db):  # (an earlier version's: made anew, quietly)
                db.close()
                for made in (self.path, *(self.path.with_name(self.path.name + x) for x in _AUX)):
                    made.unlink(missing_ok=True)
                return self._open()
            if version != SCHEMA:
                raise sqlite3.DatabaseError(f"made by other rules (version {version})")
        except BaseException:
            db.close()
            raise
        db.execute("PRAGMA synchronous=OFF")  # a cache: a torn one fails its check
        db.execute(f"PRAGMA journal_size_limit={WAL_LIMIT}")
        # the papers' rows and their indexes (~0.3 s at 1M papers): on a thread of its
        # own while load() reads their ids, which it then trusts only if this says ok;
        # then the rest of the file, the abstracts and the words (~4 s at 1M), after
        # the first paint: one found damaged is set aside at the next open
        pool = ThreadPoolExecutor(1, thread_name_prefix="catalogue check")
        self._check = pool.submit(quick_check, self.path, 30, "papers")
        pool.shutdown(wait=False)
        # (a daemon: a command that is done does not wait for it; read-only, it may stop
        # anywhere)
        threading.Thread(
            target=self._check_all, args=(self.path,), name="catalogue check", daemon=True
        ).start()
        return db

    def _check_all(self, path: Path) -> None:
        """PRAGMA quick_check of the whole file, once the papers' rows were checked; if it
        fails, a mark beside it that
        has the next open set it aside and make it anew (it is not used for long:
        what the list shows was checked, and a page that cannot be read is an error
        of its own)."""
        check = self._check
        if check is not None:
            check.exception()  # (waits: one check at a time)
        try:
            found = quick_check(path, 30)
        except (sqlite3.Error, OSError) as exc:
            found = str(exc) or type(exc).__name__
        if found != "ok":
            with contextlib.suppress(OSError):
                path.with_name(path.name + _SUSPECT).write_text(found, encoding="utf-8")

    @staticmethod
    def _made(db: sqlite3.Connection) -> sqlite3.Connection:
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=OFF")
            # (the write-ahead log of a big import is cut back once copied in)
            db.execute(f"PRAGMA journal_size_limit={WAL_LIMIT}")
            db.executescript(f"BEGIN IMMEDIATE; {_SCHEMA_SQL} COMMIT;")
        except BaseException:
            db.close()
            raise
        return db

    def _open_again(self, exc: BaseException) -> sqlite3.Connection:
        """After `exc`: the database set aside and made anew (in memory if the cache
        folder cannot hold one)."""
        if self.path is not None and self.path.exists():
            aside = set_aside(self.path)
            self.problems.append(
                say._(
                    "The catalogue's index {path} could not be used ({error}); it was "
                    "set aside as {aside} and is made anew from the library folder."
                ).format(path=self.path, error=exc, aside=aside.name)
            )
        try:
            return self._open()
        except (sqlite3.Error, OSError) as again:
            self.problems.append(
                say._(
                    "The catalogue's index cannot be kept in {path} ({error}); it is "
                    "made anew from the library folder at each start."
                ).format(path=self.path, error=again)
            )
            self.path = None
            return self._open()

    # -- keeping in step --------------------------------------------------------

    def load(self, folder: Path, problems: list[str]) -> PaperTable:
        """sync(), then the papers as a table read from here: the papers' rows of the
        index found in the cache folder are checked (PRAGMA quick_check) while their
        ids are read, and kept only if sound (the rest of the file is checked after:
        see _check_all); a damaged index is set aside and made anew, and read again.
        With `opens_early`, when files weighing more than CATCH_UP_BYTES are to be
        taken in (an index made anew), the table holds the first FIRST_PAPERS taken;
        the others are taken on a thread of their own (`catching_up`), for
        taken_since()."""
        if self.opens_early and self._weight_to_take(folder) > CATCH_UP_BYTES:
            return self._load_catching_up(folder, problems)
        self.sync(folder, problems)
        try:
            # (the table made while the check runs on: ~0.5 s at 1M papers)
            table, failure = PaperTable(self.ids(), self), ""
        except sqlite3.DatabaseError as exc:  # (damaged: the check says so too)
            table, failure = PaperTable((), self), str(exc)
        failure = self._checked() or failure
        if failure:
            del table
            self._made_anew(failure)
            self.sync(folder, problems)
            table = PaperTable(self.ids(), self)
        return table

    def _weight_to_take(self, folder: Path) -> int:
        """The bytes of the catalogue files sync() would take in."""
        on_disk = catalogue_files(folder)
        with self._mutex:
            known = {name: (size, mtime) for name, size, mtime in self._connection().execute(
                "SELECT * FROM files"
            )}  # fmt: skip
        if any(on_disk.get(name) != stat for name, stat in known.items()):
            known = {}
        return sum(size for name, (size, _mtime) in on_disk.items() if name not in known)

    def _made_anew(self, failure: str) -> None:
        with self._mutex, self._reading:
            self._close_reader()
            if self._db is not None:
                self._db.close()
            self._db = self._open_again(sqlite3.DatabaseError(failure))

    def _load_catching_up(self, folder: Path, problems: list[str]) -> PaperTable:
        failure = self._checked()  # (the index is checked before it is written to)
        if failure:
            self._made_anew(failure)
        self.catching_up = threading.Thread(
            target=self._catch_up, args=(folder, problems), name="catalogue", daemon=True
        )
        self.catching_up.start()
        while self.catching_up.is_alive() and self.taken < FIRST_PAPERS:
            self.catching_up.join(0.01)
        ids, taken = self._ids_to()
        self.listed_to = (taken, 1 << 62)  # (a part is committed whole: all of it read)
        return PaperTable(ids, self)

    def _catch_up(self, folder: Path, problems: list[str]) -> None:
        try:
            self.sync(folder, problems)
        except (sqlite3.Error, OSError) as exc:
            problems.append(
                say._(
                    "The catalogue's index could not take in the library's files: {error}"
                ).format(error=exc)
            )

    def taking(self) -> bool:
        """Whether catching_up still takes files in."""
        return self.catching_up is not None and self.catching_up.is_alive()

    def stop_taking(self) -> None:
        """Stop catching_up after the part it takes (the window closes: what is left of
        the file is taken at the next open), and wait for it a second at most."""
        self._stopping = True
        if self.catching_up is not None:
            self.catching_up.join(STOP_WAIT_S)

    def taken_since(self, limit: int) -> tuple[list[str], list[str], bool]:
        """What catching_up took in since load() or the last call, up to `limit` rows:
        the ids of the papers new or written anew (in the order taken), of those
        deleted; and whether the take is done and they are the last of it (nothing
        and True when load() took every file before it returned)."""
        if self.catching_up is None:
            return [], [], True
        done = not self.catching_up.is_alive()
        with self.reading() as db:
            found = db.execute(
                "SELECT taken, rowid, deleted, id FROM papers"
                " WHERE (taken, rowid) > (?, ?) ORDER BY taken, rowid LIMIT ?",
                (*self.listed_to, limit),
            ).fetchall()
        if found:
            self.listed_to = found[-1][:2]
        taken = [pid for _t, _r, deleted, pid in found if not deleted]
        return (
            taken,
            [pid for _t, _r, deleted, pid in found if deleted],
            done and len(found) < limit,
        )

    def _checked(self) -> str:
        """What the check of the file found wrong ("" if nothing, or if not checked)."""
        check, self._check = self._check, None
        if check is None:
            return ""
        try:
            found = check.result()
        except (sqlite3.Error, OSError) as exc:
            return str(exc) or type(exc).__name__
        return "" if found == "ok" else found

    def sync(self, folder: Path, problems: list[str]) -> None:
        """Bring the index in step with the catalogue files of library `folder`: the
        files it has not seen merged in, or all of them anew if one it took in has
        changed or gone. What is wrong with a file is told in `problems`. A file's
        papers are taken a part at a time (see _take): other threads read and write
        between the parts. (While load()'s catching_up thread takes them, it alone
        does: this returns.)"""
        catching_up = self.catching_up
        if catching_up not in (None, threading.current_thread()) and catching_up.is_alive():
            return
        try:
            self._sync(folder, problems)
        except sqlite3.DatabaseError as exc:  # (damaged while read: made anew)
            with self._mutex, self._reading:
                self._close_reader()
                if self._db is not None:
                    self._db.close()
                self._db = self._open_again(exc)
            self._sync(folder, problems)

    def _sync(self, folder: Path, problems: list[str]) -> None:
        on_disk = catalogue_files(folder)
        with self._mutex:
            db = self._connection()
            known = {name: (size, mtime) for name, size, mtime in db.execute("SELECT * FROM files")}
            if any(on_disk.get(name) != stat for name, stat in known.items()):
                db.executescript(_EMPTIED)
                known = {}
        # each file looked over (its stamp: the order they are taken in), then its papers
        # read as they are taken: never a file's papers all in memory at once
        found = [scan_file(folder, name, problems) for name in on_disk if name not in known]
        new = sorted((f for f in found if f is not None), key=lambda f: (f.stamp, f.name))
        for papers_file in new:
            try:
                self._take(papers_file, on_disk[papers_file.name])
            except FileChanged:
                continue  # (changed since it was looked over: taken at the next open)

    def add(self, folder: Path, name: str, papers_file: PapersFile) -> None:
        """Take in the catalogue file `name` just written (`papers_file`: what it holds)."""
        stat = catalogue_files(folder).get(name)
        if stat is not None:  # (else gone already: the next sync sees what is there)
            self._take(papers_file, stat)

    def _take(self, papers_file: PapersFile, stat: tuple[int, int]) -> None:
        """Take in a file's papers, TAKE_PART a transaction; the file is known as taken
        once its last part is in (one cut short is taken again by the next sync(): a
        line taken twice changes nothing)."""
        rank = f"{papers_file.stamp}\x00{papers_file.name}"
        # the papers deleted before their line came (by a file of a later stamp): rows
        # without fields, which their lines fill (in one pass over the papers)
        with self._mutex:
            empty = {pid for (pid,) in self._connection().execute(_EMPTY)}
        filling: list[Paper] = []
        papers = iter(papers_file.papers)
        while True:
            if self._stopping:  # (the window closes: the rest at the next open)
                return
            try:
                part = list(islice(papers, TAKE_PART))  # (read before the lock is taken)
            except FileChanged:
                # not what was looked over: its parts taken may hold papers it no longer
                # does, or overwrite others' lines; the index is emptied, made anew by
                # the next sync()
                with self._mutex:
                    self._connection().executescript(_EMPTIED)
                raise
            filling += (p for p in part if p.id in empty)
            with self._mutex:
                db = self._connection()
                db.execute("BEGIN IMMEDIATE")
                try:
                    taken = self._next_taken(db)
                    db.executemany(_UPSERT, _rows(rank, taken, part))
                    texts = [(p.abstract, p.id, rank) for p in part]
                    db.executemany(_ABSTRACT, texts)
                    db.executemany(_NO_ABSTRACT, texts)
                    db.executemany(_KEYED, _keyed(rank, part))
                    if not part:
                        self._taken_whole(db, papers_file, stat, (rank, taken), filling)
                    db.execute("COMMIT")
                except BaseException:
                    db.execute("ROLLBACK")
                    raise
            self.taken += len(part)
            if not part:
                return

    @staticmethod
    def _taken_whole(
        db: sqlite3.Connection,
        papers_file: PapersFile,
        stat: tuple[int, int],
        ranked: tuple[str, int],
        filling: list[Paper],
    ) -> None:
        """The last of a file's take: the deleted papers its lines fill, its deletions,
        and the file known as taken."""
        rank, taken = ranked
        for paper in filling:
            (row,) = _rows(rank, taken, [paper])
            filled = db.execute(_FILL, (*row[1:], paper.id, rank)).fetchone()
            if filled is not None and paper.abstract:
                db.execute(
                    "INSERT OR REPLACE INTO abstracts VALUES (?, ?)", (filled[0], paper.abstract)
                )
        gone = papers_file.deleted.items()
        db.executemany(_DELETE, ((rank, taken, pid, how) for pid, how in gone))
        db.execute("INSERT OR REPLACE INTO files VALUES (?, ?, ?)", (papers_file.name, *stat))

    # -- the words (reader.store.catalogue_words) --------------------------------

    def words(self) -> IndexWords:
        """The papers' words, for the search index (reader.core.index)."""
        return IndexWords(self)

    @contextlib.contextmanager
    def writing(self, wait: bool = True) -> Iterator[sqlite3.Connection | None]:
        """The connection, held for writing (None: another thread writes, and not
        `wait`)."""
        if not self._mutex.acquire(blocking=wait):
            yield None
            return
        try:
            yield self._connection()
        finally:
            self._mutex.release()

    @contextlib.contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """A connection to read with, from any thread (see abstracts())."""
        yield self._read_connection() or self._connection()

    # -- reading ----------------------------------------------------------------

    def papers(self, deleted: str = "", *, abstracts: bool = False) -> list[Paper]:
        """Every paper, in the order they entered the index (`deleted`: those in the
        trash, paper_files.TRASH, instead): as the library lists them, each abstract
        models.NOT_LOADED (or "", none), unless `abstracts`."""
        with self._mutex:
            cursor = self._connection().execute(
                f"SELECT {_listed(abstracts)} FROM {_FROM}"
                " WHERE p.deleted = ? AND (p.title != '' OR p.has_abstract) ORDER BY p.rowid",
                (deleted,),
            )
            return [_paper(row) for row in cursor]

    def rows(self, ids: Sequence[str]) -> dict[str, Paper]:
        """The papers of `ids` (not deleted) as the library lists them, by id; an id
        the index does not hold is left out. From any thread, as abstracts()."""
        found = self._by_id(_listed(False), ids, "AND +p.deleted = ''")
        return {p.id: p for p in map(_paper, found)}

    def column(self, field: str) -> Iterator[tuple[str, Any]]:
        """(id, value of `field`) of every paper (not deleted): a field of Paper, or
        "abstract" (NOT_LOADED if it has one, else ""). From any thread."""
        name = "has_abstract" if field == "abstract" else field
        if name not in _FIELDS:
            raise ValueError(f"not a column: {field!r}")
        db = self._read_connection() or self._connection()
        rows = db.execute(f"SELECT id, {name} FROM papers WHERE deleted = ''").fetchall()
        if field == "authors":
            return ((pid, tuple(a.split(AUTHORS_SEP)) if a else ()) for pid, a in rows)
        if field == "abstract":
            return ((pid, NOT_LOADED if a else "") for pid, a in rows)
        return iter(rows)

    def holds(self, table: str) -> bool:
        """False if no paper (not deleted) is in the import's match table `table`
        (reader.core.merge.Matcher; "abstract-derived": if none has an abstract). From
        any thread."""
        key = _FIND[table][0]  # (not asking for a derived title: none may be among 1M)
        db = self._read_connection() or self._connection()
        query = f"SELECT 1 FROM {_KEYED_FROM} WHERE k.{key} IS NOT NULL LIMIT 1"
        return db.execute(query).fetchone() is not None

    def find(self, table: str, key: object) -> str | None:
        """The first paper (not deleted) whose key in the import's match table `table`
        is `key` (reader.core.merge.Matcher). From any thread."""
        column, more = _FIND[table]
        db = self._read_connection() or self._connection()
        query = f"SELECT p.id FROM {_KEYED_FROM} WHERE k.{column} = ? {more} ORDER BY k.rowid"
        row = db.execute(f"{query} LIMIT 1", (key,)).fetchone()
        return row[0] if row is not None else None

    def abstracts(self, ids: Iterable[str]) -> dict[str, str]:
        """The abstracts of the papers `ids` (those in the trash too), by id; an id the
        index does not hold is left out. From any thread: while an import's worker
        writes, this reads what was there before (a file's index: a connection of its
        own; one in memory is read between the writer's rows)."""
        return dict(self._by_id("p.id, coalesce(a.text, '')", list(dict.fromkeys(ids))))

    def _by_id(self, columns: str, ids: Sequence[str], where: str = "") -> list[tuple[Any, ...]]:
        found: list[tuple[Any, ...]] = []
        db = self._read_connection() or self._connection()
        for start in range(0, len(ids), FETCH_IDS):
            part = ids[start : start + FETCH_IDS]
            marks = ",".join("?" * len(part))
            found += db.execute(
                f"SELECT {columns} FROM {_FROM} WHERE p.id IN ({marks}) {where}", part
            )
        return found

    def _read_connection(self) -> sqlite3.Connection | None:
        """The calling thread's own connection to a file's index, reading only (WAL: it
        waits neither for a writer nor for another thread's reads); None: the index is
        in memory, read through the one connection (SQLite serializes its calls)."""
        if self.path is None:
            return None
        me = threading.get_ident()
        reader = self._readers.get(me)
        if reader is not None:
            return reader
        if self._db is None:  # (made, checked or set aside first: once)
            with self._mutex:
                self._connection()
        with self._reading:
            if self.path is None:
                return None
            alive = {t.ident for t in threading.enumerate()}
            for gone in [i for i in self._readers if i not in alive]:  # (threads ended)
                self._readers.pop(gone).close()
            reader = self._readers[me] = owned(
                self,
                sqlite3.connect(
                    f"{self.path.as_uri()}?mode=ro", uri=True, timeout=30, check_same_thread=False
                ),
            )
        return reader

    def ids(self) -> list[str]:
        """The ids of papers(), in its order (without reading the papers)."""
        return self._ids_to()[0]

    def _ids_to(self) -> tuple[list[str], int]:
        """ids(), and the number of the last part taken in then (see _next_taken)."""
        with self._mutex:
            db = self._connection()
            # one string split (~0.3 s at 1M papers; a row at a time: ~0.6 s)
            count, joined, taken = db.execute(
                f"SELECT count(*), group_concat(id, char({ord(_IDS_SEP)})),"
                " (SELECT coalesce(max(taken), 0) FROM papers)"
                " FROM (SELECT id FROM papers WHERE deleted = '' ORDER BY rowid)"
            ).fetchone()
            ids = joined.split(_IDS_SEP) if count else []
            if len(ids) != count:  # (an id holding the separator)
                found = db.execute("SELECT id FROM papers WHERE deleted = '' ORDER BY rowid")
                ids = [pid for (pid,) in found]
            return ids, taken

    def _next_taken(self, db: sqlite3.Connection) -> int:
        """The number of a part taken in now: above every other, even those of rows
        since emptied (what taken_since() follows)."""
        top = int(db.execute("SELECT coalesce(max(taken), 0) FROM papers").fetchone()[0])
        self._last_taken = max(self._last_taken, top) + 1
        return self._last_taken

    def count(self) -> int:
        with self._mutex:
            found = self._connection().execute("SELECT count(*) FROM papers WHERE deleted = ''")
            return int(found.fetchone()[0])
