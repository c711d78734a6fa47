"""A whitelist HTML sanitizer (html.parser) for what a QTextBrowser may be given."""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from html.parser import HTMLParser
from urllib.parse import urlsplit

ALLOWED_TAGS = frozenset({
    "p", "br", "hr", "b", "strong", "i", "em", "code", "tt", "pre", "sup", "sub", "ul", "ol",
    "li", "table", "thead", "tbody", "tr", "th", "td", "blockquote", "h1", "h2", "h3", "h4",
    "h5", "h6", "a",
})  # fmt: skip
SAFE_SCHEMES = frozenset({"http", "https", "mailto", "paper"})  # paper: the app's own links
_VOID = frozenset({"br", "hr"})
_CONTAINERS = frozenset({"ul", "ol", "blockquote", "table"})  # nested deep, they freeze Qt
_DROP_CONTENT = frozenset({
    "script", "style", "title", "textarea", "iframe", "object", "embed", "template", "noscript",
    "svg", "math", "head", "select",
})  # fmt: skip
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
_ALIGN = re.compile(r"\s*text-align:\s*(left|right|center)\s*;?\s*", re.IGNORECASE)
_BAD_URL_CHARS = re.compile(r"[\x00-\x20\x7f\\\"'<>`]")
_MAIL_ADDRESS = re.compile(r"[^@,;%/:\s]+@[^@,;%/:\s]+")


class TooDeep(ValueError):
    """Raised when lists, quotes or tables nest deeper than allowed."""


def safe_href(url: str) -> str | None:
    """`url` if it is an http(s), mailto or paper link fit to click, else None. A
    mailto link keeps its one address alone (the address is all a click may hand to
    the mail program)."""
    url = url.strip()
    m = _SCHEME.match(url)
    if m is None or len(url) > 4096 or _BAD_URL_CHARS.search(url):
        return None
    scheme, rest = m.group(1).lower(), url[m.end() :]
    if scheme in ("http", "https"):
        try:
            ok = rest.startswith("//") and bool(urlsplit(url).hostname)
        except ValueError:  # e.g. a malformed IPv6 host
            ok = False
    elif scheme == "mailto":
        # one address, nothing else: a query (`?attach=/etc/passwd`, `?cc=`, `?body=`)
        # or a fragment is dropped, several recipients are refused
        address = re.split(r"[?#]", rest, maxsplit=1)[0]
        return f"mailto:{address}" if _MAIL_ADDRESS.fullmatch(address) else None
    else:
        ok = scheme in SAFE_SCHEMES and bool(rest)
    return url if ok else None


def sanitize(
    fragment: str,
    *,
    max_depth: int = 8,
    expand_html: Callable[[str], str] = str,
    expand_text: Callable[[str], str] = str,
) -> str:
    """`fragment` with only whitelisted tags and attributes; all text escaped again.

    Links keep only safe hrefs (else they become plain text), images become an
    "[image: alt]" marker, script-like elements vanish with their content.
    `expand_html` maps each escaped text run (to put back trusted HTML for
    placeholders), `expand_text` each attribute value before it is checked.
    Raises TooDeep when containers nest deeper than `max_depth`.
    """
    parser = _Sanitizer(max_depth, expand_html, expand_text)
    parser.feed(fragment)
    parser.close()
    parser.close_all()
    return "".join(parser.out)


class _Sanitizer(HTMLParser):
    def __init__(
        self, max_depth: int, expand_html: Callable[[str], str], expand_text: Callable[[str], str]
    ) -> None:
        super().__init__(convert_charrefs=True)
        self.max_depth = max_depth
        self.expand_html = expand_html
        self.expand_text = expand_text
        self.out: list[str] = []
        self.open: list[str] = []
        self.dropping: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if self.dropping or tag in _DROP_CONTENT:
            if tag in _DROP_CONTENT:
                self.dropping.append(tag)
            return
        values = {name: self.expand_text(value or "") for name, value in attrs}
        if tag == "img":
            alt = " ".join(values.get("alt", "").split())
            self.out.append(html.escape(f"[image: {alt}]" if alt else "[image]", quote=False))
            return
        if tag not in ALLOWED_TAGS:
            return
        kept = _attributes(tag, values)
        if kept is None:  # a link we will not follow: keep its text only
            return
        if tag in _VOID:
            self.out.append(f"<{tag}>")
            return
        self.open.append(tag)
        if sum(t in _CONTAINERS for t in self.open) > self.max_depth:
            raise TooDeep(f"more than {self.max_depth} nested lists, quotes or tables")
        self.out.append(f"<{tag}{kept}>")

    def handle_endtag(self, tag: str) -> None:
        if self.dropping:
            if tag == self.dropping[-1]:
                self.dropping.pop()
            return
        if tag not in self.open:
            return
        while self.open:
            top = self.open.pop()
            self.out.append(f"</{top}>")
            if top == tag:
                break

    def handle_data(self, data: str) -> None:
        if not self.dropping:
            self.out.append(self.expand_html(html.escape(data, quote=False)))

    def close_all(self) -> None:
        self.out.extend(f"</{tag}>" for tag in reversed(self.open))
        self.open.clear()


def _attributes(tag: str, values: dict[str, str]) -> str | None:
    """The attributes kept on `tag`, as HTML; None when the tag itself must go."""
    if tag == "a":
        href = safe_href(values.get("href", ""))
        return None if href is None else f' href="{html.escape(href, quote=True)}"'
    if tag in ("td", "th"):
        m = _ALIGN.fullmatch(values.get("style", "")) or _ALIGN.fullmatch(
            "text-align:" + values.get("align", "")
        )
        return f' style="text-align: {m.group(1).lower()}"' if m else ""
    if tag == "ol":
        start = values.get("start", "")
        return f' start="{start}"' if start.isascii() and start.isdigit() and len(start) < 7 else ""
    return ""
