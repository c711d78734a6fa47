"""Where the reader pane marks a search's words: as search matches them."""

from __future__ import annotations

import pytest

from reader.core.search_text import mark_spans

TEXT = (
    "Surpass the teacher with 4.7× compression at Θ(1/√N) cost. "
    "Rocktäschel and ROCKTASCHEL; ε and ϵ 𝒳 Θ."
)


@pytest.mark.parametrize(
    "terms, marked",
    [
        (("theta",), ["Θ", "Θ"]),
        (("\\Theta",), ["Θ", "Θ"]),
        (("Θ",), ["Θ", "Θ"]),
        (("rocktaschel",), ["Rocktäschel", "ROCKTASCHEL"]),
        (("RöckTäschel",), ["Rocktäschel", "ROCKTASCHEL"]),
        (("epsilon",), ["ε", "ϵ"]),
        (("the", "TEACHER"), ["the", "teacher"]),
        (("flow matching",), []),
        (("4.7×",), ["4.7×"]),
        (("𝒳",), ["𝒳"]),
        (("", " "), []),
        (("ä",), ["a", "a", "a"]),  # as "a" (case and accents ignored), where words start
        (("eacher", "ocktaschel"), []),  # not inside a word, as search finds none
    ],
)
def test_marks(terms, marked):
    assert [TEXT[a:b] for a, b in mark_spans(TEXT, terms)] == marked


def test_combining_accents_and_ascii_text():
    decomposed = "Rocke\u0301 ta\u0308schel"
    assert [decomposed[a:b] for a, b in mark_spans(decomposed, ["tasch"])] == ["ta\u0308sch"]
    assert [decomposed[a:b] for a, b in mark_spans(decomposed, ["ró"])] == ["Ro"]
    assert mark_spans(decomposed, ["é"]) == []  # (inside words only)
    assert mark_spans("Plain ASCII plain", ["plain"]) == [(0, 5), (12, 17)]
