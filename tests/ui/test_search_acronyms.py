"""Acronyms typed into the window's search box: `AUC` finds the papers and notes that
say AUC, not "auctions"; `auc` finds both; the reader pane marks only the capitals."""

from __future__ import annotations

import pytest

from reader.core.models import Paper

PAPERS = [
    Paper("acr-auc", "Stochastic Online AUC Maximization", ("A. Author",), "Pairwise losses."),
    Paper("acr-auction", "Learning in Combinatorial Auctions", ("B. Author",), "Bids."),
    Paper("acr-rlhf", "RLHF for Dialogue", ("C. Author",), "Human feedback."),
    Paper("acr-rl", "Offline RL Made Simple", ("D. Author",), "Conservative values."),
    Paper("acr-world", "World Models Dream", ("E. Author",), "Imagined rollouts."),
    Paper("acr-curl", "Curl: Contrastive Features", ("F. Author",), "Pixels."),
    Paper("acr-note", "A Paper With a Note", ("G. Author",), "Nothing here."),
    Paper("acr-note2", "Another Paper With a Note", ("H. Author",), "Nothing here."),
    Paper("acr-both", "Ranking", ("I. Author",), "The AUC of bidders in auctions."),
]


@pytest.fixture
def acronyms(qtbot, app):
    lib = app.controller.library
    lib.add_papers(PAPERS)
    lib.set_note("acr-note", "we used AUC")
    lib.set_note("acr-note2", "auction theory")
    qtbot.waitUntil(lambda: app.window.sidebar.prepare_search(), timeout=10_000)
    return app


def _typed(qtbot, sidebar, text: str) -> set[str]:
    sidebar.search.clear()
    sidebar.search.setFocus()
    qtbot.keyClicks(sidebar.search, text)
    assert sidebar.search.text() == text
    qtbot.waitUntil(lambda: not sidebar.search_pending, timeout=5_000)
    return {pid for pid in sidebar.model.ids() if pid.startswith("acr-")}


def test_an_acronym_finds_what_is_written_in_capitals(qtbot, acronyms):
    sidebar = acronyms.window.sidebar
    assert _typed(qtbot, sidebar, "AUC") == {"acr-auc", "acr-note", "acr-both"}
    assert _typed(qtbot, sidebar, "auc") == {
        "acr-auc",
        "acr-auction",
        "acr-note",
        "acr-note2",
        "acr-both",
    }
    assert _typed(qtbot, sidebar, "RL") == {"acr-rlhf", "acr-rl"}  # not World, not Curl
    assert _typed(qtbot, sidebar, '"online AUC"') == {"acr-auc"}


def test_the_reader_pane_marks_only_the_capitals(qtbot, acronyms):
    sidebar, pane = acronyms.window.sidebar, acronyms.window.pane
    _typed(qtbot, sidebar, "AUC")
    assert sidebar.select_paper("acr-both")

    def marked() -> list[str]:
        return [m.cursor.selectedText() for m in pane._search_marks]

    qtbot.waitUntil(lambda: bool(marked()), timeout=5_000)
    assert marked() == ["AUC"]  # not the "auc" of "auctions"
    _typed(qtbot, sidebar, "auc")
    assert sidebar.select_paper("acr-both")
    qtbot.waitUntil(lambda: len(marked()) == 2, timeout=5_000)
    assert marked() == ["AUC", "auc"]
