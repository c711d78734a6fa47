"""JSON import (conference lists, CSL-JSON, the bundled sample) and our lossless JSON export."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reader.core.models import Annotation, Highlight, Paper, Status
from reader.core.normalise import make_paper_id, strip_hidden
from reader.formats import FormatError, export_papers, read_papers
from tests.datafiles import ICML_LIST, SEED_JSON


def write_json(tmp_path: Path, data: object, name: str = "list.json") -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


# --- real files -----------------------------------------------------------------------------


def test_icml2025_list_golden() -> None:
    result = read_papers(ICML_LIST)
    assert result.format == "json"
    assert len(result.records) == 3340
    assert result.skipped == []
    by_id = {p.id: p for p in result.records}
    assert len(by_id) == 3340

    first = by_id["site_a6a496aa3b"]
    assert first.title == (
        '"Who experiences large model decay and why?" A Hierarchical Framework for '
        "Diagnosing Heterogeneous Performance Drift"
    )
    assert first.authors == (
        "Harvineet Singh",
        "Fan Xia",
        "Alexej Gossmann",
        "Andrew Chuang",
        "Julian Hong",
        "Jean Feng",
    )
    assert first.presentation == "Poster"
    assert first.track == "main"
    assert first.url == "https://icml.cc/virtual/2025/poster/45315"
    assert (first.venue, first.year) == ("ICML 2025", 2025)  # from the icml.cc address
    assert first.abstract == ""

    assert by_id["site_8aee33c0ce"].title.startswith("$K^2$VAE: A Koopman-Kalman")
    assert "Tim Rocktäschel" in by_id["site_54d2cf1a4e"].authors
    assert sum(p.presentation == "Oral" for p in result.records) == 12


def test_bundled_sample_shape() -> None:
    result = read_papers(SEED_JSON)
    assert len(result.records) == 19
    paper = result.records[0]
    assert paper.id == make_paper_id(title=paper.title)
    assert paper.title.startswith("DA-KD: Difficulty-Aware")
    assert paper.authors[:2] == ("Changyi He", "Yifu Ding")
    assert (paper.venue, paper.year, paper.presentation) == ("ICML 2025", 2025, "Poster")
    assert paper.url == "https://icml.cc/virtual/2025/poster/45516"


def test_csl_json(tmp_path: Path) -> None:
    item = {
        "id": "ITEM-1",
        "type": "paper-conference",
        "title": "Erwin: A Tree-based Hierarchical Transformer for Large-scale Physical Systems",
        "author": [
            {"family": "Zhdanov", "given": "Maksim"},
            {"family": "Welling", "given": "Max"},
            {"family": "Meent", "given": "Jan-Willem", "non-dropping-particle": "van de"},
        ],
        "issued": {"date-parts": [[2025, 7]]},
        "container-title": ["Proceedings of the 42nd International Conference on Machine Learning"],
        "DOI": "https://doi.org/10.48550/arXiv.2502.17019",
        "URL": "https://arxiv.org/abs/2502.17019",
    }
    (paper,) = read_papers(write_json(tmp_path, [item])).records
    assert paper.authors == ("Maksim Zhdanov", "Max Welling", "Jan-Willem van de Meent")
    assert paper.year == 2025
    assert paper.venue.startswith("Proceedings of the 42nd")
    assert paper.doi == "10.48550/arXiv.2502.17019"
    assert paper.arxiv == "2502.17019"
    assert paper.id == make_paper_id(doi=paper.doi)  # CSL "ITEM-1" is no stable id


def test_papers_key_and_odd_items(tmp_path: Path) -> None:
    data = {
        "papers": [
            {"title": "  A   &amp; B\n", "authors": "X. Li; Y. Wu", "year": "2024-05-01"},
            "just a string",
            {"abstract": "No title here, so the first sentence stands in. Then more."},
            {"title": "", "abstract": ""},
            {"id": 7, "title": "Counter ids are not stable ids", "authors": ["A and B"]},
            {"title": "Reading status is not a decision", "status": "read"},
        ]
    }
    result = read_papers(write_json(tmp_path, data))
    titles = [p.title for p in result.records]
    assert titles[0] == "A & B"
    assert result.records[0].authors == ("X. Li", "Y. Wu")
    assert result.records[0].year == 2024
    assert result.records[1].title_derived
    assert result.records[2].id.startswith("t-")
    assert result.records[3].presentation == ""
    assert [(str(s.place), str(s.reason)) for s in result.skipped] == [
        ("item 2", "not an object but str"),
        ("item 4", "no title and no abstract"),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested too deeply"),
        ('{"a": ' * 50_000 + "1" + "}" * 50_000, "nested too deeply"),
        ("[1, 2", "not valid JSON: Expecting"),
        ('{"title": "x"', "not valid JSON"),
        ("42", "holds a int, not a list of papers"),
        ('{"meta": 1}', "without a list of papers"),
        ("[1, 2, 3]", "no papers found as JSON: item 1: not an object but int"),
    ],
)
def test_broken_json(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FormatError, match=message) as info:
        read_papers(path)
    assert str(info.value).startswith("bad.json: ")


def test_nan_and_infinity(tmp_path: Path) -> None:
    path = tmp_path / "nan.json"
    path.write_text('[{"title": "A", "year": NaN}, {"title": "B", "year": -Infinity}]')
    result = read_papers(path)
    assert [(p.title, p.year) for p in result.records] == [("A", None), ("B", None)]
    assert any("NaN" in str(w.reason) for w in result.warnings)
    path.write_text("NaN")
    with pytest.raises(FormatError, match="holds a NoneType"):
        read_papers(path)


def test_escaped_nul_and_lone_surrogates_never_reach_a_record(tmp_path: Path) -> None:
    path = tmp_path / "esc.json"
    path.write_text(
        '[{"title": "A\\u0000B\\ud800C", "authors": ["\\udfffX"], "abstract": "\\u0007"}]'
    )
    (paper,) = read_papers(path).records
    assert paper.title == "AB\ufffdC"
    assert paper.authors == ("\ufffdX",)
    assert paper.abstract == ""


def test_huge_year_does_not_crash(tmp_path: Path) -> None:
    data = '{"format": "paper-reader", "version": 1, "papers": [{"id": "x", "year": 1e400}]}'
    path = tmp_path / "big.json"
    path.write_text(data)
    (paper,) = read_papers(path).records
    assert (paper.id, paper.year) == ("x", None)


# --- our own export: lossless round trip ----------------------------------------------------


def sample_items() -> list[tuple[Paper, Annotation | None]]:
    paper = Paper(
        id="site_8aee33c0ce",
        title="$K^2$VAE: A Koopman-Kalman Enhanced Variational AutoEncoder",
        authors=("Xingjian Wu", "Xiangfei Qiu"),
        abstract="Uses $\\Theta\\left(\\frac{1}{\\sqrt{N}}\\right)$ and ``quotes''.",
        venue="ICML 2025",
        year=2025,
        url="https://icml.cc/virtual/2025/poster/46346",
        presentation="Oral",
        track="main",
        doi="10.1000/x",
        arxiv="2501.01234",
        source="icml2025_list.json",
        title_derived=False,
        added="2025-07-01T10:00:00+00:00",
    )
    annotation = Annotation(
        paper_id=paper.id,
        status=Status.READING,
        tags=("vae", "time-series/forecasting"),
        note="# Note\n\n| a | b |\n|---|---|\n\n```py\nx = 1\n```\n",
        highlights=(
            Highlight(
                id="h1",
                quote="Koopman",
                prefix="A ",
                suffix="-Kalman",
                color="green",
                comment="nice",
                created="2025-07-02T00:00:00+00:00",
            ),
        ),
        rating=4,
        created="2025-07-01T10:00:00+00:00",
        modified="2025-07-02T00:00:00+00:00",
    )
    bare = Paper(id="a-12345", title="Derived…", abstract="Derived. Text.", title_derived=True)
    return [(paper, annotation), (bare, None)]


def test_json_round_trip_is_lossless(tmp_path: Path) -> None:
    items = sample_items()
    text = export_papers(items, "json", tag_colours={"vae": "#ff0000"})
    assert isinstance(text, str)
    data = json.loads(text)
    assert (data["format"], data["version"]) == ("paper-reader", 1)
    path = tmp_path / "export.json"
    path.write_text(text, encoding="utf-8")
    result = read_papers(path)
    assert result.records == [p for p, _ in items]
    assert result.annotations == [a for _, a in items if a is not None]
    assert result.tag_colours == {"vae": "#ff0000"}
    assert result.skipped == []


def test_native_export_is_ascii_and_escaped_controls_are_cleaned(tmp_path: Path) -> None:
    paper = Paper(id="x", title="Ünïcode — title", abstract="line\u2028sep")
    text = str(export_papers([(paper, None)], "json"))
    assert text.isascii()
    path = tmp_path / "native.json"
    path.write_text(text.replace("Ü", "\\u0007").replace("\\u00dc", "\\u0007Ü"))
    (back,) = read_papers(path).records
    assert back.title == "Ünïcode — title"  # the bell is gone, the rest as written
    assert back.abstract == "line\u2028sep"


def test_empty_native_export_is_a_valid_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.json"
    path.write_text(str(export_papers([], "json")), encoding="utf-8")
    result = read_papers(path)
    assert (result.records, result.annotations) == ([], [])


def test_native_newer_version_is_refused(tmp_path: Path) -> None:
    path = write_json(tmp_path, {"format": "paper-reader", "version": 99, "papers": []})
    with pytest.raises(FormatError, match="version 99 is newer"):
        read_papers(path)


def test_native_bad_items_are_skipped(tmp_path: Path) -> None:
    data = {
        "format": "paper-reader",
        "version": 1,
        "papers": [{"id": "a", "title": "A"}, {"title": "no id"}, 5, {"id": "", "title": "x"}],
        "annotations": [{"paper_id": "a", "tags": "one"}, {"tags": []}, "x"],
        "tag_colours": {"one": "#00ff00", "": "#000"},
    }
    result = read_papers(write_json(tmp_path, data))
    assert [p.id for p in result.records] == ["a"]
    assert [a.tags for a in result.annotations] == [("one",)]
    assert [str(s.place) for s in result.skipped] == [
        "item 2",
        "item 3",
        "item 4",
        "annotation 2",
        "annotation 3",
    ]
    assert result.tag_colours == {"one": "#00ff00"}


# --- property: anything our exporter writes reads back equal --------------------------------

# What an importer can hand over: no lone surrogates, no control characters but tab/newline.
# (as stored: an import drops the invisible characters that reorder or hide text)
_TEXT = st.text(
    st.characters(blacklist_categories=("Cs", "Cc")) | st.sampled_from("\n\t"), max_size=40
).map(strip_hidden)
_ID = st.text("abcdefghijklmnopqrstuvwxyz0123456789-_", min_size=1, max_size=12)
_PAPERS = st.builds(
    Paper,
    id=_ID,
    title=_TEXT,
    authors=st.lists(_TEXT, max_size=4).map(tuple),
    abstract=_TEXT,
    venue=_TEXT,
    year=st.none() | st.integers(1900, 2100),
    url=_TEXT,
    presentation=_TEXT,
    doi=_TEXT,
    title_derived=st.booleans(),
)
_HIGHLIGHTS = st.builds(Highlight, id=_ID, quote=_TEXT, comment=_TEXT, color=st.just("yellow"))


@settings(
    max_examples=60,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    papers=st.lists(_PAPERS, max_size=5, unique_by=lambda p: p.id),
    data=st.data(),
)
def test_json_export_reads_back_equal(
    tmp_path: Path, papers: list[Paper], data: st.DataObject
) -> None:
    items: list[tuple[Paper, Annotation | None]] = []
    for paper in papers:
        annotation = data.draw(
            st.none()
            | st.builds(
                Annotation,
                paper_id=st.just(paper.id),
                status=st.sampled_from(list(Status)),
                tags=st.lists(st.text("abcxyz/ ", min_size=1, max_size=6), max_size=3).map(
                    lambda ts: tuple(t for t in (" ".join(t.split()) for t in ts) if t.strip("/ "))
                ),
                note=_TEXT,
                highlights=st.lists(_HIGHLIGHTS, max_size=2).map(tuple),
                rating=st.integers(0, 5),
            )
        )
        items.append((paper, annotation))
    path = tmp_path / "rt.json"
    path.write_text(str(export_papers(items, "json", tag_colours={"x": "red"})), encoding="utf-8")
    result = read_papers(path)
    assert result.records == papers
    expected = [Annotation.from_dict(a.to_dict()) for _, a in items if a is not None]
    assert result.annotations == expected
