"""What makes search fast at 100k papers: keyed texts, bitsets, a result cache, token indexes."""

# A query is evaluated over sets of papers, not paper by paper: a set is a Python
# int used as a bitset (bit r: record r), so AND/OR/NOT over 100k papers cost
# microseconds. Each text term's result is cached with the set it is exact for, so
# a term that extends a cached one ("diffu" after "diff") is looked for only among
# that one's matches, and deleting characters finds the answer cached. Texts are
# found through token indexes once warm() has built them in idle time, else by
# searching the keyed texts paper by paper in C.

from __future__ import annotations

import time
from array import array
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from itertools import compress, repeat
from operator import add, attrgetter, contains, is_
from typing import Any

from reader.core.library import Library
from reader.core.models import Annotation, Paper, Status
from reader.core.orders import Orders
from reader.core.query import And, Everything, Field, Node, Not, Or, Query, Text
from reader.core.search_text import (  # noqa: F401 (re-exported: links, tests)
    SearchRecord,
    _annotation,
    _catalogue,
    _has,
    key_bytes,
    make_record,
    tex_symbols,
    with_symbols,
)
from reader.core.text import search_key
from reader.core.tokens import TokenIndex, bits_of, groups, pack, rids, unpack  # noqa: F401

_STATUS = {s.value: code for code, s in enumerate(Status)}
#: below this many papers scanning is fast enough: no token index
TOKEN_INDEX_MIN = 20_000
CACHE_SIZE = 256
TEXT_CHUNK = 500


#: where a field's text is: None the whole record, 0 the authors line, 1 the title line
Line = int | None


class SearchIndex:
    """Every paper of a library as sets the query language combines; kept current by
    update(). Call warm() in idle time until it returns True: search is exact either
    way, and fast for any term once warm."""

    def __init__(self, library: Library) -> None:
        self._lib = library
        self.rebuild()

    # -- building ---------------------------------------------------------------

    def rebuild(self) -> None:
        papers = self._lib.papers()
        n = len(papers)
        # fresh copies, side by side in memory: lists of 100k of them are made and
        # dropped at every keystroke, and the ids read from papers.json lie scattered
        self._given = list(map(attrgetter("id"), papers))  # the library's own: compared by identity
        self._ids = [(pid + " ")[:-1] for pid in self._given]
        self._rid = dict(zip(self._ids, range(n)))
        self._papers = papers
        self._texts: list[bytes] = []  # keyed texts (make_record's), built by _build_texts
        self._ends: array[int] = array("I")  # where each text's authors and title lines end
        self._alive = (1 << n) - 1
        self._status = bytearray(n)
        self._notes: dict[int, str] = {}  # what the user wrote, for records with any
        self._tags: dict[int, tuple[str, ...]] = {}
        self._has: dict[str, set[int]] = {"note": set(), "tags": set(), "highlights": set()}
        self._cache: dict[tuple[Line, bytes], tuple[int, int]] = {}
        self._derived: dict[Hashable, Any] = {}
        self._tokens: dict[Line, TokenIndex] = {}
        self._lists = Orders(self._ids, self._given, self._rid)
        rid = self._rid
        for pid, ann in self._lib.annotations().items():
            if (r := rid.get(pid)) is not None and not ann.is_empty:
                self._annotate(r, papers[r], ann)

    def _annotate(self, r: int, paper: Paper, ann: Annotation) -> None:
        self._status[r] = _STATUS[ann.status.value]
        has = _has(paper, ann)
        for name, members in self._has.items():
            (members.add if name in has else members.discard)(r)
        self._tags.pop(r, None)
        self._notes.pop(r, None)
        if ann.tags:
            self._tags[r] = tuple(search_key(t) for t in ann.tags)
        if text := _annotation(ann):
            self._notes[r] = text

    def _text_of(self, r: int) -> bytes:
        note = self._notes.get(r)
        catalogue = _catalogue(self._papers[r])
        return key_bytes(f"{catalogue}\n{note}" if note else catalogue)

    def _build_texts(self, deadline: float | None) -> bool:
        texts, ends, n = self._texts, self._ends, len(self._papers)
        while len(texts) < n:
            for r in range(len(texts), min(len(texts) + TEXT_CHUNK, n)):
                text = self._text_of(r)
                texts.append(text)
                ends.append(text.index(b"\n"))
                ends.append(text.index(b"\n", ends[-1] + 1))
            if deadline is not None and time.perf_counter() > deadline:
                return False
        return True

    def _part(self, line: Line) -> Callable[[int], bytes]:
        texts, ends = self._texts, self._ends
        if line is None:
            return texts.__getitem__
        if line == 0:
            return lambda r: texts[r][: ends[2 * r]]
        return lambda r: texts[r][ends[2 * r] + 1 : ends[2 * r + 1]]

    def update(self, paper_ids: Iterable[str]) -> None:
        """Take in edits of these papers (annotations, catalogue, new papers)."""
        changed: list[int] = []
        for pid in paper_ids:
            r = self._rid.get(pid)
            if pid not in self._lib:
                if r is not None:
                    self._alive &= ~(1 << r)
                    changed.append(r)
                continue
            paper = self._lib.paper(pid)
            if r is None:
                r = len(self._ids)
                self._ids.append((pid + " ")[:-1])
                self._given.append(paper.id)
                self._rid[pid] = r
                self._papers.append(paper)
                self._status.append(0)
                self._alive |= 1 << r
                self._lists.forget_orders()
            self._papers[r] = paper
            self._annotate(r, paper, self._lib.annotation(pid))
            changed.append(r)
        if not changed:
            return
        n, texts = len(self._ids), self._texts
        if len(changed) > TEXT_CHUNK:  # many (an import): their texts are built again later
            first = min(changed)
            del texts[first:], self._ends[2 * first :]
            rewritten: Iterable[int] = range(first, n)
            self._tokens = {line: tokens for line, tokens in self._tokens.items() if tokens.ready}
        else:
            rewritten = [r for r in changed if r < len(texts) and self._retext(r)]
        stale = bits_of(changed, n)
        self._cache = {k: (res & ~stale, scope & ~stale) for k, (res, scope) in self._cache.items()}
        self._derived.clear()
        moved = bits_of(rewritten, n)
        for line, tokens in list(self._tokens.items()):
            tokens.covered &= ~moved
            if tokens.ready and (self._alive & ~tokens.covered).bit_count() > max(2_000, n // 8):
                del self._tokens[line]  # too much is not indexed: warm() builds it again

    def _retext(self, r: int) -> bool:
        """Key record r's text again; True if it changed (token indexes then scan it)."""
        text = self._text_of(r)
        if text == self._texts[r]:
            return False
        self._texts[r] = text
        self._ends[2 * r] = text.index(b"\n")
        self._ends[2 * r + 1] = text.index(b"\n", self._ends[2 * r] + 1)
        return True

    def warm(self, seconds: float | None = None) -> bool:
        """Build texts and token indexes for up to `seconds` (None: to the end); True
        when done."""
        deadline = None if seconds is None else time.perf_counter() + seconds
        if not self._build_texts(deadline):
            return False
        if len(self._ids) < TOKEN_INDEX_MIN:
            return True
        for line in (0, 1, None):  # the small ones first
            if (tokens := self._tokens.get(line)) is None:
                tokens = self._tokens[line] = TokenIndex(self._texts, self._part(line))
            if not tokens.ready:
                if not tokens.step(deadline):
                    return False
                # papers edited while the index was built are scanned instead
                tokens.covered = pack(bytes(map(is_, tokens.texts, self._texts))) & self._alive
                tokens.texts = []
        return True

    def record(self, paper_id: str) -> SearchRecord:
        return make_record(self._lib.paper(paper_id), self._lib.annotation(paper_id))

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

    def count_status(self, ids: Sequence[str], status: Status) -> int:
        """How many of `ids` have `status`; cheap for the lists filter() returned."""
        code = _STATUS[status.value]
        if self._lists.known(ids) is not None or self._lists.is_library_order(ids):
            bits, exact = self._lists.bits_of_ids(ids, self._alive)
            if exact:
                return (bits & self._status_bits(code)).bit_count()
        rid, status_of = self._rid, self._status
        return sum(1 for pid in ids if (r := rid.get(pid)) is not None and status_of[r] == code)

    def tally(self, ids: Sequence[str], field: str) -> Counter[Any]:
        """How many of `ids` (each counted once) have each "status", "tag" (a paper
        counts once for a tag and for each of its parents: "a" and "a/b" for
        "a/b"), "venue" or "year" (empty ones are not counted). Milliseconds for
        the lists filter() returned."""
        bits, _exact = self._lists.bits_of_ids(ids, self._alive)
        if field == "status":
            return Counter({s.value: (bits & self._status_bits(code)).bit_count() for s, code in
                            zip(Status, _STATUS.values())})
        if field == "tag":
            groups: dict[Any, int] = self._derive("tag_nodes", self._tag_nodes)
        else:
            groups = self._values(field)
        counts = ((v, (bits & members).bit_count()) for v, members in groups.items() if v)
        return Counter({value: count for value, count in counts if count})

    def _tag_nodes(self) -> dict[str, int]:
        members: dict[str, set[int]] = {}
        for r in self._tags:
            for tag in self._lib.tags(self._given[r]):
                parts = tag.split("/")
                for i in range(len(parts)):
                    members.setdefault("/".join(parts[: i + 1]), set()).add(r)
        return {node: bits_of(rs, len(self._ids)) for node, rs in members.items()}

    def _eval(self, node: Node, cand: int) -> int:
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
        self._build_texts(None)
        found, rest = 0, cand
        tokens = self._tokens.get(line)
        if tokens is not None and tokens.ready and b"\n" not in term:

            def scan(t: bytes, bits: int) -> int:
                return self._scan(t, bits, line)

            covered, rest = cand & tokens.covered, cand & ~tokens.covered
            if term.split() == [term]:
                found = tokens.match(term, covered, scan)
            else:  # a phrase: the papers with every word are candidates
                for word in term.split():
                    covered = tokens.match(word, covered, scan) if covered else 0
                found = scan(term, covered)
        found |= self._scan(term, rest, line)
        return found

    def _scan(self, term: bytes, cand: int, line: Line) -> int:
        """Records of `cand` whose catalogue text (or `line` of it) contains `term`:
        a C-speed search, paper by paper."""
        if not cand:
            return 0
        n, texts, ends = len(self._ids), self._texts, self._ends
        which = rids(cand, n)
        subject = map(texts.__getitem__, which)
        if line is None:
            return bits_of(compress(which, map(contains, subject, repeat(term))), n)
        stop = map(ends.__getitem__, map(add, which, which))
        start: Iterable[int] = repeat(0)
        if line == 1:
            start = map(add, stop, repeat(1))
            stop = map(ends.__getitem__, map((1).__add__, map(add, which, which)))
        where = map(bytes.find, subject, repeat(term), start, stop)
        return bits_of(compress(which, map((-1).__lt__, where)), n)

    def _derive(self, name: Hashable, make: Callable[[], Any]) -> Any:
        """A value computed once per state of the index (update() forgets them)."""
        if name not in self._derived:
            self._derived[name] = make()
        return self._derived[name]

    def _status_bits(self, code: int) -> int:
        table = bytes(int(c == code) for c in range(256))
        return self._derive(("status", code),
                            lambda: pack(self._status.translate(table)) & self._alive)

    def _field(self, node: Field, cand: int) -> int:
        name, value, n = node.name, node.key, len(self._ids)
        if name == "status":
            return cand & self._status_bits(_STATUS[value]) if value in _STATUS else 0
        if name == "has" and value == "abstract":
            abstracts = (p.abstract for p in self._papers)
            return cand & self._derive(value, lambda: pack(bytes(map(bool, abstracts))))
        if name == "has":
            if not value:
                return 0
            return cand & self._derive(("has", value), lambda: bits_of(self._has[value], n))
        if name == "tag":
            prefix = value + "/"
            tagged = self._tags.items()
            return cand & self._derive(("tag", value), lambda: bits_of(
                (r for r, tags in tagged if any(t == value or t.startswith(prefix) for t in tags)),
                n))
        if name == "year":
            lo, hi = node.lo, node.hi
            return cand & self._group("year", lambda y: y is not None and (
                lo is None or lo <= y) and (hi is None or y <= hi))
        if name == "venue":
            return cand & self._group("venue", lambda v: value in search_key(v))
        if "\n" in value:  # author and title are one line
            return 0
        return self._text(value, cand, 0 if name == "author" else 1)

    def _values(self, field: str) -> dict[Any, int]:
        """The records of each value of `field` ("venue" or "year"), grouped once."""
        return self._derive(("values", field), lambda: groups(
            list(map(attrgetter(field), self._papers)), self._alive))

    def _group(self, field: str, test: Callable[[Any], bool]) -> int:
        """The records whose value of `field` (year, venue) passes `test`."""
        found = 0
        for value, bits in self._values(field).items():
            if test(value):
                found |= bits
        return found
