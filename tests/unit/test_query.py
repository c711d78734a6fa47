"""The search language, table-driven: what each query matches."""

import pytest

from reader.core.models import Annotation, Highlight, Paper, Status
from reader.core.query import parse
from reader.core.search_text import make_record

PAPERS = {
    "kd": (
        Paper(
            "kd",
            "DA-KD: Difficulty-Aware Knowledge Distillation",
            ("Changyi He", "Yoshua Bengio"),
            "Surpass the teacher with 4.7$\\times$ compression at $\\Theta(1/\\sqrt{N})$ cost.",
            "ICML 2025",
            2025,
        ),
        Annotation("kd", Status.READING, ("method/distillation", "rl"), "Great **idea**"),
    ),
    "flow": (
        Paper(
            "flow",
            "Flow Matching for Rocktäschel Models",
            ("Tim Rocktäschel",),
            "We study flow matching and diffusion.",
            "NeurIPS 2023",
            2023,
        ),
        Annotation("flow", Status.READ, ("skip",), ""),
    ),
    "diff": (
        Paper(
            "diff",
            "Diffusion without flow",
            ("Ana Núñez",),
            "Plain diffusion; matching flow.",
            "ICLR",
            2021,
        ),
        Annotation("diff", highlights=(Highlight("h1", "Plain diffusion", comment="key claim"),)),
    ),
}


def matching(text):
    query = parse(text)
    return sorted(pid for pid, (p, a) in PAPERS.items() if query.matches(make_record(p, a)))


@pytest.mark.parametrize(
    "text, expected",
    [
        ("", ["diff", "flow", "kd"]),
        ("diffusion", ["diff", "flow"]),
        ("DIFFUSION flow", ["diff", "flow"]),
        ('"flow matching"', ["flow"]),
        ('diffusion "flow matching"', ["flow"]),
        ("tag:rl", ["kd"]),
        ("tag:method", ["kd"]),  # a parent tag includes its children
        ("tag:method/distillation", ["kd"]),
        ("tag:meth", []),  # but a prefix of a name is not a parent
        ("-tag:skip", ["diff", "kd"]),
        ("status:unread", ["diff"]),
        ("status:read", ["flow"]),
        ("-status:read", ["diff", "kd"]),
        ("author:bengio", ["kd"]),
        ("author:rocktaschel", ["flow"]),  # accent-insensitive
        ("author:núñez", ["diff"]),
        ("venue:icml", ["kd"]),
        ("year:2025", ["kd"]),
        ("year:>=2023", ["flow", "kd"]),
        ("year:<2023", ["diff"]),
        ("year:2021..2023", ["diff", "flow"]),
        ("has:note", ["kd"]),
        ("has:highlights", ["diff"]),
        ("key claim", ["diff"]),  # highlight comments are searched
        ("idea", ["kd"]),  # notes are searched
        ("distillation OR rocktäschel", ["flow", "kd"]),
        ("(tag:rl OR tag:skip) -status:read", ["kd"]),
        ("Theta", ["kd"]),
        ("Θ", ["kd"]),
        ("\\Theta", ["kd"]),
        ("×", ["kd"]),
        ("√N", ["kd"]),
        ("arXiv:2501", []),  # not a field: an ordinary word
    ],
)
def test_query_matches(text, expected):
    assert matching(text) == expected
    assert parse(text).warning == ""


@pytest.mark.parametrize(
    "text, expected",
    [
        ("diffusion)", ["diff", "flow"]),
        ('"flow matching', ["diff", "flow"]),
        ("year:soon", []),
        ("OR", ["diff", "flow", "kd"]),
        ("((((", ["diff", "flow", "kd"]),
    ],
)
def test_bad_syntax_falls_back_to_plain_words(text, expected):
    query = parse(text)
    assert query.warning.startswith("Searching plain words")
    assert matching(text) == expected


@pytest.mark.parametrize(
    "text, expected",
    [
        ("(diffusion", ["diff", "flow"]),
        ("diffusion OR", ["diff", "flow"]),
        ("(flow OR distillation", ["diff", "flow", "kd"]),
        ("(matching OR (distillation", ["diff", "flow", "kd"]),
        ("diffusion AND", ["diff", "flow"]),
        ("(flow OR distillation) AND", ["diff", "flow", "kd"]),
    ],
)
def test_a_query_half_typed_is_read_as_if_closed(text, expected):
    """A parenthesis not closed yet is closed at the end, an OR with nothing after it
    waits: the list follows the typing instead of falling back to plain words."""
    assert parse(text).warning == ""
    assert matching(text) == expected


def test_and_as_databases_spell_it_is_what_words_side_by_side_mean():
    assert matching("flow AND matching") == matching("flow matching")
    assert parse("diffusion AND model").terms == ("diffusion", "model")  # "and" not marked
    assert parse("diffusion and model").terms == ("diffusion", "and", "model")  # a word
    assert parse('"AND"').terms == ("AND",)  # quoted: the word


def test_terms_for_highlighting():
    assert parse('diffusion "flow matching" -skip tag:x').terms == ("diffusion", "flow matching")


@pytest.mark.parametrize(
    "text, expected",
    [
        ("title:rocktaschel", ["flow"]),  # title: looks in the title only
        ("title:plain", []),  # ... not in the abstract
        ('title:"without flow"', ["diff"]),
        ("has:abstract", ["diff", "flow", "kd"]),
        ("-has:abstract", []),
        ("has:nothing", []),
        ('"flow   matching "', ["flow"]),  # whitespace in a phrase is one space
        ('"  "', ["diff", "flow", "kd"]),  # nothing searchable: everything
        ("-", ["diff", "flow", "kd"]),  # no word in it (a hyphen separates): everything
        ("year:>2023", ["kd"]),
        ("year:<=2021", ["diff"]),
    ],
)
def test_more_fields(text, expected):
    assert matching(text) == expected


def test_the_syntax_tree():
    from reader.core.query import And, Everything, Field, Not, Or, Text

    assert parse("").tree is None
    assert parse("Diffusion").tree == Text("diffusion")
    assert parse('a -b OR (c tag:X/Y) "Flow  Matching"').tree == Or(
        (
            And((Text("a"), Not(Text("b")))),
            And((And((Text("c"), Field("tag", "x/y"))), Text("flow matching"))),
        )
    )
    assert parse("year:2020..2023").tree == Field("year", "2020..2023", 2020, 2023)
    assert parse("year:>=2024").tree == Field("year", ">=2024", 2024, None)
    assert parse("has:note").tree == Field("has", "note")
    assert parse("has:highlight").tree == Field("has", "highlights")
    assert parse('""').tree == Everything()
    assert parse("(a").tree == And((Text("a"),)) or parse("(a").tree == Text("a")
