"""Markdown notes as safe Qt rich-text HTML, with $math$ and [[Title]] paper links."""

from __future__ import annotations

import html
import re
import threading
from typing import TYPE_CHECKING
from urllib.parse import quote

from reader.core.text import shown_part
from reader.render.html import breakable, shortened, title_html
from reader.render.sanitize import sanitize

if TYPE_CHECKING:
    from markdown import Markdown

# Python-Markdown costs 20-70 µs per markup character and up to 130 µs per line, and
# some input is quadratic (1 MB of **bold**: 60 s; 2,000 "[" or 500 "---" lines in
# one paragraph: 1-2 s); Qt's layout freezes on deep nesting. Markdown is given the
# first MAX_MARKDOWN_CHARS of a note (then a marker says it goes on); notes past
# these limits are shown as escaped plain text, their first MAX_PLAIN_CHARS only.
MAX_NOTE_CHARS = 100_000
MAX_MARKDOWN_CHARS = 20_000  # plain prose: ~15 ms of Markdown, the layout as much
MAX_PLAIN_CHARS = 20_000  # the escaped text of a longer note: ~15 ms to lay out
MAX_MARKUP_COST = 6_000  # 1 each * _ [ ] ` | < > & # \, 4 a line, 8 an indented line
MAX_BRACKETS_PER_BLOCK = 100  # "[" in one paragraph: link parsing is quadratic in them
MAX_RULES_PER_BLOCK = 30  # rules and headings: each one re-scans the rest of its paragraph
MAX_DEPTH = 8  # nested lists, block quotes and tables
MAX_MATH_SPANS = 500  # more are shown as their source

_MARKUP = "*_[]`|<>&#\\"
_BLOCK = re.compile(r"\n(?:[ \t]*\n)+")
_RULE_OR_HEADING = re.compile(r"^[ \t]{0,3}(?:#|[-=]+[ \t]*$|(?:[-*_][ \t]*){3,}$)", re.MULTILINE)
_DEEP_QUOTE = re.compile(rf"^(?:[ \t]*>){{{MAX_DEPTH + 1}}}", re.MULTILINE)
# Our placeholder marks, and control characters (Markdown uses \x02 and \x03 as its own).
_MARKERS = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\ue000\ue001]")
_PLACEHOLDER = re.compile("\ue000(\\d+)\ue001")
_FENCE = r"^[ \t]{0,3}(?P<f>`{3,}|~{3,}).*?(?:^[ \t]{0,3}(?P=f)[ \t]*$|\Z)"
_FENCED = re.compile(_FENCE, re.MULTILINE | re.DOTALL)
# Spans Markdown must not see: code is kept as it is, math and wiki-links are set aside.
_PROTECT = re.compile(
    rf"(?P<fence>{_FENCE})"
    r"|(?P<code>(?P<bt>`+)[^`\n](?:[^\n]*?[^`\n])?(?P=bt)(?!`))"
    r"|(?P<wiki>\[\[(?P<title>[^\[\]\n|]{1,300})(?:\|(?P<label>[^\[\]\n]{1,300}))?\]\])"
    r"|(?P<dmath>\$\$[^$]{1,4000}?\$\$)"
    r"|(?P<math>(?<![\\$\w])\$(?=[^\s$])[^$\n]{1,2000}?(?<=[^\s\\$])\$(?![\w$]))",
    re.MULTILINE | re.DOTALL,
)
_local = threading.local()


def note_html(markdown_text: str) -> str:
    """A Markdown note as safe HTML: "" for a blank note, never raises.

    Tables, fenced code, lists and line breaks as typed; `$x^2$` and `$$...$$`
    rendered like abstracts; `[[Title]]` links to href "paper:<quoted title>".
    Raw HTML shows as text, images as "[image: alt]", and only http, https,
    mailto and paper links survive. Hostile notes (see the limits above) are
    shown as escaped plain text. Of a long note only the start is rendered, then
    a paragraph saying it was shortened; long words can break (see breakable()).
    """
    if not markdown_text.strip():
        return ""
    if len(markdown_text) > MAX_NOTE_CHARS:
        return plain_html(markdown_text)
    shown = _markdown_part(markdown_text)
    try:
        spans: list[tuple[str, str]] = []  # (html, source) of each set-aside span
        source = _PROTECT.sub(lambda m: _set_aside(m, spans), _MARKERS.sub("\ufffd", shown))
        if _hostile(source):
            return plain_html(markdown_text)
        out = sanitize(
            _markdown().convert(source),
            max_depth=MAX_DEPTH,
            expand_html=lambda s: _PLACEHOLDER.sub(lambda m: spans[int(m.group(1))][0], s),
            expand_text=lambda s: _PLACEHOLDER.sub(lambda m: spans[int(m.group(1))][1], s),
        )
    except Exception:  # noqa: BLE001 - TooDeep, RecursionError, a Markdown bug: never fail
        return plain_html(markdown_text)
    if not out.strip():
        return plain_html(markdown_text)
    return breakable(out) + _shortened_html(shown, markdown_text)


def plain_html(text: str) -> str:
    """`text` escaped, in paragraphs that keep its line breaks: the fallback for notes.
    Its first MAX_PLAIN_CHARS only, then a paragraph saying it was shortened."""
    shown = shown_part(text, MAX_PLAIN_CHARS)
    paragraphs = [p for p in _BLOCK.split(shown.strip("\n")) if p.strip()]
    out = "".join(
        f'<p style="white-space: pre-wrap">{html.escape(p, quote=False)}</p>' for p in paragraphs
    )
    return breakable(out) + _shortened_html(shown, text)


def _markdown_part(text: str) -> str:
    """The start of a note given to Markdown: all of it up to MAX_MARKDOWN_CHARS, else
    up to the last line break before that (if it is past half of it)."""
    if len(text) <= MAX_MARKDOWN_CHARS:
        return text
    cut = text.rfind("\n", 0, MAX_MARKDOWN_CHARS)
    if cut > MAX_MARKDOWN_CHARS // 2:
        return text[: cut + 1]
    return shown_part(text, MAX_MARKDOWN_CHARS)


def _shortened_html(shown: str, text: str) -> str:
    """The marker after a note shown in part ("" when all of it is shown)."""
    if len(shown) >= len(text):
        return ""
    return f"<p><i>{html.escape(shortened(len(text), 'note'), quote=False)}</i></p>"


def _hostile(text: str) -> bool:
    text = _FENCED.sub("```", text)  # fenced code costs Markdown one regex match
    lines, indented = text.count("\n"), text.count("\n ") + text.count("\n\t")
    cost = sum(text.count(c) for c in _MARKUP) + 4 * lines + 4 * indented
    if cost > MAX_MARKUP_COST or _DEEP_QUOTE.search(text):
        return True
    if text.count("[") <= MAX_BRACKETS_PER_BLOCK and len(text) < 4096:
        return False
    return any(
        block.count("[") > MAX_BRACKETS_PER_BLOCK
        or len(_RULE_OR_HEADING.findall(block)) > MAX_RULES_PER_BLOCK
        for block in _BLOCK.split(text)
    )


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
        markup = title_html(source, limit=None)  # inline, like a title: `$x^2$` -> x<sup>2</sup>
    else:
        markup = html.escape(source, quote=False)
    spans.append((markup, source))
    return f"\ue000{len(spans) - 1}\ue001"


def _markdown() -> Markdown:
    """This thread's Markdown converter, with raw HTML turned off (it is shown as text)."""
    md: Markdown | None = getattr(_local, "md", None)
    if md is None:
        from markdown import Markdown
        from markdown.extensions.fenced_code import FencedCodeExtension
        from markdown.extensions.nl2br import Nl2BrExtension
        from markdown.extensions.sane_lists import SaneListExtension
        from markdown.extensions.tables import TableExtension

        # extensions given as objects, not names: a name is looked up among every
        # installed package's entry points (~40 ms)
        extensions = [
            TableExtension(),
            FencedCodeExtension(),
            SaneListExtension(),
            Nl2BrExtension(),
        ]
        md = Markdown(extensions=extensions, output_format="html")
        md.preprocessors.deregister("html_block")
        md.inlinePatterns.deregister("html")
        _local.md = md
    md.reset()
    return md
