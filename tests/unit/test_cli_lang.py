"""The command line speaks the user's language: --lang, else the library's remembered
choice (window.ini), else the environment's locale; English by default. --json output is
the same in every language."""

from __future__ import annotations

import argparse
import gettext
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from reader import cli_lang
from reader.language import LANGUAGE_KEY
from tests.helpers import po
from tests.unit.test_cli import listed

LOCALE_VARIABLES = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


@pytest.fixture
def locale_env(monkeypatch):
    """Set the environment's locale: locale_env(LANG="zh_CN.UTF-8"); none set at first."""
    for variable in LOCALE_VARIABLES:
        monkeypatch.delenv(variable, raising=False)

    def setenv(**values: str) -> None:
        for name, value in values.items():
            monkeypatch.setenv(name, value)

    return setenv


def remember(folder: Path, code: str) -> None:
    """What View -> Language writes (QSettings: [General] for a key outside a group)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "window.ini").write_text(
        f"[General]\n{LANGUAGE_KEY}={code}\n\n[window]\nzoom=1\n", encoding="utf-8"
    )


# -- which language ------------------------------------------------------------------


def test_english_by_default(run, locale_env):
    _, err = run("show", "no-such-id", expect=2)
    assert err.splitlines()[-1] == "paper-reader: error: no paper with id 'no-such-id'"


def test_lang_option_speaks_chinese(run, locale_env):
    _, err = run("--lang", "zh_CN", "show", "no-such-id", expect=2)
    assert err.splitlines()[-1] == "paper-reader: 错误：没有 id 为 'no-such-id' 的论文"
    # after the sub-command too, and in any spelling of the locale
    _, err = run("show", "no-such-id", "--lang", "zh-Hans", expect=2)
    assert "没有 id 为 'no-such-id' 的论文" in err


def test_environment_locale_speaks_chinese(run, locale_env):
    locale_env(LANG="zh_CN.UTF-8")
    _, err = run("show", "no-such-id", expect=2)
    assert "没有 id 为 'no-such-id' 的论文" in err
    # --lang comes first
    _, err = run("--lang", "en", "show", "no-such-id", expect=2)
    assert err.splitlines()[-1] == "paper-reader: error: no paper with id 'no-such-id'"


def test_real_program_follows_lang_environment_variable(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in LOCALE_VARIABLES}
    env.update(READER_DATA_DIR=str(tmp_path / "lib"), LANG="zh_CN.UTF-8")
    done = subprocess.run(
        [sys.executable, "-m", "reader", "status", "zzz", "read"],
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
    )
    assert done.returncode == 2
    assert done.stderr.splitlines()[-1] == "paper-reader: 错误：没有 id 为 'zzz' 的论文"
    env["LANG"] = "C.UTF-8"
    done = subprocess.run(
        [sys.executable, "-m", "reader", "status", "zzz", "read"],
        env=env,
        capture_output=True,
        text=True,
        encoding="utf-8",
    )
    assert done.stderr.splitlines()[-1] == "paper-reader: error: no paper with id 'zzz'"


def test_remembered_choice_of_the_library_is_honoured(run, library_dir, locale_env):
    locale_env(LANG="en_US.UTF-8")
    remember(library_dir, "zh_CN")
    _, err = run("show", "no-such-id", expect=2)
    assert "没有 id 为 'no-such-id' 的论文" in err
    # before the environment's, after --lang
    _, err = run("--lang", "en", "show", "no-such-id", expect=2)
    assert "no paper with id" in err
    locale_env(LANG="zh_CN.UTF-8")
    remember(library_dir, "en")
    _, err = run("show", "no-such-id", expect=2)
    assert "no paper with id" in err
    # "" = follow the system
    remember(library_dir, "")
    _, err = run("show", "no-such-id", expect=2)
    assert "没有 id 为 'no-such-id' 的论文" in err


def test_unknown_language_is_a_usage_error_naming_the_supported_ones(run, locale_env):
    _, err = run("--lang", "fr_FR", "list", expect=2)
    assert err.startswith("usage: paper-reader")
    assert (
        "argument --lang: unknown language 'fr_FR' (supported: en (English), zh_CN (简体中文))"
        in err
    )
    locale_env(LANG="zh_CN.UTF-8")
    _, err = run("--lang", "klingon", "list", expect=2)
    assert err.startswith("用法：paper-reader")
    assert "未知的语言 'klingon'（支持：en (English), zh_CN (简体中文)）" in err


# -- what is said ---------------------------------------------------------------------


def help_of(capsys, *args: str) -> str:
    from reader.cli import main

    with pytest.raises(SystemExit) as info:
        main([*args, "--help"])
    assert info.value.code == 0
    return capsys.readouterr().out


def test_help_in_chinese(capsys, locale_env):
    out = help_of(capsys, "--lang", "zh_CN")
    assert out.startswith("用法：paper-reader")
    assert "显示此帮助信息并退出" in out  # argparse's own
    assert "列出匹配的论文：id、阅读状态、标签、标题" in out  # ours
    assert "help" not in out.replace("--help", "")
    out = help_of(capsys, "--lang", "zh_CN", "note")
    assert "设置论文的 Markdown 笔记" in out and "在 $EDITOR 中编辑" in out
    english = help_of(capsys, "--lang", "en")
    assert english.startswith("usage: paper-reader") and "show this help message" in english


def test_usage_errors_in_chinese(run, locale_env):
    _, err = run("--lang", "zh_CN", "status", expect=2)
    assert err.startswith("用法：paper-reader status")
    assert err.rstrip().endswith("错误：缺少以下必需的参数：id, status")
    _, err = run("--lang", "zh_CN", "export", "--format", "docx", expect=2)
    assert "无效的选择：'docx'" in err


def test_plural_and_arguments_in_both_languages(run, locale_env):
    a, b, c = (p["id"] for p in listed(run)[:3])
    out, _ = run("delete", a)
    assert out == "moved 1 paper to the trash (trash --restore ID... puts it back)\n"
    out, _ = run("delete", b, c)
    assert out == "moved 2 papers to the trash (trash --restore ID... puts them back)\n"
    out, _ = run("--lang", "zh_CN", "trash", "--restore", a)
    assert out == "已放回 1 篇论文\n"
    out, _ = run("--lang", "zh_CN", "trash", "--restore", b, c)
    assert out == "已放回 2 篇论文\n"
    out, _ = run("--lang", "zh_CN", "note", a, "--set", "读")
    assert out == f"{a}：笔记已保存（1 个字符）\n"
    out, _ = run("note", a, "--set", "x")
    assert out == f"{a}: note saved (1 character)\n"
    out, _ = run("note", a, "--set", "x" * 1234)
    assert out == f"{a}: note saved (1,234 characters)\n"


def test_reading_status_and_report_in_chinese(run, locale_env):
    pid = listed(run)[0]["id"]
    out, _ = run("--lang", "zh_CN", "status", pid, "reading")
    assert out == f"{pid}: 在读\n"
    out, _ = run("--lang", "zh_CN", "show", pid)
    assert f"id：{pid}    阅读状态：在读    标签：-" in out
    out, _ = run("--lang", "zh_CN", "list")
    assert f"{pid}\t在读\t" in out
    out, _ = run("show", pid)
    assert f"id: {pid}    reading status: reading    tags: -" in out


@pytest.mark.parametrize(
    "command",
    [
        ("list", "--json"),
        ("list", "diffusion", "--json"),
        ("show", "{pid}", "--json"),
        ("trash", "--json"),
        ("duplicates", "--json"),
        ("restore", "--json"),
        ("rank", "--like", "{pid}", "--limit", "3", "--json"),
    ],
)
def test_json_is_the_same_in_every_language(run, command, locale_env):
    pid = listed(run)[0]["id"]
    run("tag", pid, "标签", "x")
    run("status", pid, "reading")
    run("delete", listed(run)[-1]["id"])
    argv = [part.format(pid=pid) for part in command]
    english, _ = run("--lang", "en", *argv)
    chinese, _ = run("--lang", "zh_CN", *argv)
    assert english == chinese
    assert json.loads(english) is not None


def test_import_report_json_is_the_same_in_every_language(run, tmp_path, locale_env):
    source = tmp_path / "list.json"
    source.write_text(json.dumps([{"title": "One"}, {"title": "Two"}, 5]), encoding="utf-8")
    english, _ = run("--lang", "en", "import", str(source), "--json")
    chinese, _ = run("--lang", "zh_CN", "import", str(source), "--json")
    first = json.loads(english)
    assert first["added"] == 2 and first["skipped"]
    second = json.loads(chinese)
    assert second["added"] == 0 and second["unchanged"] == 2
    # the same bytes for the same report
    assert json.dumps({**first, "added": 0, "unchanged": 2}, ensure_ascii=False, indent=2) == (
        chinese.rstrip("\n")
    )


def test_import_report_text_in_chinese(run, tmp_path, locale_env):
    source = tmp_path / "list.json"
    source.write_text(json.dumps([{"title": "One"}, {"title": "Two"}]), encoding="utf-8")
    out, _ = run("--lang", "zh_CN", "import", str(source))
    assert out.startswith(f"{source}：新增 2，更新 0，未变 0，跳过 0")


def test_platform_messages_in_chinese():
    from reader.platform_check import missing_message, no_display_message

    with cli_lang.speaking("zh_CN"):
        assert no_display_message({}).startswith(
            "paper-reader: 没有可以打开窗口的显示器（DISPLAY 和 WAYLAND_DISPLAY 都未设置）"
        )
        line = missing_message(["libxcb-icccm.so.4"])
        assert line == (
            "paper-reader: 窗口所需的系统库缺失：libxcb-icccm.so.4。"
            "安装命令：sudo apt-get install libxcb-icccm4"
        )


def test_the_window_is_given_the_lang(monkeypatch, library_dir, locale_env):
    """`paper-reader --lang zh_CN` hands the language to the window (which applies it)."""
    import reader.platform_check
    import reader.ui.app
    from reader.cli import main

    given = []
    monkeypatch.setattr(reader.platform_check, "check", lambda: None)
    monkeypatch.setattr(reader.ui.app, "run", lambda folder, lang=None: given.append(lang) or 0)
    assert main(["--data-dir", str(library_dir), "--lang", "zh-CN"]) == 0
    assert main(["--data-dir", str(library_dir)]) == 0
    assert given == ["zh_CN", None]


def test_gettext_and_the_environment_are_left_as_they_were(run, locale_env, monkeypatch):
    monkeypatch.setenv("LANGUAGE", "en_GB:en")
    domain = gettext.textdomain()
    run("--lang", "zh_CN", "show", "nope", expect=2)
    assert gettext.textdomain() == domain and os.environ["LANGUAGE"] == "en_GB:en"
    monkeypatch.delenv("LANGUAGE")
    with cli_lang.speaking("zh_CN"):
        assert os.environ["LANGUAGE"] == "zh_CN"  # (argparse's messages: gettext's)
        assert argparse.ArgumentParser(prog="x").format_usage().startswith("用法")
    assert "LANGUAGE" not in os.environ and gettext.textdomain() == domain
    assert argparse.ArgumentParser(prog="x").format_usage().startswith("usage: x")
    assert cli_lang._("print JSON") == "print JSON"
    with cli_lang.speaking("en"):  # English reads no catalogue and changes nothing
        assert gettext.textdomain() == domain and "LANGUAGE" not in os.environ
        assert type(cli_lang._current) is gettext.NullTranslations


def test_a_missing_catalogue_says_so_and_speaks_english(monkeypatch, capsys):
    monkeypatch.setattr(cli_lang, "LOCALE_FOLDER", "no-such-folder")
    with cli_lang.speaking("zh_CN"):
        assert cli_lang._("print JSON") == "print JSON"
    assert "no zh_CN translation" in capsys.readouterr().err


# -- the catalogue ------------------------------------------------------------------------


def _placeholders(text: str) -> list[str]:
    """The {fields} and %-conversions of a message, in order of appearance of each."""
    fields = re.findall(r"\{[^{}]*\}", text)
    percents = re.findall(r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[a-z%]", text)
    return sorted(fields) + sorted(percents)


def test_every_message_is_in_the_catalogue_translated():
    entries = {e.key: e for e in po.read_po() if e.msgid}
    wanted = po.our_messages() | po.argparse_messages()
    missing = sorted(key for key in wanted if key not in entries)
    assert not missing, f"not in {po.PO.name}: {missing}"
    untranslated = sorted(key for key in wanted if not entries[key].translated)
    assert not untranslated, f"untranslated in {po.PO.name}: {untranslated}"
    for key in wanted:
        for text in entries[key].msgstr:
            assert _placeholders(text) == _placeholders(key[0]), (key, text)
            assert text != key[0] or key[0] in ("%(heading)s:",), key


def test_the_catalogue_holds_no_forgotten_message():
    ours = po.our_messages()
    stale = [
        e.key
        for e in po.read_po()
        if e.msgid and po.ARGPARSE_REF not in e.refs and e.key not in ours
    ]
    assert not stale, f"in {po.PO.name} but no longer in the source: {stale}"


def test_the_compiled_catalogue_is_the_po():
    assert po.MO.read_bytes() == po.compile_mo(), "run `make translations`"


def test_compiled_catalogue_reads_as_gettext_does():
    """compile_mo() writes what gettext reads: plural forms, the header's charset."""
    with open(po.MO, "rb") as file:
        catalogue = gettext.GNUTranslations(file)
    assert catalogue.info()["language"] == "zh_CN"
    assert catalogue.gettext("print JSON") == "输出 JSON"
    for n in (0, 1, 2, 21):
        text = catalogue.ngettext("put back {count:,} paper", "put back {count:,} papers", n)
        assert text == "已放回 {count:,} 篇论文"
    assert catalogue.gettext("not a message") == "not a message"


def test_the_catalogue_ships_with_the_package():
    from reader.paths import package_folder

    folder = package_folder("reader.resources", "resources")
    assert (folder / po.MO.relative_to(po.ROOT / "resources")).is_file()
    text = Path(po.ROOT / "pyproject.toml").read_text("utf-8")
    assert '"locale/*/LC_MESSAGES/*.mo"' in text


def test_extraction_refuses_what_it_cannot_read(tmp_path):
    source = tmp_path / "m.py"
    source.write_text('x = _("a " + name)\n', encoding="utf-8")
    with pytest.raises(ValueError, match="literal"):
        po.extract(source)
    source.write_text('x = _("a {n}").format(n=1)\ny = ngettext("a", "b", n)\n', "utf-8")
    assert po.extract(source) == {("a {n}", None), ("a", "b")}


def _columns(line: str) -> int:
    """The width of `line` in a terminal: East Asian wide and full-width characters
    take two columns."""
    import unicodedata

    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in line)


@pytest.mark.parametrize("width", [80, 120])
def test_chinese_help_fits_the_terminal(capsys, monkeypatch, locale_env, width):
    from reader import cli, cli_backup, cli_cite, cli_hygiene, cli_rank, cli_transfer

    monkeypatch.setenv("COLUMNS", str(width))
    commands = [None, *cli_rank.STANDALONE]
    for module in (cli, cli_backup, cli_cite, cli_hygiene, cli_rank, cli_transfer):
        commands += module.COMMANDS
    assert len(commands) == 19  # the top level and its 18 commands
    for command in commands:
        out = help_of(capsys, "--lang", "zh_CN", *([command] if command else []))
        wide = [line for line in out.splitlines() if _columns(line) > width - 2]
        assert not wide, (command, wide)
        assert any(_columns(line) > width // 2 for line in out.splitlines())
