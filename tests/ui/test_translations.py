"""The catalogues: every string of the window in them and translated, the compiled ones
made from them, plural forms and arguments right in English and Chinese."""

from __future__ import annotations

import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from reader.ui import i18n

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "resources" / "translations"
BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    found = BIN / name
    if not found.exists():
        found = Path(shutil.which(name) or name)
    return str(found)


def _messages(ts: Path) -> dict[tuple[str, str, str], ET.Element]:
    """(context, source, disambiguation) -> the <message> of a .ts file."""
    out = {}
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            key = (name, message.findtext("source") or "", message.findtext("comment") or "")
            out[key] = message
    return out


def _lupdate(ts: Path, language: str, *extra: str) -> None:
    subprocess.run(
        [
            _tool("pyside6-lupdate"),
            "-silent",
            "-extensions",
            "py",
            "-no-obsolete",
            "-locations",
            "none",
            "-target-language",
            language,
            *extra,
            str(ROOT / "reader"),
            "-ts",
            str(ts),
        ],
        check=True,
        capture_output=True,
    )


@pytest.mark.parametrize(
    ("language", "extra"), [("zh_CN", ()), ("en", ("-pluralonly",))], ids=["zh_CN", "en"]
)
def test_every_string_of_the_sources_is_in_the_catalogue_and_translated(tmp_path, language, extra):
    """lupdate over reader/ finds nothing the committed .ts lacks, nothing it holds
    that the sources no longer say, and nothing left unfinished (the English catalogue
    holds the plural forms only: the sources are English)."""
    committed = TRANSLATIONS / f"paper_reader_{language}.ts"
    updated = tmp_path / committed.name
    shutil.copy(committed, updated)
    _lupdate(updated, language, *extra)
    before, after = _messages(committed), _messages(updated)
    assert sorted(set(after) - set(before)) == [], "new strings: run lupdate, translate them"
    assert sorted(set(before) - set(after)) == [], "strings the sources no longer have"
    unfinished = [
        key
        for key, message in after.items()
        if (message.find("translation").get("type") or "") in ("unfinished", "vanished")
        or not "".join(message.find("translation").itertext()).strip()
    ]
    assert unfinished == []
    if language == "en":
        forms = [m.findall("translation/numerusform") for m in after.values()]
        assert forms and all(len(f) == 2 for f in forms)  # one, many
    if language == "zh_CN":
        assert len(after) > 300  # (the whole window: a catalogue of a few would pass too)


@pytest.mark.parametrize("language", ["zh_CN", "en"])
def test_the_compiled_catalogue_is_made_from_its_source(tmp_path, language):
    made = tmp_path / f"paper_reader_{language}.qm"
    subprocess.run(
        [
            _tool("pyside6-lrelease"),
            "-silent",
            str(TRANSLATIONS / f"paper_reader_{language}.ts"),
            "-qm",
            str(made),
        ],
        check=True,
        capture_output=True,
    )
    assert made.read_bytes() == (TRANSLATIONS / made.name).read_bytes()


@pytest.fixture
def english_after(qapp):
    yield
    i18n.use("en")


def test_qt_own_strings_are_chinese_with_ours(qapp, english_after):
    from PySide6.QtCore import QCoreApplication

    i18n.use("zh_CN")
    assert i18n.qt_catalogue("zh_CN").is_file()
    # a standard button of Qt's own (QPlatformTheme's), not ours
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "取消"
    i18n.use("en")
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "Cancel"


def test_plural_forms_and_arguments_in_both_languages(qapp, english_after):
    counted = i18n.Counted()
    i18n.use("en")
    assert counted.exported(1) == "Exported 1 paper to %1"
    assert i18n.fill(counted.exported(1_234), "x.bib") == "Exported 1,234 papers to x.bib"
    assert counted.copied_bibtex(1) == "Copied 1 BibTeX entry"
    assert counted.copied_bibtex(2) == "Copied 2 BibTeX entries"
    assert i18n.fill(counted.mark_papers(1, "read")) == "Mark paper read"
    assert counted.mark_papers(3, "read") == "Mark 3 papers read"
    i18n.use("zh_CN")
    assert i18n.fill(counted.exported(1), "x.bib") == "已将 1 篇论文导出到 x.bib"
    assert i18n.fill(counted.exported(1_234), "x.bib") == "已将 1,234 篇论文导出到 x.bib"
    assert counted.mark_papers(3, "已读") == "将 3 篇论文标为已读"


def test_fill_is_one_pass():
    """A value holding %2 is not filled again (a tag may be called "%2")."""
    assert i18n.fill("%1 and %2", "%2", "b") == "%2 and b"
    assert i18n.fill("“%1” exists. Merge “%2”?", "a", "%1") == "“a” exists. Merge “%1”?"
