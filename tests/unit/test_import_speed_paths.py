"""The import's fast paths give exactly what the careful paths give, on tricky input too.

Each fast path skips clean-up work when a look says it would change nothing; these tests
hold the fast result against what the values read as (one_line's own definition, the JSON
reader's careful path), never a timing.
"""

from __future__ import annotations

import sys
import unicodedata
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from reader.formats import common, jsonfile
from reader.formats.common import clean, clean_lines, is_one_line, one_line, unescape


def defined_one_line(value: object) -> str:
    """What one_line is defined to give (its docstring), from the module's own clean()
    and unescape(): cleaned, entities unescaped, all whitespace collapsed to single spaces."""
    return " ".join(unescape(clean(value)).split())


# --- strategies: the characters that make clean-up do something ------------------------------

TRICKY = [
    " ", "  ", "\t", "\n", "\r\n", "\r", "\x0b", "\x0c", "\x1c", "\x1f", "\x85", "\xa0",
    "\u2003", "\u2028", "\u2029", "\u3000", "\u200b", "\ufeff", "\xad", "\x00", "\x01", "\x7f",
    "\x9f", "\ud800", "\udfff", "&", "&amp;", "&lt;", "&#233;", "&#x41;", "&bogus;", "&#0;",
    "&nbsp;", ";", "|", " |", "| ", "e\u0301", "\u0301", "é", "Zoë", "\u212b", "Å", "ﬁ", "ſ",
    "K", "ı", "İ", "ß", "\\'e", "{\\\"o}", "{", "}", "\\", "$", "中文", "ا", "\U0001d518",
    "\u0378", "\U000e0001", "a", "B", "z", "0", "12", "2025", ",", ".", "-", "http://x.org/",
    "https://icml.cc/virtual/2024/poster/1", "/virtual/", "arXiv:2501.01234v2", "arxiv",
    "10.1234/ab.c", "doi:", "unread", "Poster", "\u0967\u0968",
]  # fmt: skip
pieces = st.sampled_from(TRICKY) | st.text(max_size=3)
tricky_text = st.lists(pieces, max_size=8).map("".join)
clean_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=20).map(defined_one_line)
texts = tricky_text | clean_text


# --- one_line and its look-before ----------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("Zoë Minpla", "Zoë Minpla"),
        ("e\u0301", "\xe9"),  # composed (NFC)
        ("\u212b", "\xc5"),  # the Ångström sign: the letter Å
        (" a", "a"),
        ("  many   spaces  ", "many spaces"),
        ("two  spaces", "two spaces"),
        ("a\xa0b", "a b"),
        ("line\r\nbreak\ttab", "line break tab"),
        ("a\u2028b", "a b"),
        ("a\x0bb", "a b"),  # a vertical tab is a space
        ("\x00nul\x01", "nul"),  # other controls go
        ("\ud800x", "\ufffdx"),  # a lone surrogate: the replacement character
        ("R&D", "R&D"),
        ("R&amp;D", "R&D"),
        ("a &lt;b&gt;", "a <b>"),
        ("&#233;t&#xE9;", "été"),
        ("a&nbsp;b", "a b"),
        ("&bogus;", "&bogus;"),  # not an entity: kept
        ("x" * 300, "x" * 300),
        (None, ""),
        ("", ""),
        (0, "0"),
        (2025, "2025"),
        ([], ""),
        ({"a": 1}, ""),
    ],
)
def test_one_line_gives_a_clean_single_line(value: object, expected: str) -> None:
    assert one_line(value) == expected


@given(texts)
@example("Zoë Minpla")
@example("e\u0301")
@example(" a")
@example("a\xa0b")
@example("a  b")
@example("R&D")
@example("x" * 300)
def test_one_line_is_its_definition(text: str) -> None:
    line = one_line(text)
    assert line == defined_one_line(text)
    assert line == " ".join(line.split())  # one line: single spaces, none at the ends
    assert not any(unicodedata.category(c) in ("Cc", "Cs") for c in line)


@given(texts)
def test_is_one_line_only_when_nothing_changes(text: str) -> None:
    if is_one_line(text):
        assert defined_one_line(text) == text
    if defined_one_line(text) == text and text.isprintable() and "&" not in text:
        assert is_one_line(text)  # it misses only texts with "&" or unusual characters


@given(st.one_of(st.none(), st.integers(), st.floats(), st.booleans(), st.lists(texts)))
def test_one_line_of_other_values(value: object) -> None:
    assert one_line(value) == defined_one_line(value)


def test_printable_means_no_whitespace_but_the_space() -> None:
    """What is_one_line rests on: str.split() splits only at ' ' in a printable text."""
    for code in range(sys.maxunicode + 1):
        char = chr(code)
        if char.isspace() and char != " ":
            assert not char.isprintable(), hex(code)


def test_ascii_look_agrees_with_isprintable() -> None:
    for code in range(128):
        char = chr(code)
        want = char.isprintable() and char != "&"
        assert is_one_line(f"a{char}b") == want, hex(code)


# --- clean_lines: a list looked at once --------------------------------------------------------


@given(st.lists(texts, max_size=6))
@example(["e", "\u0301"])
@example(["a", " b"])
@example(["a ", "b"])
@example(["a", "", "b"])
@example(["a|", " b"])
@example([])
def test_clean_lines_only_when_each_is_one_line(values: list[str]) -> None:
    lines = clean_lines(values)
    each_clean = all(defined_one_line(v) == v for v in values)
    if lines is not None:
        assert lines == values and lines is not values
        assert each_clean
    elif each_clean and all(v.isprintable() and "&" not in v and "|" not in v for v in values):
        pytest.fail("clean_lines missed a list that needs no clean-up")


@given(st.lists(st.one_of(texts, st.integers(), st.none(), st.dictionaries(texts, texts))))
def test_clean_lines_refuses_non_text(values: list[Any]) -> None:
    lines = clean_lines(values)
    if lines is not None:
        assert all(type(v) is str and one_line(v) == v for v in values)


def test_nfc_stops_at_the_bar() -> None:
    """NFC never reaches across "|", so one look at the joined list is one look at each."""
    marks = [chr(c) for c in range(0x300, 0x370)] + ["\u3099", "\u0f71", "\u1161", "\u11a8"]
    starts = ["e", "a", "\u1100", "\uac00", "\u0f40", "\u304b", "|"]
    for mark in marks:
        for start in starts:
            joined = "|".join([start, mark])
            assert unicodedata.is_normalized("NFC", joined) == (
                unicodedata.is_normalized("NFC", start) and unicodedata.is_normalized("NFC", mark)
            )


# --- the JSON record fast path ---------------------------------------------------------------

KEYS = sorted(jsonfile._QUICK_KEYS)
values = st.one_of(
    texts,
    texts,
    st.none(),
    st.integers(-5, 3000),
    st.booleans(),
    st.floats(allow_nan=True),
    st.lists(texts, max_size=3),
    st.just([]),
    st.just({}),
)
years = st.one_of(st.none(), st.integers(-10, 2300), st.sampled_from([0, 1599, 1600, 2199, 2200]))
items = st.fixed_dictionaries(
    {"title": texts},
    optional={
        **{key: values for key in KEYS if key != "title"},
        "authors": st.lists(texts, max_size=5) | values,
        "year": years | values,
        "id": st.sampled_from(["1", "123456", "1234567", "g0001", "\u0967\u0968", ""]) | values,
        "url": st.sampled_from(["https://icml.cc/virtual/2024/poster/1",
                                "HTTPS://WWW.NeurIPS.cc/Virtual/2023/x",
                                "https://icml.cc/vırtual/2024/x",
                                "https://arxiv.org/abs/2501.01234"])
        | values,
        "status": st.sampled_from(["Poster", "unread", "READ", " Oral"]) | values,
    },
)  # fmt: skip


printable_text = st.text(
    st.characters(whitelist_categories=("L", "M", "N", "P", "S", "Zs")), max_size=20
).map(defined_one_line)
mostly_clean = st.one_of(*[printable_text] * 9, st.sampled_from(TRICKY))
usual_items = st.fixed_dictionaries(
    {"title": printable_text.filter(bool) | mostly_clean},
    optional={
        **{key: mostly_clean for key in KEYS if key not in ("title", "year", "authors")},
        "authors": st.lists(mostly_clean, max_size=5),
        "year": years,
        "id": st.sampled_from(["1", "123456", "1234567", "g0001", "\u0967\u0968"]) | mostly_clean,
    },
)


def careful(item: dict[str, Any], name: str = "x.json") -> Any:
    try:
        return jsonfile._paper_from_any(item, name)
    except ValueError as exc:
        return ("ValueError", str(exc))


@settings(max_examples=600, suppress_health_check=[HealthCheck.too_slow])
@given(items | usual_items)
@example({"title": "T", "abstract": 0})
@example({"title": "T", "abstract": False})
@example({"title": "!!!", "id": "12"})
@example({"title": "T", "year": 0, "url": "https://iclr.cc/virtual/2025/poster/9"})
@example({"title": "T", "venue": "V", "url": "https://nips.cc/virtual/2019/x/", "status": "Oral"})
@example({"title": "T", "authors": ["A", ""], "id": "\u0967\u0968"})
@example({"title": "T", "doi": "https://doi.org/10.48550/arXiv.2501.01234"})
@example({"title": "0", "pdf": "arXiv:2501.01234v2"})  # the arXiv id of a PDF link alone
def test_quick_record_is_the_careful_record(item: dict[str, Any]) -> None:
    try:
        quick = jsonfile._quick_paper(item, "x.json")
    except ValueError as exc:
        quick = ("ValueError", str(exc))
    if quick is not None:
        assert quick == careful(item)
    assert careful(item) == careful_or_quick(item)


def careful_or_quick(item: dict[str, Any]) -> Any:
    try:
        return jsonfile.paper_from_item(item, "x.json")
    except ValueError as exc:
        return ("ValueError", str(exc))


def test_the_usual_record_takes_the_quick_path_and_reads_right() -> None:
    item = {
        "id": "g0000005",
        "title": "Visual Tokenization via Auto-encoding",
        "authors": ["Marta Bamermotron", "Zoë Minpla"],
        "abstract": "We study tokenizers. They help.",
        "venue": "ICML 2025",
        "year": 2025,
        "url": "https://example.org/paper/5",
        "status": "Poster",
    }
    paper = jsonfile.paper_from_item(item, "x.json")
    assert (paper.id, paper.title, paper.authors, paper.abstract) == (
        "g0000005",
        "Visual Tokenization via Auto-encoding",
        ("Marta Bamermotron", "Zoë Minpla"),
        "We study tokenizers. They help.",
    )
    assert (paper.venue, paper.year, paper.url, paper.presentation) == (
        "ICML 2025",
        2025,
        "https://example.org/paper/5",
        "Poster",
    )
    assert paper == careful(item)
    # the quick path reads it (were it to read nothing, the comparisons above of quick
    # and careful records would prove nothing)
    assert jsonfile._quick_paper(item, "x.json") == paper


@pytest.mark.parametrize(
    "item",
    [
        {"title": "T", "Title": "U"},  # not our own key
        {"title": "T", "issued": {"date-parts": [[2020]]}},  # CSL
        {"title": "T", "authors": [{"family": "F"}]},
        {"title": "T", "authors": "A and B"},
        {"title": "T", "year": "2020"},
        {"title": "T", "id": 7},
        {"title": "T", "abstract": "a\r\nb"},
        {"title": "T  U"},
        {"title": "T &amp; U"},
        {"title": "", "abstract": "A derived title. Then more."},
        {"title": None, "abstract": "x"},
    ],
)
def test_unusual_records_read_as_the_careful_path_reads_them(item: dict[str, Any]) -> None:
    assert careful_or_quick(item) == careful(item)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("1", ""),  # a small counter: it collides across files
        ("123456", ""),
        (" 12 ", ""),
        ("\u0967\u0968", ""),  # (Devanagari digits count too)
        (7, ""),
        ("1234567", "1234567"),  # too long for a counter: the source's id
        ("a1", "a1"),
        ("g0001", "g0001"),
        ("", ""),
        (True, ""),
        (None, ""),
    ],
)
def test_a_counter_is_no_stable_id(value: object, expected: str) -> None:
    assert common.stable_id(value) == expected


def test_quick_path_on_the_real_lists() -> None:
    """Every record of the real lists (the ICML one has aliased keys, the careful path's)."""
    import json

    from tests.datafiles import ICML_LIST, SEED_JSON

    for path in [ICML_LIST, SEED_JSON]:
        for item in json.loads(path.read_text(encoding="utf-8")):
            quick = jsonfile._quick_paper(item, path.name)
            assert quick is None or quick == careful(item, path.name), item
            assert jsonfile.paper_from_item(item, path.name) == careful(item, path.name)


# --- importing: added times set in place ---------------------------------------------------


def _write(path: Any, items: list[dict[str, Any]]) -> Any:
    import json

    path.write_text(json.dumps(items), encoding="utf-8")
    return path


def test_new_papers_are_stamped_and_the_library_is_not_touched(tmp_path: Any) -> None:
    import dataclasses

    from reader.core.models import Paper
    from reader.importing import prepare_import

    known = Paper(id="k1", title="Known", added="2024-01-01T00:00:00+00:00")
    frozen_copy = dataclasses.replace(known)
    source = _write(
        tmp_path / "list.json",
        [
            {"id": "k1", "title": "Known", "venue": "V"},  # fills the known paper
            {"id": "n1", "title": "New one"},
            {"id": "n2", "title": "New two"},
            {"id": "n1", "title": "New one", "year": 2025},  # a repeat fills the first
        ],
    )
    prepared = prepare_import({"k1": known}, [source])
    by_id = {p.id: p for p in prepared.papers}
    assert known == frozen_copy  # the library's own paper is never changed in place
    assert by_id["k1"].added == known.added and by_id["k1"].venue == "V"
    stamps = {by_id["n1"].added, by_id["n2"].added}
    assert len(stamps) == 1 and all(stamps) and by_id["n1"].year == 2025
    assert (prepared.report.added, prepared.report.updated) == (2, 1)


def test_an_exported_added_time_is_kept(tmp_path: Any) -> None:
    from reader.core.models import Paper
    from reader.formats import export_papers
    from reader.importing import prepare_import

    old = Paper(id="x", title="X", added="2020-02-02T00:00:00+00:00")
    path = tmp_path / "export.json"
    text = export_papers([(old, None)], "json")
    assert isinstance(text, str)
    path.write_text(text, encoding="utf-8")
    (paper,) = prepare_import({}, [path]).papers
    assert paper.added == old.added
