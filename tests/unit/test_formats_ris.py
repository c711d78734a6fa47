"""RIS import: a reference manager's export of ICML 2025 papers, and broken files."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader.core.normalise import make_paper_id
from reader.formats import FormatError, detect_format, read_papers

SAMPLE = Path(__file__).resolve().parents[1] / "data" / "formats" / "icml2025_sample.ris"


def write(tmp_path: Path, text: str, name: str = "refs.ris") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_sample_golden() -> None:
    assert SAMPLE.read_bytes().startswith(b"\xef\xbb\xbfTY  - CONF\r\n")  # BOM, CRLF
    result = read_papers(SAMPLE)
    assert (result.format, result.encoding) == ("ris", "utf-8-sig")
    assert (result.skipped, result.warnings) == ([], [])
    erwin, stochastic, judge = result.records

    assert erwin.title == (
        "Erwin: A Tree-based Hierarchical Transformer for Large-scale Physical Systems"
    )
    assert erwin.authors == ("Maksim Zhdanov", "Max Welling", "Jan-Willem van de Meent")
    assert erwin.abstract.startswith("Large-scale physical systems defined on irregular grids")
    assert "  " not in erwin.abstract and "\n" not in erwin.abstract  # wrapped lines joined
    assert erwin.venue == "Proceedings of the 42nd International Conference on Machine Learning"
    assert (erwin.year, erwin.url) == (2025, "https://icml.cc/virtual/2025/poster/45529")
    assert erwin.id == make_paper_id(title=erwin.title)

    # The variant tags: T1, A1, N2, Y1, JO.
    assert stochastic.title == "Stochastic Encodings for Active Feature Acquistion"
    assert stochastic.authors[-2:] == ("M van der Schaar", "Pietro Lió")
    assert stochastic.abstract.startswith("Active Feature Acquisition is an instance-wise")
    assert (stochastic.year, stochastic.venue) == (2025, "ICML 2025")

    assert judge.authors == ("Yi Xu", "Laura Ruis", "Tim Rocktäschel", "Robert Kirk")
    assert judge.abstract == ""


def test_missing_end_record(tmp_path: Path) -> None:
    text = (
        "TY  - CONF\nTI  - Complete one\nER  - \n\n"
        "TY  - CONF\nTI  - Never ended\n"
        "TY  - JOUR\nTI  - Last and truncated\nAB  - Half an abs"
    )
    result = read_papers(write(tmp_path, text))
    assert [p.title for p in result.records] == ["Complete one"]
    assert [(str(s.place), str(s.reason)) for s in result.skipped] == [
        ("refs.ris:line 5", "record has no end line (ER) before the next TY"),
        ("refs.ris:line 7", "record has no end line (ER): file truncated?"),
    ]


def test_only_unterminated_records(tmp_path: Path) -> None:
    path = write(tmp_path, "TY  - JOUR\nTI  - A\n" * 3, "noend.ris")
    with pytest.raises(FormatError, match=r"noend\.ris: no papers found as RIS: .*line 1"):
        read_papers(path)


def test_huge_record_without_end_does_not_hang(tmp_path: Path) -> None:
    text = "TY  - JOUR\nTI  - Big\nAB  - " + "word " * 200_000 + "\n" + "KW  - x\n" * 50_000
    with pytest.raises(FormatError, match="no end line"):
        read_papers(write(tmp_path, text, "big.ris"))


def test_lenient_tags_and_records_without_title(tmp_path: Path) -> None:
    text = (
        "TY - JOUR\nTI - Single space dash\nAU - Smith, John\nPY - 2021///\nER -\n"
        "TY  - JOUR\nAU  - Nobody, A.\nER  - \n"
        "TY  - JOUR\nAB  - An abstract only record. It still counts.\nER  - \n"
    )
    result = read_papers(write(tmp_path, text))
    assert [p.title for p in result.records] == ["Single space dash", "An abstract only record"]
    assert result.records[0].authors == ("John Smith",)
    assert result.records[0].year == 2021
    assert result.records[1].title_derived
    assert [(str(s.place), str(s.reason)) for s in result.skipped] == [
        ("refs.ris:line 6", "no title and no abstract")
    ]


def test_text_before_the_first_record_and_detection(tmp_path: Path) -> None:
    text = "Exported by Zotero\n\nTY  - CONF\nTI  - A\nDO  - 10.1000/abc\nER  - \n"
    path = write(tmp_path, text, "export.txt")
    assert detect_format(path, text.encode()) == "ris"
    (paper,) = read_papers(path).records
    assert paper.doi == "10.1000/abc"
    assert paper.id == make_paper_id(doi="10.1000/abc")
