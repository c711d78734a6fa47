"""What makes search fast at 100k papers: keyed texts, bitsets, a result cache, token indexes."""

# A query is evaluated over sets of papers, not paper by paper: a set is a Python
# int used as a bitset (bit r: record r), so AND/OR/NOT over 100k papers cost
# microseconds. Each text term's result is cached with the set it is exact for, so
# a term that extends a cached one ("diffu" after "diff") is looked for only among
# that one's matches, and deleting characters finds the answer cached. Texts are
# found through token indexes once warm() has built them in idle time, else by
# searching the keyed texts paper by paper in C.

from __future__ import annotations

import functools
import re
import time
import unicodedata
from array import array
from bisect import bisect_right
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass
from itertools import accumulate, compress, repeat
from operator import add, contains, is_
from typing import Any, NamedTuple

from reader.core.library import Library
from reader.core.models import Annotation, Paper, Status
from reader.core.query import And, Everything, Field, Node, Not, Or, Query, Text
from reader.core.text import search_key

_MACRO = re.compile(r"\\([A-Za-z]+)")
_MACRO_OVERRIDES = {
    "sqrt": "√", "epsilon": "ε ϵ", "varepsilon": "ε", "frac": "/", "dfrac": "/",
}
_STATUS = {s.value: code for code, s in enumerate(Status)}
_ASCII = bytes(range(128))
_TO_DIGITS = bytes.maketrans(b"\x00\x01", b"01")
_FROM_DIGITS = bytes.maketrans(b"01", b"\x00\x01")
#: below this many papers scanning is fast enough: no token index
TOKEN_INDEX_MIN = 20_000
CACHE_SIZE = 256
#: a term's last candidates are scanned when this few, else looked up among rare tokens
SCAN_MAX = 400
RARE_HITS_MAX = 20_000
TEXT_CHUNK = 500

# -- sets of records as bitsets ------------------------------------------------------


def pack(mask: bytes | bytearray) -> int:
    """The bitset whose bit r is mask[r] (each byte 0 or 1)."""
    return int(mask.translate(_TO_DIGITS)[::-1], 2) if mask else 0


def unpack(bits: int, n: int) -> bytes:
    """mask[r] = bit r of `bits` (r < n); C-speed both ways."""
    return format(bits, f"0{n}b")[::-1].encode("ascii").translate(_FROM_DIGITS) if n else b""


def bits_of(records: Iterable[int], n: int) -> int:
    mask = bytearray(n)
    deque(map(mask.__setitem__, records, repeat(1)), 0)
    return pack(mask)


def rids(bits: int, n: int) -> list[int]:
    """The records of `bits`, in order."""
    if bits.bit_count() < 32:
        out = []
        while bits:
            low = bits & -bits
            out.append(low.bit_length() - 1)
            bits ^= low
        return out
    return list(compress(range(n), unpack(bits, n)))


# -- the text of a record ------------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def _macro_text(name: str) -> str:
    """The Unicode symbol of a TeX macro, or "" for macros that are not symbols
    (font commands, \\left, ...)."""
    if name in _MACRO_OVERRIDES:
        return _MACRO_OVERRIDES[name]
    from pylatexenc.latex2text import LatexNodes2Text

    try:
        out = LatexNodes2Text().latex_to_text("\\" + name).strip()
    except Exception:  # pylatexenc raises many kinds on odd input
        return ""
    return out if out and not out.isascii() and not unicodedata.combining(out[0]) else ""


def tex_symbols(text: str) -> str:
    """Each TeX macro of `text` replaced by its Unicode form (\\Theta -> Θ); cheap,
    since each macro name is converted once."""
    return _MACRO.sub(lambda m: _macro_text(m.group(1)), text)


def _next_mark(text: str, pos: int) -> int:
    backslash, dollar = text.find("\\", pos), text.find("$", pos)
    return dollar if backslash < 0 else backslash if dollar < 0 else min(backslash, dollar)


def _word_end(text: str, i: int) -> int:
    end = text.find(" ", i)
    return len(text) if end < 0 else end


def with_symbols(text: str) -> str:
    """`text`, then the words around each bit of TeX rendered (``a 4.7$\\times$ faster
    model`` adds ``a 4.7× faster``), so that `Theta`, `\\Theta` and `Θ` all find `$\\Theta$`."""
    i = _next_mark(text, 0)
    if i < 0:
        return text
    windows = []
    while i >= 0:  # from the word before a TeX word to the word after the last one next to it
        start = text.rfind(" ", 0, max(text.rfind(" ", 0, i), 0)) + 1
        end = _word_end(text, _word_end(text, i) + 1)
        while (i := _next_mark(text, _word_end(text, i))) >= 0 and i < end:
            end = _word_end(text, _word_end(text, i) + 1)
        windows.append(text[start:end])
    rendered = tex_symbols(" ".join(windows))
    for char in "{}$^_":
        rendered = rendered.replace(char, "")
    return f"{text} {rendered}"


@functools.lru_cache(maxsize=1 << 14)
def _char_key(char: str) -> bytes | None:
    """search_key(char) as UTF-8, or None where keying a whole text could differ from
    keying it char by char (combining marks NFKD would reorder, keys not stable)."""
    out = search_key(char)
    unstable = any(unicodedata.combining(c) or search_key(c) != c for c in out)
    if unstable or unicodedata.combining(char) and out:
        return None
    return out.encode("utf-8", "surrogatepass")


def key_bytes(text: str) -> bytes:
    """search_key(text) as UTF-8, several times faster on mostly-ASCII text: ASCII
    is lowered in C, then each distinct other character is replaced by its key."""
    data = text.encode("utf-8", "surrogatepass").lower()
    if text.isascii():
        return data
    for char in set(data.translate(None, _ASCII).decode("utf-8", "surrogatepass")):
        out = _char_key(char)
        if out is None:
            return search_key(text).encode("utf-8", "surrogatepass")
        data = data.replace(char.encode("utf-8", "surrogatepass"), out)
    return data


def _line(text: str) -> str:
    # a line break separates the parts of a record: no text term spans one
    return text.replace("\n", " ") if "\n" in text else text


def _catalogue(paper: Paper) -> str:
    return "\n".join((_line(" ".join(paper.authors)), _line(with_symbols(paper.title)),
                      _line(with_symbols(paper.abstract))))


def _annotation(ann: Annotation | None) -> str:
    """What the user wrote (tags, note, highlight quotes and comments), one per line."""
    if ann is None or not (ann.tags or ann.note or ann.highlights):
        return ""
    parts = [_line(" ".join(ann.tags)), _line(ann.note)]
    parts += [_line(f"{h.quote} {h.comment}") for h in ann.highlights]
    return "\n".join(parts)


def _has(paper: Paper, ann: Annotation | None) -> frozenset[str]:
    has = {"abstract"} if paper.abstract else set()
    if ann is not None:
        named = (("note", ann.note.strip()), ("tags", ann.tags), ("highlights", ann.highlights))
        has.update(name for name, value in named if value)
    return frozenset(has)


@dataclass(slots=True)
class SearchRecord:
    """One paper as a query sees it (reader.core.query.Record): the reference that
    SearchIndex agrees with."""

    paper_id: str
    text: str
    title: str
    authors: str
    venue: str
    year: int | None
    status: str
    tags: tuple[str, ...]
    has: frozenset[str]


def make_record(paper: Paper, ann: Annotation | None) -> SearchRecord:
    catalogue = search_key(_catalogue(paper))
    authors, title, _ = catalogue.split("\n")
    extra = search_key(_annotation(ann))
    return SearchRecord(
        paper.id, f"{catalogue}\n{extra}" if extra else catalogue, title, authors,
        search_key(paper.venue), paper.year, ann.status.value if ann else "unread",
        tuple(search_key(t) for t in ann.tags) if ann else (), _has(paper, ann),
    )


# -- token indexes ---------------------------------------------------------------------


class TokenIndex:
    """Which records hold which whitespace-separated tokens, built a slice at a time.
    A term without whitespace is in a text exactly when it is inside one of the
    text's tokens: frequent tokens keep a bitset, rare ones a list of records."""

    def __init__(self, texts: list[bytes], part: Callable[[int], bytes]) -> None:
        self.texts = list(texts)  # what was indexed (SearchIndex compares, then drops it)
        self.n = len(texts)
        self.part = part  # record -> the bytes to index
        self.done = 0
        self.ready = False
        self.covered = 0  # the records the index is right about (set by SearchIndex)
        self._post: defaultdict[bytes, array[int]] = defaultdict(functools.partial(array, "I"))
        self._finishing: list[bytes] | None = None
        self.frequent: list[bytes] = []
        self.frequent_bits: list[int] = []
        self.blob = b""  # the rare tokens, one per line; token t starts at starts[t]
        self.starts: array[int] = array("I")
        self.offsets: array[int] = array("I")  # token t's records: flat[offsets[t]:offsets[t + 1]]
        self.flat: array[int] = array("I")

    def step(self, deadline: float | None) -> bool:
        post, part, n = self._post, self.part, self.n
        get, append = post.__getitem__, array.append
        while self.done < n:
            end = min(self.done + 64, n)
            for r in range(self.done, end):
                deque(map(append, map(get, set(part(r).split())), repeat(r)), 0)
            self.done = end
            if deadline is not None and time.perf_counter() > deadline:
                return False
        if self._finishing is None:
            threshold = max(64, n // 32)  # where a bitset gets smaller than a list
            self._finishing = [t for t, recs in post.items() if len(recs) >= threshold]
            rare = [t for t, recs in post.items() if len(recs) < threshold]
            self.blob = b"\n".join(rare)
            self.starts = array("I", accumulate(map((1).__add__, map(len, rare)), initial=0))
            lists = list(map(post.pop, rare))
            self.offsets = array("I", accumulate(map(len, lists), initial=0))
            self.flat.frombytes(b"".join(map(array.tobytes, lists)))
        while self._finishing:
            token = self._finishing.pop()
            self.frequent.append(token)
            self.frequent_bits.append(bits_of(post.pop(token), n))
            if deadline is not None and time.perf_counter() > deadline:
                return False
        self.ready = True
        return True

    def match(self, term: bytes, cand: int, scan: Callable[[bytes, int], int]) -> int:
        """The records of `cand` with a token containing `term` (no whitespace in it)."""
        found = 0
        for bits in compress(self.frequent_bits, map(contains, self.frequent, repeat(term))):
            found |= bits
        found &= cand
        rest = cand & ~found
        if rest and rest.bit_count() > SCAN_MAX and (rare := self._rare(term)) is not None:
            return found | (rare & rest)
        return found | scan(term, rest)

    def _rare(self, term: bytes) -> int | None:
        """The records with a rare token containing `term`; None if too many tokens do."""
        blob, starts, hits = self.blob, self.starts, []
        i = blob.find(term)
        while i >= 0:
            t = bisect_right(starts, i) - 1
            hits.append(t)
            if len(hits) > RARE_HITS_MAX:
                return None
            i = blob.find(term, starts[t + 1])
        flat, offsets, mask = self.flat, self.offsets, bytearray(self.n)
        for t in hits:
            deque(map(mask.__setitem__, flat[offsets[t] : offsets[t + 1]], repeat(1)), 0)
        return pack(mask)


# -- the index -----------------------------------------------------------------------

#: where a field's text is: None the whole record, 0 the authors line, 1 the title line
Line = int | None


class _Order(NamedTuple):
    """An order of ids a caller filters: its records (n: not in the index) and the
    index's own copies of the ids, in that order."""

    given: list[str]
    rows: array[int]
    ids: list[str]
    unknown: bool
    repeats: bool  # an id given twice


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
        self._ids = [(p.id + " ")[:-1] for p in papers]
        self._given = [p.id for p in papers]  # the library's own: compared by identity
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
        self._last: tuple[list[str], int, _Order | None] = ([], 0, None)
        self._orders: list[_Order] = []
        annotation = self._lib.annotation
        for r, p in enumerate(papers):
            if not (ann := annotation(p.id)).is_empty:
                self._annotate(r, p, ann)

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
                self._orders = []  # their "unknown" record is a paper now
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
        the list it last returned (a second filter over the results)."""
        n, within, order = len(self._ids), self._alive, None
        if ids is not None:
            ids = ids if isinstance(ids, list) else list(ids)
            last, bits, last_order = self._last
            if ids == last:
                within, order = bits & self._alive, last_order
            elif ids != self._given:
                order = self._order(ids)
                if query.tree is None and order.unknown:
                    return list(ids)
        bits = within if query.tree is None else self._eval(query.tree, within)
        mask = unpack(bits, n)
        if order is None:
            out = list(compress(self._ids, mask))
        else:
            mask += b"\x00"  # unknown ids are record n
            out = list(compress(order.ids, map(mask.__getitem__, order.rows)))
        self._last = (list(out), bits, order)
        return out

    def _order(self, ids: list[str]) -> _Order:
        """`ids` as record numbers, remembered: the sidebar passes the same sorted list
        at every keystroke, and reading 100k scattered strings costs more than a filter."""
        for order in self._orders:
            if ids == order.given:
                return order
        n = len(self._ids)
        rows = array("I", map(self._rid.get, ids, repeat(n)))
        own = [self._ids[r] if r < n else pid for r, pid in zip(rows, ids)]
        order = _Order(list(ids), rows, own, n in rows, len(set(rows)) < len(rows))
        self._orders = [order, *self._orders[:3]]
        return order

    def count_status(self, ids: Sequence[str], status: Status) -> int:
        """How many of `ids` have `status`; cheap for the list filter() last returned."""
        code = _STATUS[status.value]
        last, bits, order = self._last
        if ids == self._given:
            return (self._alive & self._status_bits(code)).bit_count()
        if ids == last and not (order and order.repeats):
            return (bits & self._alive & self._status_bits(code)).bit_count()
        rid, status_of = self._rid, self._status
        return sum(1 for pid in ids if (r := rid.get(pid)) is not None and status_of[r] == code)

    def tally(self, ids: Sequence[str], field: str) -> Counter[Any]:
        """How many of `ids` (each counted once) have each "status", "tag" (a paper
        counts once for a tag and for each of its parents: "a" and "a/b" for
        "a/b"), "venue" or "year" (empty ones are not counted). Milliseconds for
        the list filter() last returned."""
        last, bits, order = self._last
        if ids == self._given:
            bits = self._alive
        elif not (ids == last and not (order and order.repeats)):
            bits = bits_of(self._order(list(ids)).rows, len(self._ids) + 1)
        bits &= self._alive
        if field == "status":
            return Counter({s.value: (bits & self._status_bits(code)).bit_count() for s, code in
                            zip(Status, _STATUS.values())})
        if field == "tag":
            groups: dict[Any, int] = self._derive("tag_nodes", self._tag_nodes)
        else:
            of: Callable[[Paper], Any] = lambda p: p.venue if field == "venue" else p.year
            groups = self._derive(("tally", field), lambda: _groups(self._papers, of, self._alive))
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
            return cand & self._group("year", lambda p: p.year, lambda y: y is not None and (
                lo is None or lo <= y) and (hi is None or y <= hi))
        if name == "venue":
            return cand & self._group("venue", lambda p: search_key(p.venue), lambda v: value in v)
        if "\n" in value:  # author and title are one line
            return 0
        return self._text(value, cand, 0 if name == "author" else 1)

    def _group(self, name: str, of: Callable[[Paper], Any], test: Callable[[Any], bool]) -> int:
        """The records whose value (year, venue) passes `test`; values are grouped once."""
        groups: dict[Any, int] = self._derive(name, lambda: _groups(self._papers, of, self._alive))
        found = 0
        for value, bits in groups.items():
            if test(value):
                found |= bits
        return found


def _groups(papers: list[Paper], of: Callable[[Paper], Any], alive: int) -> dict[Any, int]:
    members: dict[Any, list[int]] = {}
    for r, value in enumerate(map(of, papers)):
        members.setdefault(value, []).append(r)
    return {v: bits_of(rs, len(papers)) & alive for v, rs in members.items()}
