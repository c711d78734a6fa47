"""Issue 20, defect 4: re-imports that differ only in Unicode or TeX spelling update the
paper instead of adding a duplicate, and one conference stays one venue facet."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reader.cli import main
from reader.core.merge import duplicate_groups, match_key, plan_import
from reader.core.models import Paper
from reader.core.normalise import fold_key, fold_title, make_paper_id
from reader.core.venues import short_venue

AUC_TITLE = "AUCμ: A Performance Metric for Multi-Class Machine Learning Models"  # U+03BC
AUC_BIB = """@InProceedings{pmlr-v97-kleiman19a,
  title = {{AUC}{\\textmu}: A Performance Metric for Multi-Class Machine Learning Models},
  author = {Kleiman, Ross and Page, David},
  booktitle = {Proceedings of the 36th International Conference on Machine Learning},
  year = {2019},
  url = {http://proceedings.mlr.press/v97/kleiman19a.html}
}
@InProceedings{pmlr-v97-other19a,
  title = {Another {ICML} 2019 Paper},
  author = {Doe, Jane},
  booktitle = {Proceedings of the 36th International Conference on Machine Learning},
  year = {2019}
}
"""
ICML_2019_JSON = [
    {
        "id": "icml2019_auc",
        "title": AUC_TITLE,
        "author": "Ross Kleiman, David Page",
        "venue": "ICML 2019",
        "year": 2019,
    },
    {"id": "icml2019_other", "title": "Another ICML 2019 Paper", "author": "Jane Doe"},
]


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("AUC{\\textmu}: A Metric", AUC_TITLE.split(" Performance")[0].replace(" A", " A Metric")),
        ("AUC\u00b5: A Metric", "AUC\u03bc: A Metric"),  # micro sign, Greek mu
        ("AUC$\\mu$: A Metric", "AUC\u03bc: A Metric"),
        ("\ufb01nding the \ufb02ow", "finding the flow"),  # ligatures
        ("\uff26\uff55\uff4c\uff4c width", "Full width"),
        ("Self\u2010Attention \u2013 a \u201cview\u201d", 'Self-Attention - a "view"'),
        ("Non\u2011Convex\u00a0Games \u2212 x", "Non-Convex Games - x"),
        ("Rockt\u00e4schel\u2019s", "Rocktaschel's"),
        ("STRASSE", "straße"),
    ],
)
def test_titles_that_differ_in_spelling_only_fold_to_one(a: str, b: str) -> None:
    assert fold_title(a) == fold_title(b)
    assert match_key(a) == match_key(b) == fold_key(a).encode()


def test_dashes_quotes_and_spaces_fold_to_one_character() -> None:
    assert fold_title("a\u2014b \u2018c\u2019 \u201ed\u201d\u202fe") == "a-b 'c' \"d\" e"


def test_ids_of_existing_papers_do_not_change() -> None:
    """Ids hash normalise_title, untouched: the values the code before this change gave."""
    assert make_paper_id(title="AUC{\\textmu}: " + AUC_TITLE[6:]) == "t-5d44b70084"
    assert make_paper_id(title=AUC_TITLE) == "t-6a10e763a8"
    assert make_paper_id(title="\ufb01nding \u2013 \u201cx\u201d") == "t-ef1505dd21"


def test_a_tex_spelled_title_updates_the_unicode_one() -> None:
    existing = {"j": Paper("j", AUC_TITLE, venue="ICML 2019")}
    incoming = Paper("t-5d44b70084", "AUC{\\textmu}: " + AUC_TITLE[6:], year=2019)
    plan = plan_import(existing, [incoming])
    assert plan.added == [] and [p.id for p in plan.updated] == ["j"]
    assert plan.updated[0].year == 2019 and plan.id_map == {"t-5d44b70084": "j"}


def test_a_long_venue_joins_the_short_facet_the_library_has() -> None:
    long = "Proceedings of the 36th International Conference on Machine Learning"
    existing = {"a": Paper("a", "A", venue="ICML 2019", year=2019), "b": Paper("b", "B")}
    plan = plan_import(
        existing,
        [
            Paper("x", "A", venue=long, year=2019),  # has a venue: kept
            Paper("y", "B", venue=long, year=2019),  # had none: the library's short one
            Paper("z", "C", venue=long, year=2019),  # new: the library's short one
            Paper("w", "D", venue=long, year=2020),  # no "ICML 2020" in the library: as is
        ],
    )
    assert plan.unchanged == 1
    assert [(p.id, p.venue) for p in plan.updated] == [("b", "ICML 2019")]
    assert [(p.id, p.venue) for p in plan.added] == [("z", "ICML 2019"), ("w", long)]


def test_short_venue() -> None:
    assert (
        short_venue("Proceedings of the 36th International Conference on Machine Learning", 2019)
        == "ICML 2019"
    )
    assert (
        short_venue("Advances in Neural Information Processing Systems 32 (2019)") == "NeurIPS 2019"
    )
    assert short_venue("International Conference on Machine Learning and Applications", 2019) == ""
    assert short_venue("Proceedings of Machine Learning Research", 2019) == ""
    assert short_venue("ICML 2019", 2019) == ""
    assert short_venue("International Conference on Learning Representations") == ""  # no year


def test_duplicate_groups() -> None:
    papers = [
        Paper("a", AUC_TITLE),
        Paper("b", "Other"),
        Paper("c", "AUC{\\textmu}: " + AUC_TITLE[6:]),
        Paper("d", "AUC\u00b5: " + AUC_TITLE[6:]),
        Paper("e", "Other", doi="10.1/e"),
        Paper("f", "Other", doi="10.1/f"),  # a DOI that differs: not e's duplicate
        Paper("g", "Derived…", abstract="Same abstract here.", title_derived=True),
        Paper("h", "Real title", abstract="Same  abstract, here"),
        Paper("i", "Unrelated", arxiv="2501.00001"),
        Paper("j", "Unrelated too", arxiv="2501.00001"),
    ]
    assert duplicate_groups(papers) == [["a", "c", "d"], ["b", "e"], ["g", "h"], ["i", "j"]]
    assert duplicate_groups(papers[:2]) == []


def test_titles_whose_math_one_source_mangled_are_one_paper() -> None:
    # ICML 2019 as papercopilot lists it (JSON) and as PMLR's BibTeX has it
    title = "Learning Linear-Quadratic Regulators Efficiently with only $%s$ Regret"
    papers = [
        Paper("json", title % "\\sqrtT", authors=("Alon Cohen", "Tomer Koren")),
        Paper("bib", title % "\\sqrt{T}", authors=("Alon Cohen", "Yishay Mansour")),
        Paper("other", title % "\\log T", authors=("Jane Doe",)),  # another first author
        Paper("short", "A $2$ B", authors=("Alon Cohen",)),  # too few words to go by
        Paper("short2", "A $3$ B", authors=("Alon Cohen",)),
    ]
    assert duplicate_groups(papers) == [["json", "bib"]]
    # an import matches them the same way: the BibTeX fills the JSON's paper
    plan = plan_import({"json": papers[0]}, papers[1:3])
    assert [p.id for p in plan.added] == ["other"] and plan.id_map == {"bib": "json"}


@pytest.fixture
def run(tmp_path: Path, capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    def run(*args: str) -> str:
        assert main(["--data-dir", str(tmp_path / "lib"), *args]) == 0
        return capsys.readouterr().out

    return run


def test_reimporting_icml_2019_as_bibtex_adds_no_duplicate(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    listing = tmp_path / "icml2019.json"
    listing.write_text(json.dumps(ICML_2019_JSON), "utf-8")
    bib = tmp_path / "icml2019.bib"
    bib.write_text(AUC_BIB, "utf-8")
    before = len(json.loads(run("list", "--json")))
    run("import", str(listing))
    run("import", str(bib))
    papers = json.loads(run("list", "--json"))
    assert len(papers) == before + 2
    auc = next(p for p in papers if p["id"] == "icml2019_auc")
    assert auc["title"] == AUC_TITLE and auc["venue"] == "ICML 2019"
    other = next(p for p in papers if p["id"] == "icml2019_other")
    assert other["venue"] == "ICML 2019" and other["year"] == 2019  # filled, the one facet
    assert all(not p["venue"].startswith("Proceedings") for p in papers)


def test_duplicates_command(run) -> None:  # type: ignore[no-untyped-def]
    assert json.loads(run("duplicates", "--json")) == []  # the bundled sample has none
    assert run("duplicates") == ""


def test_an_empty_listing_says_so_on_stderr(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lib = ["--data-dir", str(tmp_path / "lib")]
    for command, english, chinese in (
        ("duplicates", "no possible duplicates", "没有可能的重复项"),
        ("trash", "the Trash is empty", "回收站是空的"),
    ):
        assert main([*lib, "--lang", "en", command]) == 0
        out, err = capsys.readouterr()
        assert out == "" and english in err  # (stdout stays empty for scripts)
        assert main([*lib, "--lang", "zh_CN", command]) == 0
        assert chinese in capsys.readouterr().err
