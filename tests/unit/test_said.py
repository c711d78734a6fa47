"""Why an import skipped a record, its notes, and the core's refusals (reader.core.say's
Said and SaidError) are told in the user's language where they are shown, and kept in
English where they are data: the import report's --json is the same bytes in every
language, and English output is as it was."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reader import cli_lang
from reader.cli import main
from reader.core import say
from reader.formats import FormatError, read_papers
from reader.opening import open_library
from tests.helpers import po

#: the records of the JSON list: the 3rd is not an object, the 4th has neither title nor
#: abstract, the 5th is the 1st again
ITEMS = [{"title": "One"}, {"title": "Two"}, 5, {"venue": "ICML"}, {"title": "One"}]
#: a CSV in Windows-1252 (an "é"), its 4th line a row without a title or an abstract
CSV = "title,abstract\nCafé study,An abstract\n  ,  \n;,\n".encode("cp1252")


@pytest.fixture
def locale_env(monkeypatch):
    """No locale in the environment: the language is --lang's, else English."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)


@pytest.fixture
def bad_files(tmp_path) -> list[Path]:
    listed = tmp_path / "list.json"
    listed.write_text(json.dumps(ITEMS), encoding="utf-8")
    table = tmp_path / "list.csv"
    table.write_bytes(CSV)
    return [listed, table]


def _import(capsys, folder: Path, *args: str) -> str:
    assert main(["--data-dir", str(folder), *args]) == 0
    return capsys.readouterr().out


def test_skipped_records_and_notes_are_told_in_chinese(run, bad_files, locale_env):
    out, _ = run("--lang", "zh_CN", "import", *map(str, bad_files))
    lines = out.splitlines()
    assert lines[0] == f"{bad_files[0]}、{bad_files[1]}：新增 3，更新 0，未变 0，跳过 4"
    assert lines[1:] == [
        "list.csv：不是 UTF-8：已按 Windows-1252 读取（推测的编码；请检查带重音的字母）",
        "  已跳过 第 3 项：不是对象，而是 int",
        "  已跳过 第 4 项：没有标题也没有摘要",
        "  已跳过 list.csv：第 4 行：论文需要标题、摘要或 ID",
        "  已跳过 论文 t-fe05bcdcdc：与本次导入中前面的 t-fe05bcdcdc 是同一篇论文（依据 id）",
    ]


def test_english_skip_reasons_are_as_before(run, bad_files, locale_env):
    out, _ = run("import", *map(str, bad_files))
    assert out.splitlines()[1:] == [
        "list.csv: not UTF-8: read as Windows-1252 (a guess; check accented letters)",
        "  skipped item 3: not an object but int",
        "  skipped item 4: no title and no abstract",
        "  skipped list.csv:line 4: a paper needs a title, an abstract or an id",
        "  skipped paper t-fe05bcdcdc: same paper as t-fe05bcdcdc (by id) earlier in this import",
    ]


def test_the_import_report_json_is_the_same_bytes_in_every_language(
    capsys, tmp_path, bad_files, locale_env
):
    paths = list(map(str, bad_files))
    english = _import(capsys, tmp_path / "en", "--lang", "en", "import", *paths, "--json")
    chinese = _import(capsys, tmp_path / "zh", "--lang", "zh_CN", "import", *paths, "--json")
    assert english.encode() == chinese.encode()
    report = json.loads(english)
    assert report["skipped"][0] == {"place": "item 3", "reason": "not an object but int"}
    assert report["skipped"][2] == {
        "place": "list.csv:line 4",
        "reason": "a paper needs a title, an abstract or an id",
    }
    assert report["notes"] == [
        "list.csv: not UTF-8: read as Windows-1252 (a guess; check accented letters)"
    ]


def test_a_file_with_no_usable_record_names_the_first_in_chinese(tmp_path):
    source = tmp_path / "bad.json"
    source.write_text(json.dumps([5, {"venue": "x"}]), encoding="utf-8")
    with cli_lang.speaking("zh_CN"), pytest.raises(FormatError) as info:
        read_papers(source)
    assert str(info.value) == (
        "bad.json：按 JSON 格式没有找到论文："
        "第 1 项：不是对象，而是 int；第 2 项：没有标题也没有摘要"
    )


def test_an_annotation_over_the_limit_is_skipped_with_a_chinese_reason(tmp_path, capsys):
    source = tmp_path / "export.json"
    papers = [{"id": "p1", "title": "A paper"}]
    notes = [{"paper_id": "p1", "note": "x" * 1_000_001}]
    source.write_text(
        json.dumps(
            {"format": "paper-reader", "version": 1, "papers": papers, "annotations": notes}
        ),
        encoding="utf-8",
    )
    out = _import(capsys, tmp_path / "lib", "--lang", "zh_CN", "import", str(source))
    assert out.splitlines()[-1] == (
        "  已跳过 论文 p1 的批注：文本有 1,000,001 个字符，超过了 1,000,000 的上限；"
        "论文已导入，但不含这些批注"
    )


# -- Said and SaidError -------------------------------------------------------------------


def test_a_said_is_english_as_str_and_told_in_the_language_in_use():
    place = say.Said("item {number}", number=3)
    why = say.Said("unreadable paper: {error}", error=say.Said("empty {key}", key="id"))
    many = say.Said(
        "{count:,} number of over {limit:,} digits read as empty",
        "{count:,} numbers of over {limit:,} digits read as empty",
        count=2,
        limit=4300,
    )
    assert (str(place), str(why)) == ("item 3", "unreadable paper: empty id")
    assert str(many) == "2 numbers of over 4,300 digits read as empty"
    assert place.told() == "item 3"
    with cli_lang.speaking("zh_CN"):
        assert (place.told(), why.told()) == ("第 3 项", "无法读取的论文：id 为空")
        assert many.told() == "2 个超过 4,300 位的数字按空值读取"
        assert str(why) == "unreadable paper: empty id"  # str() stays English


def test_a_core_refusal_is_a_value_error_english_as_str_told_in_chinese(tmp_path):
    lib = open_library(tmp_path / "lib").library
    with pytest.raises(ValueError, match="^a tag needs a name$") as info:
        lib.rename_tag("x", "///")
    with cli_lang.speaking("zh_CN"):
        assert say.told(info.value) == "标签需要名称"
        assert str(info.value) == "a tag needs a name"
        assert say.told(OSError("disk")) == "disk"  # an error not ours: as it says


def test_the_note_limit_on_the_command_line_in_chinese(run, locale_env):
    pid = json.loads(run("list", "--json").out)[0]["id"]
    _, err = run("--lang", "zh_CN", "note", pid, "--set", "x" * 1_000_001, expect=2)
    assert err.splitlines()[-1] == (
        "paper-reader: 错误：笔记未保存：文本有 1,000,001 个字符，超过了 1,000,000 的上限"
    )


# -- the catalogue covers them ------------------------------------------------------------


def test_the_completeness_test_reads_the_said_messages():
    ours = po.our_messages()
    for message in (
        ("item {number}", None),
        ("{name}:line {line}", None),
        ("not an object but {type}", None),
        ("same paper as {id} (by {how}) earlier in this import", None),
        ("a tag needs a name", None),
        ("text of {count:,} characters is over the limit of {limit:,}", None),
        ("{error}; the paper is imported without them", None),
        (
            "{count:,} number of over {limit:,} digits read as empty",
            "{count:,} numbers of over {limit:,} digits read as empty",
        ),
    ):
        assert message in ours, message


def test_a_said_of_no_literal_cannot_be_extracted(tmp_path):
    source = tmp_path / "m.py"
    source.write_text("from reader.core import say\nsay.Said(text, n=1)\n", encoding="utf-8")
    with pytest.raises(ValueError, match="literal"):
        po.extract(source)
    source.write_text('raise say.SaidError("a {x}", "the {x}s", x=2)\n', encoding="utf-8")
    assert po.extract(source) == {("a {x}", "the {x}s")}
