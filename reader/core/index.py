"""What makes search fast at 100k papers: the catalogue's words in SQLite FTS5, bitsets,
a result cache."""

# A query is evaluated over sets of papers, not paper by paper: a set is a Python
# int used as a bitset (bit r: record r), so AND/OR/NOT over 100k papers cost
# microseconds. Each text term's result is cached with the set it is exact for, so
# a term that extends a cached one ("diffu" after "diff") is looked for only among
# that one's matches, and deleting characters finds the answer cached. Catalogue
# words are found by the full-text index (CatalogueWords: reader.store.search_db),
# brought in step with the catalogue in idle time; what the user wrote is few texts,
# scanned. Words match as reader.core.words says: whole words and word prefixes.

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Generator, Hashable, Iterable, Sequence
from concurrent.futures import Future, ThreadPoolExecutor, wait
from functools import partial
from typing import Any, Protocol, TypeVar, cast

from reader.core.bitsets import bits_of, groups, one_of, pack, rids
from reader.core.library import Library
from reader.core.models import NO_ANNOTATION, Paper, Status
from reader.core.orders import Orders, id_tables
from reader.core.paper_table import WAITING
from reader.core.query import And, Everything, Field, Node, Not, Or, Query, Text
from reader.core.steps import run_steps
from reader.core.text import search_key
from reader.core.user_texts import STATUS, UserTexts
from reader.core.words import contains, word_text

CACHE_SIZE = 256
#: papers per part of making the index in steps (~15 ms a part at 100k papers)
MAKE_PART = 20_000
#: what each word of a search the user's own tags, note or highlights hold adds to a
#: paper's relevance (a BM25 score: a strong match in a title is ~5-10)
OWN_WORDS_WEIGHT = 8.0
#: more papers than this found are not ranked by relevance (ranking them costs the
#: GUI thread ~10 ms a 1,000; a few more words narrow them)
RANK_MAX = 3_000
#: seconds a step of making the index waits for the columns read on their thread
COLUMNS_WAIT = 0.004
#: seconds a search that needs every word waits at a time while the catalogue's thread
#: takes files in (see WAITING)
WAIT_S = 0.02
#: papers whose catalogue words are indexed anew at once (~10 ms); more (an import)
#: in steps of prepare()
REWORD_AT_ONCE = 100
#: where a field's words are: None anywhere, 0 the authors, 1 the title
Line = int | None
_COLUMNS = ("authors", "title")
#: the keys of each facet's grouping among the derived values (SearchIndex._derive)
_GROUPS = {"tag": "tag_nodes", "venue": ("values", "venue"), "year": ("values", "year")}
_CATALOGUE_ONLY = frozenset(
    {_GROUPS["venue"], _GROUPS["year"], "abstract"}
)  # (of the catalogue alone)

_T = TypeVar("_T")


class CatalogueWords(Protocol):
    """The words of a catalogue's authors, titles and abstracts, searched
    (reader.store.search_db.SearchDB); a paper is known by its position (here, its
    record number). Errors are RuntimeErrors."""

    def syncing(
        self, ids: Sequence[str], whole: Callable[[Sequence[str]], Sequence[Paper]]
    ) -> Generator[str | None, None, None]:
        """Bring the words in step with the papers of `ids` (all of them, each at its
        position; `whole` reads some of them with their abstracts), a step per yield
        (WAITING: a step that had to wait for another thread's writes)."""
        ...

    def update(self, papers: Iterable[tuple[int, Paper]], gone: Iterable[str] = ()) -> None:
        """Take in these (position, paper) pairs (new or changed papers, with their
        abstracts) and forget the papers `gone` (ids)."""
        ...

    def find(self, words: str, column: str | None, n: int) -> int:
        """The papers holding the word text `words` (in `column`): a bitset of their
        positions, all below `n` (IndexError: a paper at `n` or after)."""
        ...

    def scores(self, terms: Sequence[str]) -> dict[int, float]:
        """Each paper holding all the word texts `terms`, by position: its BM25 score
        (lower is better)."""
        ...

    def reader(self) -> CatalogueWords | None:
        """A twin for another thread, whose find() answers as this one's would (None:
        there is none; searches stay on this thread)."""
        ...


#: what fetch_words() found: the index's words generation then, and each term's
#: records (a bitset)
Fetched = tuple[int, list[tuple[str, "Line", int]]]


class SearchIndex:
    """Every paper of a library as sets the query language combines; kept current by
    update(). Call prepare() in idle time until it returns True: search is exact
    either way (a search finishes the preparing first)."""

    def __init__(self, library: Library, catalogue: CatalogueWords) -> None:
        self._lib, self._catalogue = library, catalogue
        run_steps(self._made())

    @classmethod
    def in_steps(
        cls, library: Library, catalogue: CatalogueWords
    ) -> Generator[None, None, SearchIndex]:
        """The index made a part at a time (~15 ms each at 100k papers): a generator that
        yields between the parts and returns the index. The papers are read at the first
        part, the annotations at a later one: edits made meanwhile are for update()."""
        index = cls.__new__(cls)
        index._lib, index._catalogue = library, catalogue
        yield from index._made(columns=True)
        return index

    # -- building ---------------------------------------------------------------

    def _made(self, columns: bool = False) -> Generator[None, None, None]:
        """Make the index from the library, yielding between the parts; with `columns`,
        read what the catalogue's columns decide too (what the window's facets count)."""
        ids = self._lib.paper_ids()
        n = len(ids)
        self._given, self._ids, self._rid = yield from id_tables(ids, MAKE_PART)
        #: the catalogue's writes of each paper seen (Library.written): its words then
        self._seen: dict[str, int] = {}
        #: bringing the catalogue's words in step (None: done), and the papers whose
        #: words changed meanwhile (taken in when it is done)
        self._sync: Generator[str | None, None, None] | None = self._syncing()
        #: the last prepare() stopped to wait for the catalogue's thread (see WAITING)
        self.waiting = False
        self._unsynced: dict[str, None] = {}
        #: counts the changes of the catalogue's words: a fetch from before one is stale
        self._generation = 0
        self._fetcher: tuple[ThreadPoolExecutor, CatalogueWords] | None = None
        self._alive = (1 << n) - 1
        user = self._user = UserTexts(n)
        annotations = list(self._lib.annotations().items())
        step = max(1, MAKE_PART // 4)  # (~5 us an annotation)
        for start in range(0, len(annotations), step):
            yield
            user.take_statuses(annotations[start : start + step], self._rid)
        self._cache: dict[tuple[Line, str], tuple[int, int]] = {}
        self._derived: dict[Hashable, Any] = {}
        #: the catalogue's changes taken in (a count), and the venue and year groups
        #: being made on a thread at one of them (see prepare_tallies)
        self._catalogue_changes = 0
        self._regrouping: tuple[int, Future[dict[Hashable, Any]]] | None = None
        #: the tags' groups being made a step at a time (see prepare_tallies)
        self._tag_grouping: Generator[None, None, dict[str, int]] | None = None
        self._lists = Orders(self._ids, self._given, self._rid)
        if not columns:
            return
        # what the catalogue alone decides (the venue and year facets, has:abstract): its
        # columns read on a thread of their own (~0.1 s each at 100k papers), a few ms
        # waited for at each step
        with ThreadPoolExecutor(1, thread_name_prefix="columns") as pool:
            grouped = pool.submit(self._catalogue_groups)
            while not wait([grouped], timeout=COLUMNS_WAIT).done:
                yield
        self._derived.update(grouped.result())

    def _catalogue_groups(self) -> dict[Hashable, Any]:
        """The groupings of the catalogue's columns, as _values() and _field() keep them."""
        return {
            _GROUPS["venue"]: groups(self._column("venue"), self._alive),
            _GROUPS["year"]: groups(self._column("year"), self._alive),
            "abstract": pack(bytes(map(bool, self._column("abstract")))),
        }

    def _syncing(self) -> Generator[str | None, None, None]:
        """The catalogue's words brought in step with the records' papers (a record no
        longer a paper: one without words)."""
        # (a function of the library, not a method of this index: the generator kept
        # in self._sync would hold this index in a cycle)
        return self._catalogue.syncing(self._given, partial(_whole, self._lib))

    def update(self, paper_ids: Iterable[str]) -> None:
        """Take in edits of these papers (annotations, catalogue, new papers)."""
        self._user.settle()
        changed: list[int] = []
        reworded: list[str] = []  # the papers whose catalogue words changed (or left)
        catalogue = False  # a paper came or was replaced: what a saving's digest read may be gone
        gone = False  # a paper left
        retagged = False  # a paper's tags changed
        lib, annotations = self._lib, self._lib.annotations()
        paper_ids = list(paper_ids)
        # which of those known are alive: one look at the bitset, not one a paper (a bit
        # of a big int costs a pass over it: ~10 us at 1M papers)
        known = [r for pid in paper_ids if (r := self._rid.get(pid)) is not None]
        alive = set(rids(self._alive & bits_of(known, len(self._ids)), len(self._ids)))
        born: list[int] = []
        died: list[int] = []
        for pid in paper_ids:
            r = self._rid.get(pid)
            if pid not in lib:
                if r is not None:
                    died.append(r)
                    changed.append(r)
                    reworded.append(pid)
                    gone = True
                continue
            written = lib.written(pid)
            if r is None:
                r = len(self._ids)
                self._ids.append(pid)
                self._given.append(pid)
                self._rid[pid] = r
                self._user.status.append(0)
                born.append(r)
                self._seen[pid] = written
                reworded.append(pid)
                catalogue = True
            elif r not in alive:  # back from the trash: its record again
                born.append(r)
                self._seen[pid] = written
                reworded.append(pid)
                catalogue = True
            elif self._seen.get(pid, 0) != written:  # written anew (re-imported)
                self._seen[pid] = written
                catalogue = True
                reworded.append(pid)
            retagged = self._user.annotate(r, annotations.get(pid) or NO_ANNOTATION) or retagged
            changed.append(r)
        if born:
            self._alive |= bits_of(born, len(self._ids))
            self._lists.forget_orders()
        if died:
            self._alive &= ~bits_of(died, len(self._ids))
        if reworded:
            self._reword(reworded)
        if not changed:
            return
        n = len(self._ids)
        stale = bits_of(changed, n)
        self._cache = {k: (res & ~stale, scope & ~stale) for k, (res, scope) in self._cache.items()}
        # what the catalogue alone decides (venue and year groups, ~0.1 s at 100k papers)
        # outlives edits of what the user wrote (marking papers read while triaging), and
        # what tags decide (their facet's nodes, ~30 ms; ~0.15 s at 1M) edits that leave
        # tags alone, new papers among them (an import's: their records are new)
        tags_kept = not retagged and not gone
        kept = {
            k
            for k in self._derived
            if (k in _CATALOGUE_ONLY and not catalogue and not gone)
            or (tags_kept and (k == _GROUPS["tag"] or (isinstance(k, tuple) and k[0] == "tag")))
        }
        self._derived = {k: v for k, v in self._derived.items() if k in kept}
        if not tags_kept:  # (the tags being grouped changed: grouped anew)
            self._tag_grouping = None
        if catalogue or gone:
            self._catalogue_changes += 1

    def _reword(self, pids: list[str]) -> None:
        """Bring the catalogue's words of these papers in step: at once for a few, in
        steps of prepare() for an import's many (once synced)."""
        self._generation += 1
        if self._sync is not None:
            self._unsynced.update(dict.fromkeys(pids))
        elif len(pids) > REWORD_AT_ONCE:
            self._sync = self._rewording(pids)
        else:
            self._reworded(pids)

    def _rewording(self, pids: list[str]) -> Generator[str | None, None, None]:
        for start in range(0, len(pids), REWORD_AT_ONCE):
            self._reworded(pids[start : start + REWORD_AT_ONCE])
            yield None

    def _reworded(self, pids: list[str]) -> None:
        papers, rid = self._lib.papers_by_id(), self._rid
        found = [p for pid in pids if (p := papers.get(pid)) is not None]
        self._catalogue.update(
            [(rid[p.id], p) for p in self._lib.completed(found)],
            [pid for pid in pids if pid not in papers],
        )

    def prepare(self, seconds: float | None = None, deadline: float | None = None) -> bool:
        """Take in the annotations and bring the catalogue's words in step for up to
        `seconds` (or until `deadline`; neither: all); True once a search waits for
        neither (a search not yet ready does them all first: seconds at 100k papers
        when their words are indexed anew, ~0.1 s when they are in step)."""
        deadline = deadline if seconds is None else time.perf_counter() + seconds
        return self._user.settle(deadline) and self._synced(deadline)

    def _synced(self, deadline: float | None) -> bool:
        self.waiting = False
        while self._sync is not None:
            try:
                step = next(self._sync)
            except StopIteration:
                self._sync = None
                if self._unsynced:
                    todo, self._unsynced = list(self._unsynced), {}
                    self._reword(todo)
                return True
            if step == WAITING:
                if deadline is not None:  # (the step ends: the thread takes files at full speed)
                    self.waiting = True
                    return False
                time.sleep(WAIT_S)  # (a search that cannot wait: after those files)
            elif deadline is not None and time.perf_counter() > deadline:
                return False
        return True

    @property
    def prepared(self) -> bool:  # (prepare() has nothing left to do)
        return self._user.settled and self._sync is None

    def warm(self, seconds: float | None = None) -> bool:
        """prepare() for up to `seconds` (None: all)."""
        return self.prepare(seconds)

    # -- searching --------------------------------------------------------------

    def filter(self, query: Query, ids: Iterable[str] | None = None) -> list[str]:
        """The ids (in the given order, default library order) that match `query`.
        Fast for the library order, for orders passed before (sorted lists) and for
        the lists it returned lately (a second filter over the results). The list
        returned is remembered: callers must not change it."""
        within, order = self._alive, None
        if ids is not None:
            ids = ids if isinstance(ids, list) else list(ids)
            # an equal copy of a result is found as an order below, for as much
            known = self._lists.known(ids, copies=False)
            if known is not None:
                within, order = known.bits & self._alive, known.order
            elif ids is not self._given:
                order = self._lists.order(ids)
                if query.tree is None and order.unknown:
                    return list(ids)
                if order.natural:
                    order = None
        bits = within if query.tree is None else self._eval(query.tree, within)
        everything = bits == self._alive and bits.bit_count() == len(self._ids)
        return self._lists.select(bits, order, everything=everything)

    def titled(self, text: str, enough: int = 0) -> list[str]:
        """The ids (in library order) of the papers whose title holds each word of
        `text` (as a word or a word's start); case, accents and capitals ignored (no
        acronyms: what note links complete and find); none if it has no words. The
        longest words are looked for first: given `enough`, no more once at most that
        many papers are left."""
        words = sorted(set(word_text(search_key(text)).split()), key=len, reverse=True)
        if not words:
            return []
        found = self._alive
        for word in words:
            found = self._text(word, found, 1)
            if found.bit_count() <= enough:
                break
        ids = self._ids
        return [ids[r] for r in rids(found, len(ids))]

    def ranked(self, query: Query, ids: Sequence[str]) -> list[str]:
        """`ids` (what filter() returned for `query`) by relevance to the query's words:
        BM25 over the catalogue's authors, titles and abstracts of the papers holding
        them all (reader.store.search_db), each word the user's own tags, note or
        highlights hold counting as much as a strong match in a title; ties, a query
        without words, and more than RANK_MAX ids (a word still being typed) keep
        their order."""
        terms = _positive_words(query.tree)
        if not terms or not ids or len(ids) > RANK_MAX:
            return list(ids)
        self._synced(None)
        self._user.settle()
        held = alive = self._alive  # what BM25 would score: the papers with every word
        for words in terms:
            held &= self._text(words, alive, None)  # (known: the search found them)
        if held.bit_count() > RANK_MAX:
            return list(ids)
        scores = self._catalogue.scores(terms)
        rid, notes = self._rid, self._user.notes

        def score(pid: str) -> float:
            r = rid.get(pid, -1)
            note = notes.get(r)
            own = sum(contains(note, t) for t in terms) if note is not None else 0
            return scores.get(r, 0.0) - OWN_WORDS_WEIGHT * own

        return sorted(ids, key=score)

    # -- finding words off this thread -------------------------------------------

    def words_wanted(self, query: Query) -> list[tuple[str, Line]]:
        """The words of `query` (text terms, author: and title:) whose papers the index
        does not know yet: what filter() would look up in the catalogue's words."""
        wanted: dict[tuple[str, Line], None] = {}
        nodes = [query.tree] if query.tree is not None else []
        while nodes:
            node = nodes.pop()
            if isinstance(node, (And, Or)):
                nodes += node.nodes
            elif isinstance(node, Not):
                nodes.append(node.node)
            elif isinstance(node, Text):
                wanted[node.key, None] = None
            elif isinstance(node, Field) and node.name in ("author", "title") and node.key:
                wanted[node.key, 0 if node.name == "author" else 1] = None
        alive = self._alive
        return [
            (words, line)
            for words, line in wanted
            if (cached := self._cache.get((line, words))) is None or alive & ~cached[1]
        ]

    def fetch_words(self, wanted: list[tuple[str, Line]]) -> Future[Fetched] | None:
        """Look `wanted` up in the catalogue's words on a thread of its own, for
        take_words() (None: the catalogue has no twin for a thread, or is not in step
        yet; filter() looks them up itself). The thread holds no lock of ours: a
        big library's broad word ("a" at 1M papers) costs this thread nothing."""
        if self._sync is not None or not wanted:
            return None
        if self._fetcher is None:
            twin = self._catalogue.reader()
            if twin is None:
                return None
            self._fetcher = ThreadPoolExecutor(1, thread_name_prefix="words"), twin
        pool, twin = self._fetcher
        generation, n = self._generation, len(self._ids)

        def fetch() -> Fetched:  # (the bitsets made here too: ~15 ms at 100k papers)
            try:
                found = [
                    (words, line, twin.find(words, _column(line), n)) for words, line in wanted
                ]
            except IndexError:  # a paper added meanwhile: stale, as take_words() finds
                return -1, []
            return generation, found

        return pool.submit(fetch)

    def take_words(self, fetched: Fetched) -> bool:
        """Take what fetch_words() found, unless the catalogue's words changed since
        (then False: filter() looks them up again)."""
        generation, found = fetched
        if generation != self._generation or self._sync is not None:
            return False
        self._user.settle()
        alive = self._alive
        for words, line, bits in found:
            res = bits & alive
            if line is None:
                res |= self._noted(words, self._narrowed(words, line, alive & ~res))
            self._cache[line, words] = (res, alive)
        while len(self._cache) > CACHE_SIZE:
            del self._cache[next(iter(self._cache))]
        return True

    def close(self) -> None:
        """Stop the thread that finds words, if one was started, and wait for the one
        grouping the catalogue's columns (see prepare_tallies), left unread."""
        if self._fetcher is not None:
            self._fetcher[0].shutdown(wait=True)
            self._fetcher = None
        if self._regrouping is not None:
            wait([self._regrouping[1]])
            self._regrouping = None

    def count(self, query: Query) -> int:
        """How many papers match `query` (filter()'s length, without a list)."""
        return (
            self._alive if query.tree is None else self._eval(query.tree, self._alive)
        ).bit_count()

    def count_status(self, ids: Sequence[str], status: Status) -> int:
        """How many of `ids` have `status`; cheap for the lists filter() returned."""
        code = STATUS[status.value]
        if self._lists.known(ids) is not None or self._lists.is_library_order(ids):
            bits, exact = self._lists.bits_of_ids(ids, self._alive)
            if exact:
                return (bits & self._status_bits(code)).bit_count()
        rid, status_of = self._rid, self._user.status
        return sum(1 for pid in ids if (r := rid.get(pid)) is not None and status_of[r] == code)

    def tally(self, ids: Sequence[str], field: str) -> Counter[Any]:
        """How many of `ids` (each once) have each "status", "tag" (a paper counts for a
        tag and each of its parents: "a" and "a/b" for "a/b"), "venue" or "year" (empty
        ones not counted). Milliseconds for the lists filter() returned."""
        self._user.settle()
        bits, _exact = self._lists.bits_of_ids(ids, self._alive)
        if field == "status":
            return Counter(
                {
                    s.value: (bits & self._status_bits(code)).bit_count()
                    for s, code in zip(Status, STATUS.values(), strict=True)
                }
            )
        counts = (
            (v, (bits & members).bit_count()) for v, members in self._groups(field).items() if v
        )
        return Counter({value: count for value, count in counts if count})

    def prepare_tallies(self) -> bool:
        """Group the tags, venues or years if not yet (~15 ms each at 100k papers), one
        a call; True once all are (tally() is then milliseconds)."""
        self._user.settle()
        todo = [field for field, key in _GROUPS.items() if key not in self._derived]
        if not todo:
            return True
        if todo[0] == "tag":  # (a step at a time: ~60 ms at 1M papers, 40,000 tagged)
            if self._tag_grouping is None:
                self._tag_grouping = self._user.tag_nodes_in_steps(self._tags_of)
            done, nodes = run_steps(self._tag_grouping, time.perf_counter())
            if done:
                self._derived[_GROUPS["tag"]] = nodes
                self._tag_grouping = None
            return False
        # the catalogue's columns read on a thread of their own (~0.1 s each at 100k
        # papers: a facet count after the catalogue changed held the window), kept
        # unless the catalogue changed again meanwhile
        if self._regrouping is None or self._regrouping[0] != self._catalogue_changes:
            pool = ThreadPoolExecutor(1, thread_name_prefix="columns")
            self._regrouping = (self._catalogue_changes, pool.submit(self._catalogue_groups))
            pool.shutdown(wait=False)
        if self._regrouping[1].done():
            self._derived.update(self._regrouping[1].result())
            self._regrouping = None
        return False

    def _groups(self, field: str) -> dict[Any, int]:
        """The records of each tag (and of its parents), venue or year: grouped once."""
        if field == "tag":
            if _GROUPS[field] not in self._derived:
                self._tag_grouping = None  # (needed now: made at once)
            return self._derive(_GROUPS[field], lambda: self._user.tag_nodes(self._tags_of))
        return self._values(field)

    def _tags_of(self, r: int) -> tuple[str, ...]:
        return self._lib.tags(self._given[r])

    def _eval(self, node: Node, cand: int) -> int:
        self._user.settle()
        if not cand:
            return 0
        if isinstance(node, Text):
            return self._text(node.key, cand, None)
        if isinstance(node, Field):
            return self._field(node, cand)
        if isinstance(node, Not):
            return cand & ~self._eval(node.node, cand)
        if isinstance(node, And):
            for child in sorted(node.nodes, key=self._cost):
                if not (cand := self._eval(child, cand)):
                    break
            return cand
        if isinstance(node, Or):
            found = 0
            for child in node.nodes:
                found |= self._eval(child, cand & ~found)
            return found
        assert isinstance(node, Everything)
        return cand

    def _cost(self, node: Node) -> int:
        """Cheap and narrow first: set fields, cached terms, long words, the rest."""
        if isinstance(node, Field):
            return 300 if node.name in ("author", "title") else 0
        if isinstance(node, Text):
            cached = (None, node.key) in self._cache
            return 1 if cached else 200 - min(len(node.key), 99)
        return 400 if isinstance(node, Not) else 350

    def _text(self, words: str, cand: int, line: Line) -> int:
        """The records of `cand` whose text (or `line`) holds the word text `words`
        (the last word as a prefix), cached."""
        cache = self._cache
        res, scope = cache.pop((line, words), (0, 0))
        if todo := self._narrowed(words, line, cand & ~scope):
            known = 0
            for (where, other), (r2, _s2) in cache.items():
                if where == line and other.startswith(words):
                    known |= r2 & todo  # holding more than the words: holding them
            res |= known | self._find(words, todo & ~known, line)
            scope |= cand
        cache[line, words] = (res, scope)
        if len(cache) > CACHE_SIZE:
            del cache[next(iter(cache))]
        return res & cand

    def _narrowed(self, words: str, line: Line, todo: int) -> int:
        """`todo` less the records a cached start of the words was looked for among and
        not found in: lacking the start of the words, they lack them."""
        for (where, other), (r2, s2) in self._cache.items():
            if where == line and words.startswith(other):
                todo &= r2 | ~s2
        return todo

    def _find(self, words: str, cand: int, line: Line) -> int:
        """The records of `cand` whose text (or `line`) holds `words`: no cache."""
        if not cand:
            return 0
        self._synced(None)
        column, n = None if line is None else _COLUMNS[line], len(self._ids)
        try:
            found = self._catalogue.find(words, column, n)
        except RuntimeError:  # a damaged index, set aside: made anew, at once
            self._generation += 1
            self._sync = self._syncing()
            self._synced(None)
            found = self._catalogue.find(words, column, n)
        found &= cand
        return found | self._noted(words, cand & ~found) if line is None else found

    def _noted(self, words: str, cand: int) -> int:
        """The records of `cand` whose tags, note or highlights hold `words`."""
        n = len(self._ids)
        noted = cand & self._derive("noted", lambda: bits_of(self._user.notes, n))
        if not noted:
            return 0
        notes = self._user.notes
        return bits_of((r for r in rids(noted, n) if contains(notes[r], words)), n)

    def _derive(self, name: Hashable, make: Callable[[], _T]) -> _T:
        """A value computed once per state of the index (update() forgets them)."""
        if name not in self._derived:
            self._derived[name] = make()
        return cast(_T, self._derived[name])

    def _status_bits(self, code: int) -> int:
        return self._derive(
            ("status", code), lambda: pack(self._user.status.translate(one_of(code))) & self._alive
        )

    def _field(self, node: Field, cand: int) -> int:
        name, value, n = node.name, node.key, len(self._ids)
        if name == "status":
            return cand & self._status_bits(STATUS[value]) if value in STATUS else 0
        if name == "has" and value == "abstract":
            return cand & self._derive(value, lambda: pack(bytes(map(bool, self._column(value)))))
        if name == "has":
            return (
                cand & self._derive(("has", value), lambda: bits_of(self._user.has[value], n))
                if value
                else 0
            )
        if name == "tag":
            prefix = value + "/"
            tagged = self._user.tags.items()
            return cand & self._derive(
                ("tag", value),
                lambda: bits_of(
                    (
                        r
                        for r, tags in tagged
                        if any(t == value or t.startswith(prefix) for t in tags)
                    ),
                    n,
                ),
            )
        if name == "year":
            lo, hi = node.lo, node.hi
            return cand & self._group(
                "year",
                lambda y: y is not None and (lo is None or lo <= y) and (hi is None or y <= hi),
            )
        if name == "venue":
            return cand & self._group("venue", lambda v: value in search_key(v))
        if not value:  # (no words)
            return 0
        return self._text(value, cand, 0 if name == "author" else 1)

    def _values(self, field: str) -> dict[Any, int]:
        """The records of each value of `field` ("venue" or "year"), grouped once."""
        return self._derive(_GROUPS[field], lambda: groups(self._column(field), self._alive))

    def _column(self, field: str) -> list[Any]:
        """The value of catalogue field `field` of each record (not a paper now: its
        empty value)."""
        values = self._lib.column(field)
        empty = None if field == "year" else ""
        return [values.get(pid, empty) for pid in self._given]

    def _group(self, field: str, test: Callable[[Any], bool]) -> int:
        """The records whose value of `field` (year, venue) passes `test`."""
        found = 0
        for value, bits in self._values(field).items():
            if test(value):
                found |= bits
        return found


def _whole(lib: Library, ids: Sequence[str]) -> list[Paper]:
    """The papers of `ids` with their abstracts (a record no longer a paper's: a Paper
    with nothing but its id)."""
    return list(lib.completed(lib.papers_in_order(ids, placeholders=True)))


def _positive_words(node: Node | None) -> list[str]:
    """The word texts a query asks for (not those under a -): what relevance weighs."""
    out: dict[str, None] = {}
    nodes = [node] if node is not None else []
    while nodes:
        node = nodes.pop()
        if isinstance(node, (And, Or)):
            nodes += node.nodes
        elif isinstance(node, Text):
            out[node.key] = None
        elif isinstance(node, Field) and node.name in ("author", "title") and node.key:
            out[node.key] = None
    return list(out)


def _column(line: Line) -> str | None:
    return None if line is None else _COLUMNS[line]
