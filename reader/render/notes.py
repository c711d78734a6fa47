"""Markdown notes as safe Qt rich-text HTML, with $math$ and [[Title]] paper links."""

from __future__ import annotations

import html
import re
import threading
from typing import TYPE_CHECKING
from urllib.parse import quote

from reader.render.html import tex_html
from reader.render.sanitize import sanitize

if TYPE_CHECKING:
    from markdown import Markdown

# Python-Markdown is superlinear on some input (1 MB of **bold**: 60 s; 4,000 unmatched
# "[" in one paragraph: 4 s) and Qt's layout freezes on deep nesting, so notes past
# these limits are shown as escaped plain text instead. Each limit keeps a note
# under about half a second here.
MAX_NOTE_CHARS = 200_000
MAX_MARKUP_CHARS = 20_000  # * _ [ ] ` | < > ! ( ) in the whole note
MAX_BRACKETS_PER_BLOCK = 150  # "[" in one paragraph: link parsing is quadratic in them
MAX_DEPTH = 8  # nested lists, block quotes and tables
MAX_MATH_SPANS = 500  # more are shown as their source

_EXTENSIONS = ["tables", "fenced_code", "sane_lists", "nl2br"]
_MARKUP = "*_[]`|<>!()"
_BLOCK = re.compile(r"\n[ \t]*\n")
_DEEP_QUOTE = re.compile(r"^(?:[ \t]*>){%d}" % (MAX_DEPTH + 1), re.M)
_MARKERS = re.compile("[\ue000\ue001]")
_PLACEHOLDER = re.compile("\ue000(\\d+)\ue001")
# Spans Markdown must not see: code is kept as it is, math and wiki-links are set aside.
_PROTECT = re.compile(
    r"(?P<fence>^[ \t]{0,3}(?P<f>`{3,}|~{3,}).*?(?:^[ \t]{0,3}(?P=f)[ \t]*$|\Z))"
    r"|(?P<code>(?P<bt>`+)[^`\n](?:[^\n]*?[^`\n])?(?P=bt)(?!`))"
    r"|(?P<wiki>\[\[(?P<title>[^\[\]\n|]{1,300})(?:\|(?P<label>[^\[\]\n]{1,300}))?\]\])"
    r"|(?P<dmath>\$\$[^$]{1,4000}?\$\$)"
    r"|(?P<math>(?<![\\$\w])\$(?=[^\s$])[^$\n]{1,2000}?(?<=[^\s\\$])\$(?![\w$]))",
    re.M | re.S,
)
_local = threading.local()


def note_html(markdown_text: str) -> str:
    """A Markdown note as safe HTML: "" for a blank note, never raises.

    Tables, fenced code, lists and line breaks as typed; `$x^2$` and `$$...$$`
    rendered like abstracts; `[[Title]]` links to href "paper:<quoted title>".
    Raw HTML shows as text, images as "[image: alt]", and only http, https,
    mailto and paper links survive. Hostile notes (see the limits above) are
    shown as escaped plain text.
    """
    if not markdown_text.strip():
        return ""
    try:
        spans: list[tuple[str, str]] = []  # (html, source) of each set-aside span
        source = _PROTECT.sub(lambda m: _set_aside(m, spans), _MARKERS.sub("\ufffd", markdown_text))
        if _hostile(source):
            return plain_html(markdown_text)
        body = _markdown().convert(source)
        return sanitize(
            body,
            max_depth=MAX_DEPTH,
            expand_html=lambda s: _PLACEHOLDER.sub(lambda m: spans[int(m.group(1))][0], s),
            expand_text=lambda s: _PLACEHOLDER.sub(lambda m: spans[int(m.group(1))][1], s),
        )
    except Exception:  # TooDeep, RecursionError, a Markdown bug: never fail the pane
        return plain_html(markdown_text)


def plain_html(text: str) -> str:
    """`text` escaped, in paragraphs that keep its line breaks: the fallback for notes."""
    paragraphs = [p for p in _BLOCK.split(text.strip("\n")) if p.strip()]
    return "".join(
        f'<p style="white-space: pre-wrap">{html.escape(p, quote=False)}</p>' for p in paragraphs
    )


def _hostile(text: str) -> bool:
    if len(text) > MAX_NOTE_CHARS or _DEEP_QUOTE.search(text):
        return True
    if sum(text.count(c) for c in _MARKUP) > MAX_MARKUP_CHARS:
        return True
    if text.count("[") <= MAX_BRACKETS_PER_BLOCK:
        return False
    return any(block.count("[") > MAX_BRACKETS_PER_BLOCK for block in _BLOCK.split(text))


def _set_aside(m: re.Match[str], spans: list[tuple[str, str]]) -> str:
    source = m.group(0)
    if m.group("fence") is not None or m.group("code") is not None:
        return source
    if m.group("wiki") is not None:
        title = " ".join(m.group("title").split())
        label = " ".join((m.group("label") or title).split()) or title
        if not title:
            return source
        markup = f'<a href="paper:{quote(title, safe="")}">{html.escape(label, quote=False)}</a>'
    elif len(spans) < MAX_MATH_SPANS:
        markup = tex_html(source)
    else:
        markup = html.escape(source, quote=False)
    spans.append((markup, source))
    return f"\ue000{len(spans) - 1}\ue001"


def _markdown() -> Markdown:
    """This thread's Markdown converter, with raw HTML turned off (it is shown as text)."""
    md: Markdown | None = getattr(_local, "md", None)
    if md is None:
        from markdown import Markdown

        md = Markdown(extensions=_EXTENSIONS, output_format="html")
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")
        _local.md = md
    md.reset()
    return md
