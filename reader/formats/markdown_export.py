"""Markdown export: one file per paper, YAML front matter, abstract, note and highlights.

The files are meant for a notes vault (Obsidian...), which renders them as soon as it is
opened, so nothing in them may load, run or hide anything. All their text comes from
imports (the note too: a CSV `note` column, our JSON), and it is written so:

* **Front matter** is data: every value is one double-quoted YAML (and JSON) string,
  quotes, backslashes, line breaks and other controls escaped, so a title such as
  "a: b\\nc: d" or "---" stays one value and adds no key. `<`, `>`, `[`, `]` and the
  backtick are written `\\u003c`..., so that even a renderer blind to front matter shows
  no tag, link, embed or code; the values read back exactly.
* **The body** (title heading, abstract, note, highlights and their comments) goes through
  `reader.formats.neutralise.inert`: ordinary Markdown (headings, lists, emphasis, tables,
  code, `[text](https://...)` links, `[[wiki links]]`, footnotes, `$math$`) is kept as
  written; embeds and images (`![](...)`, `![[...]]`), raw HTML (`<img>`, `<iframe>`,
  `<script>`, `<!-- -->`...), links to other than http(s)/mailto, reference definitions,
  Obsidian comments and plugin code blocks (`dataviewjs`...) are written so they show as
  text. Code is kept verbatim where it is unambiguous. See that module for every rule.
* **File names** are safe on every system, cut at a word boundary when too long.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

from reader.core.models import Annotation, Paper, Status
from reader.core.normalise import strip_hidden
from reader.formats.neutralise import inert

#: File names are cut to this many characters (before ".md") and UTF-8 bytes, under every
#: file system's 255-byte limit even with " (99).md" appended.
MAX_NAME_CHARS = 80
MAX_NAME_BYTES = 200

_WINDOWS_RESERVED = frozenset(
    ["CON", "PRN", "AUX", "NUL", "CONIN$", "CONOUT$"]
    + [f"{p}{n}" for p in ("COM", "LPT") for n in (*"123456789", "¹", "²", "³")]
)
_UNSAFE = re.compile(r'[\x00-\x1f\x7f-\x9f<>:"/\\|?*\u2028\u2029\ufeff\ud800-\udfff]+')


def _cut(name: str) -> str:
    """`name` within MAX_NAME_CHARS and MAX_NAME_BYTES: cut after its last whole word when
    that keeps at least half of what fits, else at the limit."""
    head = name[:MAX_NAME_CHARS]
    while len(head.encode("utf-8")) > MAX_NAME_BYTES:
        head = head[:-1]
    if len(head) == len(name) or name[len(head)] == " ":
        return head
    space = head.rfind(" ")
    return head[:space] if space >= len(head) // 2 else head


def _tidy(text: str) -> str:
    # (bidi overrides would show a name other than the one written: "fdp.exe" as "exe.pdf")
    name = unicodedata.normalize("NFC", _UNSAFE.sub(" ", strip_hidden(text.replace("$", ""))))
    name = _cut(re.sub(r"\.{2,}", ".", " ".join(name.split())))
    # No hidden files, no names read as command-line options; Windows drops trailing dots.
    return name.lstrip(" .-").rstrip(" .")


def safe_file_name(title: str, fallback: str = "paper") -> str:
    """A file name stem safe on Windows, macOS and Linux: no separators, `..`, control or
    reserved characters, no reserved device name (CON, NUL...), at most MAX_NAME_CHARS."""
    name = _tidy(title) or _tidy(fallback) or "paper"
    if name.split(".")[0].strip().upper() in _WINDOWS_RESERVED:
        name = "_" + name
    return name


def _unique(stem: str, used: set[str]) -> str:
    """`stem.md`, or `stem (2).md`...; compared case-insensitively (macOS, Windows)."""
    candidate, n = f"{stem}.md", 1
    while candidate.casefold() in used:
        n += 1
        candidate = f"{stem} ({n}).md"
    used.add(candidate.casefold())
    return candidate


#: Written as \u escapes in front matter: no tag, link or embed even if it is read as text.
_MARKUP = frozenset("<>[]`")


def yaml_string(value: str) -> str:
    """A double-quoted YAML scalar (also valid JSON): quotes, backslashes and every
    non-printable character escaped, so any title or URL survives; ``< > [ ] ` `` escaped too."""
    out = ['"']
    for char in value:
        code = ord(char)
        if char in _MARKUP:
            out.append(f"\\u{code:04x}")
        elif char in '"\\':
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif (
            code < 0x20 or 0x7F <= code <= 0x9F or code in (0x2028, 0x2029, 0xFEFF, 0xFFFE, 0xFFFF)
        ):
            out.append(f"\\u{code:04x}")
        elif 0xD800 <= code <= 0xDFFF:
            out.append("\\ufffd")
        else:
            out.append(char)
    out.append('"')
    return "".join(out)


def _list(name: str, values: Sequence[str]) -> list[str]:
    if not values:
        return [f"{name}: []"]
    return [f"{name}:"] + [f"  - {yaml_string(v)}" for v in values]


def _quote(text: str) -> str:
    lines = inert(text, fences=False).splitlines() or [""]
    return "\n".join("> " + line if line else ">" for line in lines)


def render(paper: Paper, annotation: Annotation | None) -> str:
    """One paper as a Markdown document with YAML front matter."""
    status = annotation.status if annotation else Status.UNREAD
    tags = annotation.tags if annotation else ()
    front = [
        "---",
        f"title: {yaml_string(paper.title)}",
        *_list("authors", paper.authors),
        f"venue: {yaml_string(paper.venue)}",
        f"year: {paper.year if paper.year is not None else 'null'}",
        f"url: {yaml_string(paper.url)}",
        *([f"pdf: {yaml_string(paper.pdf)}"] if paper.pdf else []),
        *(_list("keywords", paper.keywords) if paper.keywords else []),
        f"status: {yaml_string(status.value)}",
        *_list("tags", tags),
        f"id: {yaml_string(paper.id)}",
        "---",
    ]
    body = ["", "# " + inert(" ".join(paper.title.split()), fences=False), ""]
    if paper.abstract:
        body += ["## Abstract", "", inert(paper.abstract), ""]
    if annotation and annotation.note.strip():
        body += ["## Note", "", inert(annotation.note.strip("\n")), ""]
    if annotation and annotation.highlights:
        body += ["## Highlights", ""]
        for highlight in annotation.highlights:
            body += [_quote(highlight.quote), ""]
            if highlight.comment.strip():
                body += [inert(highlight.comment.strip("\n")), ""]
    return "\n".join(front + body)


def export(items: Sequence[tuple[Paper, Annotation | None]]) -> dict[str, str]:
    """{file name: Markdown} for every paper; names are safe and unique."""
    used: set[str] = set()
    files: dict[str, str] = {}
    for paper, annotation in items:
        files[_unique(safe_file_name(paper.title, paper.id), used)] = render(paper, annotation)
    return files
