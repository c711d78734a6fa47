"""Abstracts and titles as safe Qt rich-text HTML: every character of the source is escaped."""

from __future__ import annotations

import re
from collections.abc import Iterable

from reader.core.pieces import Piece
from reader.core.tex import light_clean, parse

_TAGS = {"b": "b", "i": "i", "mi": "i", "code": "code", "sup": "sup", "sub": "sub"}
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


def abstract_html(text: str) -> str:
    """TeX-flavoured `text` as paragraphs of safe HTML: "" only for "".

    `$\\textbf{x}$` is bold, `$H^{1/2}$` H<sup>1/2</sup>, math letters italic,
    `*a*` italic, ``` ``a'' ``` curly quotes; blank lines start paragraphs. Raw
    HTML in the source shows as text. Never raises: text that cannot be parsed
    is shown escaped.
    """
    return _render(text, block=True)


def title_html(text: str) -> str:
    """TeX-flavoured `text` as one line of safe inline HTML (no paragraphs)."""
    return _render(text, block=False)


def pieces_html(pieces: Iterable[Piece], *, block: bool) -> str:
    """Escaped HTML for `pieces`; with `block`, <p> paragraphs split on blank lines."""
    out: list[str] = []
    stack: list[str] = []

    def walk(items: Iterable[Piece]) -> None:
        for p in items:
            if isinstance(p, str):
                for k, part in enumerate(_PARAGRAPH.split(p)):
                    if k:  # a paragraph break inside styles closes and reopens them
                        out.append(_new_paragraph(stack) if block else " ")
                    out.append(escape(part, quote=False))
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


def _new_paragraph(stack: list[str]) -> str:
    closing = "".join(f"</{tag}>" for tag in reversed(stack))
    return closing + "</p>\n<p>" + "".join(f"<{tag}>" for tag in stack)


def _render(text: str, *, block: bool) -> str:
    if not text:
        return ""
    try:
        pieces = parse(text) or (light_clean(text),)  # parse: the same cache key as plain()
        return _tidy(pieces_html(pieces, block=block))
    except Exception:  # noqa: BLE001 - the contract is "never raises": show the escaped source
        return _tidy(pieces_html([light_clean(text)], block=block))


def _tidy(fragment: str) -> str:
    """`fragment` without the empty paragraphs that leading or trailing blank lines make."""
    return _EMPTY_PARAGRAPH.sub("", fragment).strip("\n") or fragment
