"""Import planning: match incoming papers to the library and fill only what is missing."""

from __future__ import annotations

import dataclasses
import hashlib
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from reader.core import say
from reader.core.models import NOT_LOADED, Paper
from reader.core.normalise import fold_key
from reader.core.venues import short_venue

#: Fields an import may fill when the library's copy has them empty (never overwritten).
FILLABLE = (
    "authors", "abstract", "venue", "year", "url", "presentation", "track", "doi", "arxiv",
    "pdf", "keywords", "primary_area",
)  # fmt: skip

#: The ways an incoming paper can match a library paper, strongest first (after the id):
#: the last, a title with math matched on its words outside the math and its first
#: author (one source's `$\sqrtT$` is another's `$\sqrt{T}$`)
MATCH_ORDER = ("doi", "arxiv", "title", "abstract", "math-title")

_PAPER_FIELDS = tuple(f.name for f in dataclasses.fields(Paper))

#: How the abstracts of a library's papers are fetched, by id (a library lists its papers
#: without them: models.NOT_LOADED); from a worker thread too.
Abstracts = Callable[[Sequence[str]], dict[str, str]]
#: Papers whose abstracts are fetched at a time.
_FETCH = 2_000

#: Abstracts longer than this are matched on their start only (bounds the cost of huge ones).
_ABSTRACT_KEY_CHARS = 1200

# Byte tables: ASCII upper -> lower case, and every ASCII byte that is not a letter or digit.
_LOWER = bytes.maketrans(bytes(range(65, 91)), bytes(range(97, 123)))
_NOT_ALNUM = bytes(b for b in range(128) if not chr(b).isalnum())


@dataclass(frozen=True, slots=True)
class Skipped:
    """Something an import left out, and why; `place` is e.g. "x.csv:line 7", "entry KEY".

    Either may be a say.Said: str() is the English text (the --json report's), told()
    the text in the language in use."""

    place: str | say.Said
    reason: str | say.Said

    def __str__(self) -> str:
        return f"{self.place}: {self.reason}"

    def told(self) -> str:
        return say._("{place}: {reason}").format(
            place=say.told(self.place), reason=say.told(self.reason)
        )


@dataclass(slots=True)
class ImportPlan:
    """What importing a batch would do; applying it is the library's job."""

    added: list[Paper] = field(default_factory=list)
    #: existing papers with missing fields filled (same id as in the library)
    updated: list[Paper] = field(default_factory=list)
    unchanged: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    #: incoming id -> library id, for every incoming paper that matched a paper with another id
    id_map: dict[str, str] = field(default_factory=dict)


def match_key(text: str) -> bytes:
    """`text` reduced for matching: letters and digits only, as `fold_key` has them (TeX
    rendered, Unicode compatibility forms and look-alikes folded, case and accents
    ignored: `AUC{\\textmu}`, "AUCµ" and "AUCμ" are one key). Fast on ASCII without TeX
    commands (a byte translation, equal to fold_key there)."""
    if text.isascii() and "\\" not in text:
        return text.encode("ascii").translate(_LOWER, _NOT_ALNUM)
    return fold_key(text).encode("utf-8", "surrogatepass")


def abstract_key(abstract: str) -> int:
    """A number identifying an abstract whatever its spacing, case and punctuation.

    A 64-bit hash of the letters and digits (stable_key): hashing is what keeps
    100k-paper imports under a second.
    """
    head = abstract[:_ABSTRACT_KEY_CHARS]
    if head.isascii():
        key = head.encode("ascii").translate(_LOWER, _NOT_ALNUM)
    else:
        # Dropping the odd accent or dash keeps this fast; mostly non-Latin text keeps it all.
        ascii_part = head.encode("ascii", "ignore")
        keep_all = len(ascii_part) * 2 < len(head)
        key = match_key(head) if keep_all else ascii_part.translate(_LOWER, _NOT_ALNUM)
    return stable_key(key) if key else 0


def stable_key(data: bytes) -> int:
    """A 64-bit number for `data` (never 0), the same in every process: a catalogue's
    index keeps it. A chance collision among a million keys has odds of about one in
    10^7."""
    digest = hashlib.blake2b(data, digest_size=8).digest()
    return int.from_bytes(digest, "little", signed=True) or 1


#: a title's math, `$...$` (a source may have mangled it: `$\sqrtT$` beside `$\sqrt{T}$`)
_MATH = re.compile(r"\$[^$]*\$")
#: words outside the math that make a title worth pairing on them alone (in match_key bytes)
_LOOSE_MIN_KEY = 16


def _loose_key(paper: Paper) -> int:
    """A title with math as its words outside the math and its first author's last
    name (0 for a title without math, or with too few words outside it)."""
    if "$" not in paper.title or not paper.authors or paper.title_derived:
        return 0
    words = match_key(_MATH.sub(" ", paper.title))
    surname = match_key(paper.authors[0].split()[-1]) if paper.authors[0].split() else b""
    return stable_key(words + b"\0" + surname) if len(words) >= _LOOSE_MIN_KEY and surname else 0


def _title_key(paper: Paper) -> int:
    key = b"" if paper.title_derived else match_key(paper.title)
    return stable_key(key) if key else 0


def _abstract_key_of(paper: Paper) -> int:
    return abstract_key(paper.abstract) if paper.abstract not in ("", NOT_LOADED) else 0


#: each kind of match: the key of a paper (empty: none)
_KEY_OF: dict[str, Callable[[Paper], object]] = {
    "doi": lambda p: p.doi.strip().lower(),
    "arxiv": lambda p: p.arxiv.strip().lower(),
    "title": _title_key,
    "abstract": _abstract_key_of,
    "math-title": _loose_key,
}


def match_keys(paper: Paper) -> tuple[str | None, str | None, int | None, int | None, int | None]:
    """The keys a library paper is found by, None for none: its DOI, arXiv id, title,
    abstract and title with math (MATCH_ORDER), as a catalogue's index keeps them."""
    return (
        paper.doi.strip().lower() or None,
        paper.arxiv.strip().lower() or None,
        _title_key(paper) or None,
        _abstract_key_of(paper) or None,
        _loose_key(paper) or None,
    )


# Which library papers each table holds: for each, the kind of its key and the field
# that must be true (if any). Two papers with real titles that differ are two papers,
# so a real-titled paper is matched by abstract only against derived-title ones (which
# also keeps the costly abstract table out of most imports).
MATCH_TABLES: dict[str, tuple[str, str]] = {
    "doi": ("doi", ""),
    "arxiv": ("arxiv", ""),
    "title": ("title", ""),
    "abstract": ("abstract", ""),
    "abstract-derived": ("abstract", "title_derived"),
    "math-title": ("math-title", ""),
}


class Matcher(Protocol):
    """Where plan_import finds a library's papers by the keys they are matched on,
    from a worker thread too: the catalogue's index (reader.store.catalogue_db), or
    papers held in memory (MappingMatcher)."""

    def holds(self, table: str) -> bool:
        """True if a paper of the library is in `table` (a name of MATCH_TABLES)."""
        ...

    def find(self, table: str, key: object) -> str | None:
        """The first paper of the library whose key in `table` is `key`; with table
        "venue", a paper of the venue `key`."""
        ...


class MappingMatcher:
    """A Matcher of papers held in a mapping: each table built on first use (most
    imports match by id)."""

    def __init__(self, papers: Mapping[str, Paper], abstracts: Abstracts | None = None) -> None:
        self._papers = papers
        self._abstracts = abstracts
        self._tables: dict[str, dict[object, str]] = {}

    def holds(self, table: str) -> bool:
        return bool(self._table(table))

    def find(self, table: str, key: object) -> str | None:
        return self._table(table).get(key)

    def _table(self, name: str) -> dict[object, str]:
        table = self._tables.get(name)
        if table is not None:
            return table
        table = self._tables[name] = {}
        if name == "venue":
            for pid, paper in self._papers.items():
                table.setdefault(paper.venue, pid)
            return table
        kind, only = MATCH_TABLES[name]
        members = [(pid, p) for pid, p in self._papers.items() if not only or getattr(p, only)]
        if kind == "abstract":  # (fetched: a library lists its papers without them)
            texts = abstract_texts([paper for _pid, paper in members], self._abstracts)
            keys: list[object] = [abstract_key(text) if text else 0 for text in texts]
        else:
            keys = [_KEY_OF[kind](paper) for _pid, paper in members]
        for (pid, _paper), key in zip(members, keys, strict=True):
            if key:
                table.setdefault(key, pid)
        return table


def _conflict(a: Paper, b: Paper) -> bool:
    """True when two papers carry different DOIs or arXiv ids: a shared title is then chance."""
    return bool(
        (a.doi and b.doi and a.doi.strip().lower() != b.doi.strip().lower())
        or (a.arxiv and b.arxiv and a.arxiv.strip().lower() != b.arxiv.strip().lower())
    )


def fill_missing(current: Paper, incoming: Paper) -> Paper:
    """`current` with its empty fields filled from `incoming`; a derived title yields to a real one.

    `id`, `source` and `added` say where the paper first came from and never change.
    """
    changes: dict[str, Any] = {}
    for name in FILLABLE:
        if not getattr(current, name):
            value = getattr(incoming, name)
            if value:
                changes[name] = value
    if incoming.title and not incoming.title_derived:
        if current.title_derived or not current.title:
            changes["title"] = incoming.title
            changes["title_derived"] = False
    elif not current.title and incoming.title:
        changes["title"] = incoming.title
        changes["title_derived"] = incoming.title_derived
    if not changes:
        return current
    # Positional construction: a third faster than dataclasses.replace, which counts at 100k.
    return Paper(*[changes[n] if n in changes else getattr(current, n) for n in _PAPER_FIELDS])


def abstract_texts(papers: Sequence[Paper], abstracts: Abstracts | None) -> list[str]:
    """The abstracts of `papers`, in order: theirs, or fetched (those NOT_LOADED; ""
    without `abstracts`)."""
    lean = [p.id for p in papers if p.abstract == NOT_LOADED]
    if not lean:
        return [p.abstract for p in papers]
    if abstracts is None:
        return ["" if p.abstract == NOT_LOADED else p.abstract for p in papers]
    found: dict[str, str] = {}
    for start in range(0, len(lean), _FETCH):
        found.update(abstracts(lean[start : start + _FETCH]))
    return [found.get(p.id, "") if p.abstract == NOT_LOADED else p.abstract for p in papers]


class _Index:
    """The papers of the library (its Matcher) and of this batch (a table each, from
    the first time it is looked in) by their match keys."""

    def __init__(self, matcher: Matcher) -> None:
        self._matcher = matcher
        self._holds: dict[str, bool] = {}
        self.tables: dict[str, dict[object, str]] = {}

    def may_hold(self, name: str) -> bool:
        """False if no paper is in table `name`: its key need not be computed."""
        table = self.tables.setdefault(name, {})
        held = self._holds.get(name)
        if held is None:
            held = self._holds[name] = self._matcher.holds(name)
        return held or bool(table)

    def find(self, name: str, key: object) -> str | None:
        return self._matcher.find(name, key) or self.tables[name].get(key)

    def add(self, pid: str, paper: Paper, keys: dict[str, object]) -> None:
        """Make a paper of this batch findable by the tables looked in so far."""
        for name, table in self.tables.items():
            if name == "abstract-derived":
                if not paper.title_derived:
                    continue
                kind = "abstract"
            else:
                kind = name
            if kind in keys:
                key = keys[kind]
            elif getattr(paper, kind, True):  # an empty field has an empty key: spare computing it
                key = _KEY_OF[kind](paper)
            else:
                continue
            if key:
                table.setdefault(key, pid)


#: (match kind, table) in MATCH_ORDER, for a paper with a real title and with a derived one.
_LOOKUPS = tuple((how, "abstract-derived" if how == "abstract" else how) for how in MATCH_ORDER)
_LOOKUPS_DERIVED = tuple((how, how) for how in MATCH_ORDER)


def _key_fields(paper: Paper) -> tuple[str, str, str, bool, str]:
    return (paper.doi, paper.arxiv, paper.title, paper.title_derived, paper.abstract)


class _Venues:
    """A new venue in the long form of a venue the library has short ("Proceedings of the
    36th International Conference on Machine Learning" of 2019 where "ICML 2019" is one)
    becomes the short one, so that one conference stays one facet."""

    def __init__(self, matcher: Matcher) -> None:
        self._matcher = matcher
        self._known: dict[str, bool] = {}  # the library's venues looked for
        self._batch: set[str] = set()

    def short(self, paper: Paper) -> Paper:
        venue = paper.venue
        if not venue:
            return paper
        short = short_venue(venue, paper.year)  # (cached: a batch has few venues)
        if short:
            known = self._known.get(short)
            if known is None:
                known = self._known[short] = self._matcher.find("venue", short) is not None
            if known or short in self._batch:
                return dataclasses.replace(paper, venue=short)
        self._batch.add(venue)
        return paper


def plan_import(
    existing: Mapping[str, Paper],
    incoming: Sequence[Paper],
    abstracts: Abstracts | None = None,
    matcher: Matcher | None = None,
) -> ImportPlan:
    """For each incoming paper: is it new, does it fill gaps in a known paper, or repeat one?

    `existing` as a library lists them: an abstract NOT_LOADED is one the paper has (never
    filled; written whole by Library.write_papers), fetched by `abstracts` only to match
    papers by their abstracts. `matcher` finds them by the keys they are matched on
    (default: a MappingMatcher of `existing`): only the papers met are read whole.

    Matching, in order: same id, same DOI, same arXiv id, same normalised (real) title,
    same normalised abstract, a title with math the same outside its math and the same
    first author; DOIs or arXiv ids that differ veto a title/abstract match.
    A non-empty field is never replaced, except that a title derived from the abstract
    gives way to a real title. Papers met twice in the batch are reported in `skipped`.
    """
    plan = ImportPlan()
    matcher = matcher or MappingMatcher(existing, abstracts)
    index = _Index(matcher)

    touched: dict[str, Paper] = {}  # this batch's new and filled papers, by library id
    added: set[str] = set()
    seen: set[str] = set()
    unchanged: set[str] = set()

    venues = _Venues(matcher)
    for paper in incoming:
        keys: dict[str, object] = {}
        pid: str | None = paper.id
        before = touched.get(paper.id) or existing.get(paper.id)
        how = "id"
        if before is None:
            pid = None
            derived = paper.title_derived or not paper.title
            for how, name in _LOOKUPS_DERIVED if derived else _LOOKUPS:
                if not index.may_hold(name):
                    continue  # nothing to find: spare computing the key
                key = keys[how] = _KEY_OF[how](paper)
                candidate = index.find(name, key) if key else None
                if candidate is not None:
                    before = touched.get(candidate) or existing.get(candidate)
                    if before is not None and not _conflict(before, paper):
                        pid = candidate
                        break
                    before = None
        if pid is None or before is None:
            paper = venues.short(paper)
            touched[paper.id] = paper
            added.add(paper.id)
            seen.add(paper.id)
            index.add(paper.id, paper, keys)
            continue
        if pid != paper.id:
            plan.id_map.setdefault(paper.id, pid)
        if pid in seen:
            reason = say.Said(
                "same paper as {id} (by {how}) earlier in this import", id=pid, how=how
            )
            plan.skipped.append(Skipped(say.Said("paper {id}", id=paper.id), reason))
        seen.add(pid)
        merged = fill_missing(before, paper)
        if merged is before:
            unchanged.add(pid)
            continue
        if merged.venue != before.venue:
            merged = venues.short(merged)
        touched[pid] = merged
        if _key_fields(merged) != _key_fields(before):
            index.add(pid, merged, {})
    plan.added = [paper for pid, paper in touched.items() if pid in added]
    plan.updated = [paper for pid, paper in touched.items() if pid not in added]
    plan.unchanged = len(unchanged - touched.keys())
    return plan


def duplicate_groups(
    papers: Iterable[Paper], abstracts: Abstracts | None = None
) -> list[list[str]]:
    """Possible duplicates among `papers` (a library): the groups of ids that an import
    would take for one paper, with the very matching plan_import uses (match_key's
    folding: `AUC{\\textmu}`, "AUCµ" and "AUCμ" are one title). Two papers are one when
    they share a DOI, an arXiv id or a real title, or an abstract where one title was
    derived from it (abstracts NOT_LOADED fetched by `abstracts`, if any title is), or
    a title with math the same outside its math and the same first author (one
    source's `$\\sqrtT$` is another's `$\\sqrt{T}$`); DOIs or arXiv ids that differ
    veto a match. Each group has two ids or more, in the order of `papers`; the
    groups are in the order of their first paper.
    """
    order: dict[str, int] = {}
    by_id: dict[str, Paper] = {}
    for paper in papers:
        if paper.id not in by_id:
            order[paper.id] = len(order)
            by_id[paper.id] = paper
    parent = {pid: pid for pid in by_id}

    def root(pid: str) -> str:
        while parent[pid] != pid:
            parent[pid] = parent[parent[pid]]
            pid = parent[pid]
        return pid

    # a group's DOI and arXiv id (a group never holds two that differ), by its root
    ids = {pid: (p.doi.strip().lower(), p.arxiv.strip().lower()) for pid, p in by_id.items()}

    def join(a: str, b: str) -> None:
        ra, rb = root(a), root(b)
        (doi_a, arxiv_a), (doi_b, arxiv_b) = ids[ra], ids[rb]
        if ra == rb or (doi_a and doi_b and doi_a != doi_b):
            return
        if arxiv_a and arxiv_b and arxiv_a != arxiv_b:
            return
        first, second = (ra, rb) if order[ra] < order[rb] else (rb, ra)
        parent[second] = first
        ids[first] = (doi_a or doi_b, arxiv_a or arxiv_b)

    for key_of in (_KEY_OF[kind] for kind in ("doi", "arxiv", "title", "math-title")):
        first_of: dict[object, str] = {}
        for pid, paper in by_id.items():
            key = key_of(paper)
            if key:
                join(first_of.setdefault(key, pid), pid)
    buckets: dict[int, list[str]] = {}
    if any(p.title_derived for p in by_id.values()):  # (else no abstract joins two)
        with_text = [p for p in by_id.values() if p.abstract]
        for paper, text in zip(with_text, abstract_texts(with_text, abstracts), strict=True):
            if text:
                buckets.setdefault(abstract_key(text), []).append(paper.id)
    for bucket in buckets.values():
        if len(bucket) > 1:
            derived = [pid for pid in bucket if by_id[pid].title_derived]
            if derived:
                head = next((pid for pid in bucket if pid not in derived), bucket[0])
                for pid in derived:
                    join(head, pid)
    groups: dict[str, list[str]] = {}
    for pid in by_id:
        groups.setdefault(root(pid), []).append(pid)
    return [group for group in groups.values() if len(group) > 1]
