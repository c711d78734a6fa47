"""The window in Chinese tells in Chinese why an import skipped records, what it noted,
and why the library refused an edit (the reasons reader.core.say keeps to be told)."""

from __future__ import annotations

import json

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QInputDialog, QMessageBox

from reader.ui.tasks import TaskRunner
from tests.ui.test_tags_searches import manager


def boxes() -> list[QMessageBox]:
    return [
        w for w in QApplication.topLevelWidgets() if isinstance(w, QMessageBox) and w.isVisible()
    ]


def test_the_import_report_tells_why_records_were_skipped_in_chinese(qtbot, make_app, tmp_path):
    app = make_app(lang="zh_CN")
    app.window.transfers._runner = TaskRunner(synchronous=True)
    listed = tmp_path / "list.json"
    listed.write_text(json.dumps([{"title": "One"}, 5, {"venue": "ICML"}]), encoding="utf-8")
    table = tmp_path / "list.csv"
    table.write_bytes("title,abstract\nCafé study,An abstract\n;,\n".encode("cp1252"))
    app.window.transfers.import_files([listed, table])
    [box] = boxes()
    assert box.windowTitle() == "导入完成"
    assert box.text().splitlines()[1] == (
        "list.csv：不是 UTF-8：已按 Windows-1252 读取（推测的编码；请检查带重音的字母）"
    )
    assert box.detailedText().splitlines() == [
        "已跳过 第 2 项：不是对象，而是 int",
        "已跳过 第 3 项：没有标题也没有摘要",
        "已跳过 list.csv：第 3 行：论文需要标题、摘要或 ID",
    ]
    box.close()


def test_a_file_with_nothing_usable_is_refused_in_chinese(qtbot, make_app, tmp_path):
    app = make_app(lang="zh_CN")
    app.window.transfers._runner = TaskRunner(synchronous=True)
    failures = []
    app.window.transfers.import_failed.connect(failures.append)
    listed = tmp_path / "list.json"
    listed.write_text(json.dumps([5]), encoding="utf-8")
    app.window.transfers.import_files([listed])
    assert failures == [
        "未导入任何内容：list.json：按 JSON 格式没有找到论文：第 1 项：不是对象，而是 int"
    ]


def test_a_tag_renamed_to_no_name_is_refused_in_chinese(qtbot, make_app, monkeypatch):
    app = make_app(lang="zh_CN")
    lib = app.controller.library
    lib.add_tags(app.window.sidebar.model.ids()[:1], ["rl"])
    dialog = manager(app)
    assert dialog.select("rl")
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("///", True))
    qtbot.mouseClick(dialog.rename_button, Qt.MouseButton.LeftButton)
    assert app.window.statusBar().currentMessage() == "未保存：标签需要名称"
    assert lib.tag_counts() == {"rl": 1}
    dialog.close()


def test_a_smart_list_name_over_the_limit_is_refused_in_chinese(qtbot, make_app, monkeypatch):
    app = make_app(lang="zh_CN")
    search = app.window.sidebar.search
    qtbot.keyClicks(search, "diffusion")
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("n" * 201, True))
    qtbot.keyClick(search, Qt.Key.Key_S, Qt.KeyboardModifier.ControlModifier)
    [box] = boxes()
    assert box.text() == "智能列表未保存：文本有 201 个字符，超过了 200 的上限"
    assert app.controller.library.prefs.saved_searches() == {}
    box.close()
