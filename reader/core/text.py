"""Plain Unicode text and search keys for TeX-flavoured titles and abstracts."""

from __future__ import annotations

import functools
import re
import unicodedata

from reader.core.pieces import to_plain
from reader.core.tex import light_clean, parse


@functools.cache
def _combining() -> re.Pattern[str]:
    """Combining marks: compiled by the first search key of non-ASCII text (the
    search's, after the first paint), not at import (~3M instructions)."""
    return re.compile("[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]")


def plain(text: str) -> str:
    """The Unicode plain text of a TeX-flavoured title or abstract, for the list and search.

    `4.7$\\times$` gives "4.7×", `$K^2$VAE` "K²VAE", `$H^{1/2}$` "H^(1/2)",
    ``` ``x'' ``` "“x”", `*a*` "a". The parsing is shared with reader.render
    (reader.core.tex), so the list and the reader pane always agree. Never
    raises: text that cannot be parsed comes back lightly cleaned.
    """
    try:
        pieces = parse(text)
        return light_clean(text) if pieces is None else to_plain(pieces)
    except Exception:  # noqa: BLE001 - the contract is "never raises"; light_clean is regex-only
        return light_clean(text)


def search_key(text: str) -> str:
    """`text` casefolded with accents stripped (NFKD, then combining marks dropped).

    Search matches both the source and the plain() form of a paper's text: build
    haystacks with search_haystack(), so "theta" finds `$\\Theta$` and "θ" finds
    its plain "Θ"; "rocktaschel" finds `Rockt{\\"a}schel`; "k2vae" finds "K²VAE".
    Apply search_key() to the query too.
    """
    if text.isascii():
        return text.lower()
    return _combining().sub("", unicodedata.normalize("NFKD", text)).casefold()


def search_haystack(text: str) -> str:
    """The search keys of both the source and the plain() form of `text`, one per line."""
    source = search_key(text)
    rendered = search_key(plain(text))
    return source if rendered == source else f"{source}\n{rendered}"


def shown_part(text: str, limit: int) -> str:
    """The start of `text` that is laid out on screen: all of it up to `limit`
    characters, else its first `limit`, cut after the last space or line break of
    their final tenth if there is one there.

    Only what is laid out is cut, never the text stored or exported: laying text out
    costs more than its length (a title of one 1 MB word froze the window for a
    minute), so every text the window lays out goes through a cap like this one.
    """
    if len(text) <= limit:
        return text
    head = text[:limit]
    floor = limit - limit // 10
    cut = max(head.rfind(" ", floor), head.rfind("\n", floor))
    return head[: cut + 1] if cut > 0 else head
