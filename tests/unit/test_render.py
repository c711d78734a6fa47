"""abstract_html(), title_html() and note_html(): what the reader pane shows."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path

import pytest

from reader.core.text import plain
from reader.render import abstract_html, note_html, title_html
from reader.render import notes as notes_module
from reader.render.notes import plain_html

SEED = Path(__file__).parents[2] / "data" / "seed_papers.json"
TAG = re.compile(r"<[^>]*>")


def visible(fragment: str) -> str:
    """The text a reader sees in `fragment` (tags dropped, the few entities we emit undone)."""
    text = TAG.sub("", fragment)
    return (
        text.replace("&lt;", "<").replace("&gt;", ">").replace("&quot;", '"').replace("&amp;", "&")
    )


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (r"$\textbf{Modality Batch Effect}$", "<p><b>Modality Batch Effect</b></p>"),
        (r"${\textbf{A}}$daptive", "<p><b>A</b>daptive</p>"),
        (r"$\texttt{AMC}$", "<p><code>AMC</code></p>"),
        (r"$H^{1/2}$", "<p><i>H</i><sup>1/2</sup></p>"),
        (r"$x_i$", "<p><i>x</i><sub><i>i</i></sub></p>"),
        (r"$i.e.$", "<p><i>i.e.</i></p>"),
        ("*Trust-Region Twisted* SMC", "<p><i>Trust-Region Twisted</i> SMC</p>"),
        ("**bold** claim", "<p><b>bold</b> claim</p>"),
        ("``denoises\" and ``x''", "<p>“denoises” and “x”</p>"),
        (r"4.7$\times$ compression", "<p>4.7× compression</p>"),
        (r"$\Theta\left(\frac{1}{\sqrt{N}}\right)$", "<p>Θ(1/√<i>N</i>)</p>"),
        (r"$K^2$VAE", "<p><i>K</i><sup>2</sup>VAE</p>"),
        (r"$\texttt{I$^2$MoE}$", "<p><code>I<sup>2</sup>MoE</code></p>"),
        (r"$\sqrt{K}$", "<p>√<i>K</i></p>"),
        (r"$\epsilon$-VAE and $\infty$-Video", "<p>ε-VAE and ∞-Video</p>"),
        (r"by 2\% with Rockt{\"a}schel", "<p>by 2% with Rocktäschel</p>"),
        (r"$\log n$", "<p>log <i>n</i></p>"),
        ("first\n\nsecond\n  \n\nthird", "<p>first</p>\n<p>second</p>\n<p>third</p>"),
        ("one\nparagraph", "<p>one\nparagraph</p>"),
        ("\n\nleading and trailing\n\n", "<p>leading and trailing</p>"),
        # a paragraph break inside a style closes and reopens it
        ("\\textbf{x\n\ny}", "<p><b>x</b></p>\n<p><b>y</b></p>"),
        # every character of the source is escaped
        ("<b>x</b> & $y$", "<p>&lt;b&gt;x&lt;/b&gt; &amp; <i>y</i></p>"),
        (r"\textbf{<i>}", "<p><b>&lt;i&gt;</b></p>"),
        ("Plain title", "<p>Plain title</p>"),
    ],
)
def test_abstract_html_renders_tex(source: str, expected: str) -> None:
    assert abstract_html(source) == expected


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("costs $5 <b>", "<p>costs $5 &lt;b&gt;</p>"),
        (r"a $\frac{1}$ b", r"<p>a $\frac{1}$ b</p>"),
        ("a { b", "<p>a { b</p>"),
        (r"\unknownmacro{x} and $\alpha$", r"<p>\unknownmacro{x} and α</p>"),
        (r"\input{/etc/passwd}", r"<p>\input{/etc/passwd}</p>"),
        ("50\\% of $x <script>", "<p>50% of $x &lt;script&gt;</p>"),
    ],
)
def test_abstract_html_falls_back_to_escaped_source(source: str, expected: str) -> None:
    assert abstract_html(source) == expected


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (r"$K^2$VAE: a \textbf{title}", "<i>K</i><sup>2</sup>VAE: a <b>title</b>"),
        ("two\n\nlines", "two lines"),
        ("<script>", "&lt;script&gt;"),
        ("costs $5", "costs $5"),
    ],
)
def test_title_html_is_inline(source: str, expected: str) -> None:
    assert title_html(source) == expected


@pytest.mark.parametrize("render", [abstract_html, title_html, note_html])
def test_empty_input_gives_empty_output(render: Callable[[str], str]) -> None:
    assert render("") == ""


@pytest.mark.parametrize(
    ("note", "expected"),
    [
        ("**bold** and *it*", "<p><strong>bold</strong> and <em>it</em></p>"),
        ("# Heading", "<h1>Heading</h1>"),
        ("line one\nline two", "<p>line one<br>\nline two</p>"),
        ("- a\n- b", "<ul>\n<li>a</li>\n<li>b</li>\n</ul>"),
        ("3. c\n4. d", '<ol start="3">\n<li>c</li>\n<li>d</li>\n</ol>'),
        ("> quoted", "<blockquote>\n<p>quoted</p>\n</blockquote>"),
        ("`$x$ <b>`", "<p><code>$x$ &lt;b&gt;</code></p>"),
        ("```\n$x$ < 1\n```", "<pre><code>$x$ &lt; 1\n</code></pre>"),
        ("```python\nx = 1\n```", "<pre><code>x = 1\n</code></pre>"),
        ("Energy $E = mc^2$.", "<p>Energy <i>E</i> = <i>mc</i><sup>2</sup>.</p>"),
        ("$$\\sqrt{x}$$", "<p>√<i>x</i></p>"),
        ("costs $5 and $10", "<p>costs $5 and $10</p>"),
        ("$a*b$ and $c*d$", "<p><i>a</i>*<i>b</i> and <i>c</i>*<i>d</i></p>"),
        (
            "see [[Attention Is All You Need]]",
            '<p>see <a href="paper:Attention%20Is%20All%20You%20Need">'
            "Attention Is All You Need</a></p>",
        ),
        ("[[A/B & C|the other one]]", '<p><a href="paper:A%2FB%20%26%20C">the other one</a></p>'),
        ("`[[not a link]]`", "<p><code>[[not a link]]</code></p>"),
        (
            "[site](https://example.org/a?b=1&c=2)",
            '<p><a href="https://example.org/a?b=1&amp;c=2">site</a></p>',
        ),
        ("<https://example.org>", '<p><a href="https://example.org">https://example.org</a></p>'),
        ("[mail](mailto:me@example.org)", '<p><a href="mailto:me@example.org">mail</a></p>'),
        ("[r][1]\n\n[1]: http://example.org", '<p><a href="http://example.org">r</a></p>'),
        ("Ünïcödé “quotes” — fine", "<p>Ünïcödé “quotes” — fine</p>"),
        ("   \n\n  ", ""),
    ],
)
def test_note_html_renders_markdown(note: str, expected: str) -> None:
    assert note_html(note) == expected


def test_note_html_renders_tables_with_alignment() -> None:
    out = note_html("| a | b |\n|:--|--:|\n| $x^2$ | 2 |")
    assert out.startswith("<table>") and out.endswith("</table>")
    assert '<th style="text-align: left">a</th>' in out
    assert '<td style="text-align: right">2</td>' in out
    assert '<td style="text-align: left"><i>x</i><sup>2</sup></td>' in out


def test_note_html_falls_back_when_markdown_fails(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken() -> object:
        raise RecursionError("deep")

    monkeypatch.setattr(notes_module, "_markdown", broken)
    assert note_html("**a** <b>") == plain_html("**a** <b>")
    assert plain_html("**a** <b>") == '<p style="white-space: pre-wrap">**a** &lt;b&gt;</p>'


def test_plain_html_keeps_paragraphs_and_lines() -> None:
    assert plain_html("a\nb\n\n\nc") == (
        '<p style="white-space: pre-wrap">a\nb</p><p style="white-space: pre-wrap">c</p>'
    )


@pytest.mark.parametrize("field", ["title", "abstract"])
def test_seed_papers_render_to_html(field: str) -> None:
    papers = json.loads(SEED.read_text(encoding="utf-8"))
    assert len(papers) >= 19
    for paper in papers:
        source = paper[field]
        dollars = re.findall(r"(?<!\\)\$", source)
        for out in (abstract_html(source), title_html(source)):
            assert visible(out).strip(), source
            if dollars and len(dollars) % 2 == 0:
                assert "$" not in out, out
            assert "\\" not in out, out


def test_seed_abstract_with_math_has_styles() -> None:
    papers = {p["title"]: p for p in json.loads(SEED.read_text(encoding="utf-8"))}
    amc = next(p for t, p in papers.items() if t.startswith("Modalities Contribute Unequally"))
    out = abstract_html(amc["abstract"])
    assert "<b>Modality Batch Effect</b>" in out and "<b>A</b>daptive" in out
    assert "<code>AMC</code>" in out and "<i>i.e.</i>" in out


@pytest.mark.parametrize("quote", [True, False])
@pytest.mark.parametrize(
    "text",
    [
        "",
        "plain",
        "a < b && c > d",
        "<script>alert('x')</script>",
        "say \"hi\" & 'bye'",
        "&amp; already",
        "αβγ <ü> ’",
        "\x00<\n>",
    ],
)
def test_escape_is_html_escape(text: str, quote: bool) -> None:
    import html

    from reader.render.html import escape

    assert escape(text, quote=quote) == html.escape(text, quote=quote)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        (
            r"Code: \url{https://github.com/a/b}.",
            '<p>Code: <a href="https://github.com/a/b">https://github.com/a/b</a>.</p>',
        ),
        (
            "(see https://x.org/a_(b)) & more",
            '<p>(see <a href="https://x.org/a_(b)">https://x.org/a_(b)</a>) &amp; more</p>',
        ),
        ('http://y.org/?q="><img src=x>', '<p><a href="http://y.org/?q=">http://y.org/?q=</a>'),
        ("javascript://x and file:///etc/passwd", "<p>javascript://x and file:///etc/passwd</p>"),
    ],
)
def test_a_web_address_in_an_abstract_is_a_link_and_nothing_else_is(source, expected):
    assert abstract_html(source).startswith(expected)
    assert abstract_html(source).count("<a ") == expected.count("<a ")


@pytest.mark.parametrize(
    ("source", "expected"),
    [(r"$\widetilde{O}(n)$", "Õ(n)"), (r"$\widehat{x}$", "x̂"), (r"$\widetilde O(1)$", "Õ(1)")],
)
def test_wide_accents_sit_on_their_letter(source, expected):
    assert plain(source) == expected


def test_a_macro_of_arguments_met_by_search_alone_prints_no_warning(capfd):
    import subprocess
    import sys

    code = (
        "from reader.core.search_text import tex_symbols;"
        r"print(tex_symbols('\\widetilde{O} \\url{https://a.b} \\Theta'))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stderr == ""
    assert "Θ" in done.stdout
