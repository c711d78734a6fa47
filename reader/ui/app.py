"""QApplication set-up; the composition root that builds every object and wires them."""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QLocale, QObject, QSettings, QTimer
from PySide6.QtGui import QUndoStack
from PySide6.QtWidgets import QApplication

from reader import __version__, language
from reader.core import collector, say, tex
from reader.core.library import Library
from reader.opening import OpenedLibrary, open_library, seeded_notice
from reader.store.storage import StorageError
from reader.ui import i18n, plain, resources
from reader.ui.controller import PaperController
from reader.ui.facets import FacetPanel
from reader.ui.i18n import Counted, fill
from reader.ui.idle import AfterFirstPaint, WhenIdle
from reader.ui.interest import INTEREST, LIKE, Interest
from reader.ui.main_window import MainWindow
from reader.ui.reader_view import ReaderPane, paper_html
from reader.ui.settings import WindowSettings, WindowState, open_settings
from reader.ui.sidebar import Sidebar
from reader.ui.theme import Appearance
from reader.ui.transfer import Transfers

if TYPE_CHECKING:
    from reader.core.index import SearchIndex
    from reader.ui.actions import Actions
    from reader.ui.catch_up import CatchUp
    from reader.ui.highlights import Highlighter
    from reader.ui.note_links import NoteLinks
    from reader.ui.tasks import TaskRunner
    from reader.ui.triage import Triage, TriageBar

translate = QCoreApplication.translate

#: the Fusion style everywhere (one look to test), asked for on Qt's command line:
#: QApplication.setStyle() would load QStyle into Python (~10 ms of the start)
QT_ARGS = ("-style", "Fusion")
#: how long the index's idle steps pause while the catalogue's index takes files in
INDEX_WAIT_MS = 100
#: how often the window looks for changes another process made to the library
OUTSIDE_CHANGES_POLL_MS = 1000
#: a backup of annotations.json at most this often while the window is open
BACKUP_EVERY_S = 3600
BACKUP_CHECK_MS = 10 * 60 * 1000


class App:
    """Everything the composition root built, for run() and for tests.

    The features the first paint does not show (actions and menus, triage,
    highlighting, note links) are built right after it, a step per event-loop turn,
    or all at once before the user's first input (AfterFirstPaint); reading one of
    them here before then builds them at once too."""

    def __init__(
        self,
        window: MainWindow,
        controller: PaperController,
        opened: OpenedLibrary,
        settings: WindowSettings,
        poll: QTimer,
        interest: Interest,
    ) -> None:
        self.window = window
        self.controller = controller
        self.opened = opened
        self.settings = settings
        self.poll = poll
        #: predicted interest (triage's order, the sort, More Like This)
        self.interest = interest
        #: the last "could not re-read" told, not told again while it stays the same
        self.refresh_error: str | None = None
        self.after_paint: AfterFirstPaint | None = None
        #: taking in the papers of an index made anew (None: it took them all at once)
        self.catch_up: CatchUp | None = None
        self._actions: Actions | None = None
        self._triage: Triage | None = None
        self._highlighter: Highlighter | None = None
        self._note_links: NoteLinks | None = None

    def setup_pending(self) -> bool:
        """True until every step after the first paint has run."""
        return self.after_paint is not None and not self.after_paint.done

    def finish_setup(self) -> None:
        """Every step left after the first paint, now (as the user's first input does)."""
        if self.after_paint is not None:
            self.after_paint.run_all()

    @property
    def actions(self) -> Actions:
        self.finish_setup()
        assert self._actions is not None
        return self._actions

    @property
    def triage(self) -> Triage:
        self.finish_setup()
        assert self._triage is not None
        return self._triage

    @property
    def triage_bar(self) -> TriageBar:
        return self.triage.bar

    @property
    def highlighter(self) -> Highlighter:
        self.finish_setup()
        assert self._highlighter is not None
        return self._highlighter

    @property
    def note_links(self) -> NoteLinks:
        self.finish_setup()
        assert self._note_links is not None
        return self._note_links

    def save_state(self) -> None:
        w = self.window
        self.settings.save(
            WindowState(
                geometry=w.saveGeometry(),
                window_state=w.saveState(),
                panes=w.splitter.saveState(),
                reader_splitter=w.pane.splitter.saveState(),
                last_paper=w.pane.paper_id,
                sort_key=w.sidebar.chosen_sort()[0],
                sort_descending=int(w.sidebar.chosen_sort()[1]),
                zoom=w.appearance.zoom,
                theme=w.appearance.theme,
                table_view=int(w.sidebar.model.table),
                table_header=w.sidebar.view.horizontalHeader().saveState(),
                title_lines=w.sidebar.view.title_lines(),
            )
        )


def build(
    folder: Path,
    settings: QSettings | None = None,
    runner: TaskRunner | None = None,
    lang: str | None = None,
) -> App:
    """Open the library in `folder` and build the window (not shown). Tests pass a
    synchronous TaskRunner. The window speaks `lang` (--lang), else the language View →
    Language chose for this library, else the system's (reader.language.resolve).

    Only what the first paint shows is built here; the rest (the window icon, actions
    and menu items, triage, highlighting, note links, polling, backups) follows in
    small steps right after the first paint, or at once on the user's first input;
    the search index is made and warmed in idle steps of its own (or by a search)."""
    qapp = QApplication.instance()
    assert isinstance(qapp, QApplication), "build() needs a QApplication"
    # the language first: what opening the library says is said in it (a new library's
    # folder is made by opening it, and has no settings yet)
    if settings is None and folder.is_dir():
        settings = open_settings(folder)
    chosen = WindowSettings(settings).language() if settings is not None else None
    i18n.use(language.resolve(lang or chosen, None, QLocale.system().name()), qapp)
    opened = open_library(folder, early=True)
    library = opened.library
    store = WindowSettings(settings or open_settings(folder))
    state = store.load()
    appearance = Appearance(qapp)
    appearance.set_theme(state.theme)  # before the first widget: nothing to restyle yet
    undo_stack = QUndoStack()
    facets = FacetPanel(saved=library.prefs.saved_searches())
    told: list[MainWindow] = []  # (the window, made below, tells what befalls the index)
    sidebar = Sidebar(library, lambda: _search_index(opened, told[0]), facets)
    sidebar.index_waits = True  # the facet counts wait for the first paint (_later_steps)
    pane = ReaderPane()
    controller = PaperController(library, sidebar, pane, undo_stack)
    undo_stack.setParent(controller)
    transfers = Transfers(library, runner)
    appearance.add_zoomables([pane.browser, pane.note_editor.preview, pane.note_editor.editor])
    interest = Interest(library)
    sidebar.use_interest(interest)
    window = MainWindow(controller, transfers, appearance, "Paper Reader")
    interest.setParent(window)
    window.language_changed.connect(follow_reason(interest, sidebar, pane))
    told.append(window)
    controller.setParent(window)

    appearance.set_zoom(state.zoom)
    if state.geometry is not None:
        window.restoreGeometry(state.geometry)
    if state.panes is not None:
        window.splitter.restoreState(state.panes)
    if state.reader_splitter is not None:
        pane.splitter.restoreState(state.reader_splitter)
    if state.title_lines == 2:
        sidebar.view.set_title_lines(2)
    if state.table_view:
        sidebar.set_table(True)
        if state.table_header is not None:
            sidebar.view.horizontalHeader().restoreState(state.table_header)
    if (state.sort_key, state.sort_descending) != ("library", 0):
        sidebar.set_sort(state.sort_key, bool(state.sort_descending))
    if not (state.last_paper and sidebar.select_paper(state.last_paper)):
        sidebar.move(0)
    sidebar.view.setFocus()
    # the first note's preview waits for the first paint (Markdown loads in ~150 ms)
    preview_held = pane.note_editor.hold_preview()

    poll = QTimer(window, interval=OUTSIDE_CHANGES_POLL_MS)
    # take the loaded library out of the garbage collector's scans (150-700 ms
    # pauses at 100k papers); again once the index is warm
    gc.freeze()
    app = App(window, controller, opened, store, poll, interest)
    poll.timeout.connect(lambda: _refresh(app))
    window.closing.connect(app.save_state)
    # what the window holds is written back first if a file was damaged meanwhile
    # (papers.json here, annotations.json by the close backup's fold)
    window.closing.connect(lambda: _backup(opened, controller, "close"))
    # the library as merged now, for the next open (after the backup's fold)
    window.closing.connect(opened.folder.keep_view)
    window.closing.connect(lambda: _print_problems(app))
    window.closing.connect(sidebar.close_search)
    for notice in opened.notices:
        if opened.seeded and notice == seeded_notice(folder, opened.seeded):
            notice = fill(Counted().seeded(opened.seeded), str(folder))  # (in its language)
        window.statusBar().showMessage(plain.one_line(notice), 10_000)
    if opened.messages:
        window.warn("\n\n".join(opened.messages))
    app.after_paint = AfterFirstPaint(
        qapp, sidebar.view.viewport(), lambda: _later_steps(app, preview_held)
    )
    NeighbourPrefetch(sidebar, library, pane)
    if opened.folder.catching_up():  # (an index made anew: its first papers listed)
        from reader.ui.catch_up import CatchUp

        app.catch_up = CatchUp(library, window.statusBar(), window)
        window.closing.connect(opened.folder.stop_taking)
    return app


def _search_index(opened: OpenedLibrary, window: MainWindow) -> Generator[None, None, SearchIndex]:
    """The search index of the opened library made in parts, the catalogue's words in
    its index in the cache folder (worded after the first paint by its idle steps, or
    by the first search or facet count)."""
    from reader.core.index import SearchIndex

    return SearchIndex.in_steps(opened.library, opened.folder.words())


def _later_steps(app: App, preview_held: bool) -> Iterator[None]:
    """What start-up leaves for after the first paint, one step per event-loop turn
    (all at once before the user's first input: see AfterFirstPaint), then the
    preloads while idle."""
    window = app.window
    collector.release()  # held by the program's start (reader.cli) until this first paint
    window.setWindowIcon(resources.app_icon())  # the window manager draws it, not our first paint
    yield
    yield from _features(app)
    app.poll.start()
    backup_timer = QTimer(window, interval=BACKUP_CHECK_MS)
    backup_timer.timeout.connect(lambda: _backup(app.opened, app.controller, "hourly"))
    backup_timer.start()
    # not owed to the first input, and run while keyboard and mouse are idle: the
    # search index, made and warmed a step at a time (a search or a facet count
    # prepares it as far as it needs); the first note's preview (Markdown), pylatexenc
    # (a first key pressed early waited ~200 ms for them)
    window.sidebar.stop_waiting_for_index()
    qapp = QApplication.instance()
    assert isinstance(qapp, QApplication)
    # a query typed and waiting for the search's preparation makes its steps: these
    # stand aside meanwhile (not two steps a turn)
    sidebar = window.sidebar
    WhenIdle(qapp, window, _index_steps(sidebar), held=lambda: sidebar.search_pending)
    WhenIdle(qapp, window, _preloads(app, preview_held), held=lambda: sidebar.search_pending)


def _features(app: App) -> Iterator[None]:
    """The window's features, built one a step: each attaches itself to the window
    through its menu bar, status bar and add_above_reader()."""
    from reader.core.triage import stored_decisions
    from reader.ui.actions import build_actions, build_menus
    from reader.ui.highlights import build_highlighter
    from reader.ui.language_menu import add_language_menu
    from reader.ui.note_links import NoteLinks
    from reader.ui.theme import flat_scroll_bars
    from reader.ui.triage import Triage, TriageBar
    from reader.ui.window_actions import add_window_actions

    window, controller = app.window, app.controller
    controller.offer_known_tags()
    yield
    actions = app._actions = build_actions(window, controller, window.transfers)
    yield
    bar = TriageBar(window)
    window.add_above_reader(bar)
    decisions = stored_decisions(controller.library)
    triage = app._triage = Triage(controller, bar, decisions, app.interest)
    add_window_actions(window, actions, triage, app.interest, app.opened.folder.folder)
    yield
    build_menus(window, actions)
    add_language_menu(
        window.menus["&View"],
        actions,
        app.settings.language(),
        lambda code: choose_language(app, code),
    )
    window.language_changed.connect(actions.retranslate)
    yield
    app._highlighter = build_highlighter(window, controller, actions)
    yield
    note_links = app._note_links = NoteLinks(window, controller)
    window.language_changed.connect(lambda: note_links.show_backlinks(window.pane.paper_id))
    yield
    flat_scroll_bars(window)


def choose_language(app: App, code: str | None) -> None:
    """View → Language: `code` (None: the system's) remembered in the library's
    window.ini and used at once (every widget says its texts again)."""
    app.settings.set_language(code)
    i18n.use(code or language.resolve(None, None, QLocale.system().name()))


def _index_steps(sidebar: Sidebar) -> Generator[int | None, None, None]:
    """Make and prepare the search index as a search does (Sidebar.prepare_search),
    a few ms at a time; then freeze what it made out of the collector's scans."""
    while not sidebar.prepare_search():
        yield INDEX_WAIT_MS if sidebar.index_waiting else None
    gc.freeze()


def _preloads(app: App, preview_held: bool) -> Generator[None, None, None]:
    """The first note's preview, and what is loaded while idle so that it is ready
    when first needed: the first note shown would otherwise wait ~100 ms for Markdown
    to load, the first abstract with more than simple TeX ~30 ms for pylatexenc, the
    first import ~20 ms for its modules."""
    yield
    import markdown  # noqa: F401  (~35 ms: a step of its own)

    yield
    import markdown.extensions.fenced_code  # noqa: F401  (~25 ms with Pygments, if installed)

    yield
    from reader.render import notes

    notes.note_html("*Markdown* is ready")  # (its converter: ~10 ms)
    if preview_held:
        yield
        app.window.pane.note_editor.render_preview()
    yield
    tex.load_parser()
    yield
    import reader.formats.common  # noqa: F401  (~15 ms with these: File → Import's)
    import reader.importing  # noqa: F401
    import reader.ui.tasks  # noqa: F401


def follow_reason(interest: Interest, sidebar: Sidebar, pane: ReaderPane) -> Callable[[], None]:
    """The pane says why the paper shown stands where it does while the list is in a
    learnt order: its score, and the words, co-authors and venue that weigh most.
    Returns what says it again (in another language)."""

    def show(*_args: object) -> None:
        key = sidebar.sort_key()[0]
        pid = pane.paper_id
        pane.set_reason(interest.why(key, pid) if key in (INTEREST, LIKE) and pid else "")

    pane.paper_shown.connect(show)
    interest.changed.connect(show)
    sidebar.filtered.connect(show)
    return show


class NeighbourPrefetch(QObject):
    """Once the list is idle after a paper was shown, parses the TeX of the papers
    next to it, so j/k (the usual way through a list) finds them ready."""

    IDLE_MS = 150  # a pause to read, not j held down (auto-repeat is ~30 ms)

    def __init__(self, sidebar: Sidebar, library: Library, pane: ReaderPane) -> None:
        super().__init__(pane)
        self._sidebar = sidebar
        self._library = library
        self._timer = QTimer(self, singleShot=True, interval=self.IDLE_MS)
        self._timer.timeout.connect(self._prefetch)
        pane.paper_shown.connect(lambda pid: pid and self._timer.start())

    def _prefetch(self) -> None:
        model = self._sidebar.model
        row, count = self._sidebar.view.currentIndex().row(), model.rowCount()
        for near in (row + 1, row - 1):
            pid = model.id_at(near) if row >= 0 and 0 <= near < count else ""
            if pid and pid in self._library:
                paper_html(self._library.full_paper(pid))  # the parse is cached (reader.core.tex)


def _backup(opened: OpenedLibrary, controller: PaperController, when: str) -> None:
    """A verified backup of the annotations: on close, and hourly while in use."""
    try:
        if when == "close":
            opened.backups.take("close")
        else:
            opened.backups.take_if_due(max_age_s=BACKUP_EVERY_S)
    except StorageError as exc:
        controller.save_failed.emit(fill(translate("App", "Backup failed: %1"), str(exc)))


def _refresh(app: App) -> None:
    """Take in what other programs wrote. If annotations.json was damaged, deleted or
    lost saves meanwhile, the store writes back what the window holds (the damaged
    copy kept aside); whatever it found is told once, in a message box that leaves
    the user working and in the status bar."""
    controller, folder = app.controller, app.opened.folder
    try:
        controller.library.refresh()
    except StorageError as exc:
        message = fill(translate("App", "Could not re-read the library: %1"), str(exc))
        if message != app.refresh_error:  # (not every poll: once while it lasts)
            app.refresh_error = message
            controller.save_failed.emit(message)
    else:
        app.refresh_error = None
    told = folder.take_problems()
    if told:
        app.window.warn("\n\n".join(told))


def _print_problems(app: App) -> None:
    """What the store did as the window closed, printed: no box outlives the window."""
    for told in app.opened.folder.take_problems():
        print(f"paper-reader: {told}", file=sys.stderr)


def make_qapplication(argv: list[str]) -> QApplication:
    existing = QApplication.instance()
    if isinstance(existing, QApplication):
        return existing
    qapp = QApplication([*(argv[:1] or ["paper-reader"]), *QT_ARGS, *argv[1:]])
    qapp.setApplicationName("Paper Reader")
    qapp.setApplicationVersion(__version__)
    qapp.setOrganizationName("paper-reader")
    qapp.setDesktopFileName("paper-reader")
    return qapp


def install_quit_signals(qapp: QApplication) -> QObject:
    """Quit cleanly (saving typed text) on SIGTERM, SIGINT and SIGHUP.

    A Python signal handler only runs when the interpreter gets control, which
    never happens while Qt's event loop idles; the wakeup fd wakes Qt up."""
    import signal
    import socket

    from PySide6.QtCore import QSocketNotifier

    reader_sock, writer_sock = socket.socketpair()
    for sock in (reader_sock, writer_sock):
        sock.setblocking(False)
    signal.set_wakeup_fd(writer_sock.fileno())
    notifier = QSocketNotifier(reader_sock.fileno(), QSocketNotifier.Type.Read, qapp)

    def drain() -> None:
        try:
            reader_sock.recv(256)
        except OSError:
            pass

    notifier.activated.connect(drain)
    for sig in (signal.SIGTERM, signal.SIGINT, getattr(signal, "SIGHUP", None)):
        if sig is not None:
            signal.signal(sig, lambda *_args: qapp.quit())
    # keep the sockets alive as long as the notifier
    notifier._sockets = (reader_sock, writer_sock)  # type: ignore[attr-defined]
    return notifier


def run(folder: Path, lang: str | None = None) -> int:
    from PySide6.QtWidgets import QMessageBox

    from reader.ui.single_instance import InstanceServer, ask_running_instance

    qapp = make_qapplication(sys.argv[:1])
    if ask_running_instance(folder):
        front = say._("already open on {folder}; brought that window to the front")
        print(f"paper-reader: {front.format(folder=folder)}", file=sys.stderr)
        return 0
    try:
        app = build(folder, lang=lang)
    except (StorageError, OSError) as exc:
        collector.release()
        i18n.use(language.resolve(lang, folder, QLocale.system().name()), qapp)
        cannot = fill(translate("App", "Cannot open the library:\n%1"), str(exc))
        plain.message(None, QMessageBox.Icon.Critical, "Paper Reader", cannot).exec()
        why = say._("cannot open library: {error}").format(error=exc)
        print(say._("paper-reader: error: {message}").format(message=why), file=sys.stderr)
        return 1
    qapp.aboutToQuit.connect(app.controller.flush)
    qapp.aboutToQuit.connect(app.save_state)
    qapp.commitDataRequest.connect(lambda _manager: app.controller.flush())
    install_quit_signals(qapp)
    instance = InstanceServer(folder, app.window)
    instance.activation_requested.connect(app.window.bring_to_front)
    app.window.show()
    return qapp.exec()
