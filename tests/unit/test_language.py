"""reader.language: which language a name, the environment and window.ini mean."""

from __future__ import annotations

from pathlib import Path

import pytest

from reader import language
from reader.language import LANGUAGE_KEY, LANGUAGES, from_environment, normalise, remembered

CHINESE = ["zh_CN", "zh-CN", "zh_CN.UTF-8", "zh", "zh_Hans_CN", "zh-Hans", "ZH_cn", "zh_SG"]
ENGLISH = ["en", "en_US.UTF-8", "en_GB", "en-US", "C", "POSIX", "C.UTF-8", "en_US@euro"]
UNKNOWN = [None, "", " ", "fr_FR.UTF-8", "de", "zh_TW", "zh-Hant", "zh_Hant_TW", "zh_HK", "x"]


@pytest.mark.parametrize("name", CHINESE)
def test_chinese_names(name):
    assert normalise(name) == "zh_CN"


@pytest.mark.parametrize("name", ENGLISH)
def test_english_names(name):
    assert normalise(name) == "en"


@pytest.mark.parametrize("name", UNKNOWN)
def test_other_names_are_none(name):
    assert normalise(name) is None


def test_every_code_is_its_own_name():
    assert set(LANGUAGES) == {"en", "zh_CN"}
    for code in LANGUAGES:
        assert normalise(code) == code


@pytest.mark.parametrize(
    ("env", "expected"),
    [
        ({}, "en"),
        ({"LANG": "zh_CN.UTF-8"}, "zh_CN"),
        ({"LANG": "fr_FR.UTF-8"}, "en"),
        ({"LC_MESSAGES": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh_CN"),
        ({"LC_ALL": "en_US.UTF-8", "LC_MESSAGES": "zh_CN.UTF-8"}, "en"),
        # the first set one decides, even when it is not one we know
        ({"LC_ALL": "fr_FR.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"),
        ({"LC_ALL": "", "LANG": "zh_CN.UTF-8"}, "zh_CN"),
        # LANGUAGE is a list of preferences: the first known one wins over LC_*
        ({"LANGUAGE": "fr:zh_CN:en", "LANG": "en_US.UTF-8"}, "zh_CN"),
        ({"LANGUAGE": "en:zh_CN", "LANG": "zh_CN.UTF-8"}, "en"),
        # ... and one naming none we know leaves the decision to them
        ({"LANGUAGE": "fr:de", "LANG": "zh_CN.UTF-8"}, "zh_CN"),
        ({"LANGUAGE": "", "LC_ALL": "zh_CN.UTF-8"}, "zh_CN"),
    ],
)
def test_from_environment(env, expected):
    assert from_environment(env) == expected


def ini(folder: Path, text: str | bytes) -> Path:
    folder.mkdir(exist_ok=True)
    path = folder / "window.ini"
    if isinstance(text, str):
        path.write_text(text, encoding="utf-8")
    else:
        path.write_bytes(text)
    return folder


def test_remembered_reads_what_qsettings_writes(tmp_path):
    # as QSettings(IniFormat) writes it: [General] for keys outside a group, backslashes
    # in keys of groups, @ByteArray values with % and " in them
    folder = ini(
        tmp_path / "lib",
        "[General]\n"
        f"{LANGUAGE_KEY}=zh_CN\n"
        "\n[window]\n"
        'geometry="@ByteArray(\\x1\\xd9\\xd0\\xcb\\0\\x3%\\0\\0)"\n'
        "zoom=1.25\n",
    )
    assert remembered(folder) == "zh_CN"
    ini(folder, f'[General]\n{LANGUAGE_KEY}="en"\n')
    assert remembered(folder) == "en"


@pytest.mark.parametrize(
    "text",
    [
        "",
        "[General]\n",
        f"[General]\n{LANGUAGE_KEY}=\n",
        f"[General]\n{LANGUAGE_KEY}=fr_FR\n",
        f"[window]\n{LANGUAGE_KEY}=zh_CN\n",
        f"{LANGUAGE_KEY}=zh_CN\n",  # no section at all
        f"[General\n{LANGUAGE_KEY}=zh_CN\n",
        b"\xff\xfe\x00garbage\x00",
    ],
)
def test_remembered_none_for_absent_empty_unknown_or_damaged(tmp_path, text):
    assert remembered(ini(tmp_path / "lib", text)) is None


def test_remembered_survives_repeated_sections_keys_and_percent(tmp_path):
    text = f"[General]\n{LANGUAGE_KEY}=zh_CN\n{LANGUAGE_KEY}=en\n[General]\nx=%(y)s %\n"
    assert remembered(ini(tmp_path / "lib", text)) in ("zh_CN", "en")


def test_remembered_never_raises(tmp_path):
    assert remembered(tmp_path / "missing") is None
    (tmp_path / "dir" / "window.ini").mkdir(parents=True)
    assert remembered(tmp_path / "dir") is None
    big = ini(tmp_path / "big", f"[General]\n{LANGUAGE_KEY}=zh_CN\npad=" + "x" * (2 << 20))
    assert remembered(big) is None


def test_resolve_order(tmp_path, monkeypatch):
    for variable in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    chinese = ini(tmp_path / "zh", f"[General]\n{LANGUAGE_KEY}=zh_CN\n")
    english = ini(tmp_path / "en", f"[General]\n{LANGUAGE_KEY}=en\n")
    following = ini(tmp_path / "system", f"[General]\n{LANGUAGE_KEY}=\n")
    # --lang first
    assert language.resolve("en", chinese) == "en"
    assert language.resolve("zh-CN", english) == "zh_CN"
    # then the library's remembered choice, before the system's
    assert language.resolve(None, english, "zh_CN") == "en"
    assert language.resolve("fr", chinese, "en_US") == "zh_CN"
    # then the system the window names
    assert language.resolve(None, following, "en_US") == "en"
    assert language.resolve(None, None, "zh_Hans_CN") == "zh_CN"
    # then the environment
    assert language.resolve(None, following, "fr_FR") == "zh_CN"
    assert language.resolve(None, None) == "zh_CN"
    monkeypatch.delenv("LANG")
    assert language.resolve(None, tmp_path / "missing") == "en"


@pytest.mark.parametrize("code", ["zh_CN", "en"])
def test_remembered_reads_the_window_settings_file(tmp_path, code):
    from reader.ui.settings import open_settings

    folder = tmp_path / "lib"
    folder.mkdir()
    settings = open_settings(folder)
    settings.setValue("window/geometry", b'\x01\xd9%\x00"')
    settings.setValue(LANGUAGE_KEY, code)
    settings.sync()
    del settings
    assert remembered(folder) == code
