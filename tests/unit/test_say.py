"""What the layers below the window say (reader.core.say) follows the user's language:
the store's problems, opening's messages, the query's reason, an import that fails, the
render's markers; English is said as before, and --json is the same in every language."""

from __future__ import annotations

import json

import pytest

from reader import cli_lang
from reader.core import say
from reader.core.query import parse
from reader.opening import open_library
from reader.render import abstract_html
from tests.helpers import po
from tests.helpers.libraries import own_file
from tests.unit.test_cli import listed

GARBAGE = b"garbage \x00\xff{ not json"


@pytest.fixture
def locale_env(monkeypatch):
    """No locale in the environment: the language is --lang's, else English."""
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(variable, raising=False)


@pytest.fixture
def damaged(run, library_dir):
    """A library (seeded, with a tag) whose annotations.json is then damaged, and a
    good backup of it taken before."""
    pid = listed(run)[0]["id"]
    run("tag", pid, "kept")
    run("backup")
    own_file(library_dir).write_bytes(GARBAGE)
    return library_dir


def test_a_damaged_file_is_told_in_chinese_on_the_command_line(run, damaged, locale_env):
    _, err = run("--lang", "zh_CN", "list")
    [aside] = own_file(damaged).parent.glob("annotations.json.damaged-*")
    [said] = [line for line in err.splitlines() if str(aside) in line]
    assert said.startswith(f"{own_file(damaged)}：不是有效的 JSON（")
    assert f"）。损坏的文件已保留为 {aside}。已恢复最新的完好备份 annotations-" in said
    assert said.endswith("）。") and "（备份于 " in said
    assert "Restored" not in err and "The damaged file" not in err


def test_a_damaged_file_is_told_in_english_as_before(run, damaged, locale_env):
    _, err = run("list")
    [aside] = own_file(damaged).parent.glob("annotations.json.damaged-*")
    [said] = [line for line in err.splitlines() if str(aside) in line]
    assert said.startswith(f"{own_file(damaged)}: not valid JSON (")
    assert f"). The damaged file was kept as {aside}. Restored the newest good backup, " in said
    assert said.endswith(").") and " (taken " in said


def test_json_is_the_same_in_both_languages_with_a_problem_told(run, damaged, locale_env):
    english, told_en = run("--lang", "en", "list", "--json")
    own_file(damaged).write_bytes(GARBAGE)  # (damaged again: told again)
    chinese, told_zh = run("--lang", "zh_CN", "list", "--json")
    assert english == chinese and json.loads(chinese)
    assert "The damaged file was kept as" in told_en and "损坏的文件已保留为" in told_zh


def test_the_query_reason_in_chinese(run, locale_env):
    _, err = run("--lang", "zh_CN", "list", "year:abc")
    assert err.splitlines()[-1] == "按普通词语搜索：year:abc 不是年份"
    _, err = run("list", "year:abc")
    assert err.splitlines()[-1] == "Searching plain words: year:abc is not a year"


def test_an_import_that_fails_says_why_in_chinese(run, tmp_path, locale_env):
    empty = tmp_path / "empty.json"
    empty.write_text("  \n", encoding="utf-8")
    _, err = run("--lang", "zh_CN", "import", str(empty), expect=2)
    assert err.splitlines()[-1] == "paper-reader: 错误：empty.json：文件是空的"
    _, err = run("import", str(empty), expect=2)
    assert err.splitlines()[-1] == "paper-reader: error: empty.json: the file is empty"


def test_reasons_said_after_a_switch_are_in_the_new_language():
    assert parse("a)").warning == "Searching plain words: unbalanced parenthesis"
    with cli_lang.speaking("zh_CN"):
        assert parse("a)").warning == "按普通词语搜索：括号不配对"
        assert parse("()").warning == "按普通词语搜索：表达式为空"
        assert parse('"a').warning == "按普通词语搜索：无法解读 '\"a'"
    assert parse("a)").warning == "Searching plain words: unbalanced parenthesis"


def test_the_shortened_marker_in_chinese():
    text = "word " * 100_000
    assert abstract_html(text).endswith(
        "<p><i>… (text shortened for display: 500,000 characters in total)</i></p>"
    )
    with cli_lang.speaking("zh_CN"):
        assert abstract_html(text).endswith("<p><i>…（显示时已截短：共 500,000 个字符）</i></p>")


def test_opening_a_read_only_library_says_so_in_chinese(run, library_dir, locale_env):
    listed(run)
    own_file(library_dir).parent.chmod(0o555)
    try:
        with cli_lang.speaking("zh_CN"):
            opened = open_library(library_dir)
    finally:
        own_file(library_dir).parent.chmod(0o755)
    assert opened.messages == [
        f"{own_file(library_dir).parent}：文件夹为只读。你可以阅读此文库，但修改不会被保存。"
    ]


def test_english_reads_no_catalogue(monkeypatch):
    """English is said as written: no file is read, gettext is not asked."""
    from reader import language

    monkeypatch.setattr(language, "locale_dir", lambda: pytest.fail("a catalogue was read"))
    assert language.catalogue("en") is None
    with cli_lang.speaking("en"):
        assert isinstance(say.current(), say.English)
        assert say.ngettext("{n} paper", "{n} papers", 1) == "{n} paper"


def test_the_catalogue_covers_the_layers_below_the_window():
    """The completeness tests (test_cli_lang.py) read these modules' messages too."""
    names = {path.relative_to(po.ROOT).as_posix() for path in po.SOURCES}
    for module in (
        "reader/opening.py",
        "reader/core/query.py",
        "reader/store/recovery.py",
        "reader/store/storage.py",
        "reader/store/files.py",
        "reader/formats/__init__.py",
        "reader/render/html.py",
        "reader/ui/single_instance.py",
    ):
        assert module in names
    ours = po.our_messages()
    assert ("{path}: the file is empty", None) in ours
    assert ("Searching plain words: {reason}", None) in ours


def test_calls_through_the_module_are_extracted(tmp_path):
    source = tmp_path / "m.py"
    source.write_text('x = say._("a {n}").format(n=1)\ny = say.ngettext("a", "b", n)\n', "utf-8")
    assert po.extract(source) == {("a {n}", None), ("a", "b")}
    source.write_text("x = say._(text)\n", encoding="utf-8")
    with pytest.raises(ValueError, match="literal"):
        po.extract(source)
