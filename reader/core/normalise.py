"""What papers are known by, whatever their source: tags and titles normalised for
comparing, and the stable ids made from a record's identifiers or text."""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any

from reader.core import say

_TAG_SPACE = re.compile(r"\s+")

#: Invisible characters that reorder or hide text, dropped from imported titles, authors,
#: venues and from tags: the bidi embeddings, overrides and isolates (U+202A-U+202E,
#: U+2066-U+2069: "\u202egnp.exe" shows as "exe.png"), the deprecated format controls
#: (U+206A-U+206F), zero-width space, word joiner and invisible operators (U+200B,
#: U+2060-U+2064), a BOM inside text (U+FEFF), the interlinear annotation marks
#: (U+FFF9-U+FFFB) and tag characters (U+E0000-U+E007F) outside an emoji flag. Kept, as
#: real text needs them: the direction marks LRM, RLM and ALM (U+200E, U+200F, U+061C:
#: they only mark a direction, as any letter does), ZWNJ and ZWJ (U+200C, U+200D:
#: Persian, Indic scripts, emoji), soft hyphens and variation selectors.
HIDDEN_CHARS = (
    "\u200b\u202a-\u202e\u2060-\u2064\u2066-\u206f\ufeff\ufff9-\ufffb\U000e0000-\U000e007f"
)
_ANY_HIDDEN = re.compile(f"[{HIDDEN_CHARS}]")
_HIDDEN = re.compile(
    # a subdivision flag (England's: black flag, "gbeng" as tag letters, cancel tag) is kept
    f"(\U0001f3f4[\U000e0030-\U000e0039\U000e0061-\U000e007a]{{1,7}}\U000e007f)|[{HIDDEN_CHARS}]+"
)


def _kept(match: re.Match[str]) -> str:
    return match.group(1) or ""


def strip_hidden(text: str) -> str:
    """`text` without the HIDDEN_CHARS (an emoji flag's tag characters kept)."""
    if text.isascii() or text.isprintable() or not _ANY_HIDDEN.search(text):
        return text  # (every hidden character is unprintable; a search is 4x faster than sub)
    return _HIDDEN.sub(_kept, text)


@functools.lru_cache(maxsize=8192)
def normalise_tag(tag: str) -> str:
    """A tag as stored: trimmed, inner whitespace collapsed, no empty path parts, no
    hidden characters (see HIDDEN_CHARS)."""
    tag = _TAG_SPACE.sub(" ", unicodedata.normalize("NFC", strip_hidden(tag))).strip()
    parts = [p.strip() for p in tag.split("/")]
    return "/".join(p for p in parts if p)


def normalise_tags(tags: Any) -> list[str]:
    """Normalised tags, empty ones dropped, duplicates (case-insensitive) removed, order kept."""
    seen: set[str] = set()
    out: list[str] = []
    for raw in tags:
        tag = normalise_tag(raw)
        key = tag.casefold()
        if tag and key not in seen:
            seen.add(key)
            out.append(tag)
    return out


_NON_WORD = re.compile(r"[\W_]+", re.UNICODE)


def normalise_title(title: str) -> str:
    """A title reduced for matching: accents, case, punctuation and spacing ignored."""
    if title.isascii():  # the common case, without the per-character loop
        return _NON_WORD.sub(" ", title.lower()).strip()
    decomposed = unicodedata.normalize("NFKD", title)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _NON_WORD.sub(" ", stripped.casefold()).strip()


#: Look-alike characters that titles mix up, folded to one: the hyphens, dashes and the
#: minus sign to "-", single quotes and apostrophes to "'", double quotes to '"', the
#: no-break and narrow spaces to " " (NFKC leaves these as they are).
_CONFUSABLES = str.maketrans(
    dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d", "-")
    | dict.fromkeys("\u2018\u2019\u201a\u201b\u2032\u00b4\uff07", "'")
    | dict.fromkeys("\u201c\u201d\u201e\u201f\u2033\uff02", '"')
    | dict.fromkeys("\u00a0\u2007\u202f\u2009\u200a\u3000", " ")
)


@functools.lru_cache(maxsize=4096)
def _tex_to_unicode(text: str) -> str:
    from reader.core.text import plain  # (pylatexenc: loaded by the first TeX title only)

    return plain(text)


def fold_title(text: str) -> str:
    """`text` as compared to find "the same paper" (imports and the duplicates view):

    TeX commands rendered as Unicode (`AUC{\\textmu}` -> "AUCµ", `$\\epsilon$` -> "ε"),
    Unicode compatibility forms folded (NFKC: the micro sign µ -> Greek μ, ligatures
    "ﬁ" -> "fi", fullwidth letters, superscripts), look-alike dashes, quotes and spaces
    made one (_CONFUSABLES), casefolded, accents dropped. Only for matching: ids hash
    normalise_title, which must never change (existing libraries' ids rest on it).
    """
    if "\\" in text:
        text = _tex_to_unicode(text)
    if text.isascii():
        return text.lower()
    # (before NFKC, which makes "´" a space and an accent; after it, for the small and
    # fullwidth forms it turns into dashes and quotes)
    folded = unicodedata.normalize("NFKC", text.translate(_CONFUSABLES))
    text = folded.translate(_CONFUSABLES).casefold()
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def fold_key(text: str) -> str:
    """fold_title(text) with only its letters and digits: what import matching compares."""
    return _NON_WORD.sub("", fold_title(text))


def _digest(text: str) -> str:
    import hashlib  # not before the first paint: OpenSSL takes ~3 ms to load

    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:10]


def make_paper_id(
    *,
    source_id: str = "",
    doi: str = "",
    arxiv: str = "",
    title: str = "",
    abstract: str = "",
) -> str:
    """A paper's stable id: the source's own id, else DOI, else arXiv id, else a
    hash of the normalised title, else of the abstract. Re-importing the same
    record always yields the same id."""
    if source_id.strip():
        return source_id.strip()
    if doi.strip():
        return "doi-" + _digest(doi.strip().lower())
    if arxiv.strip():
        return "arxiv-" + _digest(arxiv.strip().lower())
    norm = normalise_title(title)
    if norm:
        return "t-" + _digest(norm)
    norm = normalise_title(abstract)
    if norm:
        return "a-" + _digest(norm)
    raise say.SaidError("a paper needs a title, an abstract or an id")
