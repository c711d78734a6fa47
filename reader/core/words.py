"""Words as search sees them: a query word matches whole words and word prefixes.

A text (already a search key: casefolded, accents stripped) is read as its words,
runs of letters and digits, and its symbols (a character neither ASCII nor a
letter, digit or space: "×", "√" are words of their own); everything else
separates them ("RL-based" is "rl" "based"). Chinese, Japanese and Korean have
no spaces between words, so a run of their characters is read as its overlapping
pairs ("扩散模型" is "扩散" "散模" "模型"): any two or more characters of it are
found. A text's words joined by single spaces is its *word text*, the form both
the SQLite index (its ``ascii`` tokenizer splits exactly there) and the matching
in Python read.

A query word or phrase matches where its words occur in that order, the last one
as a prefix: `Ising` finds "Ising model" but not "promising", `transform` finds
"transformer", `RL` finds "RLHF" but not "world", "flow matching" finds "flow
matching" and "flow matchings", not "flow" far from "matching".

A query word typed in capitals (two to six of A-Z and digits, two or more of them
capitals: `AUC`, `RL`, `GPT4`; not `3D`, `Auc`, nor `DIFFUSION`, a word typed in
capitals) is an acronym: it matches only words that begin with those capitals as
written (`AUC` finds "AUC" and "AUCs", not "auctions" nor "Auction").
The word texts keep no case, so a text's *marks* say it: after the words of each
part, a token MARK + the capitals (lower-cased) each of its words begins with
(two or more): "AUCs and RLHF" is marked with MARK + "auc" and MARK + "rlhf". A
query's acronym is its token. In a phrase an acronym asks for its mark in the same
part as the phrase (the phrase's words in order, the mark anywhere in the part)."""

from __future__ import annotations

import functools
import itertools
import re
from collections.abc import Sequence

#: Hiragana, Katakana, CJK ideographs (with extension A and compatibility), Hangul
_CJK_CHARS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
#: what begins the token of an acronym's capitals (a private-use character: never a word)
MARK = "\ue000"
#: a word, or one other character that is neither ASCII nor a space (×, √, ∇, “)
_WORD = re.compile(f"[^\\W_]+|[^\\w\\s\\x00-\\x7f{MARK}]")
#: _WORD in an ASCII text
_ASCII_WORD = re.compile("[A-Za-z0-9]+")
_CJK_RUN = re.compile(f"[{_CJK_CHARS}]+")
_HAS_CJK = re.compile(f"[{_CJK_CHARS}]")
#: the longest acronym (a longer word in capitals is a word typed in capitals)
ACRONYM_MAX = 6
#: capitals, two or more, digits among them allowed
_CAPITALS = "[0-9]*[A-Z][0-9]*[A-Z][A-Z0-9]*"
_ACRONYM = re.compile(_CAPITALS)
#: the capitals (and digits) a word of a text as written begins with, one capital at
#: least (see starts() for a word's start; one class first: scanned ~3x faster)
_WORD_CAPITALS = re.compile(f"[A-Z0-9](?<![^\\W_{_CJK_CHARS}][A-Z0-9])[0-9]*[A-Z][A-Z0-9]*")


def _pairs(run: str) -> str:
    if len(run) == 1:
        return run
    return " ".join(run[i : i + 2] for i in range(len(run) - 1))


def word_text(key: str) -> str:
    """The words of the search key `key`, joined by single spaces ("" if none)."""
    if key.isascii():  # (most texts: their words are found twice as fast)
        return " ".join(_ASCII_WORD.findall(key))
    if _HAS_CJK.search(key) is not None:
        key = _CJK_RUN.sub(lambda m: f" {_pairs(m.group())} ", key)
    return " ".join(_WORD.findall(key))


def is_acronym(word: str) -> bool:
    """Whether a word as the user typed it is an acronym (AUC, RL, GPT4)."""
    return len(word) <= ACRONYM_MAX and _ACRONYM.fullmatch(word) is not None


def has_acronym(typed: str) -> bool:
    """Whether any word of a query's text as typed is an acronym (cheap)."""
    return any(map(is_acronym, _WORD.findall(typed))) if _ACRONYM.search(typed) else False


def typed_words(typed: str) -> list[str]:
    """The words of a query's text as typed, case kept ("RL-based" is "RL" "based")."""
    return _WORD.findall(typed)


def mark(capitals: str) -> str:
    """The token of an acronym, or of the capitals a word of a text begins with."""
    return MARK + capitals.lower()


def marks(written: str) -> str:
    """The marks of a text as written: a space and a token for each word that begins
    with two or more capitals ("" if none)."""
    return "".join(
        f" {mark(m)}"
        for m in _WORD_CAPITALS.findall(written)
        if m[0] >= "A" or sum(c >= "A" for c in m) > 1  # (two capitals after digits)
    )


def _split(words: str) -> tuple[str, list[tuple[str, bool]]]:
    """A marked word text's plain words, and its marks (each: whether it is the last
    word, a prefix)."""
    tokens = words.split(" ")
    last = len(tokens) - 1
    plain = " ".join(t.removeprefix(MARK) for t in tokens)
    return plain, [(t, i == last) for i, t in enumerate(tokens) if t.startswith(MARK)]


@functools.lru_cache(maxsize=512)
def fts_query(words: str, column: str | None = None, columns: tuple[str, ...] = ()) -> str:
    """The FTS5 MATCH expression of a query's word text (never empty): the words in
    order, the last a prefix, in `column` if one is given. Words are letters and
    digits only, so quoting them cannot break out of the expression. A phrase with
    acronyms asks for the phrase and their marks in one column: `column`, or any of
    `columns` (the table's)."""
    if MARK in words and " " in words:
        plain, marked = _split(words)
        both = " AND ".join(
            [f'"{plain}" *', *(f'"{m}" *' if last else f'"{m}"' for m, last in marked)]
        )
        return " OR ".join(f"{{{c}}} : ({both})" for c in ((column,) if column else columns))
    phrase = f'"{words}" *'
    return f"{{{column}}} : {phrase}" if column else phrase


def contains(haystack: str, words: str) -> bool:
    """Whether `words` (a query's word text) occur in `haystack`, the word text of
    a text with a space before each of its parts (see spaced())."""
    if MARK not in words or " " not in words:
        return f" {words}" in haystack
    plain, marked = _split(words)
    return any(
        f" {plain}" in part
        and all(f" {m}" in part if last else f" {m} " in f"{part} " for m, last in marked)
        for part in haystack.split("\n")
    )


def spaced(*parts: str, written: Sequence[str] = ()) -> str:
    """The haystack contains() searches: each part's word text after a space, then
    the marks of the part as written (written[i], if given), parts on lines of their
    own, so that no phrase runs from one part into the next."""
    if not written:
        return "\n".join(f" {word_text(part)}" for part in parts)
    return "\n".join(
        f" {word_text(part)}{marks(text)}" for part, text in zip(parts, written, strict=True)
    )


def as_written(term: str, text: str, at: int) -> bool:
    """Whether the words of `text` from index `at` begin with the capitals of the
    acronyms of `term` (a query's word or phrase as typed), word for word: where a
    match of the term's search key in a shown text is one the search finds."""
    typed = _WORD.findall(term)
    if not any(map(is_acronym, typed)):
        return True
    found = [m.group() for m in itertools.islice(_WORD.finditer(text, at), len(typed))]
    return len(found) == len(typed) and all(
        w.startswith(t) for t, w in zip(typed, found, strict=True) if is_acronym(t)
    )


@functools.lru_cache(maxsize=256)
def starts(key: str) -> re.Pattern[str]:
    """Where the search key `key` (not empty) occurs in a keyed text as the search
    finds it: at the start of a word (after a character not a letter or digit, or a
    CJK one), or anywhere if it starts with a CJK character or a symbol."""
    body = re.escape(key)
    if not key[0].isalnum() or _HAS_CJK.match(key):
        return re.compile(body)
    return re.compile(f"(?<![^\\W_{_CJK_CHARS}]){body}")
