"""Hostile text in every field of the window, every tooltip hovered, every dialog and
message opened: nothing is shown as HTML of the user's, so nothing is loaded.

Qt renders text that looks like HTML as rich text in tooltips, labels and message
boxes, and rich text loads the files it names (QTextDocument::loadResource) from the
C++ documents of QLabel and QToolTip: overriding loadResource in Python does not reach
them, and PySide6 does not offer QTextDocument::setDefaultResourceProvider. So the
loads are watched where every one of them shows, in the kernel:

- the payloads name files in a probe folder watched with inotify (IN_OPEN, through
  ctypes): any open of any of them, from any code, is an event, queued before the
  open returns;
- one of them is a FIFO: opened for reading it would block the GUI thread for ever,
  so a watcher process opens its other end whenever a reader waits (a non-blocking
  open for writing succeeds only then) and lets the reader go (EOF). The FIFO is
  removed before the watcher stops, and a run that hangs all the same is aborted
  with every thread's traceback (faulthandler), never left stuck;
- `<img src="rel.png">` is relative: the test runs in the probe folder.

Before the fix the list's title tooltip alone opened the probe files hundreds of
times in the walk. The walk is Linux-only (inotify); the helpers' tests run anywhere."""

from __future__ import annotations

import ctypes
import faulthandler
import json
import os
import struct
import subprocess
import sys
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QAbstractListModel, QEvent, QModelIndex, QPoint, Qt, QTimer
from PySide6.QtGui import QHelpEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QApplication,
    QDialog,
    QHeaderView,
    QInputDialog,
    QLabel,
    QMenu,
    QMessageBox,
    QToolTip,
    QTreeView,
    QWidget,
)

from reader.core.models import Highlight, Paper
from reader.core.prefs import HIGHLIGHT_NAMES
from reader.core.prefs import TRIAGE_DECISIONS as TRIAGE_PREF
from reader.ui import plain
from reader.ui.main_window import MainWindow
from reader.ui.tag_manager import TagManager
from reader.ui.tasks import TaskRunner

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="inotify")

EVIL = "evil-paper"
#: labels of ours that show only static text of ours (AutoText, never rich)
STATIC_LABELS = {"Tags:", "Note", "Highlights"}
#: labels that show HTML we build from escaped text (checked: no tag of the user's)
OUR_HTML_LABELS = {"backlinks"}


# -- the probe ------------------------------------------------------------------------

IN_OPEN = 0x20
#: the longest the test may take: a hang (a FIFO opened with no watcher to let it go)
#: aborts the run with every thread's traceback instead of stalling the suite
HANG_SECONDS = 120
_WATCHER = textwrap.dedent(
    """
    import errno, os, sys, time
    fifo, parent = sys.argv[1], int(sys.argv[2])
    while os.getppid() == parent:
        try:
            fd = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
        except FileNotFoundError:
            break
        except OSError as exc:
            if exc.errno != errno.ENXIO:
                raise
            time.sleep(0.002)  # no reader waits: look again
            continue
        os.close(fd)  # a reader waited: it goes on, and reads EOF
    """
)


class Probe:
    """Files the payloads name, watched: every open of one, from any code, is seen."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        folder.mkdir()
        for name in ("passwd", "rel.png", "style.css", "page.html"):
            (folder / name).write_text("root:x:0:0::/root:/bin/sh\n")
        self.fifo = folder / "fifo"
        os.mkfifo(self.fifo)
        self._libc = ctypes.CDLL(None, use_errno=True)
        self._fd = self._libc.inotify_init1(os.O_NONBLOCK | os.O_CLOEXEC)
        if self._fd < 0:
            pytest.skip(f"no inotify (errno {ctypes.get_errno()})")
        if self._libc.inotify_add_watch(self._fd, str(folder).encode(), IN_OPEN) < 0:
            pytest.skip(f"cannot watch {folder} (errno {ctypes.get_errno()})")
        self._watcher = subprocess.Popen(
            [sys.executable, "-c", _WATCHER, str(self.fifo), str(os.getpid())]
        )
        self.opened: list[str] = []

    def payloads(self) -> list[str]:
        p = self.folder
        return [
            f'<img src="{p}/passwd"> t',
            f'<img src="{self.fifo}">',
            f'<img src="file://{self.fifo}">',
            '<img src="rel.png">',
            f'<a href="file://{p}/page.html">x</a>',
            f'<link rel="stylesheet" href="{p}/style.css">',
            f"<style>@import url({p}/style.css);</style>s",
            '<img src="/etc/passwd">',
            '<a href="file:///etc/passwd">x</a>',
            "<b>bold</b>",
            "<table>" * 12 + "deep" + "</table>" * 12,
        ]

    def seen(self) -> list[str]:
        """The probe files opened so far. The kernel queues an open's event before the
        open returns, so every open made before this call is in it. (An open of the
        FIFO is seen twice: the reader's, then the watcher's that lets it go; the
        watcher's own tries succeed only when a reader waits.)"""
        assert self._watcher.poll() is None, "the FIFO watcher died"
        while True:
            try:
                data = os.read(self._fd, 1 << 16)
            except BlockingIOError:
                return self.opened
            off = 0
            while off < len(data):
                _wd, _mask, _cookie, size = struct.unpack_from("iIII", data, off)
                self.opened.append(data[off + 16 : off + 16 + size].rstrip(b"\0").decode())
                off += 16 + size

    def close(self) -> None:
        """Stop watching. The FIFO goes first, while the watcher still answers: an open
        after this finds no file (whatever the window still shows while it closes)."""
        self.fifo.unlink()
        self._watcher.wait(10)  # (it ends when the FIFO is gone)
        os.close(self._fd)


@pytest.fixture
def probe(tmp_path, monkeypatch):
    """The probe folder, watched; a test asks for it before `qtbot`, so it is watched
    until every window has closed (closing, they may show the hostile text again)."""
    if not sys.platform.startswith("linux"):
        pytest.skip("inotify")
    made = Probe(tmp_path / "probe")
    monkeypatch.chdir(made.folder)  # where `<img src="rel.png">` is looked for
    faulthandler.dump_traceback_later(HANG_SECONDS, exit=True)
    try:
        yield made
    finally:
        for top in QApplication.topLevelWidgets():
            top.close()
        QApplication.processEvents()
        made.close()
        faulthandler.cancel_dump_traceback_later()


@pytest.fixture
def app(probe, make_app):
    """The window, made after the probe and closed before it: whatever it shows of the
    hostile text while it closes finds the FIFO watched."""
    return make_app()


# -- filling the window with hostile text ----------------------------------------------------


def hostile_text(payloads: list[str]) -> str:
    return "Evil " + " ".join(payloads)


def fill(app, payloads: list[str], *, tags: list[str] | None = None) -> str:
    """A paper, its annotation, smart lists, tag colours, colour names and triage
    decisions full of `payloads`; the paper shown. Its id."""
    lib = app.controller.library
    text = hostile_text(payloads)
    quote = "plain words to highlight"
    lib.add_papers(
        [
            Paper(
                EVIL,
                text,
                tuple(payloads),
                f"{text} {quote} {text}",
                venue=text,
                year=2025,
                url=f"https://example.org/{payloads[0]}",
                presentation=payloads[-1],
                track=payloads[0],
                doi=payloads[1],
                source=payloads[0],
            )
        ]
    )
    tags = tags if tags is not None else [p[:200] for p in payloads] + ["R&D", "a\tb"]
    lib.add_tags([EVIL], tags)
    lib.set_note(EVIL, text + "\n\n" + "\n".join(payloads))
    lib.set_highlights(
        EVIL,
        [
            Highlight("h1", quote, "", "", "yellow", text, "2025-01-01T00:00:00Z"),
            Highlight("h2", "not in the abstract", "", "", "blue", payloads[0], ""),
        ],
    )
    for n, payload in enumerate(payloads):
        lib.save_search(f"{n} {payload}"[:200], f"tag:{n}")
    lib.set_tag_colours({tags[0]: "#cc3344", "R&D": "#3344cc"})
    lib.prefs.set(HIGHLIGHT_NAMES, [p[:40] for p in payloads[:4]])
    lib.prefs.set(
        TRIAGE_PREF,
        [{"key": "e", "kind": "tag", "value": "evil", "label": payloads[0]}],
    )
    w = app.window
    app.finish_setup()
    from reader.core.triage import stored_decisions

    app.triage.set_decisions(stored_decisions(lib))
    w.sidebar.search.clear()
    w.sidebar.apply_filters()
    w.sidebar.refresh_facets()
    assert w.sidebar.select_paper(EVIL)
    assert w.pane.paper_id == EVIL
    return EVIL


# -- walking it ------------------------------------------------------------------------------


def _indexes(model, parent: QModelIndex = QModelIndex()) -> Iterator[QModelIndex]:  # noqa: B008
    """Every index of a model, children too (a list model has one column, no children)."""
    flat = isinstance(model, QAbstractListModel)
    for row in range(model.rowCount(parent)):
        for col in range(1 if flat else model.columnCount(parent)):
            index = model.index(row, col, parent)
            yield index
            if not flat and col == 0 and model.rowCount(index):
                yield from _indexes(model, index)


def _is_tip(widget: QWidget) -> bool:
    return widget.objectName() == "qtooltip_label"


def _widgets(roots: list[QWidget] | None = None) -> list[QWidget]:
    out: list[QWidget] = []
    for top in roots if roots is not None else QApplication.topLevelWidgets():
        if _is_tip(top):
            continue
        out.append(top)
        out.extend(w for w in top.findChildren(QWidget) if not _is_tip(w))
    return out


def _help(widget: QWidget, pos: QPoint) -> None:
    event = QHelpEvent(QEvent.Type.ToolTip, pos, widget.mapToGlobal(pos))
    QApplication.sendEvent(widget, event)
    QToolTip.hideText()


def hover_everything(roots: list[QWidget] | None = None) -> list[str]:
    """Hover the tooltip of every widget and of every item of every item view (in
    `roots`, default all windows), then paint every window; the tooltips seen."""
    tips: list[str] = []
    for widget in _widgets(roots):
        if widget.toolTip():
            tips.append(widget.toolTip())
            _help(widget, widget.rect().center())
        if (
            isinstance(widget, QAbstractItemView)
            and not isinstance(widget, QHeaderView)  # (its model is its view's)
            and widget.model() is not None
        ):
            if isinstance(widget, QTreeView):
                widget.expandAll()
            for index in _indexes(widget.model()):
                tip = index.data(Qt.ItemDataRole.ToolTipRole)
                if tip:
                    tips.append(str(tip))
                widget.scrollTo(index, QAbstractItemView.ScrollHint.EnsureVisible)
                rect = widget.visualRect(index)
                if rect.isValid() and widget.viewport().rect().contains(rect.center()):
                    _help(widget.viewport(), rect.center())
                elif tip:  # (not on screen: shown as the view would show it)
                    QToolTip.showText(widget.mapToGlobal(QPoint(1, 1)), str(tip), widget)
                    QToolTip.hideText()
    for widget in roots if roots is not None else QApplication.topLevelWidgets():
        if widget.isVisible() and not _is_tip(widget):
            widget.grab()  # every paint event too
    return tips


def label_problems(roots: list[QWidget] | None = None) -> list[str]:
    """Labels that may show text of the user's as HTML. Those of the window itself
    must be PlainText (or show static text, or HTML built from escaped text); those
    of Qt's own dialogs (a message box, an input dialog) may show HTML we built."""
    bad = []
    for label in (w for w in _widgets(roots) if isinstance(w, QLabel)):
        text, fmt = label.text(), label.textFormat()
        if fmt == Qt.TextFormat.PlainText or not text:
            continue
        window = label.window()
        where = f"{type(window).__name__}/{label.objectName() or type(label).__name__}"
        if label.objectName() in OUR_HTML_LABELS:
            if "<img" in text or "<b>" in text:
                bad.append(f"{where}: {text[:80]!r}")
        elif text in STATIC_LABELS:
            continue
        elif fmt == Qt.TextFormat.RichText or not plain.is_safe_html(text):
            bad.append(f"{where} ({fmt.name}): {text[:80]!r}")
        elif isinstance(window, MainWindow) and plain.might_be_rich(text):
            bad.append(f"{where}: shows HTML, PlainText expected: {text[:80]!r}")
    return bad


def _answer(dialog: QWidget, yes: bool = False) -> None:
    """Close a dialog as the user would: No (or Yes) in a message box, else Cancel."""
    if isinstance(dialog, QMessageBox):
        button = dialog.button(
            QMessageBox.StandardButton.Yes if yes else QMessageBox.StandardButton.No
        )
        if button is not None:
            button.click()
            return
    if isinstance(dialog, QDialog):
        dialog.reject()


def run_modals(qtbot, trigger: Callable[[], object], *steps) -> list[str]:
    """Trigger an action that opens modal dialogs one after another, each step a
    (kind, handle): the dialog's labels are checked and its tooltips hovered while
    it is shown, then `handle(dialog)` answers it. The label problems seen."""
    problems: list[str] = []
    done: list[QWidget] = []

    def poll() -> None:
        kind, handle = steps[len(done)]
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, kind):
            QTimer.singleShot(10, poll)
            return
        done.append(dialog)
        try:
            hover_everything([dialog])
            problems.extend(label_problems([dialog]))
            handle(dialog)
        finally:
            if dialog.isVisible():
                dialog.close()
            if len(done) < len(steps):
                QTimer.singleShot(0, poll)

    QTimer.singleShot(0, poll)
    trigger()
    qtbot.waitUntil(lambda: len(done) == len(steps), timeout=5_000)
    return problems


# -- the walk --------------------------------------------------------------------------------


def walk(qtbot, app, payloads: list[str]) -> tuple[list[str], list[str]]:
    """Everything the window can show of the hostile paper: (tooltips, label problems)."""
    from reader.ui.actions import list_context_menu

    w = app.window
    lib = app.controller.library
    tips = hover_everything()
    problems = label_problems()

    # the list's context menu with its Remove Tag submenu
    menu = list_context_menu(app.controller, app.actions, QPoint(2, 2))
    menu.popup(QPoint(10, 10))
    for sub in menu.findChildren(QMenu):
        shown = [plain.strip_mnemonics(a.text()) for a in sub.actions()]
        assert "R&D" in shown and "a b" in shown  # `&` shown, not a mnemonic; no tab
        sub.popup(QPoint(20, 20))
        sub.grab()
        sub.close()
    menu.close()
    # the dialogs that stay open: tag manager, palette, cheat sheet, colour names;
    # and the triage bar with its buttons
    app.actions.manage_tags.trigger()
    manager = next(t for t in QApplication.topLevelWidgets() if isinstance(t, TagManager))
    evil_tag = next(t for t in lib.tags(EVIL) if "<" in t)
    app.actions.palette.trigger()
    app.actions.cheatsheet.trigger()
    app.highlighter.rename_colours()
    app.actions.triage.trigger()
    tips += hover_everything()
    problems += label_problems()

    # modal dialogs, as the user opens them
    reject = _answer
    assert manager.select(evil_tag)
    problems += run_modals(qtbot, manager.delete, (QMessageBox, reject))

    def rename_onto_existing(dialog: QInputDialog) -> None:
        dialog.setTextValue("R&D")  # an existing tag: the merge question follows
        dialog.accept()

    assert manager.select(evil_tag)
    problems += run_modals(
        qtbot, manager.rename, (QInputDialog, rename_onto_existing), (QMessageBox, reject)
    )
    assert evil_tag in lib.tags(EVIL)
    manager.close()
    problems += run_modals(qtbot, lambda: app.highlighter.comment("h1"), (QInputDialog, reject))
    w.sidebar.search.setText(hostile_text(payloads))
    problems += run_modals(qtbot, app.actions.save_search.trigger, (QInputDialog, reject))
    w.sidebar.search.clear()
    problems += run_modals(qtbot, app.actions.delete_search.trigger, (QInputDialog, reject))

    def bad_triage_keys(dialog: QInputDialog) -> None:
        dialog.setTextValue(f"xx tag {evil_tag}")  # refused: the warning echoes the line
        dialog.accept()

    problems += run_modals(qtbot, app.actions.triage_setup.trigger, (QInputDialog, bad_triage_keys))

    # errors: a save that failed; imports that failed, their messages echoing JSON keys,
    # a CSV header and a file name (the files outside the probe folder: opening them
    # is ours)
    app.controller.save_failed.emit(hostile_text(payloads))
    assert "Evil" in w.statusBar().currentMessage()
    outside = Path.cwd().parent
    keys = outside / "keys.json"
    keys.write_text(json.dumps(dict.fromkeys(payloads, 1)))
    header = outside / '<img src="rel.png"> t.csv'
    header.write_text(",".join(['<img src="rel.png">', payloads[0], "year"]) + "\n1,2,3\n")
    w.transfers._runner = TaskRunner(synchronous=True)
    for bad, echoed in ((keys, "keys"), (header, "header")):
        w.transfers.import_files([bad])
        assert echoed in w.statusBar().currentMessage()
    boxes = [b for b in QApplication.topLevelWidgets() if isinstance(b, QMessageBox)]
    shown = " ".join(b.text() + b.detailedText() for b in boxes)
    assert "keys" in shown and "header" in shown and "Evil" in shown, shown[:300]
    assert '<img src="rel.png">' in shown  # shown as typed
    tips += hover_everything()
    problems += label_problems()
    for box in boxes:
        box.close()
    return tips, problems


def tooltip_problems(tips: list[str]) -> list[str]:
    return [t[:120] for t in tips if not plain.is_safe_html(t)]


# -- the tests -------------------------------------------------------------------------------


#: the tooltips with hostile text, as each surface words them (checked: all were seen)
HOSTILE_TIPS = {
    "the list's title": "Evil &lt;img",
    "a venue facet": "Venue: Evil &lt;img",
    "a tag facet": "Tags: &lt;img",
    "a smart list facet": "Smart lists: 0 &lt;img",
    "a tag chip": "Remove tag “&lt;img",
    "a highlight's comment": " · Evil &lt;img",
}


@linux_only
def test_hostile_window_loads_nothing(probe, qtbot, app):
    fill(app, probe.payloads())
    tips, problems = walk(qtbot, app, probe.payloads())
    opened = probe.seen()
    assert opened == [], f"rich text loaded {len(opened)} file(s): {sorted(set(opened))}"
    assert tooltip_problems(tips) == []
    assert problems == []
    unseen = [
        surface for surface, words in HOSTILE_TIPS.items() if not any(words in tip for tip in tips)
    ]
    assert unseen == [], "the walk missed the tooltips of " + ", ".join(unseen)


# -- the helpers (anywhere) ------------------------------------------------------------------

HOSTILE = '<img src="/dev/zero"> t & <b>x</b>\n  second line'


def test_tooltip_and_html_escape_every_tag():
    tip = plain.tooltip(HOSTILE)
    assert plain.is_safe_html(tip) and plain.might_be_rich(tip)
    assert "&lt;img" in tip and "<img" not in tip and "&amp;" in tip
    assert plain.tooltip("") == "" and plain.html("") == ""
    assert not plain.is_safe_html(HOSTILE)
    assert not plain.is_safe_html(plain.HTML_OPEN + "<img src=x>" + plain.HTML_CLOSE)
    long = plain.tooltip("w" * 1_000_000)
    assert len(long) < plain.MAX_TOOLTIP_CHARS + 100 and long.endswith("…" + plain.HTML_CLOSE)


def test_labels_and_message_boxes_are_plain(qtbot):
    label = plain.PlainLabel(HOSTILE)
    qtbot.addWidget(label)
    assert label.textFormat() == Qt.TextFormat.PlainText and label.text() == HOSTILE
    other = plain.plain_label(QLabel())
    assert other.textFormat() == Qt.TextFormat.PlainText
    box = plain.message(None, QMessageBox.Icon.Warning, HOSTILE, HOSTILE * 400, ["more"])
    qtbot.addWidget(box)
    assert box.textFormat() == Qt.TextFormat.PlainText
    assert len(box.text()) <= plain.MAX_MESSAGE_CHARS + 1
    assert HOSTILE * 400 in box.detailedText() and box.detailedText().endswith("more")
    assert "\n" not in box.windowTitle()
    short = plain.message(None, QMessageBox.Icon.Information, "t", "all of it")
    qtbot.addWidget(short)
    assert short.text() == "all of it" and short.detailedText() == ""


@pytest.mark.parametrize(
    ("helper", "text", "shown"),
    [
        (plain.action_text, "R&D\tlab", "R&&D lab"),
        (plain.strip_mnemonics, "&Undo R&&D", "Undo R&D"),
        (plain.one_line, " a\n\n b\t c ", "a b c"),
        (plain.window_title, "draft [*]\nnew", "draft [*][*] new"),
    ],
)
def test_line_helpers(helper, text, shown):
    assert helper(text) == shown
