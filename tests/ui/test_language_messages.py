"""The window in Chinese says in Chinese what the layers below it find: a damaged file
set aside on opening or while open, the reason a query was read as plain words; and
after View → Language switches, what is said next is in the new language."""

from __future__ import annotations

from PySide6.QtWidgets import QApplication, QMessageBox

from reader.opening import open_library
from tests.helpers.libraries import own_file

GARBAGE = b"garbage \x00\xff{ not json"


def boxes() -> list[QMessageBox]:
    return [
        w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()
    ]


def _switch(qtbot, app, name: str, file_menu: str) -> None:
    """Choose `name` in View → Language, as the user does."""
    view = app.window.menus["&View"]
    language = next(a.menu() for a in view.actions() if a.menu() is not None)
    next(a for a in language.actions() if a.text() == name).trigger()
    qtbot.waitUntil(lambda: app.window.menus["&File"].title() == file_menu)


def test_a_damaged_file_found_on_opening_is_told_in_chinese(qtbot, make_app, tmp_path):
    folder = tmp_path / "library"
    opened = open_library(folder)
    opened.library.add_tags(opened.library.paper_ids()[:1], ["kept"])
    opened.backups.take("hourly")
    own_file(folder).write_bytes(GARBAGE)

    app = make_app(folder, lang="zh_CN")

    [aside] = own_file(folder).parent.glob("annotations.json.damaged-*")
    [box] = boxes()
    assert box.text().startswith(f"{own_file(folder)}：不是有效的 JSON（")
    assert f"损坏的文件已保留为 {aside}。已恢复最新的完好备份 " in box.text()
    assert "The damaged file" not in box.text() and "Restored" not in box.text()
    assert app.window.statusBar().currentMessage().startswith(f"{own_file(folder)}：")
    assert app.controller.library.tags(opened.library.paper_ids()[0]) == ("kept",)


def test_a_query_read_as_plain_words_says_why_in_chinese(qtbot, make_app):
    app = make_app(lang="zh_CN")
    sidebar = app.window.sidebar
    qtbot.keyClicks(sidebar.search, "year:soon")
    qtbot.waitUntil(lambda: sidebar.hint.isVisible())
    assert sidebar.hint.text() == "按普通词语搜索：year:soon 不是年份"


def test_after_switching_what_is_said_next_is_in_the_new_language(qtbot, make_app):
    app = make_app(lang="en")
    app.finish_setup()
    sidebar, folder = app.window.sidebar, app.opened.folder.folder
    qtbot.keyClicks(sidebar.search, "year:soon")
    qtbot.waitUntil(lambda: sidebar.hint.isVisible())
    assert sidebar.hint.text() == "Searching plain words: year:soon is not a year"
    sidebar.search.clear()

    _switch(qtbot, app, "简体中文", "文件(&F)")
    qtbot.keyClicks(sidebar.search, "(tag:x")
    qtbot.keyClicks(sidebar.search, " year:never")
    qtbot.waitUntil(lambda: sidebar.hint.text().startswith("按普通词语搜索："))
    assert sidebar.hint.text() == "按普通词语搜索：year:never 不是年份"
    # a file damaged while the window is open: told in Chinese at the next poll
    app.controller.library.add_tags(sidebar.model.ids()[:1], ["mine"])
    own_file(folder).write_bytes(GARBAGE)
    app.poll.timeout.emit()
    [box] = boxes()
    assert box.text().startswith("窗口打开期间 annotations.json 已损坏；损坏的副本已保留为 ")
    assert "条批注和你的设置）已写回" in box.text()
    box.close()

    _switch(qtbot, app, "English", "&File")
    sidebar.search.clear()
    qtbot.keyClicks(sidebar.search, "year:later")
    english = "Searching plain words: year:later is not a year"
    qtbot.waitUntil(lambda: sidebar.hint.text() == english)
