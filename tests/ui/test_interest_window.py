"""Predicted interest in the window: triage shows the likeliest interesting paper next,
the list sorts by predicted interest with each paper's score and the pane says why,
More Like This for a paper and for a tag, and the window keeps answering while the
model learns (on a worker thread)."""

from __future__ import annotations

import time
from itertools import pairwise

import pytest
from PySide6.QtCore import Qt, QTimer

from reader.core.triage import DEFAULT_DECISIONS
from reader.ui.interest import INTEREST, LIKE

INTERESTING, LATER, SKIP = DEFAULT_DECISIONS


def learnt(qtbot, app, decisions=0, which=INTEREST):
    """Wait for a model of `which` that learnt from `decisions` papers or more (an
    earlier one may come first: the worker takes the latest request when free)."""

    def ready():
        model = app.interest.models.get(which)
        return model is not None and len(model.labels) >= decisions

    qtbot.waitUntil(ready, timeout=60_000)


def press(qtbot, app, key):
    qtbot.keyClick(app.window.sidebar.view, key)


@pytest.fixture
def triaging(qtbot, app):
    app.finish_setup()
    app.triage.exploration = 0.0  # the best pick every time (the 5 % random share aside)
    app.actions.triage.trigger()
    return app


def test_triage_shows_the_likeliest_interesting_paper_next(qtbot, triaging):
    app = triaging
    w, lib = app.window, app.controller.library
    first = w.pane.paper_id
    press(qtbot, app, Qt.Key.Key_I)  # interesting
    second = w.pane.paper_id
    assert second != first  # before anything is learnt: the list's order
    press(qtbot, app, Qt.Key.Key_S)  # skip: one of each, the model may lead now
    learnt(qtbot, app, 2)
    model = app.interest.model
    undecided = [p for p in w.sidebar.model.ids() if lib.status(p).value == "unread"]
    undecided = [p for p in undecided if not lib.tags(p)]
    assert model is not None and model.can_rank
    press(qtbot, app, Qt.Key.Key_I)  # a third decision, on the paper the last model chose
    shown = w.pane.paper_id
    learnt(qtbot, app, 3)
    rest = [p for p in undecided if p != shown and not lib.tags(p)]
    assert shown in undecided
    press(qtbot, app, Qt.Key.Key_S)
    # what comes next is the best of the undecided by the model learnt before it
    best = max(rest, key=app.interest.model.score)
    assert w.pane.paper_id == best
    text = app.triage_bar.label.text()
    assert "decided" in text and "skipped since the last interesting one" in text
    assert "expected" in text  # the estimate, from both kinds of decision
    assert app.triage_bar.label.toolTip()  # how it is estimated


def test_the_list_sorts_by_predicted_interest_with_scores_and_why(qtbot, app):
    w, lib = app.window, app.controller.library
    app.finish_setup()
    ids = w.sidebar.model.ids()
    lib.add_tags(ids[:1], ["interesting"])
    lib.add_tags(ids[1:2], ["skip"])
    sidebar = w.sidebar
    sidebar.sort_combo.setCurrentIndex(sidebar.sort_combo.findData("interest"))
    learnt(qtbot, app, 2)
    qtbot.waitUntil(lambda: sidebar.model.score_of is not None)
    model = app.interest.model
    shown = sidebar.model.ids()
    scores = [model.score(p) for p in shown]
    assert scores == sorted(scores, reverse=True)
    assert shown[0] == ids[0]  # the interesting one itself first
    _title, authors, _status, _tags = sidebar.model.row(0)
    assert authors.startswith(f"{scores[0]:.1f} · ")
    sidebar.view.setCurrentIndex(sidebar.model.index(3))
    qtbot.waitUntil(lambda: w.pane.reason.isVisible())
    assert w.pane.reason.text().startswith("Score ")
    assert "why:" in w.pane.reason.text()
    sidebar.sort_combo.setCurrentIndex(sidebar.sort_combo.findData("title"))
    assert not w.pane.reason.isVisible() and sidebar.model.score_of is None


def test_more_like_this_sorts_the_list_by_likeness_to_the_paper(qtbot, app):
    w = app.window
    app.finish_setup()
    sidebar = w.sidebar
    sidebar.view.setCurrentIndex(sidebar.model.index(7))
    pid = w.pane.paper_id
    qtbot.keyClick(sidebar.view, Qt.Key.Key_M, Qt.KeyboardModifier.ShiftModifier)
    qtbot.waitUntil(lambda: sidebar.sort_key()[0] == LIKE, timeout=60_000)
    assert sidebar.model.ids()[0] == pid  # nothing is more like it than itself
    title = sidebar.sort_combo.currentText()
    assert title.startswith("Sort: Like “") and not sidebar.sort_combo.view().isRowHidden(
        sidebar.sort_combo.currentIndex()
    )
    assert w.pane.reason.isVisible()


def test_papers_like_those_of_a_tag(qtbot, app):
    w, lib = app.window, app.controller.library
    app.finish_setup()
    sidebar = w.sidebar
    tagged = sidebar.model.ids()[4:6]
    lib.add_tags(tagged, ["diffusion"])
    sidebar.refresh_facets()
    menu = sidebar.facets.like_menu(("tag", "diffusion"))
    menu.actions()[0].trigger()
    qtbot.waitUntil(lambda: sidebar.sort_key()[0] == LIKE, timeout=60_000)
    assert set(sidebar.model.ids()[:2]) == set(tagged)
    assert app.interest.like_what == "tag:diffusion"


def _conference(folder, n=3_300):
    """A library of `n` made-up papers with 60-word abstracts (the ICML abstracts'
    words), as one catalogue file: a conference's worth to learn from."""
    import random

    from reader.core.models import Paper
    from reader.store.paper_files import write_file
    from tests.datafiles import SEED_TEXT

    rng = random.Random(3)
    words = SEED_TEXT.read_text("utf-8").split()
    papers = []
    for i in range(n):
        title, abstract = rng.randrange(len(words) - 10), rng.randrange(len(words) - 60)
        papers.append(
            Paper(
                id=f"g{i:05d}",
                title=" ".join(words[title : title + 5 + i % 6]),
                authors=(f"Author {i % 700}", f"Author {(i * 7) % 900}"),
                abstract=" ".join(words[abstract : abstract + 60]),
                venue="ICML 2025",
                year=2025,
                added="2025-01-01T00:00:00+00:00",
            )
        )
    write_file(folder / "devices" / "generator", papers, "1735689600000.0000.generator")


def test_the_window_answers_while_the_model_learns(qtbot, make_app, tmp_path):
    """A 10 ms timer on the GUI thread keeps ticking while the features of 3,300
    papers are built and a model trained (on the worker): no pause of the window's."""
    folder = tmp_path / "conference"
    _conference(folder)
    app = make_app(folder)
    w = app.window
    app.finish_setup()
    sidebar = w.sidebar
    lib, ids = app.controller.library, sidebar.model.ids()
    lib.add_tags(ids[:3], ["interesting"])
    lib.add_tags(ids[3:6], ["skip"])
    # the window settles first (its search index is made in idle steps after the
    # first paint): the pauses measured are the model's
    qtbot.waitUntil(lambda: sidebar.index_made and sidebar.index.prepared, timeout=60_000)
    ticks: list[float] = []
    timer = QTimer(interval=10, timerType=Qt.TimerType.PreciseTimer)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start()
    ticks.append(time.perf_counter())
    app.interest.refresh()
    assert app.interest.model is None  # (asked for: learnt on the worker, not here)
    learnt(qtbot, app, 6)
    ticks.append(time.perf_counter())
    timer.stop()
    assert app.interest.model.can_rank
    # The worker holds the interpreter in turns (the GIL, ~5 ms a turn); the GUI
    # thread's longest wait is a few of those, on 2 cores loaded by other jobs more.
    assert max(b - a for a, b in pairwise(ticks)) < 0.25, (len(ticks), ticks[-1] - ticks[0])
