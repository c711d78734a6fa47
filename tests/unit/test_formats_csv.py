"""CSV: spreadsheet exports (UTF-8 and Excel's Windows-1252), broken files, and our export."""

from __future__ import annotations

import csv
import io
import unicodedata
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reader.core.models import Annotation, Paper, Status
from reader.core.normalise import make_paper_id
from reader.formats import FormatError, export_papers, read_papers
from reader.formats.csvfile import neutralise, restore

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"


def write(tmp_path: Path, text: str, name: str = "list.csv") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8", newline="")
    return path


def test_sample_golden() -> None:
    result = read_papers(DATA / "icml2025_sample.csv")
    assert (result.format, result.encoding, result.skipped) == ("csv", "utf-8", [])
    floating, concurrent, overestimation, judge = result.records
    assert floating.title == (
        "Floating-Point Neural Networks Can Represent Almost All Floating-Point Functions"
    )
    assert floating.authors == ("Geonho Hwang", "Yeachan Park", "Wonyeol Lee", "Sejun Park")
    assert (floating.year, floating.venue) == (2025, "ICML 2025")
    assert floating.url == "https://icml.cc/virtual/2025/poster/45517"
    assert floating.id == make_paper_id(title=floating.title)
    # A line break inside a quoted cell is part of the abstract, collapsed to a space.
    assert "concurently explore an environment. The theoretical results" in concurrent.abstract
    assert "$\\Theta\\left(\\frac{1}{\\sqrt{N}}\\right)$" in concurrent.abstract
    assert "Contamination’s Impact" in overestimation.title
    assert judge.authors[2] == "Tim Rocktäschel"
    assert [(a.paper_id, a.tags) for a in result.annotations] == [(floating.id, ("to-read",))]


def test_excel_windows_1252_semicolons() -> None:
    result = read_papers(DATA / "icml2025_excel_cp1252.csv")
    assert result.encoding == "cp1252"
    assert str(result.warnings[0].reason).startswith("not UTF-8: read as Windows-1252")
    gidd, stochastic, overestimation, mahalanobis = result.records
    assert gidd.authors[0] == "Dimitri von Rütte" and gidd.authors[4] == "Bernhard Schölkopf"
    assert stochastic.authors[-1] == "Pietro Lió"
    assert "Contamination’s Impact" in overestimation.title
    assert mahalanobis.authors == ("Maximilian Müller", "Matthias Hein")


def test_header_matching_and_bom(tmp_path: Path) -> None:
    text = "\ufeffPaper Title\tAUTHOR\tPublication Year\tNotes\nA\tX and Y\t2020\thi\n"
    result = read_papers(write(tmp_path, text, "x.tsv"))
    (paper,) = result.records
    assert (paper.title, paper.authors, paper.year) == ("A", ("X", "Y"), 2020)
    assert result.annotations[0].note == "hi"


def test_excel_separator_hint(tmp_path: Path) -> None:
    text = 'sep=;\r\ntitle;authors\r\nA;X, Y\r\n"B;C;""D""";Z\r\n,\r\n'
    result = read_papers(write(tmp_path, text))
    assert [(p.title, p.authors) for p in result.records] == [
        ("A", ("X", "Y")),
        ('B;C;"D"', ("Z",)),
    ]
    assert [str(s.place) for s in result.skipped] == ["list.csv:line 5"]


def test_no_title_column(tmp_path: Path) -> None:
    with pytest.raises(
        FormatError, match=r"list\.csv: no title or abstract column .*\(name, size\)"
    ):
        read_papers(write(tmp_path, "name,size\na,1\n"))


def test_unterminated_quote(tmp_path: Path) -> None:
    text = 'title,year\nGood one,2020\n"Never closed,2021\nNext,2022\nLast,2023\n'
    result = read_papers(write(tmp_path, text))
    assert [p.title for p in result.records] == ["Good one"]
    assert [(str(s.place), str(s.reason)) for s in result.skipped] == [
        ("list.csv:line 3", "rest of file ignored: a quote opened here is never closed")
    ]
    only = write(tmp_path, 'title,year\n"Never closed,2021\nNext,2022\n', "bad.csv")
    with pytest.raises(FormatError, match=r"bad\.csv: broken CSV at line 2: a quote opened"):
        read_papers(only)


def test_huge_field(tmp_path: Path) -> None:
    abstract = "x" * 200_000
    path = write(tmp_path, f'title,abstract\nBig,"{abstract}"\nSmall,s\n')
    big, small = read_papers(path).records
    assert len(big.abstract) == 200_000
    assert small.title == "Small"


def test_rows_without_title_and_short_rows(tmp_path: Path) -> None:
    text = "title,abstract,year\n,,2020\nOnly title\n,An abstract. More text.,\n"
    result = read_papers(write(tmp_path, text))
    assert [p.title for p in result.records] == ["Only title", "An abstract"]
    assert [(str(s.place), str(s.reason)) for s in result.skipped] == [
        ("list.csv:line 2", "no title and no abstract")
    ]


# --- export ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "safe"),
    [
        ('=HYPERLINK("http://x")', '\'=HYPERLINK("http://x")'),
        ("+1", "'+1"),
        ("-2", "'-2"),
        ("@SUM(A1)", "'@SUM(A1)"),
        ("\tx", "'\tx"),
        ("\rx", "'\rx"),
        ("'=x", "''=x"),
        ("plain", "plain"),
        ("", ""),
    ],
)
def test_formula_cells_neutralised(cell: str, safe: str) -> None:
    assert neutralise(cell) == safe
    assert restore(safe) == cell


def test_export_columns_and_neutralising() -> None:
    paper = Paper(
        id="p1",
        title="=cmd|' /C calc'!A0",
        authors=("A, Jr.",),
        venue="ICML 2025",
        year=2025,
        url="https://x",
        doi="10.1/x",
        abstract="-1 is a number",
    )
    annotation = Annotation("p1", Status.READING, ("@home", "b"), "+note")
    text = export_papers([(paper, annotation), (paper, None)], "csv")
    assert isinstance(text, str)
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == [
        "title",
        "authors",
        "venue",
        "year",
        "status",
        "tags",
        "url",
        "doi",
        "abstract",
        "note",
        "presentation",
        "pdf",
        "keywords",
        "primary area",
    ]
    assert rows[1] == [
        "'=cmd|' /C calc'!A0",
        "A, Jr.;",
        "ICML 2025",
        "2025",
        "reading",
        "'@home; b",
        "https://x",
        "10.1/x",
        "'-1 is a number",
        "'+note",
        "",
        "",
        "",
        "",
    ]
    assert rows[2][4:6] == ["unread", ""]
    assert text.endswith("\r\n")


# What our importers hand over: NFC text, no lone surrogates, no control characters but \t \n.
_CELL = st.text(
    st.characters(blacklist_categories=("Cs", "Cc")) | st.sampled_from("\n\t"), max_size=30
).map(lambda s: unicodedata.normalize("NFC", s).strip())
_LINE = _CELL.map(lambda s: " ".join(s.split()))
# names that stand for the authors left out ("et al."): read as none (split_authors)
_NAME = _LINE.filter(
    lambda s: s and s.casefold() not in {"others", "et al", "et al.", "and others"}
)


@settings(
    max_examples=60,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    rows=st.lists(
        st.tuples(
            _LINE.filter(lambda s: any(c.isalnum() for c in s)),
            st.lists(_NAME, max_size=3),
            _LINE,
            st.none() | st.integers(1900, 2100),
            st.sampled_from(list(Status)),
            st.lists(_NAME.filter(lambda t: "/" not in t), max_size=2),
            _CELL,
        ),
        min_size=1,
        max_size=4,
    )
)
def test_export_reads_back_equal(tmp_path: Path, rows: list[tuple[Any, ...]]) -> None:
    items: list[tuple[Paper, Annotation | None]] = []
    for title, authors, abstract, year, status, tags, note in rows:
        authors = [a.replace(";", ",") for a in authors]
        paper = Paper(
            id=make_paper_id(title=title),
            title=title,
            authors=tuple(authors),
            abstract=abstract,
            venue="ICML 2025",
            year=year,
            url="https://icml.cc/x",
            source="list.csv",
        )
        tags = list(dict.fromkeys(t.replace(";", ",") for t in tags))
        items.append((paper, Annotation(paper.id, status, tuple(tags), note)))
    path = write(tmp_path, str(export_papers(items, "csv")))
    result = read_papers(path, "csv")
    assert result.records == [p for p, _ in items]
    expected = [
        Annotation.from_dict(a.to_dict())
        for _, a in items
        if a is not None and (a.status is not Status.UNREAD or a.tags or a.note)
    ]
    assert result.annotations == expected
