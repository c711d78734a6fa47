"""Plain-text lists (abstracts separated by blank lines): the ICML 2025 seed file and edge cases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reader.core.merge import plan_import
from reader.core.models import Paper
from reader.core.normalise import make_paper_id
from reader.formats import FormatError, read_papers
from reader.formats.common import derive_title
from tests.datafiles import SEED_JSON, SEED_TEXT


def seed_library() -> dict[str, Paper]:
    """The bundled sample as the app would hold it: real titles, ids from the titles."""
    papers = {}
    for item in json.loads(SEED_JSON.read_text(encoding="utf-8")):
        paper_id = make_paper_id(title=item["title"])
        papers[paper_id] = Paper.from_dict({**item, "id": paper_id})
    return papers


def test_seed_text_golden() -> None:
    result = read_papers(SEED_TEXT)
    assert result.format == "text"
    assert result.encoding == "utf-8"
    assert len(result.records) == 19
    assert result.skipped == []
    assert [str(w.place) for w in result.warnings] == ["icml2025_abstracts.txt:line 1"]
    assert "ICML 2025 论文列表" in str(result.warnings[0].reason)

    first = result.records[0]
    assert first.title_derived
    assert first.title == (
        "Although knowledge distillation (KD) is an effective approach to improve the performance…"
    )
    assert first.abstract.startswith("Although knowledge distillation (KD) is an effective")
    assert first.abstract.endswith("surpass the teacher model with 4.7$\\times$ compression.")
    assert first.id == make_paper_id(abstract=first.abstract)
    assert first.source == "icml2025_abstracts.txt"
    assert result.records[3].title == "Diffusion models generate high-quality synthetic data"
    assert all(len(p.title) <= 91 for p in result.records)
    assert len({p.id for p in result.records}) == 19


def test_seed_text_matches_the_bundled_sample_by_abstract() -> None:
    library = seed_library()
    result = read_papers(SEED_TEXT)
    plan = plan_import(library, result.records)
    assert plan.added == []
    assert plan.updated == []  # the real titles are kept, nothing important to fill
    assert plan.unchanged == 19
    assert sorted(plan.id_map.values()) == sorted(library)


def test_seed_text_reimport_changes_nothing() -> None:
    records = read_papers(SEED_TEXT).records
    library = {p.id: p for p in records}
    plan = plan_import(library, read_papers(SEED_TEXT).records)
    assert (plan.added, plan.updated, plan.unchanged) == ([], [], 19)


def test_paragraphs_lines_and_short_ones(tmp_path: Path) -> None:
    abstract = "We propose a method. It works well on many benchmarks and is simple to implement."
    text = (
        f"My reading list\n\n{abstract}\n\n\n  \nPage 2\n\n{abstract.replace('method', 'model')}\n"
    )
    path = tmp_path / "list.txt"
    path.write_text(text, encoding="utf-8")
    result = read_papers(path)
    assert [p.title for p in result.records] == ["We propose a method", "We propose a model"]
    assert [(str(s.place), str(s.reason)) for s in result.skipped] == [
        ("list.txt:line 7", "too short for an abstract: 'Page 2'")
    ]


def test_wrapped_abstract_lines_are_joined(tmp_path: Path) -> None:
    path = tmp_path / "wrapped.txt"
    path.write_text(
        "Line one of an abstract that\n  wraps onto   a second line.\n", encoding="utf-8"
    )
    (paper,) = read_papers(path).records
    assert paper.abstract == "Line one of an abstract that wraps onto a second line."


def test_html_entities_unescaped(tmp_path: Path) -> None:
    path = tmp_path / "entities.txt"
    path.write_text("Graphs &amp; trees: we show that A &lt; B in all cases &#8212; always.\n")
    (paper,) = read_papers(path, "text").records
    assert paper.abstract == "Graphs & trees: we show that A < B in all cases — always."


def test_only_a_heading_is_no_list(tmp_path: Path) -> None:
    path = tmp_path / "head.txt"
    path.write_text("ICML 2025\n", encoding="utf-8")
    with pytest.raises(FormatError, match=r"head\.txt: no papers found.*too short"):
        read_papers(path)


def test_ten_megabyte_abstract(tmp_path: Path) -> None:
    words = "lorem ipsum dolor sit amet consectetur " * (10 * 1024 * 1024 // 39)
    path = tmp_path / "big.txt"
    path.write_text("A huge one. L" + words, encoding="utf-8")
    (paper,) = read_papers(path).records
    assert len(paper.abstract) > 10_000_000
    assert paper.title == "A huge one"


@pytest.mark.parametrize(
    ("abstract", "title"),
    [
        ("Short. Then more.", "Short"),
        ("No sentence end here", "No sentence end here"),
        ("We use e.g. tricks. Next.", "We use e.g. tricks"),
        ("A" * 200, "A" * 89 + "…"),
        ("word " * 40, ("word " * 17).strip() + "…"),
        ("Results (e.g., on ImageNet) improve. More.", "Results (e.g., on ImageNet) improve"),
    ],
)
def test_derive_title(abstract: str, title: str) -> None:
    assert derive_title(" ".join(abstract.split())) == title
