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
matching" and "flow matchings", not "flow" far from "matching"."""

from __future__ import annotations

import functools
import re

#: Hiragana, Katakana, CJK ideographs (with extension A and compatibility), Hangul
_CJK_CHARS = "\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uac00-\ud7af"
#: a word, or one other character that is neither ASCII nor a space (×, √, ∇, “)
_WORD = re.compile(r"[^\W_]+|[^\w\s\x00-\x7f]")
_CJK_RUN = re.compile(f"[{_CJK_CHARS}]+")
_HAS_CJK = re.compile(f"[{_CJK_CHARS}]")


def _pairs(run: str) -> str:
    if len(run) == 1:
        return run
    return " ".join(run[i : i + 2] for i in range(len(run) - 1))


def word_text(key: str) -> str:
    """The words of the search key `key`, joined by single spaces ("" if none)."""
    if _HAS_CJK.search(key) is not None:
        key = _CJK_RUN.sub(lambda m: f" {_pairs(m.group())} ", key)
    return " ".join(_WORD.findall(key))


@functools.lru_cache(maxsize=512)
def fts_query(words: str, column: str | None = None) -> str:
    """The FTS5 MATCH expression of a query's word text (never empty): the words in
    order, the last a prefix, in `column` if one is given. Words are letters and
    digits only, so quoting them cannot break out of the expression."""
    phrase = f'"{words}" *'
    return f"{{{column}}} : {phrase}" if column else phrase


def contains(haystack: str, words: str) -> bool:
    """Whether `words` (a query's word text) occur in `haystack`, the word text of
    a text with a space before each of its parts (see spaced())."""
    return f" {words}" in haystack


def spaced(*parts: str) -> str:
    """The haystack contains() searches: each part's word text after a space, parts
    on lines of their own, so that no phrase runs from one part into the next."""
    return "\n".join(f" {word_text(part)}" for part in parts)


@functools.lru_cache(maxsize=256)
def starts(key: str) -> re.Pattern[str]:
    """Where the search key `key` (not empty) occurs in a keyed text as the search
    finds it: at the start of a word (after a character not a letter or digit, or a
    CJK one), or anywhere if it starts with a CJK character or a symbol."""
    body = re.escape(key)
    if not key[0].isalnum() or _HAS_CJK.match(key):
        return re.compile(body)
    return re.compile(f"(?<![^\\W_{_CJK_CHARS}]){body}")
