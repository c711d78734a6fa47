"""BibTeX: import of proceedings-style entries, broken files, and an export bibtexparser reads."""

from __future__ import annotations

import unicodedata
from pathlib import Path

import bibtexparser
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from reader.core.models import Annotation, Paper, Status
from reader.core.normalise import make_paper_id
from reader.formats import FormatError, export_papers, read_papers
from reader.formats.bibtex import decode_text, split_names
from reader.formats.bibtex_export import base_key, escape, unique_keys

DAKD = "DA-KD: Difficulty-Aware Knowledge Distillation for Efficient Large Language Models"
SAMPLE = Path(__file__).resolve().parents[1] / "data" / "formats" / "icml2025_sample.bib"


def write(tmp_path: Path, text: str, name: str = "refs.bib") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# --- import ---------------------------------------------------------------------------------


def test_sample_golden() -> None:
    result = read_papers(SAMPLE)
    assert result.format == "bibtex"
    assert (result.skipped, result.warnings, result.annotations) == ([], [], [])
    papers = {p.title: p for p in result.records}
    assert len(papers) == 5

    dakd = papers[
        "DA-KD: Difficulty-Aware Knowledge Distillation for Efficient Large Language Models"
    ]
    assert dakd.authors == (
        "Changyi He",
        "Yifu Ding",
        "Jinyang Guo",
        "Ruihao Gong",
        "Haotong Qin",
        "Xianglong Liu",
    )
    assert dakd.venue == "Proceedings of the 42nd International Conference on Machine Learning"
    assert dakd.year == 2025
    assert dakd.url == "https://icml.cc/virtual/2025/poster/45516"
    assert dakd.id == make_paper_id(title=dakd.title)  # the same id as the bundled sample's
    assert "\n" not in dakd.abstract and "  " not in dakd.abstract
    assert dakd.abstract.endswith(
        "by 2% with half training cost and even surpass the "
        "teacher model with 4.7$\\times$ compression."
    )

    judge = papers["Investigating Non-Transitivity in LLM-as-a-Judge"]
    assert judge.authors == ("Yi Xu", "Laura Ruis", "Tim Rocktäschel", "Robert Kirk")

    k2 = next(p for p in result.records if p.url.endswith("46346"))
    assert k2.title == (
        "$K^2$VAE: A Koopman-Kalman Enhanced Variational AutoEncoder for Probabilistic Time "
        "Series Forecasting"
    )
    assert k2.year == 2025  # a bare number

    gidd = papers["Generalized Interpolating Discrete Diffusion"]
    assert gidd.authors[0] == "Dimitri von Rütte"
    assert "Bernhard Schölkopf" in gidd.authors

    twisted = papers["Trust-Region Twisted Policy Improvement"]
    assert twisted.authors == ("Joery de Vries", "Jinke He", "Yaniv Oren", "Matthijs T. J. Spaan")
    assert "our *Trust-Region Twisted* SMC (TRT-SMC)" in twisted.abstract


@pytest.mark.parametrize(
    ("value", "names"),
    [
        (r"Rockt{\"a}schel, Tim", ["Tim Rocktäschel"]),
        (r"Tim Rockt\"{a}schel and {\L}ukasz Kaiser", ["Tim Rocktäschel", "Łukasz Kaiser"]),
        ("de Vries, Joery and Spaan, Matthijs T. J.", ["Joery de Vries", "Matthijs T. J. Spaan"]),
        ("King, Jr, Martin Luther", ["Martin Luther King Jr"]),
        ("{Google DeepMind} and Alice Smith and others", ["Google DeepMind", "Alice Smith"]),
        ("{Barnes and Noble}", ["Barnes and Noble"]),
        ("Alice\n   Smith AND Bob Jones", ["Alice Smith", "Bob Jones"]),
        (
            r"M{\"u}ller, J{\"o}rg and Andr{\'e}, Ana and 50\% Person",
            ["Jörg Müller", "Ana André", "50% Person"],
        ),
    ],
)
def test_split_names(value: str, names: list[str]) -> None:
    assert split_names(value) == names


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("{BERT} for {G}erman", "BERT for German"),
        ("Ro{B}ERTa", "RoBERTa"),
        ("{$K^2$VAE}: fast", "$K^2$VAE: fast"),
        (
            "rate $\\Theta\\left(\\frac{1}{\\sqrt{N}}\\right)$ and $H^{1/2}$",
            "rate $\\Theta\\left(\\frac{1}{\\sqrt{N}}\\right)$ and $H^{1/2}$",
        ),
        ("\\textbf{A}daptive", "\\textbf{A}daptive"),
        ("R\\&D at 5\\% \\#1 a\\_b", "R&D at 5% #1 a_b"),
        ("Caf{\\'e} na\\\"ive", "Café naïve"),
        ("``denoises''", "``denoises''"),
    ],
)
def test_decode_text(value: str, text: str) -> None:
    assert decode_text(value) == text


def test_stray_brace_loses_fields_with_a_warning(tmp_path: Path) -> None:
    text = (
        "@inproceedings{xu2025judge,\n"
        "  title = {Investigating Non-Transitivity in LLM-as-a-Judge}},\n"
        "  author = {Xu, Yi and Kirk, Robert},\n"
        "  year = {2025}\n"
        "}\n\n@misc{ok, title = {Fine}}\n"
    )
    result = read_papers(write(tmp_path, text))
    assert [p.title for p in result.records] == [
        "Investigating Non-Transitivity in LLM-as-a-Judge",
        "Fine",
    ]
    assert result.records[0].authors == ()
    (warning,) = result.warnings
    assert warning.place == "entry xu2025judge"
    assert "stray '}'" in warning.reason and "author, year" in warning.reason


def test_unbalanced_braces_and_duplicate_keys(tmp_path: Path) -> None:
    text = (
        "@article{broken,\n  title = {Open {brace never closed},\n  year = 2024\n}\n"
        "@article{good, title = {Good}, year = 2024}\n"
        "@article{good, title = {Good again}}\n"
        "@article{twice, title = {First}, title = {Second}}\n"
        "@article{notitle, year = 2020}\n"
    )
    result = read_papers(write(tmp_path, text))
    assert [p.title for p in result.records] == ["Good", "First"]
    reasons = {s.place: s.reason for s in result.skipped}
    assert reasons["entry broken"].startswith("broken entry (unbalanced braces or quotes?)")
    assert (
        reasons["entry good"] == "duplicate key 'good' (first used at line 5); this entry ignored"
    )
    assert reasons["entry notitle"] == "no title and no abstract"
    assert [(w.place, w.reason) for w in result.warnings] == [
        ("entry twice", "repeated field title: first kept")
    ]


def test_truncated_file(tmp_path: Path) -> None:
    path = write(tmp_path, "@article{cut,\n  title = {Half a tit", "cut.bib")
    with pytest.raises(
        FormatError, match=r"cut\.bib: no papers found as BibTeX: entry cut: broken"
    ):
        read_papers(path)


def test_no_entries(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match=r"notes\.bib: no papers found as BibTeX$"):
        read_papers(write(tmp_path, "just some words\n", "notes.bib"))


def test_arxiv_and_doi(tmp_path: Path) -> None:
    text = (
        "@misc{a, title={A}, eprint={2502.17019}, archivePrefix={arXiv}}\n"
        "@article{b, title={B}, journal={arXiv preprint arXiv:2501.00001}}\n"
        "@article{c, title={C}, doi={https://doi.org/10.1145/3292500.3330701}}\n"
    )
    a, b, c = read_papers(write(tmp_path, text)).records
    assert (a.arxiv, b.arxiv, c.doi) == ("2502.17019", "2501.00001", "10.1145/3292500.3330701")
    assert a.id == make_paper_id(arxiv="2502.17019")


# --- export ---------------------------------------------------------------------------------


def paper(title: str, authors: tuple[str, ...] = ("Changyi He",), **kw: object) -> Paper:
    pid = make_paper_id(title=title)
    return Paper(id=pid, title=title, authors=authors, **kw)  # type: ignore[arg-type]


def test_keys() -> None:
    dakd = paper("DA-KD: Difficulty-Aware Knowledge Distillation", year=2025)
    assert base_key(dakd) == "he2025dakd"
    assert base_key(paper("$K^2$VAE: A Koopman", ("Xingjian Wu",), year=2025)) == "wu2025k2vae"
    assert base_key(paper("On the Theory of It", ("Tim Rocktäschel",))) == "rocktascheltheory"
    assert base_key(paper("The", ())) == "anon"
    assert unique_keys([dakd, dakd, dakd]) == ["he2025dakd", "he2025dakdb", "he2025dakdc"]


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        (
            "R&D at 50% for #1 a_b ~x^2",
            r"R\&D at 50\% for \#1 a\_b \textasciitilde{}x\textasciicircum{}2",
        ),
        ("already 2\\% done", "already 2\\% done"),
        ("math $a_b^{c}$ kept, costs $5", "math $a_b^{c}$ kept, costs \\$5"),
        ("back\\slash \\ end\\", "back\\slash \\textbackslash{} end\\textbackslash{}"),
        ("open { only", "open \\{ only"),
        ("{balanced} and \\textbf{A}", "{balanced} and \\textbf{A}"),
        ("two\n lines", "two lines"),
    ],
)
def test_escape(text: str, escaped: str) -> None:
    assert escape(text) == escaped


def test_export_parses_back_with_bibtexparser(tmp_path: Path) -> None:
    items: list[tuple[Paper, Annotation | None]] = [
        (
            paper(
                DAKD,
                abstract="Improves by 2\\% at 4.7$\\times$ compression & 50% less } cost.",
                venue="ICML 2025",
                year=2025,
                url="https://icml.cc/virtual/2025/poster/45516",
            ),
            Annotation("x", Status.READ, ("kd", "llm, efficient"), "My {note}\n@article{x,\n\\o/"),
        ),
        (
            paper(
                DAKD,
                year=2025,
            ),
            None,
        ),
        (
            paper(
                "Investigating Non-Transitivity in LLM-as-a-Judge",
                ("Tim Rocktäschel", "Smith, Jr."),
            ),
            None,
        ),
    ]
    text = export_papers(items, "bibtex")
    assert isinstance(text, str)
    library = bibtexparser.parse_string(text)
    assert library.failed_blocks == []
    assert [e.key for e in library.entries] == [
        "he2025dakd",
        "he2025dakdb",
        "rocktaschelinvestigating",
    ]
    assert library.entries[0]["title"] == items[0][0].title
    assert library.entries[0]["keywords"] == "kd, {llm, efficient}"
    assert library.entries[0].entry_type == "inproceedings"
    assert library.entries[2].entry_type == "misc"

    result = read_papers(write(tmp_path, text))
    first = result.records[0]
    assert first.title == items[0][0].title
    assert first.abstract == "Improves by 2% at 4.7$\\times$ compression & 50% less } cost."
    assert result.records[2].authors == ("Tim Rocktäschel", "Smith, Jr.")
    (annotation,) = result.annotations
    assert annotation.tags == ("kd", "llm, efficient")
    assert annotation.note == "My {note}\n@article{x,\n\\o/"


_WORDS = st.text(
    st.characters(whitelist_categories=("Lu", "Ll", "Nd"), max_codepoint=0x24F)
    | st.sampled_from(" .,:;!?()-'\"/&%#_~^"),
    min_size=1,
    max_size=40,
).map(lambda s: " ".join(unicodedata.normalize("NFC", s).split()))


@settings(
    max_examples=60,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(
    titles=st.lists(_WORDS.filter(lambda s: any(c.isalnum() for c in s)), min_size=1, max_size=4),
    abstract=_WORDS,
    year=st.none() | st.integers(1900, 2100),
)
@example(
    titles=["&#0;", "A &amp; B", "x &lt; y"], abstract="0", year=None
)  # text that looks like HTML entities
def test_export_reads_back_equal(
    tmp_path: Path, titles: list[str], abstract: str, year: int | None
) -> None:
    papers = [
        Paper(
            id=make_paper_id(title=t),
            title=t,
            authors=("Ada Lovelace",),
            abstract=abstract,
            venue="ICML 2025",
            year=year,
        )
        for t in titles
    ]
    path = write(tmp_path, str(export_papers([(p, None) for p in papers], "bibtex")))
    result = read_papers(path)
    assert result.skipped == []
    assert result.records == [
        p.__class__(**{**p.to_dict(), "authors": p.authors, "source": "refs.bib"}) for p in papers
    ]


def test_html_entities_in_a_bibtex_file_are_read_unless_their_ampersand_is_escaped(
    tmp_path: Path,
) -> None:
    path = write(
        tmp_path,
        "@article{k, title={Caf&eacute; &amp; {B}ar, \\&amp; and \\&\\#0;},"
        " author={Ada Lovelace}, journal={J &amp; K}}",
    )
    (paper,) = read_papers(path).records
    assert paper.title == "Café & Bar, &amp; and &#0;" and paper.venue == "J & K"


def test_authors_tags_and_notes_that_look_like_html_entities_read_back_as_written(
    tmp_path: Path,
) -> None:
    paper = Paper(make_paper_id(title="T"), "T", ("Ana &amp; Co",), "0", "ICML 2025", None)
    ann = Annotation(paper.id, tags=("R&amp;D", "x&y"), note="note &amp; more")
    path = write(tmp_path, str(export_papers([(paper, ann)], "bibtex")))
    result = read_papers(path)
    assert result.records[0].authors == ("Ana &amp; Co",)
    assert (
        result.annotations[0].tags == ("R&amp;D", "x&y")
        and result.annotations[0].note == "note &amp; more"
    )
