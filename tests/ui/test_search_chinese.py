"""Chinese typed into the window's search box: a title, a tag or a note is found by
any run of two or more of its characters (Chinese has no spaces between words), and a
query mixing Chinese and English words finds the papers with both."""

from __future__ import annotations

import re

import pytest

from reader.core.models import Paper

TITLE = "扩散模型高效采样"
TAG = "强化学习方法"
NOTE = "这篇论文值得精读"


def _runs(text: str) -> list[str]:
    """Every run of two or more characters of `text`."""
    return [text[i:j] for i in range(len(text)) for j in range(i + 2, len(text) + 1)]


@pytest.fixture
def chinese(qtbot, app):
    lib = app.controller.library
    lib.add_papers(
        [
            Paper("zh-title", TITLE, ("张三",), "一种新的采样器。"),
            Paper("zh-tag", "A paper tagged in Chinese", ("A. Author",), "Nothing here."),
            Paper("zh-note", "A paper with a Chinese note", ("B. Author",), "Nothing."),
            Paper("zh-mixed", "Diffusion 扩散模型综述", ("李四",), "A survey."),
            Paper("en-only", "Diffusion without Chinese", ("C. Author",), "Diffusion."),
        ]
    )
    lib.add_tags(["zh-tag"], [TAG])
    lib.set_note("zh-note", NOTE)
    sidebar = app.window.sidebar
    qtbot.waitUntil(lambda: sidebar.prepare_search(), timeout=10_000)
    return app


def type_text(qtbot, widget, text: str) -> None:
    """Type `text` as a user does: ASCII with the keys, Chinese as an input method
    (pinyin, say) commits it, a word at a time. (QTest's key clicks take ASCII only.)"""
    from PySide6.QtGui import QInputMethodEvent
    from PySide6.QtWidgets import QApplication

    for part in re.findall(r"[\x00-\x7f]+|[^\x00-\x7f]+", text):
        if part.isascii():
            qtbot.keyClicks(widget, part)
        else:
            event = QInputMethodEvent("", [])
            event.setCommitString(part)
            QApplication.sendEvent(widget, event)


def _typed(qtbot, sidebar, text: str) -> list[str]:
    sidebar.search.clear()
    sidebar.search.setFocus()
    type_text(qtbot, sidebar.search, text)
    assert sidebar.search.text() == text
    qtbot.waitUntil(lambda: not sidebar.search_pending, timeout=5_000)
    return sidebar.model.ids()


@pytest.mark.parametrize(
    ("text", "paper"),
    [(TITLE, "zh-title"), (TAG, "zh-tag"), (NOTE, "zh-note")],
    ids=["title", "tag", "note"],
)
def test_any_run_of_two_or_more_characters_finds_it(qtbot, chinese, text, paper):
    sidebar = chinese.window.sidebar
    missed = [run for run in _runs(text) if paper not in _typed(qtbot, sidebar, run)]
    assert missed == []


def test_a_run_not_in_the_text_finds_nothing_of_it(qtbot, chinese):
    sidebar = chinese.window.sidebar
    assert "zh-title" not in _typed(qtbot, sidebar, "扩样")  # both there, not side by side
    assert "zh-title" not in _typed(qtbot, sidebar, "模型采样器")  # "采样器" is not in the title


def test_a_query_mixing_chinese_and_english_words(qtbot, chinese):
    sidebar = chinese.window.sidebar
    found = _typed(qtbot, sidebar, "扩散 diffusion")
    assert found == ["zh-mixed"]
    assert set(_typed(qtbot, sidebar, "模型 survey")) == {"zh-mixed"}
    assert {"zh-mixed", "en-only"} <= set(_typed(qtbot, sidebar, "diffusion"))
    assert {"zh-title", "zh-mixed"} == set(_typed(qtbot, sidebar, "扩散模型"))
