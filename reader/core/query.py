"""The search language: parse once, match many.

    diffusion "flow matching"   all words and phrases, anywhere in the text
    tag:rl  -tag:skip           tags (a parent tag matches its children: tag:method
                                matches method/diffusion)
    status:unread               reading status
    author:bengio venue:icml    fields
    year:2025 year:>=2023       years, with < <= > >= and ranges 2020..2023
    has:note has:tags has:highlights
    a OR b, (a OR b) c          alternatives and grouping; a leading - negates

Bad syntax never raises: the query falls back to plain words and says so.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Protocol

from reader.core.text import search_key


class Record(Protocol):
    """What a query looks at for one paper (see reader.core.index)."""

    text: str  # search_key of title, authors, abstract (source and plain forms), note
    authors: str
    venue: str
    year: int | None
    status: str
    tags: tuple[str, ...]  # casefolded
    has: frozenset[str]


Predicate = Callable[[Record], bool]

_TOKEN = re.compile(r'\s*(?:(\()|(\))|(-?)([a-zA-Z]+):("[^"]*"|[^\s()"]+)|(-?)"([^"]*)"|(-?)([^\s()"]+))')
_YEAR = re.compile(r"^(<=|>=|<|>|=)?(\d{1,4})$|^(\d{1,4})\.\.(\d{1,4})$")
FIELDS = ("tag", "status", "author", "venue", "year", "has", "title")


class QuerySyntaxError(ValueError):
    pass


@dataclass(frozen=True)
class Query:
    """A parsed query. `warning` is set when the text was read as plain words."""

    text: str
    predicate: Predicate | None
    warning: str = ""
    #: the plain words and phrases, for highlighting matches
    terms: tuple[str, ...] = ()

    def matches(self, record: Record) -> bool:
        return self.predicate is None or self.predicate(record)

    @property
    def is_empty(self) -> bool:
        return self.predicate is None


def _contains(term: str) -> Predicate:
    return lambda r: term in r.text


def _field(name: str, value: str) -> Predicate:
    value = value.strip('"')
    key = search_key(value)
    if name == "tag":
        return lambda r: any(t == key or t.startswith(key + "/") for t in r.tags)
    if name == "status":
        return lambda r: r.status == key
    if name == "author":
        return lambda r: key in r.authors
    if name == "venue":
        return lambda r: key in r.venue
    if name == "title":
        return lambda r: key in r.text
    if name == "has":
        return lambda r: key in r.has or (key.rstrip("s") + "s") in r.has or key.rstrip("s") in r.has
    if name == "year":
        m = _YEAR.match(value)
        if not m:
            raise QuerySyntaxError(f"year:{value} is not a year")
        if m.group(3):
            lo, hi = int(m.group(3)), int(m.group(4))
            return lambda r: r.year is not None and lo <= r.year <= hi
        op, year = m.group(1) or "=", int(m.group(2))
        compare: dict[str, Callable[[int], bool]] = {
            "=": lambda y: y == year,
            "<": lambda y: y < year,
            "<=": lambda y: y <= year,
            ">": lambda y: y > year,
            ">=": lambda y: y >= year,
        }
        test = compare[op]
        return lambda r: r.year is not None and test(r.year)
    raise QuerySyntaxError(f"unknown field {name}:")


def _negate(p: Predicate) -> Predicate:
    return lambda r: not p(r)


def _all(ps: list[Predicate]) -> Predicate:
    if len(ps) == 1:
        return ps[0]
    return lambda r: all(p(r) for p in ps)


def _any(ps: list[Predicate]) -> Predicate:
    if len(ps) == 1:
        return ps[0]
    return lambda r: any(p(r) for p in ps)


class _Parser:
    def __init__(self, text: str) -> None:
        self.tokens = self._lex(text)
        self.pos = 0
        self.terms: list[str] = []

    @staticmethod
    def _lex(text: str) -> list[tuple[str, ...]]:
        tokens: list[tuple[str, ...]] = []
        pos = 0
        text = text.rstrip()
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if not m or m.end() == pos:
                raise QuerySyntaxError(f"cannot read {text[pos:]!r}")
            pos = m.end()
            lp, rp, fneg, fname, fval, pneg, phrase, wneg, word = m.groups()
            if lp:
                tokens.append(("(",))
            elif rp:
                tokens.append((")",))
            elif fname is not None:
                if fname.lower() not in FIELDS:
                    # not a field we know (e.g. "arXiv:2501"): an ordinary word
                    tokens.append(("word", fneg, f"{fname}:{fval}"))
                else:
                    tokens.append(("field", fneg, fname.lower(), fval))
            elif phrase is not None:
                tokens.append(("word", pneg, phrase))
            elif word == "OR":
                tokens.append(("OR",))
            elif word is not None:
                tokens.append(("word", wneg, word))
        return tokens

    def parse(self) -> Predicate | None:
        if not self.tokens:
            return None
        pred = self._or()
        if self.pos != len(self.tokens):
            raise QuerySyntaxError("unbalanced parenthesis")
        return pred

    def _peek(self) -> tuple[str, ...] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def _or(self) -> Predicate:
        alternatives = [self._and()]
        while (tok := self._peek()) and tok[0] == "OR":
            self.pos += 1
            alternatives.append(self._and())
        return _any(alternatives)

    def _and(self) -> Predicate:
        parts: list[Predicate] = []
        while (tok := self._peek()) and tok[0] not in ("OR", ")"):
            parts.append(self._atom())
        if not parts:
            raise QuerySyntaxError("empty expression")
        return _all(parts)

    def _atom(self) -> Predicate:
        tok = self.tokens[self.pos]
        self.pos += 1
        if tok[0] == "(":
            inner = self._or()
            if self._peek() != (")",):
                raise QuerySyntaxError("missing )")
            self.pos += 1
            return inner
        if tok[0] == "field":
            _, neg, name, value = tok
            pred = _field(name, value)
            return _negate(pred) if neg else pred
        if tok[0] == "word":
            _, neg, word = tok
            key = search_key(word)
            if not key:
                return lambda r: True
            if not neg:
                self.terms.append(word)
            pred = _contains(key)
            return _negate(pred) if neg else pred
        raise QuerySyntaxError(f"unexpected {tok[0]}")


def _plain_words(text: str) -> tuple[Predicate | None, tuple[str, ...]]:
    words = [w for w in re.split(r"[\s()\"]+", text) if w and w != "OR"]
    keys = [search_key(w) for w in words]
    keys = [k for k in keys if k]
    if not keys:
        return None, ()
    return _all([_contains(k) for k in keys]), tuple(words)


def parse(text: str) -> Query:
    """Parse `text`; never raises."""
    try:
        parser = _Parser(text)
        predicate = parser.parse()
        return Query(text, predicate, terms=tuple(parser.terms))
    except (QuerySyntaxError, RecursionError) as exc:
        predicate, terms = _plain_words(text)
        return Query(text, predicate, warning=f"Searching plain words: {exc}", terms=terms)
