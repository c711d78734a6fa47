"""What makes search fast at 100k papers: keyed texts, bitsets, a result cache, token indexes."""

# A query is evaluated over sets of papers, not paper by paper: a set is a Python
# int used as a bitset (bit r: record r), so AND/OR/NOT over 100k papers cost
# microseconds. Each text term's result is cached with the set it is exact for, so
# a term that extends a cached one ("diffu" after "diff") is looked for only among
# that one's matches, and deleting characters finds the answer cached. Catalogue texts
# are found through token indexes once built or taken up in idle time, else by searching
# the keyed texts (record_texts) in C; what the user wrote is few texts, scanned.

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Generator, Hashable, Iterable, Sequence
from operator import attrgetter
from typing import Any, TypeVar, cast

from reader.core import record_texts
from reader.core.index_saving import SavedIndexes, Saving
from reader.core.library import Library
from reader.core.models import NO_ANNOTATION, Status
from reader.core.orders import Orders, id_tables
from reader.core.query import And, Everything, Field, Node, Not, Or, Query, Text
from reader.core.record_texts import CatalogueTexts, Line, Spill, trim_memory
from reader.core.steps import run_steps
from reader.core.text import search_key
from reader.core.tokens import TokenIndex, bits_of, groups, one_of, pack, rids
from reader.core.user_texts import STATUS, UserTexts

#: below this many papers scanning is fast enough: no token index
TOKEN_INDEX_MIN = 20_000
CACHE_SIZE = 256
#: papers per part of making the index in steps (~15 ms a part at 100k papers)
MAKE_PART = 20_000
#: more papers than this edited since the token indexes were built: build them anew
UNCOVERED_MAX = 2_000
#: the keys of each facet's grouping among the derived values (SearchIndex._derive)
_GROUPS = {"tag": "tag_nodes", "venue": ("values", "venue"), "year": ("values", "year")}
_CATALOGUE_ONLY = frozenset(
    {_GROUPS["venue"], _GROUPS["year"], "abstract"}
)  # (of the catalogue alone)

_T = TypeVar("_T")


class SearchIndex:
    """Every paper of a library as sets the query language combines; kept current by
    update(). Call warm() in idle time until it returns True: search is exact either
    way, and fast for any term once warm."""

    def __init__(
        self, library: Library, spill: Spill | None = None, saved: SavedIndexes | None = None
    ) -> None:
        """`spill` makes the (unnamed) file keyed texts are written to, else kept in
        memory; `saved` keeps the built indexes of big catalogues for next time."""
        self._lib, self._spill, self._saved = library, spill, saved
        run_steps(self._made())

    @classmethod
    def in_steps(
        cls, library: Library, spill: Spill | None = None, saved: SavedIndexes | None = None
    ) -> Generator[None, None, SearchIndex]:
        """The index made a part at a time (~15 ms each at 100k papers): a generator that
        yields between the parts and returns the index. The papers are read at the first
        part, the annotations at a later one: edits made meanwhile are for update()."""
        index = cls.__new__(cls)
        index._lib, index._spill, index._saved = library, spill, saved
        yield from index._made()
        return index

    # -- building ---------------------------------------------------------------

    def _made(self) -> Generator[None, None, None]:
        """Make the index from the library, yielding between the parts."""
        papers = self._lib.papers()
        n = len(papers)
        self._given, self._ids, self._rid = yield from id_tables(papers, MAKE_PART)
        self._papers = papers
        big = n >= TOKEN_INDEX_MIN
        self._texts = CatalogueTexts(papers, self._spill if big else None)
        self._saving = Saving(self._saved, papers) if big and self._saved is not None else None
        self._alive = (1 << n) - 1
        user = self._user = UserTexts(n)
        annotations = list(self._lib.annotations().items())
        step = max(1, MAKE_PART // 4)  # (~5 us an annotation)
        for start in range(0, len(annotations), step):
            yield
            user.take_statuses(annotations[start : start + step], self._rid)
        self._cache: dict[tuple[Line, bytes], tuple[int, int]] = {}
        self._derived: dict[Hashable, Any] = {}
        self._tokens: dict[Line, TokenIndex] = {}
        self._lists = Orders(self._ids, self._given, self._rid)

    def update(self, paper_ids: Iterable[str]) -> None:
        """Take in edits of these papers (annotations, catalogue, new papers)."""
        self._user.settle()
        changed: list[int] = []
        rewritten: list[int] = []  # the records whose catalogue text changed
        catalogue = False  # a paper came or was replaced: what a saving's digest read may be gone
        gone = False  # a paper left
        retagged = False  # a paper's tags changed
        papers, annotations = self._lib.papers_by_id(), self._lib.annotations()
        for pid in paper_ids:
            r = self._rid.get(pid)
            if (paper := papers.get(pid)) is None:
                if r is not None:
                    self._alive &= ~(1 << r)
                    changed.append(r)
                    gone = True
                continue
            if r is None:
                r = len(self._ids)
                self._ids.append((pid + " ")[:-1])
                self._given.append(paper.id)
                self._rid[pid] = r
                self._papers.append(paper)
                self._user.status.append(0)
                self._alive |= 1 << r
                self._lists.forget_orders()
                rewritten.append(r)
                catalogue = True
            elif self._papers[r] is not paper:
                before, self._papers[r] = self._papers[r], paper
                catalogue = True
                if self._texts.changed(r, before):
                    rewritten.append(r)
            retagged = self._user.annotate(r, annotations.get(pid) or NO_ANNOTATION) or retagged
            changed.append(r)
        if not changed:
            return
        if catalogue and self._saving is not None:
            self._saving.edited = True
        n = len(self._ids)
        if len(rewritten) > record_texts.MANY_CHANGED:  # an import: made again later
            self._texts.forget_from(min(rewritten))
            self._tokens = {line: tokens for line, tokens in self._tokens.items() if tokens.ready}
        stale = bits_of(changed, n)
        self._cache = {k: (res & ~stale, scope & ~stale) for k, (res, scope) in self._cache.items()}
        # what the catalogue alone decides (venue and year groups, ~0.1 s at 100k papers)
        # outlives edits of what the user wrote (marking papers read while triaging), and
        # what tags decide (their facet's nodes, ~30 ms) edits that leave tags alone
        kept = (
            set()
            if catalogue or gone
            else {
                k
                for k in self._derived
                if k in _CATALOGUE_ONLY
                or (
                    not retagged
                    and (k == _GROUPS["tag"] or (isinstance(k, tuple) and k[0] == "tag"))
                )
            }
        )
        self._derived = {k: v for k, v in self._derived.items() if k in kept}
        moved = bits_of(rewritten, n)
        for line, tokens in list(self._tokens.items()):
            tokens.covered &= ~moved
            if tokens.ready and (self._alive & ~tokens.covered).bit_count() > max(
                UNCOVERED_MAX, n // 8
            ):
                del self._tokens[line]  # too much is left to scanning: warm() builds it again

    def prepare(self, seconds: float | None = None, deadline: float | None = None) -> bool:
        """Take in the annotations and build (or take up) the texts for up to `seconds`
        (or until `deadline`; neither: all); True once a search waits for neither (a
        search not yet ready does them all first: ~1 s at 100k papers, ~0.2 s at 3,300)."""
        deadline = deadline if seconds is None else time.perf_counter() + seconds
        return (
            self._user.settle(deadline) and self._take_up(deadline) and self._texts.build(deadline)
        )

    @property
    def prepared(self) -> bool:  # (prepare() has nothing left to do)
        return (
            self._user.settled
            and (self._saving is None or self._saving.looked)
            and self._texts.complete
        )

    def warm(self, seconds: float | None = None) -> bool:
        """Build (or take up) texts and token indexes for up to `seconds` (None: all)."""
        deadline = None if seconds is None else time.perf_counter() + seconds
        texts = self._texts
        if not self.prepare(deadline=deadline):
            return False
        if len(self._ids) < TOKEN_INDEX_MIN:
            return True
        if not self._tokens and self._saving is not None and deadline:  # built by another process?
            busy, built = self._saving.elsewhere(texts)
            if busy or built:
                self._adopt(built or {})
                return not busy
        for line in (0, 1, None):  # the small ones first
            if (tokens := self._tokens.get(line)) is None:
                tokens = self._tokens[line] = TokenIndex(
                    texts.built, texts.part(line, ahead=True), len(texts.log)
                )
            if not tokens.ready:
                if not tokens.step(deadline):
                    return False
                # papers edited while the index was built are scanned instead
                edited = bits_of(texts.log[tokens.mark :], len(self._ids))
                tokens.covered = self._alive & ((1 << tokens.n) - 1) & ~edited
                trim_memory()
        return self._saving is None or self._saving.save(texts, self._tokens, deadline)

    @property
    def building_elsewhere(self) -> bool:
        return self._saving is not None and self._saving.busy

    def _take_up(self, deadline: float | None) -> bool:
        """Take up the indexes saved for these papers, if any; False while looking."""
        if self._saving is None or self._saving.looked:
            return True
        if (tokens := self._saving.take_up(self._texts, deadline)) is not None:
            self._adopt(tokens)
        return self._saving.looked

    def _adopt(self, tokens: dict[Line, TokenIndex]) -> None:
        """Take token indexes built from the texts as they are now."""
        covered = self._alive & ((1 << self._texts.built) - 1)
        for line_tokens in tokens.values():
            line_tokens.covered = covered
        self._tokens = tokens

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
        if todo:
            self._groups(todo[0])
        return not todo

    def _groups(self, field: str) -> dict[Any, int]:
        """The records of each tag (and of its parents), venue or year: grouped once."""
        if field == "tag":
            return self._derive(
                _GROUPS[field],
                lambda: self._user.tag_nodes(lambda r: self._lib.tags(self._given[r])),
            )
        return self._values(field)

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
            cached = (None, node.key.encode("utf-8", "surrogatepass")) in self._cache
            return 1 if cached else 200 - min(len(node.key), 99)
        return 400 if isinstance(node, Not) else 350

    def _text(self, text_key: str, cand: int, line: Line) -> int:
        """The records of `cand` whose text (or `line`) contains `text_key`, cached."""
        term = text_key.encode("utf-8", "surrogatepass")
        cache = self._cache
        res, scope = cache.pop((line, term), (0, 0))
        if todo := cand & ~scope:
            known = 0
            for (where, other), (r2, s2) in cache.items():
                if where != line:
                    continue
                if other in term:  # lacking a part of the term: lacking the term
                    todo &= r2 | ~s2
                elif term in other:  # holding more than the term: holding the term
                    known |= r2 & todo
            res |= known | self._find(term, todo & ~known, line)
            scope |= cand
        cache[line, term] = (res, scope)
        if len(cache) > CACHE_SIZE:
            del cache[next(iter(cache))]
        return res & cand

    def _find(self, term: bytes, cand: int, line: Line) -> int:
        """The records of `cand` whose text (or `line`) contains `term`: no cache."""
        if not cand:
            return 0
        if b"\n" in term:  # only the whole text of a record has line breaks
            return 0 if line is not None else self._scan_whole(term, cand)
        texts = self._texts
        self._take_up(None)
        texts.build(None)
        found, rest = 0, cand
        tokens = self._tokens.get(line)
        if tokens is not None and tokens.ready:

            def scan(t: bytes, bits: int) -> int:
                return texts.scan(t, bits, line)

            covered, rest = cand & tokens.covered, cand & ~tokens.covered
            if term.split() == [term]:
                found = tokens.match(term, covered, scan)
            else:  # a phrase: the papers with every word are candidates
                for word in term.split():
                    covered = tokens.match(word, covered, scan) if covered else 0
                found = scan(term, covered)
        found |= texts.scan(term, rest, line)
        if line is None and (
            noted := cand
            & ~found
            & self._derive(  # papers the user wrote on
                "noted", lambda: bits_of(self._user.notes, len(self._ids))
            )
        ):
            notes = self._user.notes
            found |= bits_of(
                (r for r in rids(noted, len(self._ids)) if term in notes[r]), len(self._ids)
            )
        return found

    def _scan_whole(self, term: bytes, cand: int) -> int:
        """The records of `cand` whose whole text (catalogue, then what the user wrote)
        contains `term`."""
        text, notes = self._texts.text, self._user.notes
        whole = (
            (r, text(r) + b"\n" + notes[r] if r in notes else text(r))
            for r in rids(cand, len(self._ids))
        )
        return bits_of((r for r, subject in whole if term in subject), len(self._ids))

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
            abstracts = (p.abstract for p in self._papers)
            return cand & self._derive(value, lambda: pack(bytes(map(bool, abstracts))))
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
        if "\n" in value:  # author and title are one line
            return 0
        return self._text(value, cand, 0 if name == "author" else 1)

    def _values(self, field: str) -> dict[Any, int]:
        """The records of each value of `field` ("venue" or "year"), grouped once."""
        return self._derive(
            _GROUPS[field], lambda: groups(list(map(attrgetter(field), self._papers)), self._alive)
        )

    def _group(self, field: str, test: Callable[[Any], bool]) -> int:
        """The records whose value of `field` (year, venue) passes `test`."""
        found = 0
        for value, bits in self._values(field).items():
            if test(value):
                found |= bits
        return found
