"""What papers are known by, whatever their source: tags and titles normalised for
comparing, and the stable ids made from a record's identifiers or text."""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import Any

_TAG_SPACE = re.compile(r"\s+")


@functools.lru_cache(maxsize=8192)
def normalise_tag(tag: str) -> str:
    """A tag as stored: trimmed, inner whitespace collapsed, no empty path parts."""
    tag = _TAG_SPACE.sub(" ", unicodedata.normalize("NFC", tag)).strip()
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
    raise ValueError("a paper needs a title, an abstract or an id")
