"""Issue 20, defect 5: what conference exports carry is kept through import, the catalogue
(files and index) and export: the PDF link, venue and year from the record's own BibTeX,
oral/poster, keywords and primary area."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from bibtexparser import parse_string

from reader.cli import main
from reader.core.models import Paper
from reader.formats import jsonfile
from reader.store.catalogue_db import SCHEMA, CatalogueDB
from reader.store.paper_files import write_file

PDF = "http://proceedings.mlr.press/v97/kleiman19a/kleiman19a.pdf"
ICML_2019 = [  # the shape of a conference export (paperlists' icml2019.json)
    {
        "id": "icml2019_kleiman19a",
        "title": "AUCμ: A Performance Metric for Multi-Class Machine Learning Models",
        "author": "Ross Kleiman; David Page",
        "status": "Oral",
        "track": "main",
        "site": "http://proceedings.mlr.press/v97/kleiman19a.html",
        "pdf": PDF,
        "keywords": "evaluation; multi-class classification; AUC",
        "primary_area": "Evaluation Metrics",
        "bibtex": "@InProceedings{pmlr-v97-kleiman19a,\n  title = {{AUC}{\\textmu}: A Performance"
        " Metric},\n  author = {Kleiman, Ross and Page, David},\n  booktitle = {Proceedings of"
        " the 36th International Conference on Machine Learning},\n  year = {2019}\n}",
    },
    {
        "id": "icml2019_quick",
        "title": "A Record of Our Own Keys",
        "venue": "ICML 2019",
        "year": 2019,
        "url": "https://icml.cc/Conferences/2019/Schedule?showEvent=1",
        "pdf": "https://example.org/quick.pdf",
        "primary_area": "Theory",
        "presentation": "Poster",
    },
]


def test_json_import_keeps_what_the_export_has() -> None:
    auc, quick = jsonfile.read(json.dumps(ICML_2019), "icml2019.json").records
    assert auc.pdf == PDF and auc.url.endswith("kleiman19a.html")
    assert (auc.venue, auc.year) == ("ICML 2019", 2019)  # from its BibTeX, the short name
    assert auc.presentation == "Oral"
    assert auc.keywords == ("evaluation", "multi-class classification", "AUC")
    assert auc.primary_area == "Evaluation Metrics"
    assert (quick.pdf, quick.primary_area, quick.presentation) == (
        "https://example.org/quick.pdf",
        "Theory",
        "Poster",
    )


def test_a_pdf_link_alone_is_the_url_too() -> None:
    (paper,) = jsonfile.read(json.dumps([{"title": "T", "pdf": PDF}]), "x.json").records
    assert (paper.url, paper.pdf) == (PDF, PDF)


def test_the_catalogue_files_and_index_keep_the_new_fields(tmp_path: Path) -> None:
    papers = [
        Paper("p", "T", ("A B",), pdf=PDF, keywords=("k1", "k 2"), primary_area="Theory"),
        Paper("q", "U"),
    ]
    write_file(tmp_path / "devices" / "d", papers, "1")
    db = CatalogueDB(None)
    problems: list[str] = []
    db.sync(tmp_path, problems)
    assert db.papers() == papers and problems == []
    assert SCHEMA >= 2  # an index of schema 1 (without the fields) is made anew
    assert Paper.from_dict({"id": "old", "title": "From an older file"}).keywords == ()


@pytest.fixture
def run(tmp_path: Path, capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    def run(*args: str) -> str:
        assert main(["--data-dir", str(tmp_path / "lib"), *args]) == 0
        return capsys.readouterr().out

    return run


def test_kept_through_the_library_and_its_exports(run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    listing = tmp_path / "icml2019.json"
    listing.write_text(json.dumps(ICML_2019), "utf-8")
    run("import", str(listing))
    shown = json.loads(run("show", "icml2019_kleiman19a", "--json"))  # (a new open: the index)
    assert shown["pdf"] == PDF and shown["primary_area"] == "Evaluation Metrics"
    assert shown["keywords"] == ["evaluation", "multi-class classification", "AUC"]
    assert (shown["venue"], shown["year"], shown["presentation"]) == ("ICML 2019", 2019, "Oral")

    native = json.loads(run("export", "--format", "json"))
    (paper,) = [p for p in native["papers"] if p["id"] == "icml2019_kleiman19a"]
    assert paper["pdf"] == PDF and paper["keywords"] == shown["keywords"]

    rows = list(csv.DictReader(io.StringIO(run("export", "--format", "csv", "AUC"))))
    (row,) = [r for r in rows if r["pdf"] == PDF]
    assert row["keywords"] == "evaluation; multi-class classification; AUC"
    assert (row["presentation"], row["primary area"]) == ("Oral", "Evaluation Metrics")

    entries = parse_string(run("cite", "icml2019_kleiman19a")).entries
    assert entries[0]["pdf"] == PDF


def test_ris_keeps_the_pdf_link_and_keywords() -> None:
    from reader.formats import ris

    text = "TY  - CONF\nTI  - T\nKW  - a\nKW  - b c\nL1  - http://x/y.pdf\nUR  - http://x\nER  - \n"
    (paper,) = ris.read(text, "x.ris").records
    assert (paper.url, paper.pdf, paper.keywords) == ("http://x", "http://x/y.pdf", ("a", "b c"))


def test_markdown_front_matter_has_the_pdf_and_keywords_when_there_are() -> None:
    from reader.formats.markdown_export import render

    text = render(Paper("p", "T", pdf=PDF, keywords=("a", "b")), None)
    assert f'\npdf: "{PDF}"\nkeywords:\n  - "a"\n  - "b"\n' in text
    assert "pdf:" not in render(Paper("q", "T"), None)
