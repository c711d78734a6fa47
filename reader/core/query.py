"""The search language: parse once, match many.

    diffusion "flow matching"   all words and phrases, anywhere in the text (a word
                                matches whole words and word prefixes: reader.core.words)
    tag:rl  -tag:skip           tags (a parent tag matches its children: tag:method
                                matches method/diffusion)
    status:unread               reading status
    author:bengio venue:icml    fields (title:... looks in the title only)
    year:2025 year:>=2023       years, with < <= > >= and ranges 2020..2023
    has:note has:tags has:highlights has:abstract
    a OR b, (a OR b) c          alternatives and grouping; a leading - negates

Bad syntax never raises: the query falls back to plain words and says so.
A parsed Query holds both a syntax tree (for reader.core.index, which evaluates
it over whole sets of papers) and a predicate over one Record (the reference).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from reader.core import say
from reader.core.text import search_key
from reader.core.words import contains, has_acronym, is_acronym, mark, typed_words, word_text


class Record(Protocol):
    """What a query looks at for one paper (see reader.core.search_text.make_record)."""

    #: the word texts (reader.core.words.spaced) of authors, title, abstract (source and
    #: TeX symbols), tags, note, highlights
    text: str
    title: str  # (spaced too)
    authors: str
    venue: str
    year: int | None
    status: str
    tags: tuple[str, ...]  # search keys
    has: frozenset[str]


Predicate = Callable[[Record], bool]

_TOKEN = re.compile(
    r'\s*(?:(\()|(\))|(-?)([a-zA-Z]+):("[^"]*"|[^\s()"]+)|(-?)"([^"]*)"|(-?)([^\s()"]+))'
)
_YEAR = re.compile(r"^(<=|>=|<|>|=)?(\d{1,4})$|^(\d{1,4})\.\.(\d{1,4})$")
FIELDS = ("tag", "status", "author", "venue", "year", "has", "title")
HAS = ("note", "tags", "highlights", "abstract")


class QuerySyntaxError(ValueError):
    pass


# -- the syntax tree ----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Text:
    """The words `key` (a word text: reader.core.words, never empty; an acronym in
    it marked) occur in the record's text, the last as a prefix."""

    key: str


@dataclass(frozen=True, slots=True)
class Field:
    """name:value. `key` is the value's search key (for author: and title:, its word
    text); years are the range lo..hi (None: open); for has:, `key` is one of HAS or
    "" (matches nothing)."""

    name: str
    key: str
    lo: int | None = None
    hi: int | None = None


@dataclass(frozen=True, slots=True)
class Not:
    node: Node


@dataclass(frozen=True, slots=True)
class And:
    nodes: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Or:
    nodes: tuple[Node, ...]


@dataclass(frozen=True, slots=True)
class Everything:
    """A word with no searchable characters ("-", "*"): matches every paper."""


Node = Text | Field | Not | And | Or | Everything


def text_key(word: str) -> str:
    """The word text of a query word or phrase ("" if it has no words), its acronyms
    (typed in capitals: reader.core.words) marked."""
    if not has_acronym(word):
        return word_text(search_key(word))
    keys = (mark(w) if is_acronym(w) else word_text(search_key(w)) for w in typed_words(word))
    return " ".join(k for k in keys if k)


def _field(name: str, value: str) -> Field:
    value = value.strip('"')
    key = search_key(value)
    if name == "has":
        variants = (key, key.rstrip("s") + "s", key.rstrip("s"))
        return Field(name, next((h for h in HAS if h in variants), ""))
    if name == "year":
        m = _YEAR.match(value)
        if not m:
            raise QuerySyntaxError(say._("year:{value} is not a year").format(value=value))
        if m.group(3):
            return Field(name, key, int(m.group(3)), int(m.group(4)))
        op, year = m.group(1) or "=", int(m.group(2))
        lo, hi = {
            "=": (year, year),
            "<": (None, year - 1),
            "<=": (None, year),
            ">": (year + 1, None),
            ">=": (year, None),
        }[op]
        return Field(name, key, lo, hi)
    if name == "title":
        return Field(name, text_key(value))
    if name == "author":  # (a name typed in capitals is no acronym)
        return Field(name, word_text(key))
    if name in ("tag", "status", "venue"):
        return Field(name, key)
    raise QuerySyntaxError(say._("unknown field {name}:").format(name=name))


# -- the reference: one record at a time ------------------------------------------


def field_matches(node: Field, r: Record) -> bool:
    name, key = node.name, node.key
    if name == "tag":
        return any(t == key or t.startswith(key + "/") for t in r.tags)
    if name == "status":
        return r.status == key
    if name == "author":
        return bool(key) and contains(r.authors, key)
    if name == "venue":
        return key in r.venue
    if name == "title":
        return bool(key) and contains(r.title, key)
    if name == "has":
        return key in r.has
    if name == "year":
        return (
            r.year is not None
            and (node.lo is None or node.lo <= r.year)
            and (node.hi is None or r.year <= node.hi)
        )
    return False


def compile_node(node: Node) -> Predicate:
    """The predicate of `node` over one Record."""
    if isinstance(node, Text):
        key = node.key
        return lambda r: contains(r.text, key)
    if isinstance(node, Field):
        return lambda r: field_matches(node, r)
    if isinstance(node, Not):
        inner = compile_node(node.node)
        return lambda r: not inner(r)
    if isinstance(node, (And, Or)):
        parts = [compile_node(n) for n in node.nodes]
        if isinstance(node, And):
            return lambda r: all(p(r) for p in parts)
        return lambda r: any(p(r) for p in parts)
    return lambda r: True


@dataclass(frozen=True)
class Query:
    """A parsed query. `warning` is set when the text was read as plain words."""

    text: str
    predicate: Predicate | None
    warning: str = ""
    #: the plain words and phrases, for highlighting matches
    terms: tuple[str, ...] = ()
    #: the syntax tree (None: the empty query, which matches everything)
    tree: Node | None = None

    def matches(self, record: Record) -> bool:
        return self.predicate is None or self.predicate(record)

    @property
    def is_empty(self) -> bool:
        return self.predicate is None


# -- parsing ------------------------------------------------------------------------


def _and(nodes: list[Node]) -> Node:
    return nodes[0] if len(nodes) == 1 else And(tuple(nodes))


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
                raise QuerySyntaxError(say._("cannot read {text!r}").format(text=text[pos:]))
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
            elif word == "AND" and not wneg:
                pass  # what words side by side mean already (as databases spell it)
            elif word is not None:
                tokens.append(("word", wneg, word))
        return tokens

    def parse(self) -> Node | None:
        if not self.tokens:
            return None
        node = self._or()
        if self.pos != len(self.tokens):
            raise QuerySyntaxError(say._("unbalanced parenthesis"))
        return node

    def _peek(self) -> tuple[str, ...] | None:
        return self.tokens[self.pos] if self.pos < len(self.tokens) else None

    def _or(self) -> Node:
        alternatives = [self._and()]
        while (tok := self._peek()) and tok[0] == "OR":
            self.pos += 1
            if self._peek() in (None, (")",)):  # "rl OR" half typed: the OR waits
                break
            alternatives.append(self._and())
        return alternatives[0] if len(alternatives) == 1 else Or(tuple(alternatives))

    def _and(self) -> Node:
        parts: list[Node] = []
        while (tok := self._peek()) and tok[0] not in ("OR", ")"):
            parts.append(self._atom())
        if not parts:
            raise QuerySyntaxError(say._("empty expression"))
        return _and(parts)

    def _atom(self) -> Node:
        tok = self.tokens[self.pos]
        self.pos += 1
        if tok[0] == "(":
            inner = self._or()
            if self._peek() is None:  # "(tag:rl OR diffusion" half typed: closed at its end
                return inner
            if self._peek() != (")",):
                raise QuerySyntaxError(say._("missing )"))
            self.pos += 1
            return inner
        if tok[0] == "field":
            _, neg, name, value = tok
            node: Node = _field(name, value)
            return Not(node) if neg else node
        if tok[0] == "word":
            _, neg, word = tok
            key = text_key(word)
            if not key:
                return Everything()
            if not neg:
                self.terms.append(word)
            return Not(Text(key)) if neg else Text(key)
        raise QuerySyntaxError(say._("unexpected {token}").format(token=tok[0]))


def _plain_words(text: str) -> tuple[Node | None, tuple[str, ...]]:
    words = [w for w in re.split(r"[\s()\"]+", text) if w and w not in ("OR", "AND")]
    keys = [k for k in (text_key(w) for w in words) if k]
    if not keys:
        return None, ()
    return _and([Text(k) for k in keys]), tuple(words)


def parse(text: str) -> Query:
    """Parse `text`; never raises."""
    try:
        parser = _Parser(text)
        tree = parser.parse()
        terms, warning = tuple(parser.terms), ""
    except (QuerySyntaxError, RecursionError) as exc:
        tree, terms = _plain_words(text)
        warning = say._("Searching plain words: {reason}").format(reason=exc)
    predicate = None if tree is None else compile_node(tree)
    return Query(text, predicate, warning, terms, tree)
