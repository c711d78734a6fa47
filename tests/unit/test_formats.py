"""reader.formats: detection, decoding, errors, and a hostile corpus against every importer."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reader.formats import (
    EXPORT_FORMATS,
    FORMATS,
    IMPORT_FORMATS,
    FormatError,
    ReadResult,
    detect_format,
    export_papers,
    read_papers,
)

FUZZ = settings(
    max_examples=60,
    deadline=None,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def write(tmp_path: Path, name: str, data: bytes | str) -> Path:
    path = tmp_path / name
    path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)
    return path


# --- the catalogue of formats ---------------------------------------------------------------


def test_formats_catalogue() -> None:
    assert IMPORT_FORMATS == ("text", "json", "bibtex", "ris", "csv")
    assert EXPORT_FORMATS == ("json", "bibtex", "csv", "markdown")
    assert FORMATS["bibtex"].extensions == (".bib", ".bibtex")


@pytest.mark.parametrize(
    ("name", "head", "expected"),
    [
        ("x.txt", b"ICML 2025\n\nAbstract one.", "text"),
        ("x.dat", b'[{"title": "A"}]', "json"),
        ("x.txt", b'\xef\xbb\xbf{"papers": []}', "json"),
        ("x.json", b"not json at all", "json"),
        ("refs.txt", b"% comment\n@article{a,\n title={A}}", "bibtex"),
        ("x.bib", b"% only a comment", "bibtex"),
        ("x", b"TY  - JOUR\nTI  - A\nER  - \n", "ris"),
        ("x.ris", b"\r\n", "ris"),
        ("x.csv", b"a,b\n1,2\n", "csv"),
        ("export", b"Title,Authors,Year\nA,B,2020\n", "csv"),
        ("x.TSV", b"title\tabstract\n", "csv"),
        ("notes", b"[1] A reference list line", "text"),
        ("list.txt", b'"Title";"Authors"\r\nA;B\r\n', "csv"),
        ("list.txt", b"Accepted papers, with title and abstract\n\nText.", "text"),
    ],
)
def test_detect_format(name: str, head: bytes, expected: str) -> None:
    assert detect_format(Path(name), head) == expected


# --- errors: one line naming the file -------------------------------------------------------


def test_missing_file(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match=r"nothere\.json: cannot read"):
        read_papers(tmp_path / "nothere.json")


def test_directory(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="cannot read"):
        read_papers(tmp_path)


@pytest.mark.parametrize("content", [b"", b"   \n\n\t", b"\xef\xbb\xbf"])
def test_empty_file(tmp_path: Path, content: bytes) -> None:
    with pytest.raises(FormatError, match=r"empty\.txt: the file is empty"):
        read_papers(write(tmp_path, "empty.txt", content))


def test_unknown_format_name(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="cannot import format 'xml'"):
        read_papers(write(tmp_path, "a.txt", "x" * 50), "xml")


def test_random_bytes_are_refused(tmp_path: Path) -> None:
    data = random.Random(2025).randbytes(64 * 1024)
    path = write(tmp_path, "blob.bin", data)
    for fmt in (None, *IMPORT_FORMATS):
        with pytest.raises(FormatError, match=r"blob\.bin: .*(NUL|binary)") as info:
            read_papers(path, fmt)
        assert "\n" not in str(info.value)


def test_nul_byte_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "nul.json", b'[{"title": "A\x00B"}]')
    with pytest.raises(FormatError, match="NUL"):
        read_papers(path)


def test_control_characters_mean_binary(tmp_path: Path) -> None:
    path = write(tmp_path, "ctl.txt", bytes(range(1, 9)) * 200)
    with pytest.raises(FormatError, match="looks binary"):
        read_papers(path)


# --- decoding -------------------------------------------------------------------------------

ABSTRACT = "We study naïve Bayes for café menus and report a 12% gain over prior work in tests."


@pytest.mark.parametrize(
    ("data", "encoding"),
    [
        (ABSTRACT.encode("utf-8"), "utf-8"),
        (b"\xef\xbb\xbf" + ABSTRACT.encode("utf-8"), "utf-8-sig"),
        (ABSTRACT.encode("utf-16"), "utf-16"),
        (ABSTRACT.replace("gain", "gain \u2013").encode("cp1252"), "cp1252"),
        (ABSTRACT.encode("latin-1") + b" \x81", "latin-1"),
    ],
)
def test_encodings_are_detected_and_reported(tmp_path: Path, data: bytes, encoding: str) -> None:
    result = read_papers(write(tmp_path, "list.txt", data), "text")
    assert result.encoding == encoding
    assert "naïve Bayes for café" in result.records[0].abstract
    guessed = [w for w in result.warnings if "not UTF-8" in str(w.reason)]
    assert bool(guessed) == (encoding in ("cp1252", "latin-1"))


def test_windows_line_endings(tmp_path: Path) -> None:
    text = "Heading\r\n\r\n" + ABSTRACT + "\r\n\r\n" + ABSTRACT.replace("café", "bar") + "\r\n"
    result = read_papers(write(tmp_path, "crlf.txt", text))
    assert [p.abstract for p in result.records] == [ABSTRACT, ABSTRACT.replace("café", "bar")]


def test_utf8_cut_inside_last_character(tmp_path: Path) -> None:
    data = (ABSTRACT + " ü").encode("utf-8")[:-1]
    result = read_papers(write(tmp_path, "cut.txt", data))
    assert result.encoding == "utf-8"
    assert result.records[0].abstract.endswith("\ufffd")
    assert [str(w.reason) for w in result.warnings] == ["file ends mid-character"]


def test_mostly_utf8_with_a_stray_byte_stays_utf8(tmp_path: Path) -> None:
    data = ((ABSTRACT + "\n\n") * 3).encode("utf-8").replace(b"12%", b"12\xb0", 1)
    result = read_papers(write(tmp_path, "stray.txt", data))
    assert result.encoding == "utf-8"
    assert "naïve Bayes for café" in result.records[0].abstract
    assert "12\ufffd gain" in result.records[0].abstract
    assert str(result.warnings[0].reason).startswith("1 invalid UTF-8 byte sequence(s) replaced")


# --- export dispatch ------------------------------------------------------------------------


def test_export_unknown_format() -> None:
    with pytest.raises(ValueError, match="cannot export as 'ris'"):
        export_papers([], "ris")


def test_export_empty_selection() -> None:
    assert json.loads(str(export_papers([], "json")))["papers"] == []
    assert export_papers([], "markdown") == {}
    assert str(export_papers([], "csv")).startswith("title,authors")


# --- fuzz: random bytes give a ReadResult or a FormatError, nothing else ----------------------


@FUZZ
@given(data=st.binary(max_size=2000), fmt=st.sampled_from([None, *IMPORT_FORMATS]))
def test_random_bytes_never_crash(tmp_path: Path, data: bytes, fmt: str | None) -> None:
    path = write(tmp_path, "fuzz.dat", data)
    try:
        result = read_papers(path, fmt)
    except FormatError as exc:
        assert "\n" not in str(exc)
    else:
        assert isinstance(result, ReadResult)


_SYNTAX = st.sampled_from(
    [
        "{",
        "}",
        "[",
        "]",
        '"',
        ",",
        ":",
        "@article{",
        "TY  - ",
        "ER  - ",
        "AU  - ",
        "=",
        "\n",
        "\n\n",
        "title",
        "abstract",
        "\\",
        "$",
        "%",
        "NaN",
        "null",
        ";",
        "\t",
        "\r\n",
        "é",
        "\ud800",
    ]
)


@FUZZ
@given(parts=st.lists(st.one_of(_SYNTAX, st.text(max_size=12)), max_size=60))
def test_syntax_soup_never_crashes(tmp_path: Path, parts: list[str]) -> None:
    data = "".join(parts).encode("utf-8", "surrogatepass")
    for fmt in IMPORT_FORMATS:
        try:
            result = read_papers(write(tmp_path, "soup.dat", data), fmt)
        except FormatError:
            continue
        for paper in result.records:
            for value in (paper.title, paper.abstract, *paper.authors):
                value.encode("utf-8")  # never a lone surrogate
