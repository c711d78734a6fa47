"""Abstracts and titles as safe Qt rich-text HTML: every character of the source is escaped."""

from __future__ import annotations

import re
from collections.abc import Iterable

from reader.core import say
from reader.core.pieces import Piece
from reader.core.tex import light_clean, parse
from reader.core.text import shown_part

#: the most of an abstract laid out (a 10 MB one took 9 s; 50,000 characters of one
#: word ~60 ms, 20,000 ~30 ms): the rest is left out, with a marker saying so (the
#: stored abstract is whole). Ten pages: real abstracts are a tenth of it.
MAX_ABSTRACT_CHARS = 20_000
#: the most of a title laid out (real ones stay under 300 characters): a thousand
#: characters of heading fill the pane, the abstract out of sight
MAX_TITLE_CHARS = 500
#: the longest run of characters with nowhere to break a line between them that Qt is
#: given: Qt looks along the rest of such a run for each line it lays out (quadratic:
#: a 50,000-character word took 0.5 s, a million ones minutes). A zero-width space,
#: a place to break, goes after every so many characters of a longer run.
BREAK_RUNS_AT = 1_000
ZERO_WIDTH_SPACE = "\u200b"
# Where lines may break: white space (not the no-break ones), and zero-width spaces.
_BREAKS = " \t\n\r\f\v\x1c-\x1f\x85\u1680\u2000-\u2006\u2008-\u200b\u2028\u2029\u205f\u3000"
# What a run of HTML is made of: whole tags (no width), character references, and
# characters that are no place to break.
_RUN_PART = f"(?:<[^<>]*>|&#?[0-9A-Za-z]{{1,31}};|[^<&{_BREAKS}])"
_LONG_RUN = re.compile(f"{_RUN_PART}{{{BREAK_RUNS_AT}}}(?={_RUN_PART})")

_TAGS = {"b": "b", "i": "i", "mi": "i", "code": "code", "sup": "sup", "sub": "sub"}
#: a web address in an abstract (\url{...} and bare ones): a link, opened on a click only
_URL = re.compile(r"https?://[^\s<>\"'\u200b]+", re.IGNORECASE)
_URL_TAIL = ".,;:!?'\""
_PARAGRAPH = re.compile(r"\n[ \t\r\f\v]*\n\s*")
_EMPTY_PARAGRAPH = re.compile(r"<p>\s*</p>\n?")


def escape(text: str, quote: bool = True) -> str:
    """What html.escape() does (&, < and >, and both quotes if `quote`, as character
    references), without importing the html package: its entity table is ~8M
    instructions of the program's start (tests compare the two)."""
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    if quote:
        text = text.replace('"', "&quot;").replace("'", "&#x27;")
    return text


def abstract_html(text: str, limit: int = MAX_ABSTRACT_CHARS) -> str:
    """TeX-flavoured `text` as paragraphs of safe HTML: "" only for "".

    `$\\textbf{x}$` is bold, `$H^{1/2}$` H<sup>1/2</sup>, math letters italic,
    `*a*` italic, ``` ``a'' ``` curly quotes; blank lines start paragraphs. Raw
    HTML in the source shows as text. Never raises: text that cannot be parsed
    is shown escaped. Only the first `limit` characters are rendered, then a
    paragraph saying the text was shortened (see shortened()); long words can
    break (see breakable()).
    """
    shown = shown_part(text, limit)
    out = breakable(_render(shown, block=True, links=True))
    if len(shown) < len(text):
        out += f"\n<p><i>{escape(shortened(len(text)), quote=False)}</i></p>"
    return out


def title_html(text: str, limit: int | None = MAX_TITLE_CHARS) -> str:
    """TeX-flavoured `text` as one line of safe inline HTML (no paragraphs): its
    first `limit` characters (None: all), then a note that it was shortened."""
    shown = text if limit is None else shown_part(text, limit)
    out = breakable(_render(shown, block=False))
    if len(shown) < len(text):
        out += f" <i>{escape(shortened(len(text)), quote=False)}</i>"
    return out


def shortened(total: int, what: str = "text") -> str:
    """The marker after the part of a text that is shown (`what`: "text" or "note")."""
    if what == "note":
        marker = say._("… (note shortened for display: {total:,} characters in total)")
    else:
        marker = say._("… (text shortened for display: {total:,} characters in total)")
    return marker.format(total=total)


def breakable(fragment: str) -> str:
    """HTML `fragment` with a zero-width space after every BREAK_RUNS_AT characters
    of a run that has nowhere to break a line (a long word, a URL, a hash): the
    place Qt breaks it at. Tags count as nothing, a character reference as one
    character; nothing is put inside a tag or a reference. The text shown looks the
    same (the space has no width), and what is stored is never touched."""
    if len(fragment) <= BREAK_RUNS_AT:
        return fragment
    return _LONG_RUN.sub(lambda m: m.group(0) + ZERO_WIDTH_SPACE, fragment)


def pieces_html(pieces: Iterable[Piece], *, block: bool, links: bool = False) -> str:
    """Escaped HTML for `pieces`; with `block`, <p> paragraphs split on blank lines;
    with `links`, each http(s) address fit to follow is a link (see linked())."""
    out: list[str] = []
    stack: list[str] = []
    text = linked if links else lambda part: escape(part, quote=False)

    def walk(items: Iterable[Piece]) -> None:
        for p in items:
            if isinstance(p, str):
                for k, part in enumerate(_PARAGRAPH.split(p)):
                    if k:  # a paragraph break inside styles closes and reopens them
                        out.append(_new_paragraph(stack) if block else " ")
                    out.append(text(part))
                continue
            tag = _TAGS.get(p.style)
            if tag:
                out.append(f"<{tag}>")
                stack.append(tag)
            walk(p.children)
            if tag:
                stack.pop()
                out.append(f"</{tag}>")

    walk(pieces)
    body = "".join(out)
    return f"<p>{body}</p>" if block else body


def linked(text: str) -> str:
    """`text` escaped, each http(s) address in it that safe_href() passes made a link
    (escaped too); punctuation that ends a sentence after one is not part of it."""
    if "://" not in text:
        return escape(text, quote=False)
    from reader.render.sanitize import safe_href  # (an abstract with a link: rare)

    out, at = [], 0
    for m in _URL.finditer(text):
        url = m.group(0).rstrip(_URL_TAIL)
        while url.endswith((")", "]")) and url.count(url[-1]) > url.count(
            "(" if url[-1] == ")" else "["
        ):
            url = url[:-1]
        href = safe_href(url)
        if href is None:
            continue
        start = m.start()
        out += [
            escape(text[at:start], quote=False),
            f'<a href="{escape(href)}">',
            escape(url, quote=False),
            "</a>",
        ]
        at = start + len(url)
    out.append(escape(text[at:], quote=False))
    return "".join(out)


def _new_paragraph(stack: list[str]) -> str:
    closing = "".join(f"</{tag}>" for tag in reversed(stack))
    return closing + "</p>\n<p>" + "".join(f"<{tag}>" for tag in stack)


def _render(text: str, *, block: bool, links: bool = False) -> str:
    if not text:
        return ""
    try:
        pieces = parse(text) or (light_clean(text),)  # parse: the same cache key as plain()
        return _tidy(pieces_html(pieces, block=block, links=links))
    except Exception:  # noqa: BLE001 - the contract is "never raises": show the escaped source
        return _tidy(pieces_html([light_clean(text)], block=block, links=links))


def _tidy(fragment: str) -> str:
    """`fragment` without the empty paragraphs that leading or trailing blank lines make."""
    return _EMPTY_PARAGRAPH.sub("", fragment).strip("\n") or fragment
