"""Untrusted abstracts and notes: nothing becomes live HTML, hostile sizes fall back."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from reader.core.text import plain
from reader.render import abstract_html, note_html, title_html
from reader.render.notes import MAX_DEPTH, MAX_NOTE_CHARS, plain_html
from reader.render.sanitize import ALLOWED_TAGS, TooDeep, safe_href, sanitize

TAG = re.compile(r"<(/?)([A-Za-z0-9]+)((?:\s+[a-z-]+=\"[^\"<>]*\")*)\s*/?>")
ATTR = re.compile(r'([a-z-]+)="([^"]*)"')
SAFE_ATTRIBUTES = {"href", "style", "start"}


def assert_safe(fragment: str) -> None:
    """Only whitelisted tags and attributes, hrefs with safe schemes, no stray "<"."""
    lowered = fragment.lower()
    for needle in ("<img", "<script", "<iframe", "<style", "<svg", "<object", "<embed", "src="):
        if needle == "src=":
            assert not any("src=" in t.group(0) for t in TAG.finditer(fragment))
        else:
            assert needle not in lowered, needle
    assert "<" not in TAG.sub("", fragment), "an unescaped < outside a whitelisted tag"
    for tag in TAG.finditer(fragment):
        assert tag.group(2) in ALLOWED_TAGS, tag.group(0)
        for name, value in ATTR.findall(tag.group(3)):
            assert name in SAFE_ATTRIBUTES, tag.group(0)
            if name == "href":
                assert value.split(":", 1)[0] in {"http", "https", "mailto", "paper"}, value
            if name == "style":
                assert re.fullmatch(r"text-align: (left|right|center)|white-space: pre-wrap", value)
    for tag in TAG.finditer(lowered):
        # (an http(s) link may have "file:" in its path: `http://a.examplefile:///x`)
        rest = tag.group(0)
        for name, value in ATTR.findall(tag.group(3)):
            if name == "href" and value.startswith(("http://", "https://")):
                rest = rest.replace(value, "")
        for scheme in ("file:", "javascript:", "data:", "smb:", "ms-msdt:", "vbscript:"):
            assert scheme not in rest, tag.group(0)


HOSTILE = [
    '<img src="file:///etc/passwd">',
    "<img src=/dev/zero>",
    "<IMG SRC=file:///etc/passwd onerror=alert(1)>",
    "<script>alert(1)</script>",
    "<scr<script>ipt>alert(1)</script>",
    '<a href="javascript:alert(1)">click</a>',
    "<a href=file:///etc/passwd>x</a>",
    "<iframe src=file:///etc/passwd></iframe>",
    "<style>body { background: url(file:///x) }</style>",
    "<svg onload=alert(1)>",
    '<div onclick="alert(1)">x</div><span style="background:url(file:///x)">y</span>',
    "<!-- comment --><?php x ?><!DOCTYPE html>",
    "&lt;script&gt;alert(1)&lt;/script&gt; &#60;img src=x&#62;",
    "[x](javascript:alert(1))",
    "[x](JaVaScRiPt:alert(1))",
    "[x]( javascript:alert(1) )",
    "[x](<javascript:alert(1)>)",
    "[x](java&#115;cript:alert(1))",
    "[x](file:///etc/passwd)",
    "[x](smb://host/share)",
    "[x](ms-msdt:/id%20PCWDiagnostic)",
    "[x](../relative/path)",
    "[x](/absolute/path)",
    "[x](//evil.example/a)",
    "[x](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
    "[x](http:no-slashes)",
    '[x](http://ok.example "title")',
    "![alt](file:///etc/passwd)",
    "![](/dev/zero)",
    "![a][r]\n\n[r]: file:///etc/passwd",
    "[ref][r]\n\n[r]: javascript:alert(1)",
    "[ref]\n\n[ref]: smb://host/share",
    "<file:///etc/passwd>",
    "<javascript:alert(1)>",
    '<http://ok.example/"onmouseover="alert(1)>',
    '[[x" onclick="alert(1)]]',
    "[[<img src=x>]]",
    "$<img src=x>$ and $\\textbf{<script>}$",
    "`<script>` and ```\n<img src=x>\n```",
    "| <b>a</b> | ![x](file:///x) |\n|---|---|\n| [j](javascript:x) | <script> |",
    "\ue000 0 \ue001 placeholders \ue0000\ue001",
]


@pytest.mark.parametrize("render", [note_html, abstract_html, title_html])
@pytest.mark.parametrize("source", HOSTILE)
def test_hostile_content_stays_text(render: Callable[[str], str], source: str) -> None:
    out = render(source)
    assert_safe(out)
    assert out.strip()


@pytest.mark.parametrize(
    ("note", "text"),
    [
        ("<script>alert(1)</script>", "&lt;script&gt;alert(1)&lt;/script&gt;"),
        ("[click](javascript:alert(1))", "click"),
        ("![a cat](file:///etc/passwd)", "[image: a cat]"),
        ("![](/dev/zero)", "[image]"),
        ("<file:///etc/passwd>", "file:///etc/passwd"),
    ],
)
def test_unsafe_markup_keeps_its_text(note: str, text: str) -> None:
    assert note_html(note) == f"<p>{text}</p>"


def nested_tables_markdown(depth: int) -> str:
    """Tables in block quotes nested `depth` deep (Markdown tables cannot nest directly)."""
    return "\n\n".join(
        "\n".join(f"{'> ' * level}{row}" for row in ("| a | b |", "|---|---|", "| 1 | 2 |"))
        for level in range(1, depth + 1)
    )


def nested_lists_markdown(depth: int) -> str:
    return "".join(f"{'    ' * level}- item {level}\n" for level in range(depth))


@pytest.mark.parametrize(
    "note",
    [
        nested_tables_markdown(25),
        nested_lists_markdown(25),
        "> " * 50 + "deep",
        ">" * 40_000,
        "".join(
            f"{'    ' * i}- a\n{'    ' * (i + 1)}| x |\n{'    ' * (i + 1)}|---|\n"
            for i in range(25)
        ),
        "**a**" * 200_000,  # 1 MB of emphasis: Markdown would take a minute
        "x" * (MAX_NOTE_CHARS + 1),
        "[" * 5_000,  # quadratic link parsing
        "[a](" * 2_000,
        "---\n" * 5_000,  # each rule re-scans its paragraph
        "# h\n" * 2_000,
        "a\n-\n" * 2_000,
        "1. a\n" * 40_000,
        "&amp;" * 40_000,
        "*a **b** c*" * 5_000,
    ],
)
def test_hostile_notes_fall_back_to_plain_text(note: str) -> None:
    out = note_html(note)
    assert out == plain_html(note)
    assert_safe(out)


def test_nested_html_tables_are_escaped_text() -> None:
    note = "<table><tr><td>" * 25 + "x" + "</td></tr></table>" * 25
    out = note_html(note)
    assert "<table" not in out and "<td" not in out
    assert out.count("&lt;table&gt;") == 25
    assert "<table" not in abstract_html(note)


@pytest.mark.parametrize(
    ("note", "falls_back"),
    [
        (nested_lists_markdown(MAX_DEPTH), False),
        (nested_lists_markdown(MAX_DEPTH + 1), True),
        (nested_tables_markdown(MAX_DEPTH - 1), False),
        ("> " * MAX_DEPTH + "ok", False),
        ("> " * (MAX_DEPTH + 1) + "too deep", True),
    ],
)
def test_nesting_limit(note: str, falls_back: bool) -> None:
    out = note_html(note)
    assert (out == plain_html(note)) is falls_back
    assert_safe(out)


@pytest.mark.parametrize(
    "source",
    [
        "a$b$ " * 200_000,
        "{" * 20_000,
        "$" + "x^{" * 3_000 + "x" + "}" * 3_000 + "$",
        "$x$ " * 5_000,
        "\\foo" * 10_000,
    ],
)
def test_hostile_abstracts_never_fail(source: str) -> None:
    for out in (abstract_html(source), title_html(source)):
        assert_safe(out)
        assert out.strip()
    assert plain(source).strip()


@pytest.mark.parametrize(
    ("url", "safe"),
    [
        ("http://example.org", True),
        ("https://example.org/a?b=1&c=2#x", True),
        ("HTTPS://EXAMPLE.ORG", True),
        ("mailto:me@example.org", True),
        ("paper:Attention%20Is%20All%20You%20Need", True),
        ("  https://example.org  ", True),
        ("javascript:alert(1)", False),
        ("JAVASCRIPT:alert(1)", False),
        ("java\tscript:alert(1)", False),
        ("file:///etc/passwd", False),
        ("FILE:///etc/passwd", False),
        ("smb://host/share", False),
        ("ms-msdt:/id", False),
        ("data:text/html,hi", False),
        ("vbscript:x", False),
        ("../relative", False),
        ("/absolute", False),
        ("//protocol-relative.example", False),
        ("http:no-slashes", False),
        ("http://", False),
        ("http://[::1", False),
        ("http://a.example/\\..\\x", False),
        ('http://a.example/"onmouseover="x', False),
        ("http://a.example/<x>", False),
        ("mailto:", False),
        ("mailto:?attach=/etc/passwd", False),
        ("mailto:a@example.org,b@example.org", False),
        ("mailto:a@example.org%2Cb@example.org", False),
        ("paper:", False),
        ("", False),
    ],
)
def test_safe_href(url: str, safe: bool) -> None:
    assert (safe_href(url) is not None) is safe


def test_a_mail_link_keeps_its_address_alone() -> None:
    assert safe_href("mailto:me@example.org?attach=/etc/passwd") == "mailto:me@example.org"
    assert safe_href("MAILTO:me@example.org#x") == "mailto:me@example.org"


@pytest.mark.parametrize(
    ("html", "expected"),
    [
        ('<p class="x" onclick="y">a</p>', "<p>a</p>"),
        ("<b>unclosed <i>tags", "<b>unclosed <i>tags</i></b>"),
        ("</b>stray end", "stray end"),
        ("<div><span>kept text</span></div>", "kept text"),
        ("<script>alert(1)</script>after", "after"),
        ("<style>p{}</style><svg><g>x</g></svg>ok", "ok"),
        ('<img src="file:///x" alt="a  cat">', "[image: a cat]"),
        ('<a href="javascript:x">text</a>', "text"),
        ('<a href="https://ok.example" title="t">ok</a>', '<a href="https://ok.example">ok</a>'),
        ('<td style="color: red">x</td>', "<td>x</td>"),
        ('<td align="center">x</td>', '<td style="text-align: center">x</td>'),
        ('<ol start="5"></ol><ol start="x"></ol>', '<ol start="5"></ol><ol></ol>'),
        ("<br/><hr>", "<br><hr>"),
        ("a &lt;b&gt; &amp; &copy;", "a &lt;b&gt; &amp; ©"),
    ],
)
def test_sanitize_keeps_only_the_whitelist(html: str, expected: str) -> None:
    assert sanitize(html) == expected


def test_sanitize_rejects_deep_nesting() -> None:
    sanitize("<ul>" * 8 + "</ul>" * 8, max_depth=8)
    with pytest.raises(TooDeep):
        sanitize("<table><tr><td>" * 9, max_depth=8)


TRICKY = st.sampled_from(
    [
        "$", "$$", "\\", "{", "}", "*", "**", "_", "`", "```\n", "[", "]", "(", ")", "[[", "]]",
        "<", ">", "!", "|", "&", "#", "~", "%", "^", "''", "``", '"', "-", "---\n", "> ", "    ",
        "\n", "\n\n", " ", "a", "x^2", "\\textbf{", "\\frac{1}{2}", "\\left(", "<img src=x>",
        "<script>", "javascript:", "file:///etc/passwd", "http://a.example", "](", "![",
        "<a href=", "\ue000", "\ue001", "0",
    ]
)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(TRICKY, max_size=40).map("".join) | st.text(max_size=200))
@example("http://a.examplefile:///etc/passwd")  # an http link whatever its path says
@example("javascript:http://a.example file:///etc/passwd")
def test_any_input_renders_safely(source: str) -> None:
    for render in (note_html, abstract_html, title_html):
        out = render(source)
        assert_safe(out)
        if source.strip():
            assert out.strip()
    assert isinstance(plain(source), str)
