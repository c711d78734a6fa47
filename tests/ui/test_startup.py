"""Start-up: what the first paint shows, what follows right after it (or at once on the
user's first input), searching and filtering right after opening, and nothing lost by
quitting early; the idle steps that do the rest, in the order they promise."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings, Qt
from PySide6.QtGui import QPaintEvent
from PySide6.QtWidgets import QApplication

from reader.core.models import Status
from reader.ui.facets import NO_TAGS


def _build(qtbot, tmp_path: Path, name: str = "window.ini"):
    from reader.ui.app import build

    settings = QSettings(str(tmp_path / name), QSettings.Format.IniFormat)
    app = build(tmp_path / "library", settings)
    qtbot.addWidget(app.window)
    return app


@pytest.fixture
def small_search_steps(monkeypatch):
    """The search's preparation a paper's words a step, one step a turn: many turns."""
    from reader.store import search_db
    from reader.ui import sidebar as sidebar_module

    monkeypatch.setattr(search_db, "STEP_PAPERS", 1)
    monkeypatch.setattr(sidebar_module, "PREPARE_SLICE_S", 0)


def _menu_items(window) -> dict[str, list[str]]:
    return {
        a.text(): [x.text() for x in a.menu().actions() if x.text()]
        for a in window.menuBar().actions()
    }


def test_the_first_paint_has_the_list_the_abstract_and_the_menu_titles(qtbot, tmp_path):
    app = _build(qtbot, tmp_path)
    w = app.window
    assert app.setup_pending()  # nothing deferred has run yet
    assert w.sidebar.model.rowCount() == 19
    assert w.pane.paper_id == w.sidebar.current_id() != ""
    assert "Knowledge Distillation" in w.pane.browser.toPlainText()
    assert list(_menu_items(w)) == ["&File", "&Edit", "&Paper", "&View", "&Go", "&Help"]
    assert not app.poll.isActive()


def test_the_facets_say_they_are_counting_until_counted_rather_than_zero(qtbot, tmp_path):
    app = _build(qtbot, tmp_path)
    facets = app.window.sidebar.facets

    def lines() -> list[str]:
        return _facet_labels(facets, groups=True)

    assert lines() == [
        "All papers",
        "Status",
        "  Unread",
        "  Reading",
        "  Read",
        "Tags",
        "  Counting…",
        "Venue",
        "  Counting…",
        "Year",
        "  Counting…",
    ]
    app.window.show()
    qtbot.waitUntil(lambda: "  Unread  (19)" in lines())
    assert (
        "All papers  (19)" in lines()
        and "  Counting…" not in lines()
        and "  ICML 2025  (19)" in lines()
        and f"  {NO_TAGS}" in lines()
    )


def test_saved_searches_are_listed_before_the_first_count(qtbot, tmp_path, opened):
    opened.library.prefs.save_search("Later", "tag:later")
    opened.folder.close()
    facets = _build(qtbot, tmp_path).window.sidebar.facets
    smart = facets.model().index(1, 0)
    assert (smart.data(), facets.model().index(0, 0, smart).data()) == ("Smart lists", "Later")
    assert (
        facets.model().index(0, 0, facets.model().index(2, 0)).data() == "Unread"
    )  # (not counted yet)


def test_the_rest_is_added_once_the_window_has_painted(qtbot, tmp_path):
    app = _build(qtbot, tmp_path)
    w = app.window
    w.show()
    qtbot.waitExposed(w)
    qtbot.waitUntil(lambda: not app.setup_pending())
    menus = _menu_items(w)
    assert "&Import…" in menus["&File"] and "&Undo" in menus["&Edit"]
    assert "&Highlight" in menus["&Paper"] and "&Triage Mode" in menus["&Go"]
    assert app.actions.by_name["next_paper"].shortcuts()
    assert app.highlighter is not None and app.note_links is not None
    assert app.triage_bar.parent() is not None and not app.triage_bar.isVisible()
    qtbot.waitUntil(app.poll.isActive)


def test_the_window_has_its_icon_once_shown(qtbot, tmp_path):
    app = _build(qtbot, tmp_path)
    w = app.window
    w.show()
    qtbot.waitExposed(w)
    qtbot.waitUntil(lambda: not app.setup_pending())
    assert not w.windowIcon().isNull()
    assert w.windowIcon().availableSizes() or not w.windowIcon().pixmap(32, 32).isNull()


def test_the_tag_entry_completes_once_clicked_into(qtbot, tmp_path):
    app = _build(qtbot, tmp_path)
    w = app.window
    w.show()
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    other = w.sidebar.model.id_at(3)
    app.controller.library.add_tags([other], ["reinforcement-learning"])
    entry = w.pane.tag_editor.entry
    qtbot.mouseClick(entry, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(entry.hasFocus)
    qtbot.keyClicks(entry, "reinf")
    popup = entry.completer().popup()
    qtbot.waitUntil(popup.isVisible)
    assert popup.model().data(popup.model().index(0, 0)) == "reinforcement-learning"


def test_a_window_never_painted_gets_the_rest_anyway(qtbot, tmp_path):
    app = _build(qtbot, tmp_path)
    qtbot.waitUntil(lambda: not app.setup_pending(), timeout=10_000)
    assert app.poll.isActive()


def test_the_first_key_finds_every_shortcut(qtbot, tmp_path, monkeypatch):
    from reader.ui.idle import AfterFirstPaint

    # a key pressed after the first paint, before the steps got their turn
    monkeypatch.setattr(AfterFirstPaint, "_next", lambda self: None)
    app = _build(qtbot, tmp_path)
    w = app.window
    w.show()
    w.activateWindow()
    qtbot.waitUntil(w.isActiveWindow)
    assert app.setup_pending()
    first = w.pane.paper_id
    w.sidebar.view.setFocus()
    qtbot.keyClick(w.sidebar.view, Qt.Key.Key_J)  # a list-only shortcut
    assert not app.setup_pending()
    assert first == w.sidebar.model.ids()[0] != w.pane.paper_id == w.sidebar.model.ids()[1]


def test_input_runs_the_steps_left_before_it_is_handled(qtbot):
    from PySide6.QtWidgets import QLineEdit

    from reader.ui.idle import AfterFirstPaint

    seen: list[str] = []
    entry = QLineEdit()
    qtbot.addWidget(entry)
    entry.textEdited.connect(lambda text: seen.append(f"typed {text}"))

    def steps():
        seen.append("step 1")
        yield
        seen.append("step 2")

    after = AfterFirstPaint(QApplication.instance(), entry, steps)
    assert seen == []
    after.eventFilter(entry, QPaintEvent(entry.rect()))  # painted: now input is watched
    assert seen == []  # the steps wait for their turn in the event loop
    qtbot.keyClick(entry, "x")
    assert seen == ["step 1", "step 2", "typed x"]


def test_a_step_that_sends_input_itself_is_not_interrupted(qtbot):
    # steps are not watched while they run (and their own events, widgets made, do not
    # pass through Python): a key a step sends does not run the steps left in the middle
    from PySide6.QtWidgets import QLineEdit

    from reader.ui.idle import AfterFirstPaint

    seen: list[str] = []
    entry = QLineEdit()
    qtbot.addWidget(entry)

    def steps():
        seen.append("step 1")
        qtbot.keyClick(entry, "a")
        seen.append(f"step 1 typed {entry.text()}")
        yield
        seen.append("step 2")

    after = AfterFirstPaint(QApplication.instance(), entry, steps)
    after.eventFilter(entry, QPaintEvent(entry.rect()))
    qtbot.waitUntil(lambda: "step 2" in seen)
    assert seen == ["step 1", "step 1 typed a", "step 2"]
    qtbot.keyClick(entry, "b")  # done: nothing watched, nothing run again
    assert seen == ["step 1", "step 1 typed a", "step 2"] and entry.text() == "ab"


def test_idle_steps_stop_for_a_key_after_the_first_and_wait_again(qtbot, monkeypatch):
    # between steps the filters watch again: a key after step 1 puts step 2 off
    from PySide6.QtWidgets import QLineEdit

    from reader.ui.idle import WhenIdle

    monkeypatch.setattr(WhenIdle, "QUIET_MS", 1_000)
    seen: list[str] = []
    entry = QLineEdit()
    qtbot.addWidget(entry)

    def steps():
        seen.append("step 1")
        yield 300  # ms to the next step, unless a key puts it off
        seen.append("step 2")

    idle = WhenIdle(QApplication.instance(), entry, steps())
    qtbot.waitUntil(lambda: seen == ["step 1"], timeout=3_000)
    qtbot.keyClick(entry, "x")
    qtbot.wait(600)
    assert seen == ["step 1"]  # without the key, step 2 would have come 300 ms after step 1
    qtbot.waitUntil(lambda: seen == ["step 1", "step 2"], timeout=3_000)
    assert idle.done


def test_a_step_can_ask_for_a_pause_before_the_next(qtbot):
    from reader.ui.idle import IdleSteps

    times: list[float] = []

    def steps():
        times.append(time.perf_counter())
        yield 200  # ms
        times.append(time.perf_counter())

    IdleSteps(QApplication.instance(), steps())
    qtbot.waitUntil(lambda: len(times) == 2)
    assert times[1] - times[0] >= 0.18  # (a coarse timer, Qt's default, may fire 5% early)


def test_reading_a_deferred_attribute_builds_it(qtbot, tmp_path):
    app = _build(qtbot, tmp_path)
    assert app.setup_pending()
    assert app.actions.by_name["palette"].shortcuts()
    assert not app.setup_pending()


def test_typing_and_quitting_right_after_start_loses_nothing(qtbot, tmp_path):
    app = _build(qtbot, tmp_path)
    w = app.window
    w.show()
    pid = w.pane.paper_id
    editor = w.pane.note_editor.editor
    editor.setFocus()
    qtbot.keyClicks(editor, "typed at once")
    w.close()
    app.poll.stop()

    again = _build(qtbot, tmp_path)
    assert again.controller.library.annotation(pid).note == "typed at once"
    assert again.window.pane.paper_id == pid
    assert again.window.pane.note_editor.text() == "typed at once"


def test_quitting_before_anything_deferred_ran_saves_the_window_state(qtbot, tmp_path):
    app = _build(qtbot, tmp_path)
    w = app.window
    w.sidebar.move(2)
    pid = w.pane.paper_id
    w.close()  # before the first paint: the deferred steps never ran
    assert app.setup_pending()
    assert (tmp_path / "window.ini").exists()
    again = _build(qtbot, tmp_path)
    assert again.window.pane.paper_id == pid


def test_the_note_preview_follows_the_abstract(qtbot, tmp_path):
    app = _build(qtbot, tmp_path)
    w = app.window
    ids = w.sidebar.model.ids()
    app.controller.library.set_note(ids[1], "**Key** idea")
    w.sidebar.select_paper(ids[1])
    preview = w.pane.note_editor.preview
    assert "**Key**" not in preview.toPlainText()  # never the Markdown source
    qtbot.waitUntil(lambda: "Key idea" in preview.toPlainText())
    w.sidebar.select_paper(ids[2])  # no note: blank at once, not the last paper's
    assert preview.toPlainText() == ""


def test_the_note_of_the_paper_the_window_reopens_on_is_previewed(qtbot, tmp_path):
    first = _build(qtbot, tmp_path)
    pid = first.window.pane.paper_id
    first.controller.library.set_note(pid, "**Key** idea")
    first.window.close()
    app = _build(qtbot, tmp_path)  # opens on that paper, its note in the editor
    w = app.window
    assert w.pane.paper_id == pid and w.pane.note_editor.text() == "**Key** idea"
    w.show()
    preview = w.pane.note_editor.preview
    qtbot.waitUntil(lambda: preview.toPlainText() == "Key idea")  # rendered, not the source


FIRST_PAINT = """
import gc, tempfile
from pathlib import Path
from reader.core import collector
collector.hold()  # as reader.cli.main does
from reader.ui.app import build, make_qapplication
from PySide6.QtCore import QEvent, QObject, QSettings
qapp = make_qapplication(["paper-reader"])
folder = Path(tempfile.mkdtemp())
app = build(folder / "library", QSettings(str(folder / "w.ini"), QSettings.Format.IniFormat))
class Watch(QObject):
    painted = False
    def eventFilter(self, obj, event):
        self.painted = self.painted or event.type() == QEvent.Type.Paint
        return False
watch = Watch()
app.window.sidebar.view.viewport().installEventFilter(watch)
app.window.show()
while not watch.painted:
    qapp.processEvents()
sidebar = app.window.sidebar
print("painted", sidebar.model.rowCount(), sidebar.count_label.text(), qapp.style().name(),
      repr(qapp.styleSheet()))
while app.setup_pending():
    qapp.processEvents()
print("set up", gc.isenabled())
"""


def test_the_program_paints_every_paper_counted_in_its_style_and_runs_its_collector_after():
    # started as reader.cli.main starts it: its own QApplication, the garbage collector
    # held for the start (a program left without it would never free cycles)
    done = subprocess.run(
        [sys.executable, "-c", FIRST_PAINT],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
        timeout=120,
    )
    painted, after = done.stdout.splitlines()[-2:]
    assert painted == "painted 19 19 papers · 0 read fusion ''"
    assert after == "set up True"


def test_an_edit_before_the_search_exists_is_found_by_the_first_search(qtbot, tmp_path):
    app = _build(qtbot, tmp_path)
    sidebar = app.window.sidebar
    pid = sidebar.current_id()
    app.controller.set_status(Status.READ, [pid])
    assert not sidebar.index_made
    assert sidebar.count_label.text() == "19 papers · 1 read"
    qtbot.keyClicks(sidebar.search, "status:read")
    qtbot.waitUntil(lambda: sidebar.model.rowCount() == 1)
    assert sidebar.index_made and sidebar.model.id_at(0) == pid
    assert sidebar.count_label.text() == "1 of 19 papers · 1 read"
    app.controller.undo_stack.undo()  # the index, made now, follows edits
    qtbot.waitUntil(lambda: sidebar.model.rowCount() == 0)


def _facet_labels(view, groups: bool = False) -> list[str]:
    """The facets' items (with `groups`: their headings too, and the items indented)."""
    model, out = view.model(), []
    for r in range(model.rowCount()):
        group = model.index(r, 0)
        items = [model.index(c, 0, group).data() for c in range(model.rowCount(group))]
        out += [group.data(), *(f"  {item}" for item in items)] if groups else items
    return out


def test_typing_right_after_opening_says_searching_then_shows_the_matches(
    qtbot, tmp_path, small_search_steps
):
    # at 100k papers the search is ~1 s from ready when the window opens (saved indexes
    # taken up, texts built): each key waits for a step of that at most
    # (small_search_steps: the preparation takes many turns here too, so the window's
    # "Searching…" can be seen; what is checked is what the list and its counter show)
    app = _build(qtbot, tmp_path)
    sidebar = app.window.sidebar
    qtbot.keyClicks(sidebar.search, "distil")
    for _ in range(3):
        QApplication.processEvents()
    assert (
        sidebar.search.text() == "distil" and sidebar.model.rowCount() == 19
    )  # typed; not yet searched
    assert sidebar.count_label.text() == "Searching…"
    qtbot.keyClicks(sidebar.search, "lation")
    qtbot.waitUntil(lambda: sidebar.model.rowCount() < 19)
    library = app.controller.library
    assert sidebar.model.ids() == [
        p.id
        for p in library.full_papers(library.paper_ids())
        if "distillation" in (p.title + p.abstract).lower()
    ]
    assert sidebar.count_label.text() == f"{sidebar.model.rowCount()} of 19 papers · 0 read"


def test_edits_made_while_the_index_is_being_made_are_found_by_the_search(
    qtbot, tmp_path, monkeypatch
):
    # the index is made in parts (at 100k papers ~0.15 s, keys between them): MAKE_PART
    # makes the sample's several parts, and take_statuses brings an edit in between two;
    # what is checked is what the searches show
    from reader.core import index as index_module
    from reader.core.user_texts import UserTexts

    monkeypatch.setattr(index_module, "MAKE_PART", 4)
    app = _build(qtbot, tmp_path)
    sidebar, controller = app.window.sidebar, app.controller
    ids = controller.library.paper_ids()
    controller.set_status(Status.READING, ids[:3])  # annotations for the making to read
    edits: list[str] = []
    real_take = UserTexts.take_statuses

    def take_then_edit(self, annotations, rid):  # an edit after the annotations were read
        real_take(self, annotations, rid)
        if not edits:
            edits.append(ids[0])
            controller.set_status(Status.READ, [ids[0], ids[-1]])
            controller.add_tags(["later"], [ids[0]])

    monkeypatch.setattr(UserTexts, "take_statuses", take_then_edit)
    while not sidebar.index_made:
        sidebar.prepare_search()
    assert edits  # the edit came while the index was being made
    qtbot.keyClicks(sidebar.search, "status:read")
    qtbot.waitUntil(lambda: sidebar.model.rowCount() == 2)
    assert set(sidebar.model.ids()) == {ids[0], ids[-1]}
    sidebar.search.clear()
    qtbot.keyClicks(sidebar.search, "tag:later status:reading")
    qtbot.waitUntil(lambda: sidebar.model.rowCount() == 0)
    sidebar.search.clear()
    qtbot.keyClicks(sidebar.search, "tag:later")
    qtbot.waitUntil(lambda: sidebar.model.ids() == [ids[0]])


def test_a_facet_chosen_right_after_opening_waits_for_the_search_as_typing_does(
    qtbot, tmp_path, small_search_steps
):
    app = _build(qtbot, tmp_path)
    sidebar = app.window.sidebar
    read = sidebar.current_id()
    app.controller.set_status(Status.READ, [read])
    assert sidebar.facets.select_key(("status", "unread"), add=True)
    assert sidebar.search_pending and sidebar.count_label.text() == "Searching…"
    assert sidebar.model.rowCount() == 19  # not yet: no pause for the whole preparation
    qtbot.waitUntil(lambda: not sidebar.search_pending)
    assert sidebar.model.rowCount() == 18 and read not in sidebar.model.ids()
    assert sidebar.count_label.text() == "18 of 19 papers · 0 read"  # (of those shown)
