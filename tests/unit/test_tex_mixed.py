"""Text whose only hard part is its $math$: that math alone goes to pylatexenc
(reader.core.tex._mixed), and the pieces are exactly those of the whole-text parse."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reader.core import tex
from reader.core.tex_simple import math_end
from tests.unit.test_text import _corpus as text_corpus


def _corpus() -> list[str]:
    """The sample's and the ICML list's texts with TeX-looking marks (test_text's corpus)."""
    return [t for t in text_corpus() if tex._TEXISH.search(t)]


def _agrees(text: str) -> bool:
    mixed = tex._mixed(text)
    if mixed is None:
        return True  # the whole text goes to pylatexenc, as before
    try:
        whole = tex._build(text)
    except Exception:  # noqa: BLE001 - pylatexenc refuses the whole text: so must the mixed path
        return False
    return mixed == whole


@pytest.mark.parametrize(
    ("text", "ends"),
    [
        ("$x$ y", 3),
        (r"$\Theta\left(\frac{1}{\sqrt{N}}\right)$ rate", 39),
        (r"$\texttt{I$^2$MoE}$ model", 19),  # the inner $ is inside braces
        (r"${\textbf{A}}$daptive", 14),
        (r"$a\$b$ c", 6),  # an escaped dollar does not close
        ("$$x$$", None),  # display math: the whole text's parse
        ("$}x$", None),
        ("${x$", None),
        ("$x", None),
        ("$$", None),
        ("x$", None),
    ],
)
def test_the_end_of_a_formula_is_found_at_brace_depth_zero(text, ends):
    assert math_end(text, 0) == ends


def test_formulas_that_the_fast_path_cannot_read_no_longer_send_the_whole_text_to_pylatexenc():
    text = (
        r"We prove a rate of $\Theta\left(\frac{1}{\sqrt{N}}\right)$ for ``noisy'' data -- "
        r"and $\mathcal{O}(n \log n)$ time with $\texttt{I$^2$MoE}$, an *adaptive* model."
    )
    assert tex._simple(text) is None
    assert tex._mixed(text) == tex._build(text)
    assert tex.parse(text) == tuple(tex._build(text))


def test_a_formula_met_again_renders_as_pylatexenc_renders_it_each_time():
    # (a formula's pieces are kept for the next text that has it: they depend neither on
    # the text around it nor on the formulas met before)
    texts = []
    for formula in (
        r"$\mathfrak{G}\left(\frac{7}{\sqrt{Q}}\right)$",
        r"$\mathfrak{H}\left(\frac{8}{\sqrt{R}}\right)$",  # another, as long
    ):
        texts += [
            f"First {formula} here.",
            f"Another paper, the same {formula} again.",
            formula,
            f"Twice -- {formula}, then ``{formula}''.",
        ]
    for text in texts + texts[::-1]:
        mixed = tex._mixed(text)
        assert mixed is not None and mixed == tex._build(text), text
        assert tex.parse(text) == tuple(tex._build(text)), text


def test_text_outside_the_formulas_must_still_be_simple():
    assert tex._mixed(r"\cite{x} and $\frac{1}{2}$") is None  # \cite: the whole text's parse
    assert tex._mixed(r"$$\frac{1}{2}$$") is None


def test_the_mixed_path_agrees_on_every_sample_text():
    corpus = _corpus()
    assert len(corpus) > 10
    assert [t for t in corpus if not _agrees(t)] == []
    # and it reads most of what the parser-free path leaves
    hard = [t for t in corpus if tex._simple(t) is None]
    assert hard and sum(tex._mixed(t) is not None for t in hard) > len(hard) / 2


_BITS = [
    *"ab xy.,:;-'`\"*$%&#_\\{}[]^~\n()=+<>/|!?2",
    "\\times",
    "\\alpha ",
    "\\emph{",
    "--",
    "``",
    "''",
    "\\textbf{",
    "\\%",
    "\\log",
    "\\frac{",
    "\\sqrt{",
    "\\sqrt[3]{",
    "\\mathcal{",
    "\\mathbb{",
    "\\left(",
    "\\right)",
    "\\texttt{",
    "\\text{",
    "\\tilde{",
    "$x^",
    "_{",
    "\\$",
    "\\\\",
    "$\\frac{1}{2}$",
    "${\\textbf{A}}$",
    "$\\texttt{I$^2$MoE}$",
    "\\ref{",
    "\\begin{equation}",
    "\\end{equation}",
    "é",
    '\\"{a}',
    "\\cite{",
]


@given(st.lists(st.sampled_from(_BITS), max_size=30).map("".join))
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_mixed_path_agrees_on_anything(text):
    assert _agrees(text)


_MATH_BITS = [
    "a",
    "K",
    "x",
    "1",
    " ",
    "^",
    "_",
    "{",
    "}",
    "-",
    "/",
    "\\alpha",
    "(",
    ")",
    "'",
    "\\frac",
    "\\sqrt",
    "\\mathcal",
    "\\left(",
    "\\right)",
    "\\log ",
    "\\texttt{I$^2$M}",
    "\\|",
    "\\mathbf",
    "\\tilde",
    "\\hat{",
    "\\{",
    "\\}",
    "&",
    "\\text{ if }",
    "~",
    "%",
]


@given(st.lists(st.sampled_from(_MATH_BITS), min_size=1, max_size=12).map("".join))
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_the_mixed_path_agrees_on_math(math):
    assert _agrees(f"w ${math}$ v -- ``q'' $x^2$")


@pytest.mark.parametrize("span", ["$a$ b $c$", "$a$b", "x $a$"])
def test_a_span_that_is_not_exactly_one_formula_is_left_to_the_whole_text(span):
    assert tex._math_span(span) is None
    assert tex._math_span("$a$") is not None
