"""Copy Citation (Ctrl+Shift+C) and Copy as BibTeX for the papers the keys act on."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication


def test_copy_citation_and_bibtex_of_the_selection(qtbot, app):
    w = app.window
    app.finish_setup()
    view = w.sidebar.view
    view.setCurrentIndex(w.sidebar.model.index(0))
    qtbot.keyClick(view, Qt.Key.Key_Down, Qt.KeyboardModifier.ShiftModifier)
    qtbot.keyClick(
        view, Qt.Key.Key_C, Qt.KeyboardModifier.ControlModifier | Qt.KeyboardModifier.ShiftModifier
    )
    lines = QApplication.clipboard().text().splitlines()
    assert len(lines) == 2
    assert lines[0].startswith("He, C., Ding, Y.")  # "Last, F." as a reference list has them
    assert "(2025)" in lines[0] and "ICML 2025" in lines[0]
    app.actions.copy_bibtex.trigger()
    bibtex = QApplication.clipboard().text()
    assert bibtex.count("@inproceedings{") == 2
    assert "author = {He, Changyi and Ding, Yifu" in bibtex
    assert bibtex.count("abstract = {") == 2  # read from the catalogue (not held in memory)
    assert "knowledge distillation (KD) is an effective approach" in bibtex
    assert "Copied 2 BibTeX entries" in w.statusBar().currentMessage()
