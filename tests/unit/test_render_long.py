"""Long texts are rendered in part, with a marker, and long words get places to break."""

import re

import pytest

from reader.core.text import shown_part
from reader.render import abstract_html, note_html, title_html
from reader.render.html import BREAK_RUNS_AT, MAX_ABSTRACT_CHARS, MAX_TITLE_CHARS, breakable
from reader.render.notes import MAX_MARKDOWN_CHARS, MAX_NOTE_CHARS, MAX_PLAIN_CHARS

ZWSP = "\u200b"
TEN_MB = 10_000_000


def longest_run(html: str) -> int:
    """The longest run of text without a place to break in `html`, tags left out."""
    text = re.sub(r"<[^>]*>", "", html)
    return max(map(len, re.split(rf"[\s{ZWSP}]", text)))


def test_shown_part_cuts_only_what_is_too_long() -> None:
    assert shown_part("short", 10) == "short"
    assert shown_part("w" * 20, 10) == "w" * 10
    assert shown_part("a" * 95 + " " + "b" * 20, 100) == "a" * 95 + " "  # at a space near the end
    assert shown_part("a " + "b" * 200, 100) == "a " + "b" * 98  # none there: at the limit


def test_a_ten_megabyte_word_as_abstract_is_shown_in_part_with_a_marker() -> None:
    out = abstract_html("w" * TEN_MB)
    assert len(out) < MAX_ABSTRACT_CHARS + 1_000
    assert "text shortened for display: 10,000,000 characters in total" in out
    assert out.startswith("<p>" + "w" * 100)
    assert longest_run(out) <= BREAK_RUNS_AT


def test_a_ten_megabyte_title_is_shown_in_part_with_a_marker() -> None:
    out = title_html("w" * TEN_MB)
    assert len(out) < MAX_TITLE_CHARS + 200
    assert "shortened for display: 10,000,000 characters in total" in out
    assert title_html("A short title") == "A short title"


@pytest.mark.parametrize(
    "note",
    [
        "w" * TEN_MB,  # one word
        "word " * (TEN_MB // 5),  # one paragraph of prose
        ("a line of the note\n" * 50) * (TEN_MB // 950),  # many lines
        "**a**" * (TEN_MB // 5),  # emphasis (Markdown: minutes)
    ],
)
def test_a_ten_megabyte_note_is_shown_in_part_with_a_marker(note: str) -> None:
    out = note_html(note)
    assert len(out) < MAX_PLAIN_CHARS + 2_000
    assert "note shortened for display: " in out
    assert f"{len(note):,} characters in total" in out
    assert longest_run(out) <= BREAK_RUNS_AT


def test_markdown_is_given_the_start_of_a_long_note_cut_at_a_line() -> None:
    note = "".join(f"- item **{i}** " + "and more words " * 8 + "\n" for i in range(600))
    assert MAX_MARKDOWN_CHARS < len(note) <= MAX_NOTE_CHARS
    out = note_html(note)
    assert "<strong>0</strong>" in out  # rendered, not plain text
    assert "<strong>599</strong>" not in out
    assert len(out) < 3 * MAX_MARKDOWN_CHARS
    assert f"note shortened for display: {len(note):,} characters in total" in out
    assert "shortened" not in note_html("- one **item**\n")


def test_breakable_puts_a_zero_width_space_in_long_runs_only() -> None:
    prose = "<p>" + "word " * 10_000 + "</p>"
    assert breakable(prose) == prose
    url = "https://example.org/" + "a" * 200
    assert breakable(url) == url  # a long URL is left as it is
    run = "w" * (5 * BREAK_RUNS_AT + 7)
    out = breakable(f"<p>{run}</p>")
    assert out.replace(ZWSP, "") == f"<p>{run}</p>"
    assert out.count(ZWSP) == 5
    assert longest_run(out) == BREAK_RUNS_AT


def test_breakable_never_cuts_a_tag_or_a_character_reference() -> None:
    fragment = "<b>" + "&amp;x<i>y</i>" * 2_000 + "</b>"
    out = breakable(fragment)
    assert out.replace(ZWSP, "") == fragment
    assert out.count(ZWSP) > 0
    for part in out.split(ZWSP)[1:]:  # each break falls between two whole pieces
        assert not re.match(r"[^<]*>", part) and not re.match(r"[#0-9A-Za-z]*;", part)


def test_search_marks_stop_at_a_limit() -> None:
    from reader.core.search_text import mark_spans

    text = "ab " * 5_000
    assert len(mark_spans(text, ["ab"])) == 5_000
    assert mark_spans(text, ["ab"], limit=10) == [(3 * i, 3 * i + 2) for i in range(10)]
    assert mark_spans(text, ["ab", "b"], limit=3) == [(0, 2), (3, 5), (6, 8)]  # "b": no word
    assert len(mark_spans("a" * 10_000_000, ["a"])) == 1  # one word: one start, found in C


def test_a_linked_title_is_shown_in_part() -> None:
    from reader.core.links import MAX_TITLE_CHARS, plain_title

    shown = plain_title("t" * TEN_MB)
    assert shown == "t" * MAX_TITLE_CHARS + "…"
    assert plain_title("A $\\Theta$ title") == "A Θ title"
