"""plain() and search keys: TeX-flavoured titles and abstracts as Unicode text."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reader.core.text import plain, search_haystack, search_key
from tests.datafiles import ICML_LIST, SEED_TEXT
from tests.datafiles import SEED_JSON as SEED


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # the examples of the brief, from real ICML 2025 titles and abstracts
        (r"4.7$\times$ compression", "4.7× compression"),
        (r"$\Theta\left(\frac{1}{\sqrt{N}}\right)$", "Θ(1/√N)"),
        (r"$H^{1/2}$", "H^(1/2)"),
        (r"$K^2$VAE", "K²VAE"),
        (r"$\texttt{I$^2$MoE}$", "I²MoE"),
        (r"$\sqrt{K}$", "√K"),
        (r"${\textbf{A}}$daptive", "Adaptive"),
        (r"$\epsilon$-VAE", "ε-VAE"),
        (r"$\infty$-Video", "∞-Video"),
        ('progressively ``denoises" a sample', "progressively “denoises” a sample"),
        ("``x''", "“x”"),
        (r"by 2\% with", "by 2% with"),
        ("*Trust-Region Twisted* SMC", "Trust-Region Twisted SMC"),
        (r"Rockt{\"a}schel", "Rocktäschel"),
        (r"($i.e.$, $\textbf{Modality Batch Effect}$)", "(i.e., Modality Batch Effect)"),
        # more of the same kind
        (r"$x_i$ and $x_{ij}$", "x_i and x_ij"),
        (r"$x_2$, $e^{-x}$, $x^{n+1}$", "x₂, e^(-x), xⁿ⁺¹"),
        (r"$f'(x)$", "f′(x)"),
        (r"$\mathbb{R}^d$, $\mathcal{O}(n)$", "ℝ^d, 𝒪(n)"),
        (r"$\sqrt[3]{x+1}$", "∛(x+1)"),
        (r"$\frac{a+b}{2}$", "(a+b)/2"),
        (r"$\frac12$", "1/2"),
        (r"$\log n$ and \LaTeX{} too", "log n and LaTeX too"),
        (r"{\bf bold} rest", "bold rest"),
        ("**bold** and *it*", "bold and it"),
        (r"Erd\H{o}s and G\"odel, \c{c}a", "Erdős and Gödel, ça"),
        (
            r"\href{https://x.org}{the code} and \url{https://y.org/a_b}",
            "the code and https://y.org/a_b",
        ),
        ("5% better, $x$ too", "5% better, x too"),  # a bare % is not a TeX comment here
        ("~5% better, $x$", "~5% better, x"),  # a leading ~ means "about"
        ("a $\\alpha$-*stable* law", "a α-stable law"),
        ("2*3*4 = $24$", "2*3*4 = 24"),  # not emphasis
    ],
)
def test_plain_renders_tex(source: str, expected: str) -> None:
    assert plain(source) == expected


@pytest.mark.parametrize(
    "source",
    [
        "Attention Is All You Need",
        "Plain text: with (parentheses), 50% and 3.0x - nothing to do",
        "Ünïcödé “quotes” and — dashes",
        "",
    ],
)
def test_plain_returns_text_without_tex_unchanged(source: str) -> None:
    assert plain(source) is source


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        # unparseable: the source comes back, lightly cleaned
        ("costs $5 only", "costs $5 only"),
        (r"a $\frac{1}$ b", r"a $\frac{1}$ b"),
        ("a { b", "a { b"),
        ("a } b", "a } b"),
        (r"\begin{foo} x", r"\begin{foo} x"),
        (r"\textbf", r"\textbf"),
        ("ends with \\", "ends with \\"),
        (r"50\% of $x", "50% of $x"),
        ("``quoted'' but $unbalanced", "“quoted” but $unbalanced"),
        # unknown macros are shown as written, the rest is still rendered
        (r"\unknownmacro", r"\unknownmacro"),
        (r"\unknownmacro{x}{y} and $\alpha$", r"\unknownmacro{x}{y} and α"),
        (r"\input{/etc/passwd}", r"\input{/etc/passwd}"),
    ],
)
def test_plain_falls_back_to_source(source: str, expected: str) -> None:
    assert plain(source) == expected


@pytest.mark.parametrize(
    "source",
    [
        "{" * 5000 + "}" * 5000,
        "$" + "x^{" * 2000 + "}" * 2000 + "$",
        r"\frac{" * 400,
        "$x$ " * 3000,  # too many marks: lightly cleaned, quickly
        "a$b$ " * 100_000,  # too long
        "\x00\ud7ff\U000f0000$x$\U0010ffff",
        "\\" * 101,
    ],
)
def test_plain_never_raises(source: str) -> None:
    assert isinstance(plain(source), str)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("ASCII Text", "ascii text"),
        ("Rocktäschel", "rocktaschel"),
        ("Θ(1/√N)", "θ(1/√n)"),
        ("K²VAE", "k2vae"),
        ("ℝ^d", "r^d"),
        ("Straße", "strasse"),
        ("Ｆｕｌｌｗｉｄｔｈ", "fullwidth"),
        ("ﬁne", "fine"),
    ],
)
def test_search_key_casefolds_and_strips_accents(text: str, key: str) -> None:
    assert search_key(text) == key


def test_search_haystack_matches_source_and_plain_forms() -> None:
    haystack = search_haystack(r"Rockt{\"a}schel bounds $\Theta(K^2)$")
    for query in (r"\theta", "θ", "theta", "rocktaschel", "rockt{", "k²", "k2", "k^2"):
        assert search_key(query) in haystack
    assert search_haystack("Plain Title") == "plain title"


def _balanced_math(source: str) -> bool:
    dollars = re.findall(r"(?<!\\)\$", source)
    return bool(dollars) and len(dollars) % 2 == 0


@pytest.mark.parametrize("field", ["title", "abstract"])
def test_seed_papers_render_to_plain_text(field: str) -> None:
    papers = json.loads(SEED.read_text(encoding="utf-8"))
    assert len(papers) >= 19
    for paper in papers:
        source = paper[field]
        out = plain(source)
        assert out.strip(), source
        if _balanced_math(source):
            assert "$" not in out, out
        assert "\\textbf" not in out and "\\texttt" not in out


# -- the parser-free path (reader.core.tex._simple) gives exactly pylatexenc's pieces ----


def _corpus() -> list[str]:
    texts = []
    for paper in json.loads(SEED.read_text("utf-8")):
        texts += [paper.get("title", ""), paper.get("abstract", "")]
    texts += [p.get("title", "") for p in json.loads(ICML_LIST.read_text("utf-8"))]
    texts += SEED_TEXT.read_text("utf-8").split("\n\n")
    return [t for t in texts if t]


def _same_as_pylatexenc(text: str) -> bool:
    from reader.core import tex

    fast = tex._simple(text)
    if fast is None:
        return True  # pylatexenc's turn
    try:
        slow = tex._build(text)
    except Exception:  # noqa: BLE001 - pylatexenc refuses: so must the fast path
        return False
    return fast == slow


def test_the_parser_free_path_agrees_on_every_sample_text():
    from reader.core import tex

    corpus = _corpus()
    assert len(corpus) > 30
    assert [t for t in corpus if not _same_as_pylatexenc(t)] == []
    # and it is the common case, not a corner
    texish = [t for t in corpus if tex._TEXISH.search(t)]
    assert sum(tex._simple(t) is not None for t in texish) > len(texish) / 3


def test_the_parser_free_path_knows_its_symbols():
    from reader.core import tex
    from reader.core.tex_simple import SYMBOLS

    for name in SYMBOLS:
        for text in (f"${chr(92)}{name}$", f"a ${chr(92)}{name} x$ b", f"$x{chr(92)}{name}  2$"):
            assert tex._simple(text) is not None, text
            assert _same_as_pylatexenc(text), text


_BITS = [
    *"ab xy.,:;-'`\"*$%&#_\\{}[]^~\n()=+<>/|!?2",
    "\\times",
    "\\alpha ",
    "\\emph{",
    "--",
    "``",
    "''",
    "**",
    "é",
    "\U000f0000",
    "\\textbf{",
    "\\%",
    "\\leq",
    "\\ne",
    "\\log",
    "---",
    "$x^",
    "_{",
    "^{-",
    "$K_",
    "$\\ell_",
]


@given(st.lists(st.sampled_from(_BITS), max_size=30).map("".join))
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_parser_free_path_agrees_on_anything(text):
    assert _same_as_pylatexenc(text)


_MATH_BITS = [
    "a",
    "K",
    "x",
    "1",
    "2",
    " ",
    "^",
    "_",
    "{",
    "}",
    "-",
    "--",
    "/",
    "\\alpha",
    "\\times ",
    "(",
    ")",
    ".",
    "'",
    "\\ell",
    "=",
    "\t",
    "|",
    "ij",
]


@given(st.lists(st.sampled_from(_MATH_BITS), min_size=1, max_size=10).map("".join))
@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_parser_free_path_agrees_on_math(math):
    assert _same_as_pylatexenc(f"w ${math}$ v")
