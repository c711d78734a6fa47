"""Issue 20, defect 9: authors written "Last, First", stable cite keys, `paper-reader cite`."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from bibtexparser import parse_string

from reader.cli import main
from reader.core.models import Paper
from reader.formats import export_papers
from reader.formats.citing import citation, cite, cite_keys, name_parts, short_name

DAKD = "DA-KD: Difficulty-Aware Knowledge Distillation for Efficient Large Language Models"


def bib_authors(*authors: str) -> str:
    paper = Paper("p", "T", authors)
    entries = parse_string(str(export_papers([(paper, None)], "bibtex"))).entries
    return str(entries[0]["author"])


def test_names_as_bibtex_reads_them() -> None:
    assert bib_authors("Changyi He", "Yifu Ding") == "He, Changyi and Ding, Yifu"
    assert bib_authors("Laurens van der Maaten") == "van der Maaten, Laurens"
    assert bib_authors("Jean-Pierre de la Fontaine") == "de la Fontaine, Jean-Pierre"
    assert bib_authors("Martin Luther King Jr.") == "King, Jr., Martin Luther"
    assert bib_authors("Plato") == "Plato"


def test_names_already_last_first_and_cjk_names_are_kept() -> None:
    assert bib_authors("Maaten, Laurens van der") == "Maaten, Laurens van der"
    assert bib_authors("King, Jr., Martin Luther") == "King, Jr., Martin Luther"
    assert bib_authors("山田 太郎", "张伟") == "{山田 太郎} and 张伟"  # never reordered
    assert name_parts("山田 太郎").whole and name_parts("Smith, Jr.").whole


def test_short_names_and_citation() -> None:
    assert short_name("Matthijs T. J. Spaan") == "Spaan, M. T. J."
    assert short_name("Jean-Pierre de la Fontaine") == "de la Fontaine, J.-P."
    assert short_name("Plato") == "Plato"
    paper = Paper(
        "p", "$K^2$VAE: A Koopman", ("Xingjian Wu", "Bin Yang"), venue="ICML 2025", year=2025
    )
    assert citation(paper) == "Wu, X., Yang, B. (2025). K²VAE: A Koopman. ICML 2025."
    assert citation(Paper("q", "Untitled.")) == "(n.d.). Untitled."


def test_cite_keys_are_stable_as_papers_are_added() -> None:
    first = Paper("z-first", DAKD, ("Changyi He",), year=2025, added="2025-01-01T00:00:00Z")
    later = Paper("a-later", DAKD + " II", ("Changyi He",), year=2025, added="2026-01-01T00:00:00Z")
    other = Paper(
        "m", "Investigating Non-Transitivity", ("Yi Xu",), year=2025, added="2025-01-01T00:00:00Z"
    )
    keys = cite_keys([first, other])
    assert keys == {"z-first": "he2025dakd", "m": "xu2025investigating"}
    # the later paper sorts before by id, but was added after: it gets the suffix
    grown = cite_keys([later, other, first])
    assert grown == {**keys, "a-later": "he2025dakdb"}
    # a BibTeX export of a selection uses the library's keys, not the selection's
    text = str(export_papers([(later, None)], "bibtex", keys=grown))
    assert [e.key for e in parse_string(text).entries] == ["he2025dakdb"]
    assert "\n@inproceedings" not in cite([first, later], ["a-later"], "bibtex")
    assert cite([first, later], ["a-later"], "bibtex").startswith("@misc{he2025dakdb,")
    with pytest.raises(ValueError, match="no paper"):
        cite([first], ["nope"])


@pytest.fixture
def run(tmp_path: Path, capsys: pytest.CaptureFixture[str]):  # type: ignore[no-untyped-def]
    def run(*args: str, expect: int = 0) -> str:
        argv = ["--data-dir", str(tmp_path / "lib"), *args]
        if expect:
            with pytest.raises(SystemExit) as info:
                main(argv)
            assert info.value.code == expect
            return capsys.readouterr().err
        assert main(argv) == 0
        return capsys.readouterr().out

    return run


def test_cite_command(run) -> None:  # type: ignore[no-untyped-def]
    papers = json.loads(run("list", "--json"))
    dakd = next(p for p in papers if p["title"] == DAKD)
    assert dakd["cite_key"] == "he2025dakd"
    assert len({p["cite_key"] for p in papers}) == len(papers)
    out = run("cite", dakd["id"])
    (entry,) = parse_string(out).entries
    assert entry.key == "he2025dakd" and entry["author"].startswith("He, Changyi and Ding, Yifu")
    text = run("cite", dakd["id"], papers[1]["id"], "--format", "text")
    assert text.splitlines()[0].startswith("He, C., Ding, Y., Guo, J.,")
    assert "(2025). DA-KD: Difficulty-Aware" in text and len(text.splitlines()) == 2
    assert "no paper with id 'nope'" in run("cite", "nope", expect=2)
    assert json.loads(run("show", dakd["id"], "--json"))["cite_key"] == "he2025dakd"
