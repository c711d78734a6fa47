"""Highlight anchors: made from a span, found again after the text changes."""

import pytest

from reader.core.anchor import CONTEXT_CHARS, Anchor, locate, make_anchor
from reader.core.models import Highlight

TEXT = (
    "Do deep networks generalise? We show that deep networks memorise noise, "
    "and that deep networks generalise when the data are clean."
)


def span_of(text: str, quote: str, nth: int = 0) -> tuple[int, int]:
    start = -1
    for _ in range(nth + 1):
        start = text.index(quote, start + 1)
    return start, start + len(quote)


@pytest.mark.parametrize(
    ("start", "end", "quote", "prefix", "suffix"),
    [
        (0, 2, "Do", "", " deep networks generalise? We sh"),
        (29, 36, "We show", "Do deep networks generalise? ", " that deep networks memorise noi"),
        # whitespace at either edge of the selection is not part of the quote
        (28, 37, "We show", "Do deep networks generalise? ", " that deep networks memorise noi"),
        # a backwards span is the same span
        (36, 29, "We show", "Do deep networks generalise? ", " that deep networks memorise noi"),
        (len(TEXT) - 6, len(TEXT), "clean.", TEXT[-38:-6], ""),
        # context is cut at CONTEXT_CHARS
        (72, 75, "and", TEXT[72 - CONTEXT_CHARS : 72], TEXT[75 : 75 + CONTEXT_CHARS]),
    ],
)
def test_make_anchor(start, end, quote, prefix, suffix):
    assert make_anchor(TEXT, start, end) == Anchor(quote, prefix, suffix)
    assert len(prefix) <= CONTEXT_CHARS and len(suffix) <= CONTEXT_CHARS


@pytest.mark.parametrize(("start", "end"), [(5, 5), (28, 29), (-3, 0), (len(TEXT), len(TEXT) + 5)])
def test_blank_spans_make_no_anchor(start, end):
    assert make_anchor(TEXT, start, end) is None


@pytest.mark.parametrize("nth", [0, 1, 2])
def test_repeated_quote_is_told_apart_by_its_context(nth):
    start, end = span_of(TEXT, "deep networks", nth)
    anchor = make_anchor(TEXT, start, end)
    assert anchor is not None
    assert locate(TEXT, anchor) == (start, end)


BROKEN_LINE = TEXT.replace("memorise noise", "memorise\nnoise")


def _respace(text: str) -> str:
    return "  " + text.replace("? ", "?\n\n  ").replace("that deep", "that \t deep")


@pytest.mark.parametrize(
    ("old", "new", "quote", "nth", "expected"),
    [
        # unchanged
        (TEXT, TEXT, "memorise noise", 0, "memorise noise"),
        # whitespace changed around and inside the quote
        (TEXT, _respace(TEXT), "that deep networks", 0, "that \t deep networks"),
        (TEXT, _respace(TEXT), "generalise? We show", 0, "generalise?\n\n  We show"),
        # text before it grew: the second "that deep networks" is still the second
        (TEXT, "Abstract: " + TEXT, "that deep networks", 1, "that deep networks"),
        # a line break where there was a space
        (TEXT, BROKEN_LINE, "memorise noise", 0, "memorise\nnoise"),
    ],
)
def test_locate_survives_changes(old, new, quote, nth, expected):
    start, end = span_of(old, quote, nth)
    anchor = make_anchor(old, start, end)
    found = locate(new, anchor)
    assert found is not None
    assert new[found[0] : found[1]] == expected
    # the right occurrence: as many occurrences before it as before the original
    squeeze = " ".join
    assert squeeze(new[: found[0]].split()).count(squeeze(quote.split())) == nth


@pytest.mark.parametrize(
    "new",
    [
        TEXT.replace("memorise noise", "fit noise"),
        "",
        "Something else entirely.",
    ],
)
def test_locate_returns_none_when_the_quote_is_gone(new):
    anchor = make_anchor(TEXT, *span_of(TEXT, "memorise noise"))
    assert locate(new, anchor) is None


def test_locate_takes_a_highlight_and_prefers_the_first_on_a_tie():
    text = "a b a b a"
    assert locate(text, Highlight(id="h", quote="a")) == (0, 1)
    assert locate(text, Highlight(id="h", quote="a", prefix="b ")) == (4, 5)
    assert locate(text, Highlight(id="h", quote="a", suffix=" b")) == (0, 1)
    assert locate(text, Highlight(id="h", quote="a", prefix="a b ", suffix="")) == (4, 5)
    assert locate(text, Highlight(id="h", quote="   ")) is None


def test_whitespace_only_differences_in_the_context_still_disambiguate():
    text = "x  one\n\ny one"
    anchor = Anchor(quote="one", prefix="y ", suffix="")
    assert locate(text, anchor) == (10, 13)
