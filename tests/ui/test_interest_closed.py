"""A model learnt on the worker after its window closed (a test's window, or the
program quitting mid-training) is told to nobody: no error from a deleted object."""

from __future__ import annotations

import threading

from PySide6.QtCore import QSettings


def test_a_model_learnt_after_its_window_closed_is_told_to_nobody(qtbot, tmp_path, monkeypatch):
    import reader.core.ranking as ranking
    from reader.ui.app import build
    from reader.ui.tasks import TaskRunner

    settings = QSettings(str(tmp_path / "window.ini"), QSettings.Format.IniFormat)
    app = build(tmp_path / "library", settings, lang="en")
    app.poll.stop()
    runner = app.interest._runner = TaskRunner()
    lib = app.controller.library
    ids = lib.paper_ids()
    lib.add_tags(ids[:2], ["interesting"])
    lib.add_tags(ids[2:4], ["skip"])
    gate = threading.Event()
    build_features = ranking.Features.build

    def held(papers):  # the worker learns until the window is gone
        gate.wait(10)
        return build_features(papers)

    monkeypatch.setattr(ranking.Features, "build", staticmethod(held))
    app.interest.refresh()
    app.window.deleteLater()
    qtbot.wait(50)
    gate.set()
    assert runner.wait(10_000)
    qtbot.wait(100)  # (the model's arrival, on the GUI thread: raised here before)
