"""BibTeX: import of proceedings-style entries, broken files, and an export bibtexparser reads."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import pytest
from bibtexparser.entrypoint import parse_string
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
    assert str(warning.place) == "entry xu2025judge"
    assert "stray '}'" in str(warning.reason) and "author, year" in str(warning.reason)


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
    reasons = {str(s.place): str(s.reason) for s in result.skipped}
    assert reasons["entry broken"].startswith("broken entry (unbalanced braces or quotes?)")
    assert (
        reasons["entry good"] == "duplicate key 'good' (first used at line 5); this entry ignored"
    )
    assert reasons["entry notitle"] == "no title and no abstract"
    assert [(str(w.place), str(w.reason)) for w in result.warnings] == [
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
        ("open { only", "open \\textbraceleft{} only"),  # no lone brace left for BibTeX to count
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
    library = parse_string(text)
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
        p.__class__(
            **{**p.to_dict(), "authors": p.authors, "keywords": p.keywords, "source": "refs.bib"}
        )
        for p in papers
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


# --- exported fields cannot run TeX or break out of their braces -----------------------------

#: Control words that read or write files, run programs or redefine TeX: none may be left
#: executable in an exported field (the exporter's list is longer).
DANGEROUS = frozenset(
    "input include write immediate openout openin read readline catcode def edef gdef xdef "
    "let csname expandafter usepackage RequirePackage newwrite newread special directlua "
    "scantokens lstinputlisting verbatiminput includegraphics newcommand renewcommand "
    "makeatletter endinput pdfcatalog".split()
)

TEX_PAYLOADS = [
    r"\input{/etc/passwd}",
    r"\input /etc/passwd ",
    r"\write18{rm -rf ~}",
    r"\immediate\write18{calc}",
    "^^5cinput{/etc/passwd}",
    "^^5c^^5cinput",
    "^^^^005cinput",
    r"\^^5cinput",
    r"$\input{/etc/passwd}$",
    "$^^5cinput{x}$",
    r"$x \\input$",
    r"\csname input\endcsname{x}",
    r"\def\x{\input{y}}\x",
    r"\catcode`\^^5c=0",
    r"\usepackage{shellesc}\ShellEscape{ls}",
    r"\openout1=x.tex \openin1=y \read1 to\z \newwrite\w",
    r"\begin{filecontents}{x.tex}\input{y}\end{filecontents}",
    r"\directlua{os.execute('ls')}",
    r"\lstinputlisting{/etc/passwd}",
    r"\href{run:/bin/sh}{click} \url{file:///etc/passwd} \url|javascript:x|",
    r"\pdfcatalog{/OpenAction << /S /JavaScript /JS (app.alert(1)) >>}",
    "}",
    "{",
    "}}}{{{",
    r"\}",
    r"\{ x",
    '} @misc{x, title={pwn}} @preamble{"\\input{x}"}',
    "}, author = {Mallory}, x = {",
    "@misc{x,\n title = {pwn}\n}",
    r"{\textbf{A}} \} {",
]


def _words(value: str) -> list[str]:
    """The control words TeX would read in `value` (`\\\\input` is a line break, then text)."""
    return [m.group(1) for m in re.finditer(r"\\([A-Za-z]+)|\\.", value, re.DOTALL) if m.group(1)]


def _raw_braces_balanced(value: str) -> bool:
    """Balanced as BibTeX (and bibtexparser) count them: every { and }, escaped or not."""
    depth = 0
    for char in value:
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def _entries_as_bibtex_sees_them(text: str) -> list[str]:
    """Top-level `@type{` blocks found by counting every brace, as BibTeX itself does."""
    blocks, depth, start = [], 0, None
    for pos, char in enumerate(text):
        if char == "@" and depth == 0:
            start = pos
        elif char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth == 0 and start is not None:
                blocks.append(text[start : pos + 1])
                start = None
    return blocks


def _hostile_items(payload: str) -> list[tuple[Paper, Annotation | None]]:
    hostile = Paper(
        id="p1",
        title=f"Title {payload} end",
        authors=(f"Ada {payload} Lovelace", "Alan Turing"),
        abstract=f"Abstract {payload} end",
        venue=f"Venue {payload}",
        year=2024,
        url=f"https://example.org/{payload}",
        doi=f"10.1/{payload}",
    )
    notes = Annotation(hostile.id, Status.READ, (f"tag {payload}", "ok"), f"note {payload}\nend")
    plain = Paper(id="p2", title="Plain", authors=("Grace Hopper",), year=2020)
    return [(hostile, notes), (plain, None)]


@pytest.mark.parametrize("payload", TEX_PAYLOADS)
def test_hostile_tex_is_neutralised(tmp_path: Path, payload: str) -> None:
    text = export_papers(_hostile_items(payload), "bibtex")
    assert isinstance(text, str)
    # BibTeX's own view: the marker and two entries, no more
    blocks = _entries_as_bibtex_sees_them(text)
    assert (
        len(blocks) == 3
        and blocks[1].startswith("@inproceedings{")
        and blocks[2].startswith("@misc{hopper2020plain")
    ), blocks
    library = parse_string(text)
    assert library.failed_blocks == []
    assert [e.key for e in library.entries] == [base_key(p) for p, _ in _hostile_items(payload)]
    fields = {f.key for f in library.entries[0].fields}
    assert fields == {
        "title",
        "author",
        "booktitle",
        "year",
        "url",
        "doi",
        "abstract",
        "keywords",
        "annote",
    }
    for entry in library.entries:
        for field in entry.fields:
            value = str(field.value)
            assert _raw_braces_balanced(value), (field.key, value)
            assert not DANGEROUS & set(_words(value)), (field.key, value)
            assert "^^" not in value, (field.key, value)
            link = re.search(r"(?<!\\)\\(?:url|href)(?![A-Za-z])\s*(\{\s*https?:)?", value)
            assert not link or link.group(1), (field.key, value)  # no run:, file: link
            if field.key in ("url", "doi"):
                assert not re.match(r"\s*(javascript|file|run):", value, re.I), value
    assert library.entries[0]["year"] == "2024" and library.entries[1]["title"] == "Plain"
    # and it reads back as the same two papers
    result = read_papers(write(tmp_path, text))
    assert result.skipped == [] and [p.year for p in result.records] == [2024, 2020]
    assert result.records[1].title == "Plain"
    assert len(result.records[0].authors) == 2


@pytest.mark.parametrize(
    "payload",
    [
        r"\input{/etc/passwd}",
        r"\immediate\write18{calc}",
        "^^5cinput",
        "{a} {b}",
    ],
)
def test_neutralised_text_reads_back_as_written(tmp_path: Path, payload: str) -> None:
    (paper, annotation), _ = _hostile_items(payload)
    text = str(export_papers([(paper, annotation)], "bibtex"))
    (record,) = read_papers(write(tmp_path, text)).records
    assert record.title == paper.title.replace("{a} {b}", "a b")  # protective braces go
    assert record.abstract == paper.abstract.replace("{a} {b}", "a b")


def test_lone_braces_and_carets_read_back_exactly(tmp_path: Path) -> None:
    paper = Paper(make_paper_id(title="T"), "T } x {", ("Ada Lovelace",), "a } b")
    annotation = Annotation(paper.id, note="note { and ^^ smile")
    text = str(export_papers([(paper, annotation)], "bibtex"))
    result = read_papers(write(tmp_path, text))
    assert (result.records[0].title, result.records[0].abstract) == ("T } x {", "a } b")
    assert result.annotations[0].note == "note { and ^^ smile"


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("$\\Theta(n)$ bound", "$\\Theta(n)$ bound"),
        ("{\\textbf{A}}daptive", "{\\textbf{A}}daptive"),
        ('Schr\\"odinger and Caf\\\'e and \\"{o}', 'Schr\\"odinger and Caf\\\'e and \\"{o}'),
        ("$K^2$VAE", "$K^2$VAE"),
        ("\\input{x}", "\\textbackslash{}input\\{x\\}"),
        ("a \\write18{ls} b", "a \\textbackslash{}write18\\{ls\\} b"),
        ("$\\input x$", "\\$\\textbackslash{}input x\\$"),
        ("$a^^5c$", "\\$a\\textasciicircum{}\\textasciicircum{}5c\\$"),
        ("a } b", "a \\textbraceright{} b"),
        ("code at \\url{https://github.com/x}", "code at \\url{https://github.com/x}"),
        ("\\href{run:/bin/sh}{x}", "\\textbackslash{}href\\{run:/bin/sh\\}\\{x\\}"),
        ("\\{ only", "\\textbraceleft{} only"),
    ],
)
def test_escape_keeps_tex_and_defuses_commands(text: str, escaped: str) -> None:
    assert escape(text) == escaped


def test_authors_are_written_last_name_first(tmp_path: Path) -> None:
    authors = (
        "Dimitri von Rütte",
        "Joery de Vries",
        "Laurens van der Maaten",
        "Matthijs T. J. Spaan",
        "Martin Luther King Jr",
        "Plato",
        "bell hooks",
        "Smith, Jr.",
        "Barnes and Noble",
        "Tim Rocktäschel",
    )
    paper = Paper(make_paper_id(title="T"), "T", authors)
    text = str(export_papers([(paper, None)], "bibtex"))
    library = parse_string(text)
    assert library.entries[0]["author"] == (
        "von Rütte, Dimitri and de Vries, Joery and van der Maaten, Laurens and "
        "Spaan, Matthijs T. J. and King, Jr, Martin Luther and Plato and hooks, bell and "
        "{Smith, Jr.} and {Barnes and Noble} and Rocktäschel, Tim"
    )
    assert read_papers(write(tmp_path, text)).records[0].authors == authors


def test_link_fields_launch_nothing() -> None:
    paper = Paper(
        make_paper_id(title="T"), "T", url="javascript:alert(1)", doi="file:///etc/passwd"
    )
    ok = Paper(make_paper_id(title="U"), "U", url="https://icml.cc/x?a=1#b", doi="10.1/x")
    library = parse_string(str(export_papers([(paper, None), (ok, None)], "bibtex")))
    assert library.entries[0]["url"] == "javascript%3Aalert(1)"
    assert library.entries[0]["doi"] == "file%3A///etc/passwd"
    assert (library.entries[1]["url"], library.entries[1]["doi"]) == (ok.url, ok.doi)


_TEX_BITS = st.sampled_from(
    [
        "{",
        "}",
        "\\{",
        "\\}",
        "\\",
        "\\\\",
        "$",
        "$$",
        "^",
        "^^",
        "5c",
        "input",
        "\\input",
        "\\write18",
        "\\immediate",
        "\\csname",
        "\\def",
        "\\textbf",
        '\\"o',
        "\\href{run:x}",
        "\\url{https://e}",
        "@misc{x,",
        "@",
        ",",
        "=",
        "%",
        "&",
        "#",
        "_",
        "~",
        " ",
        "\n",
        "a",
        "and",
        "Ab",
        "\\begin{filecontents}",
        "\\end",
        '"',
    ]  # fmt: skip
)


@settings(max_examples=150, deadline=None, database=None)
@given(st.lists(_TEX_BITS, max_size=30).map("".join), st.lists(_TEX_BITS, max_size=8).map("".join))
def test_any_mix_of_tex_stays_in_its_field(text: str, short: str) -> None:
    hostile = Paper(
        "p1", f"T{short}", (f"A {short} B", short or "X"), text, short, 2024, text, doi=short
    )
    notes = Annotation(hostile.id, tags=(short or "t",), note=text)
    plain = Paper("p2", "Plain", ("Grace Hopper",), year=2020)
    exported = str(export_papers([(hostile, notes), (plain, None)], "bibtex"))
    assert len(_entries_as_bibtex_sees_them(exported)) == 3
    library = parse_string(exported)
    assert library.failed_blocks == [] and len(library.entries) == 2
    assert library.entries[1]["title"] == "Plain"
    for field in library.entries[0].fields:
        value = str(field.value)
        assert _raw_braces_balanced(value) and "^^" not in value, (field.key, value)
        assert not DANGEROUS & set(_words(value)), (field.key, value)
