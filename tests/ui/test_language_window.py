"""The window in Simplified Chinese: every menu and action translated, View → Language
switching at once and remembered, numbers in the language's form."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QMenu

from reader.ui import i18n

#: texts that are the same in every language: the languages' own names
SAME_EVERYWHERE = {"English", "简体中文"}


def _menu_texts(menu: QMenu, path: str = "") -> dict[str, str]:
    """Every item of a menu and its submenus: (its place) -> its text."""
    out = {}
    for n, action in enumerate(menu.actions()):
        if action.isSeparator():
            continue
        place = f"{path}/{n}"
        out[place] = action.text()
        if action.menu() is not None:
            out.update(_menu_texts(action.menu(), place))
    return out


def _window_texts(app) -> dict[str, str]:
    """The menu bar's titles and items, every action's text and tooltip, the list's
    context menu, the sort orders, the facets' headings and the status buttons."""
    w = app.window
    texts = {}
    for n, action in enumerate(w.menuBar().actions()):
        texts[f"menu {n}"] = action.text()
        texts.update({f"menu {n}{k}": v for k, v in _menu_texts(action.menu()).items()})
    for name, action in app.actions.by_name.items():
        texts[f"action {name}"] = action.text()
        if action.toolTip() and action.toolTip() != action.text().replace("&", ""):
            texts[f"tip {name}"] = action.toolTip()
    from reader.ui.actions import list_context_menu

    w.sidebar.view.selectRow(0)
    menu = list_context_menu(app.controller, app.actions, w.sidebar.view.rect().center())
    texts.update({f"context{k}": v for k, v in _menu_texts(menu).items()})
    combo = w.sidebar.sort_combo
    texts.update({f"sort {n}": combo.itemText(n) for n in range(combo.count())})
    facets = w.sidebar.facets.model()
    texts.update({f"facet {n}": facets.index(n, 0).data() for n in range(facets.rowCount())})
    for button in w.pane.status_buttons.buttons():
        texts[f"status {button.objectName()}"] = button.text()
        texts[f"status tip {button.objectName()}"] = button.toolTip()
    texts["search"] = w.sidebar.search.placeholderText()
    texts["count"] = w.sidebar.count_label.text()
    return texts


def _switched(qtbot, app, code: str) -> None:
    """Choose `code` in View → Language (None: the system's) as the user does."""
    view = app.window.menus["&View"]
    language = next(a.menu() for a in view.actions() if a.menu() is not None)
    wanted = {"en": "English", "zh_CN": "简体中文"}[code]
    item = next(a for a in language.actions() if a.text() == wanted)
    item.trigger()
    file_menu = {"en": "&File", "zh_CN": "文件(&F)"}[code]
    qtbot.waitUntil(lambda: app.window.menus["&File"].title() == file_menu)
    assert i18n.current() == code


def test_every_menu_and_action_is_chinese(qtbot, make_app):
    app = make_app(lang="zh_CN")
    app.finish_setup()
    qtbot.waitUntil(lambda: app.window.menus["&File"].title() == "文件(&F)")
    chinese = _window_texts(app)
    _switched(qtbot, app, "en")
    qtbot.waitUntil(lambda: app.window.menus["&File"].title() == "&File")
    english = _window_texts(app)
    assert chinese.keys() == english.keys() and len(chinese) > 100
    empty = [place for place, text in chinese.items() if not text.strip()]
    assert empty == []
    untranslated = {
        place: text
        for place, text in chinese.items()
        if text == english[place] and text not in SAME_EVERYWHERE
    }
    assert untranslated == {}
    assert chinese["count"] == "19 篇论文 · 已读 0"
    assert english["count"] == "19 papers · 0 read"


def test_view_language_switches_the_menus_at_once_and_is_remembered(qtbot, make_app, tmp_path):
    app = make_app()
    app.finish_setup()
    w = app.window
    titles = [a.text() for a in w.menuBar().actions()]
    assert titles == ["&File", "&Edit", "&Paper", "&View", "&Go", "&Help"]
    _switched(qtbot, app, "zh_CN")
    qtbot.waitUntil(
        lambda: (
            [a.text() for a in w.menuBar().actions()]
            == ["文件(&F)", "编辑(&E)", "论文(&P)", "视图(&V)", "转到(&G)", "帮助(&H)"]
        )
    )
    assert app.actions.import_files.text() == "导入(&I)…"
    assert app.actions.mark_read.text() == "标为已读"
    assert w.sidebar.search.placeholderText().startswith("搜索")
    assert w.pane.status_buttons.button(3).text() == "已读"
    assert w.sidebar.facets.model().index(0, 0).data().startswith("全部论文")
    settings = QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat)
    assert settings.value("language") == "zh_CN"
    # the next window on this library opens in it (no --lang)
    again = make_app(lang=None)
    assert again.window.menus["&Go"].title() == "转到(&G)"
    _switched(qtbot, app, "en")
    qtbot.waitUntil(lambda: w.menus["&Paper"].title() == "&Paper")
    assert app.actions.import_files.text() == "&Import…"
    assert w.sidebar.count_label.text() == "19 papers · 0 read"
    assert QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat).value(
        "language"
    ) == ("en")


def test_undo_says_what_it_undoes_in_the_language(qtbot, make_app):
    app = make_app(lang="zh_CN")
    app.finish_setup()
    w = app.window
    w.sidebar.view.setFocus()
    qtbot.keyClick(w.sidebar.view, "3")  # mark read
    qtbot.waitUntil(lambda: app.actions.undo.text() == "撤销(&U) 将 1 篇论文标为已读")
    _switched(qtbot, app, "en")
    # the step was named when it was made; the action's own words follow the language
    assert app.actions.undo.text() == "&Undo 将 1 篇论文标为已读"
    qtbot.keyClick(w.sidebar.view, "2")
    qtbot.waitUntil(lambda: app.actions.undo.text() == "&Undo Mark paper reading")


def test_the_shortcut_sheet_and_the_palette_in_chinese(qtbot, make_app):
    from reader.ui.palette import CheatSheet, CommandPalette
    from reader.ui.window_actions import show_cheatsheet, show_palette
    from tests.ui.test_search_chinese import type_text

    app = make_app(lang="zh_CN")
    app.finish_setup()
    w = app.window
    show_cheatsheet(w, app.actions, app.triage)
    sheet = w.findChild(CheatSheet)
    assert sheet.windowTitle() == "键盘快捷键"
    rows = sheet.rows()
    assert ("文件", "导入", "Ctrl+O", "任何地方") in rows  # (no "(I)" of the menu's mnemonic)
    assert ("论文", "标为已读", "3", "在列表中") in rows
    assert not [row for row in rows if "(" in row[1] or "&" in row[1]]
    sheet.close()
    show_palette(w, app.actions)
    palette = w.findChild(CommandPalette)
    type_text(qtbot, palette.entry, "导出")
    shown = [palette.model.index(r).data() for r in range(palette.model.rowCount())]
    assert shown[:3] == ["导出所选", "导出当前视图", "导出全部"]


def test_qt_own_buttons_and_the_system_choice(qtbot, make_app, tmp_path):
    """A dialog's standard buttons are Qt's own strings, in Chinese too; View →
    Language → System Language forgets the choice (the system's language: English here)."""
    from PySide6.QtWidgets import QDialogButtonBox

    from reader.ui.hygiene import TrashDialog

    app = make_app(lang="zh_CN")
    app.finish_setup()
    app.actions.show_trash.trigger()
    dialog = app.window.findChild(TrashDialog)
    assert dialog.windowTitle() == "回收站"
    close = dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Close)
    assert "关闭" in close.text()
    dialog.close()
    view = app.window.menus["&View"]
    language = next(a.menu() for a in view.actions() if a.menu() is not None)
    assert language.title() == "语言(&L)"
    system = language.actions()[0]
    assert system.text() == "跟随系统语言(&S)"
    system.trigger()
    qtbot.waitUntil(lambda: app.window.menus["&File"].title() == "&File")
    settings = QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat)
    assert settings.value("language") is None and i18n.current() == "en"
    assert system.isChecked() and language.title() == "&Language"


def test_highlights_stay_on_their_words_when_the_language_changes(qtbot, make_app):
    """The pane's header is said anew in the other language (论文页面 ↗ is shorter than
    Paper page ↗): the highlights are drawn over the same words of the abstract."""
    from tests.ui.test_highlights import DA_KD, QUOTE, marks, select_text

    app = make_app()
    app.finish_setup()
    w = app.window
    assert w.sidebar.select_paper(DA_KD)
    select_text(qtbot, w, QUOTE, drag=False)
    qtbot.keyClick(w.pane.browser, "1")

    def drawn():
        text = w.pane.browser.toPlainText()
        return [text[start:end] for start, end, _colour in marks(w)]

    assert drawn() == [QUOTE]
    _switched(qtbot, app, "zh_CN")
    assert "论文页面" in w.pane.browser.toPlainText()
    assert drawn() == [QUOTE]
    _switched(qtbot, app, "en")
    assert drawn() == [QUOTE]


def test_help_about_says_what_it_is_in_the_language(qtbot, make_app, tmp_path):
    from PySide6.QtWidgets import QMessageBox

    from reader import __version__

    app = make_app(lang="zh_CN")
    app.finish_setup()
    help_menu = app.window.menus["&Help"]
    about = next(a for a in help_menu.actions() if a.text() == "关于 Paper Reader(&A)")
    about.trigger()
    (box,) = [b for b in app.window.findChildren(QMessageBox) if b.isVisible()]
    assert box.windowTitle() == "关于 Paper Reader"
    assert f"Paper Reader {__version__}" in box.text() and "阅读、分拣和批注" in box.text()
    assert "文库：" in box.text() and str(tmp_path) in box.text()
    box.close()
    _switched(qtbot, app, "en")
    about.trigger()
    (box,) = [b for b in app.window.findChildren(QMessageBox) if b.isVisible()]
    assert box.windowTitle() == "About Paper Reader" and "Library: " in box.text()
    assert about.text() == "&About Paper Reader"


def test_triage_keys_and_the_shortcut_sheet_fit_in_chinese(qtbot, make_app, monkeypatch):
    from PySide6.QtWidgets import QInputDialog

    from reader.ui.palette import CheatSheet

    app = make_app(lang="zh_CN")
    app.finish_setup()
    shown = []
    monkeypatch.setattr(
        QInputDialog, "getMultiLineText", lambda *a, **k: (shown.append(a[3]), ("", False))[1]
    )
    app.actions.triage_setup.trigger()
    assert "i tag interesting 感兴趣" in shown[0] and "Interesting" not in shown[0]
    app.actions.cheatsheet.trigger()
    (sheet,) = [d for d in app.window.findChildren(CheatSheet) if d.isVisible()]
    tree = sheet.tree
    metrics = tree.fontMetrics()
    for g in range(tree.topLevelItemCount()):
        group = tree.topLevelItem(g)
        for r in range(group.childCount()):
            item = group.child(r)
            needed = metrics.horizontalAdvance(item.text(0)) + tree.indentation()
            assert tree.columnWidth(0) >= needed, item.text(0)  # no command under the keys
    sheet.close()


@pytest.mark.parametrize("lang", ["en", "zh_CN"])
def test_no_two_items_of_a_menu_share_a_mnemonic(qtbot, make_app, lang):
    import re

    app = make_app(lang=lang)
    app.finish_setup()
    shared = []

    def walk(menu: QMenu) -> None:
        keys: dict[str, list[str]] = {}
        for action in menu.actions():
            found = re.search(r"&([^&])", action.text().replace("&&", ""))
            if found:
                keys.setdefault(found.group(1).casefold(), []).append(action.text())
            if action.menu() is not None:
                walk(action.menu())
        shared.extend(texts for texts in keys.values() if len(texts) > 1)

    for menu in app.window.menus.values():
        walk(menu)
    assert shared == []
