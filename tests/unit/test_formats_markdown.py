"""Markdown export: one safe, unique file per paper with quoted YAML front matter."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser

import markdown
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from reader.core.models import Annotation, Highlight, Paper, Status
from reader.formats import export_papers
from reader.formats.markdown_export import MAX_NAME_BYTES, safe_file_name, yaml_string


def front_matter(document: str) -> dict[str, object]:
    """Parse our front matter: every scalar is a JSON-compatible double-quoted string."""
    lines = document.split("\n")
    assert lines[0] == "---"
    end = lines.index("---", 1)
    data: dict[str, object] = {}
    key = ""
    for line in lines[1:end]:
        if line.startswith("  - "):
            values = data[key]
            assert isinstance(values, list)
            values.append(json.loads(line[4:]))
            continue
        key, _, rest = line.partition(": ")
        if line.endswith(":"):
            key, rest = line[:-1], "[]"
        data[key] = json.loads(rest)
    return data


def test_document() -> None:
    paper = Paper(
        id="site_8aee33c0ce",
        title='$K^2$VAE: "quoted" \\ title: with #hash',
        authors=("Xingjian Wu", "O'Brien, Jr."),
        abstract="An abstract with $x^2$.",
        venue="ICML 2025",
        year=2025,
        url="https://icml.cc/virtual/2025/poster/46346",
    )
    annotation = Annotation(
        paper.id,
        Status.READ,
        ("vae", "yes"),
        "My *note*.\n\n- a\n- b\n",
        (Highlight("h1", "with $x^2$", comment="key idea"), Highlight("h2", "two\nlines")),
    )
    files = export_papers([(paper, annotation)], "markdown")
    assert isinstance(files, dict)
    ((name, document),) = files.items()
    assert name == "K^2VAE quoted title with #hash.md"
    meta = front_matter(document)
    assert meta == {
        "title": paper.title,
        "authors": list(paper.authors),
        "venue": "ICML 2025",
        "year": 2025,
        "url": paper.url,
        "status": "read",
        "tags": ["vae", "yes"],
        "id": "site_8aee33c0ce",
    }
    body = document.split("---\n", 2)[2]
    assert "## Abstract\n\nAn abstract with $x^2$.\n" in body
    assert "## Note\n\nMy *note*.\n\n- a\n- b\n" in body
    assert "## Highlights\n\n> with $x^2$\n\nkey idea\n\n> two\n> lines\n" in body


def test_paper_without_annotation() -> None:
    paper = Paper(id="p", title="Plain", year=None)
    files = export_papers([(paper, None)], "markdown")
    assert isinstance(files, dict)
    ((name, document),) = files.items()
    assert name == "Plain.md"
    meta = front_matter(document)
    assert (meta["status"], meta["tags"], meta["year"], meta["authors"]) == ("unread", [], None, [])
    assert "## Note" not in document and "## Abstract" not in document


@pytest.mark.parametrize(
    ("title", "name"),
    [
        ('a/b\\c:d*e?f"g<h>i|j', "a b c d e f g h i j"),
        ("../../etc/passwd", "etc passwd"),
        ("..", "p-1"),
        ("CON", "_CON"),
        ("nul.txt", "_nul.txt"),
        ("Com1", "_Com1"),
        ("Console tricks", "Console tricks"),
        ("tab\there\x00nul\x1b[31m", "tab here nul [31m"),
        ("trailing dots...", "trailing dots"),
        (".hidden", "hidden"),
        ("-rf", "rf"),
        ("", "p-1"),
        ("line\u2028sep\ud800", "line sep"),
    ],
)
def test_safe_file_name(title: str, name: str) -> None:
    assert safe_file_name(title, "p-1") == name


def test_long_and_wide_names_are_capped() -> None:
    assert len(safe_file_name("word " * 100)) <= 80
    wide = safe_file_name("😀" * 100)
    assert len(wide.encode("utf-8")) <= MAX_NAME_BYTES


def test_names_unique_case_insensitively() -> None:
    papers = [Paper(id=str(i), title=t) for i, t in enumerate(["Same", "same", "SAME", "CON"])]
    files = export_papers([(p, None) for p in papers], "markdown")
    assert list(files) == ["Same.md", "same (2).md", "SAME (3).md", "_CON.md"]


@settings(max_examples=80, deadline=None, database=None)
@given(st.text(max_size=60))
def test_yaml_string_is_json_and_exact(value: str) -> None:
    quoted = yaml_string(value)
    assert "\n" not in quoted
    decoded = json.loads(quoted)
    expected = "".join("\ufffd" if 0xD800 <= ord(c) <= 0xDFFF else c for c in value)
    assert decoded == expected


@settings(max_examples=80, deadline=None, database=None)
@given(st.text(max_size=120), st.text(max_size=10))
def test_safe_file_name_properties(title: str, fallback: str) -> None:
    name = safe_file_name(title, fallback)
    assert name and name == name.strip(" .")
    assert not any(c in name for c in '/\\:*?"<>|\x00')
    assert ".." not in name
    assert not any(ord(c) < 32 for c in name)
    assert len(name.encode("utf-8")) <= MAX_NAME_BYTES + 1  # "_" for a reserved name
    assert name.split(".")[0].strip().upper() not in {"CON", "PRN", "AUX", "NUL", "COM1", "LPT1"}


# --- imported content is inert: opening the vault loads and runs nothing ----------------------

_SAFE_TAGS = frozenset(
    "a blockquote br code del em h1 h2 h3 h4 h5 h6 hr li ol p pre strong table tbody td th "
    "thead tr ul".split()
)
_SAFE_SCHEMES = ("http", "https", "mailto")
_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):")
_CONTROLS = re.compile(r"[\x00-\x20\x7f]+")
_RISKY_LANGUAGES = ("dataviewjs", "dataview", "mermaid", "query", "js-engine", "leaflet")


class _Html(HTMLParser):
    """Every tag, attribute, comment and <code> text of rendered HTML."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.comments: list[str] = []
        self.code: list[str] = []
        self._in_code = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))
        self._in_code += tag == "code"
        if tag == "code":
            self.code.append("")

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, attrs))

    def handle_endtag(self, tag: str) -> None:
        self._in_code -= tag == "code" and self._in_code > 0

    def handle_data(self, data: str) -> None:
        if self._in_code:
            self.code[-1] += data

    def handle_comment(self, data: str) -> None:
        self.comments.append(data)

    def handle_decl(self, decl: str) -> None:
        self.comments.append(decl)

    def handle_pi(self, data: str) -> None:
        self.comments.append(data)

    def unknown_decl(self, data: str) -> None:
        self.comments.append(data)


def rendered(document: str) -> list[str]:
    """The document (front matter and all, as a renderer unaware of it would see it) as
    HTML from Python-Markdown and from markdown-it (CommonMark with GFM tables)."""
    return [
        markdown.markdown(document, extensions=["fenced_code", "tables"]),
        MarkdownIt("commonmark").enable("table").render(document),
    ]


def outside_code(document: str) -> str:
    """The body's source with code blocks and code spans (as markdown-it finds them) blanked."""
    lines = document.split("\n---\n", 1)[-1].split("\n")  # the front matter is YAML
    for token in MarkdownIt("commonmark").enable("table").parse("\n".join(lines)):
        if token.type in ("fence", "code_block") and token.map:
            for number in range(*token.map):
                lines[number] = ""
    spans = re.compile(r"(?<![`\\])(`+)(?!`)(.+?)(?<!`)\1(?!`)")
    return "\n".join(spans.sub(" ", line) for line in lines)


def assert_inert(document: str) -> None:
    """No embed, image, raw HTML, comment, script-running block or unsafe link."""
    # Obsidian syntax that loads, runs or hides something, in the source itself
    text = outside_code(document)
    assert "![" not in text  # ![alt](url), ![[file]] and ![ref] embed
    assert "%%" not in text  # an Obsidian comment would hide what follows
    for line in document.split("\n"):
        fence = re.match(r"\s*(?:`{3,}|~{3,})\s*(\S*)", line)
        assert not (fence and fence.group(1).lower().startswith(_RISKY_LANGUAGES)), line
    for html in rendered(document):
        parsed = _Html()
        parsed.feed(html)
        parsed.close()
        assert parsed.comments == [], html
        for tag, attrs in parsed.tags:
            assert tag in _SAFE_TAGS, (tag, html)
            for name, value in attrs:
                assert name in {"href", "title", "class", "align", "style"}, (name, html)
                value = value or ""
                if name == "style":
                    assert re.fullmatch(r"text-align: ?(left|right|center);?", value), html
                if name == "class":
                    assert not value.removeprefix("language-").startswith(_RISKY_LANGUAGES)
                if name == "href":
                    target = _CONTROLS.sub("", value)
                    scheme = _SCHEME.match(target)
                    assert not scheme or scheme.group(1).lower() in _SAFE_SCHEMES, html
                    assert not target.startswith(("//", "\\\\", "/\\")), html
        for code in parsed.code:  # Dataview inline queries (`= ...`, `$= ...`) never run
            assert not code.strip().startswith(("=", "$=")), code


PAYLOADS = [
    "![](https://evil/x.png)",
    '<img src="https://evil/x.png">',
    "<IMG SRC=https://evil/x.png>",
    '<iframe src="https://evil/frame"></iframe>',
    "![[secret.pdf]]",
    "!\\[[secret.pdf]]",
    "\\![[secret.pdf]]",
    "<script>alert(1)</script>",
    "<style>@import url(https://evil/x.css)</style>",
    "<object data=https://evil/x></object><embed src=https://evil/x><link rel=x href=y>",
    "<svg onload=alert(1)><video src=x><audio src=x>",
    "[x]: https://evil/x.png\n\n![x] and ![y][x] and [x]",
    "[^1]: javascript:alert(1)\n\n[^1]",
    "<!-- hidden -->visible<!-- and <img src=x> -->",
    "<?php echo 1 ?> <!DOCTYPE html> <![CDATA[ x ]]>",
    "<https://evil/ok> <javascript:alert(1)> <file:///etc/passwd> <a@b.c>",
    "[js](javascript:alert(1)) [f](file:///etc/passwd) [e](jav&#x61;script:alert(1))",
    "[s](JaVaScRiPt&colon;alert(1)) [t](java\\script:x) [u](<javascript:alert(1)>)",
    "[unc](\\\\\\\\evil\\\\share) [pr](//evil/x) [ob](obsidian://advanced-uri?commandid=x)",
    "[a](\njavascript:alert(1))",
    "\\<img src=x>",
    "&lt;img src=x&gt; is text already",
    "`a` <img src=x> `b`",
    '`<img src="`"> <img src=x> `',
    "`a | <img src=x> `",
    "| h | i |\n|---|---|\n| `a | <img src=x> ` | z |",
    "$a `x$ <img src=x> `y`",
    '[a](/u "t`") <img src=x> `b`',
    "[a](<`>) <img src=x> `b`",
    "[[a`]] <img src=x> `b`",
    "`a\n- <img src=x> `",
    "`a\u2028- <img src=x> `",
    "```\n<img src=x>",
    "```dataviewjs\ndv.el('img', '', {attr: {src: 'https://evil/x.png'}})\n```",
    "~~~mermaid\ngraph TD; A-->B\n~~~",
    "- ```\n  x\n  ```\n<img src=x>\n```\n<img src=y>\n```",
    "  ```\n<img src=x>\n```\n<img src=y>\n```",
    "- item\n  ```\n  <img src=x>\n  ```",
    "> ```\n> <img src=x>\n> ```",
    "%%\n```\n%%\n<img src=x>\n```",
    "$$\n```\n$$\n<img src=x>\n```",
    "    <img src=x>",
    "`= this.file.name` and `$= dv.current()` and ` $=x `",
    "<%* tR += await tp.system.prompt() %>",
    "$x<img src=x>$ and $$<iframe src=y>$$",
    "line\r<img src=x>\rline\r\n<script>",
]


def _payload_items(payload: str) -> list[tuple[Paper, Annotation | None]]:
    paper = Paper(
        id="p1",
        title=payload,
        authors=(payload, "Ada Lovelace"),
        abstract=payload,
        venue=payload,
        year=2025,
        url=payload,
    )
    annotation = Annotation(
        paper.id,
        Status.READING,
        (payload, "ok"),
        payload,
        (Highlight("h1", payload, comment=payload),),
    )
    return [(paper, annotation)]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_imported_payload_is_inert(payload: str) -> None:
    files = export_papers(_payload_items(payload), "markdown")
    assert isinstance(files, dict)
    ((_, document),) = files.items()
    assert_inert(document)
    # the front matter keeps every value exactly, as YAML data, and nothing else
    meta = front_matter(document)
    assert set(meta) == {"title", "authors", "venue", "year", "url", "status", "tags", "id"}
    assert (meta["title"], meta["venue"], meta["url"]) == (payload, payload, payload)
    assert meta["authors"] == [payload, "Ada Lovelace"] and meta["tags"] == [payload, "ok"]
    head = document.split("\n---\n", 1)[0]
    assert not re.search(r"[<>\[\]`]", head)  # not even a renderer blind to front matter


@pytest.mark.parametrize(
    "title",
    [
        "a: b\nc: d",
        "---",
        "--- \n---\nstatus: read",
        '"quoted" #hash: \\ \' x',
        "- item",
        "\u2028",
        "a: <img src=x>\n---\n![[x]]",
    ],
)
def test_titles_cannot_break_the_front_matter(title: str) -> None:
    paper = Paper(id="p", title=title)
    files = export_papers([(paper, None)], "markdown")
    assert isinstance(files, dict)
    ((_, document),) = files.items()
    lines = document.split("\n")
    assert lines.index("---", 1) == 9  # the front matter closes where we close it
    meta = front_matter(document)
    assert meta["title"] == title and meta["status"] == "unread"
    assert len(meta) == 8
    assert_inert(document)


ORDINARY_NOTE = """# My heading

Some *emphasis*, **strong**, `inline <code>` and a [link](https://example.org) to [[Other Paper]].

| method | score |
|--------|------:|
| ours   |  0.9  |

```python
x = "<img src='y.png'>"  # code stays exactly as written
print(x)
```

- one
- [[Other Paper|an alias]] and [[Other Paper#Section]]
  ```bash
  ls -la
  ```

> a quote with a <https://example.org/auto> link

Math $x<y$ and $\\alpha_1$, a < b, 5 > 3, `$HOME`.

A footnote[^1].

[^1]: The footnote text."""


def test_ordinary_content_is_kept_as_written() -> None:
    paper = Paper(
        id="k2",
        title="$K^2$VAE: A Koopman-Kalman Enhanced VAE",
        abstract="An abstract with *emphasis*, `code`, $O(n^2)$ and 3 < 4 and a [link](https://x.org).",
    )
    annotation = Annotation(
        paper.id,
        note=ORDINARY_NOTE,
        highlights=(Highlight("h", "with *emphasis*", comment="see [[Other Paper]]"),),
    )
    files = export_papers([(paper, annotation)], "markdown")
    assert isinstance(files, dict)
    ((_, document),) = files.items()
    assert "\n# $K^2$VAE: A Koopman-Kalman Enhanced VAE\n" in document
    assert "\n" + paper.abstract + "\n" in document
    # all as written; only `<` in math gets a space, which TeX ignores
    assert "\n" + ORDINARY_NOTE.replace("$x<y$", "$x< y$") + "\n" in document
    assert "\n> with *emphasis*\n\nsee [[Other Paper]]\n" in document
    assert_inert(document)
    html = rendered(document)[1]
    assert '<a href="https://example.org">link</a>' in html
    assert "<code>inline &lt;code&gt;</code>" in html
    assert '<code class="language-python">x = &quot;&lt;img src=' in html
    assert "<table>" in html and "<em>emphasis</em>" in html


def test_names_are_cut_at_a_word_boundary() -> None:
    title = "Generalized Interpolating Discrete Diffusion for Language Models " * 3
    name = safe_file_name(title)
    assert len(name) <= 80 and title.startswith(name)
    assert title[len(name)] == " "  # a whole word last
    wide = safe_file_name("Überraschend große Wörter " * 20)
    assert len(wide.encode("utf-8")) <= MAX_NAME_BYTES and not wide.endswith(" ")
    assert ("Überraschend große Wörter " * 20).startswith(wide + " ")
    one_word = safe_file_name("x" * 300)
    assert one_word == "x" * 80  # no space to cut at: cut at the limit


_MARKUP_BITS = st.sampled_from(
    [
        "<img src=x>",
        "<iframe src=y>",
        "<a href=z>",
        "<!--",
        "-->",
        "<",
        ">",
        "<%",
        "<https://x>",
        "`",
        "``",
        "\n```",
        "```",
        "\n~~~",
        "$",
        "$$",
        "[",
        "]",
        "(",
        ")",
        "![",
        "](",
        "]:",
        "[[",
        "]]",
        "!",
        "\\",
        "|",
        "\n|---|",
        "%%",
        ":",
        "=",
        "$=",
        "javascript:x",
        "https://e",
        "&#58;",
        "&lt;",
        '"',
        "a",
        " ",
        "    ",
        "\n",
        "\n\n",
        "\n> ",
        "\n- ",
        "\n1. ",
        "\r",
        "\u2028",
        "\t",
        "^",
        "*",
        "#",
    ]  # fmt: skip
)


@settings(max_examples=150, deadline=None, database=None)
@given(
    st.lists(_MARKUP_BITS, max_size=40).map("".join),
    st.lists(_MARKUP_BITS, max_size=12).map("".join),
)
def test_any_mix_of_markup_is_inert(text: str, short: str) -> None:
    paper = Paper(id="p", title=short, authors=(short,), abstract=text, url=short)
    annotation = Annotation(
        "p", tags=(short,), note=text, highlights=(Highlight("h", short, comment=text),)
    )
    files = export_papers([(paper, annotation)], "markdown")
    assert isinstance(files, dict)
    ((_, document),) = files.items()
    assert_inert(document)


def test_a_stored_title_with_a_bidi_override_gives_a_plain_file_name() -> None:
    from reader.formats.markdown_export import safe_file_name

    assert safe_file_name("Report\u202egpj.exe") == "Reportgpj.exe"
    assert safe_file_name("\u2066A\u2069 study\u200b") == "A study"
