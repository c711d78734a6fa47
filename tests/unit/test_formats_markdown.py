"""Markdown export: one safe, unique file per paper with quoted YAML front matter."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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
            value = json.loads(line[4:])
            assert isinstance(data[key], list)
            data[key].append(value)  # type: ignore[union-attr]
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
