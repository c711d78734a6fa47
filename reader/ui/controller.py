"""Connects the sidebar and the reader pane to the library through undoable commands."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal
from PySide6.QtGui import QUndoStack

from reader.core.library import Change, Library
from reader.core.models import Status
from reader.ui.i18n import fill
from reader.ui.reader_view import ReaderPane
from reader.ui.sidebar import Sidebar

if TYPE_CHECKING:
    from reader.core.index import SearchIndex
    from reader.ui.commands import LibraryCommand

# reader.ui.commands (the QUndoCommand classes) is imported by the first edit, or
# while idle after the first paint (reader.ui.highlights): not for the first paint


#: how often edits kept in memory after a failed save are retried
RETRY_SAVE_MS = 5_000
#: while typing a search, the reader pane shows the current paper after this pause
PANE_AFTER_TYPING_MS = 90


#: what the list's rows, its counter and the facets show of an annotation
_ROW_FIELDS = frozenset({"status", "tags", "rating", "prefs"})


class PaperController(QObject):
    """Owns the undo stack; turns user intents into commands and library changes
    into repaints.

    Signals:
        save_failed(str): a change could not be written (the message says why); if
            it was kept in memory, it is retried every few seconds.
        saved_again(): every edit kept in memory has now been written.
        library_changed(object): a reader.core.library.Change, on the GUI thread.
        undo_kept(str): an undo or redo left what others changed since (a line
            saying what).
        told(str): a line for the status bar saying what an edit did.
    """

    save_failed = Signal(str)
    undo_kept = Signal(str)
    told = Signal(str)
    saved_again = Signal()
    library_changed = Signal(object)

    def __init__(
        self,
        library: Library,
        sidebar: Sidebar,
        pane: ReaderPane,
        undo_stack: QUndoStack,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.library = library
        self.sidebar = sidebar
        self.pane = pane
        self.undo_stack = undo_stack
        library.subscribe(self.library_changed.emit)
        self.library_changed.connect(self._on_library_changed)
        # while the user types a search, the pane follows once typing pauses: the
        # keystroke's frame goes to the list (and at 100k papers that frame is tight)
        self._pane_timer = QTimer(self, singleShot=True, interval=PANE_AFTER_TYPING_MS)
        self._pane_timer.timeout.connect(self.show_current)
        sidebar.view.selectionModel().currentChanged.connect(lambda *_: self._current_changed())
        sidebar.filtered.connect(self._current_changed)
        pane.status_chosen.connect(lambda status: self.set_status(status, [pane.paper_id]))
        pane.tags_added.connect(lambda tags: self.add_tags(tags, [pane.paper_id]))
        pane.tag_removed.connect(lambda tag: self.remove_tags([tag], [pane.paper_id]))
        pane.note_editor.note_committed.connect(self.commit_note)
        pane.note_settled.connect(self.settle_note)
        self.retry_timer = QTimer(self, interval=RETRY_SAVE_MS)
        self.retry_timer.timeout.connect(self.retry_saves)
        self.show_prefs()  # schedules the facet counts: they follow the first paint

    @property
    def index(self) -> SearchIndex:
        """The search index (the sidebar's, made by its first use)."""
        return self.sidebar.index

    # -- what the user acts on --------------------------------------------

    def target_ids(self) -> list[str]:
        """The selected papers if the one shown is among them, else the one shown:
        a key never acts on papers other than what the reader shows."""
        self.settle_pane()
        ids = self.sidebar.selected_ids()
        shown = self.pane.paper_id
        if shown and shown not in ids:
            return [shown]
        return ids

    def _current_changed(self) -> None:
        if self.sidebar.typing:
            self._pane_timer.start()
        else:
            self._pane_timer.stop()
            self.show_current()

    def settle_pane(self) -> None:
        """Show the current paper now if the pane is waiting for typing to pause."""
        if self._pane_timer.isActive():
            self._pane_timer.stop()
            self.show_current()

    def show_current(self) -> None:
        pid = self.sidebar.current_id()
        if pid and pid in self.library:
            self._show(pid)
        elif not self.sidebar.model.rowCount() and (query := self.sidebar.query_text()):
            self.pane.show_nothing_matches(query)
        elif not self.sidebar.model.rowCount() or not pid:
            self.pane.show_paper(None, None)

    # -- edits --------------------------------------------------------------

    def push(self, command: LibraryCommand) -> None:
        command.on_failure = self._on_failure
        command.on_kept = self.undo_kept.emit
        command.on_put_back = self.put_back_shown
        self.undo_stack.push(command)

    def put_back_shown(self, ids: Sequence[str], told: str) -> None:
        """Papers the user asked back (an undo, the trash's Put Back), in their places
        now: selected, the first of them shown (those the search leaves in the list);
        `told` on the status bar."""
        listed = [pid for pid in ids if self.sidebar.model.row_of(pid) >= 0]
        if listed:
            self.sidebar.select_ids(listed, listed[0])
            if self.pane.paper_id != listed[0]:
                self.show_current()
        self.told.emit(told)

    def empty_trash(self) -> int:
        """Forget the papers in the trash and what was written about them, and with
        them every step of undo and redo: one could bring a forgotten paper back
        without what was written about it, or act on one (the user was told this
        cannot be undone). How many papers went."""
        gone = self.library.empty_trash()
        if gone:
            self.undo_stack.clear()
        return gone

    def _on_failure(self, message: str, kept: bool) -> None:
        if kept:
            self.save_failed.emit(fill(self.tr("Not saved yet, kept and retried: %1"), message))
            self.retry_timer.start()
        else:
            self.save_failed.emit(fill(self.tr("Not saved: %1"), message))

    def retry_saves(self) -> bool:
        """Write edits kept in memory after a failed save; True when all are on disk."""
        if self.library.pending_count() == 0 or self.library.retry_pending():
            if self.retry_timer.isActive():
                self.retry_timer.stop()
                self.saved_again.emit()
            return True
        return False

    def set_status(self, status: Status, ids: Sequence[str] | None = None) -> None:
        ids = [i for i in (ids if ids is not None else self.target_ids()) if i]
        if ids:
            from reader.ui.commands import SetStatusCommand

            self.push(SetStatusCommand(self.library, ids, status))

    def add_tags(self, tags: Sequence[str], ids: Sequence[str] | None = None) -> None:
        ids = [i for i in (ids if ids is not None else self.target_ids()) if i]
        if ids and tags:
            from reader.ui.commands import AddTagsCommand

            self.push(AddTagsCommand(self.library, ids, tags))

    def remove_tags(self, tags: Sequence[str], ids: Sequence[str] | None = None) -> None:
        ids = [i for i in (ids if ids is not None else self.target_ids()) if i]
        if ids and tags:
            from reader.ui.commands import RemoveTagsCommand

            self.push(RemoveTagsCommand(self.library, ids, tags))

    def commit_note(self, paper_id: str, old: str, new: str) -> None:
        if paper_id not in self.library:
            return
        from reader.ui.commands import SetNoteCommand

        command = SetNoteCommand(self.library, paper_id, old, new)

        def failed(message: str, kept: bool) -> None:
            if not kept and self.pane.note_editor.paper_id == paper_id:
                self.pane.note_editor.mark_unsaved(old)  # refused: the text stays in the editor
            self._on_failure(message, kept)

        command.on_failure = failed
        command.on_kept = self.undo_kept.emit
        self.undo_stack.push(command)

    def flush(self) -> None:
        """Save whatever is typed and not yet saved (quit, close, signals)."""
        self.pane.note_editor.flush()

    # -- library events -----------------------------------------------------

    def _on_library_changed(self, change: Change) -> None:
        if "prefs" in change.fields:
            self.show_prefs()
        ids: Iterable[str] = change.paper_ids
        if "papers" in change.fields:
            # those added or replaced in the library's order: new papers reach the index
            # in it, so the index's order stays the library's and the list in library
            # order is recognised at once (else ~0.1 s at 100k papers); then those that
            # left (the trash, a merge, an undone import), for the index to drop
            ids = self.library.in_order(change.paper_ids)
            ids += [pid for pid in change.paper_ids if pid not in self.library]
        self.sidebar.papers_changed(ids)
        fields = change.fields
        if "papers" in fields:
            self.sidebar.resort()  # papers take their place in the order, or leave it
        elif self.sidebar.query_text():
            # a filtered view may now include or exclude the edited papers
            self.sidebar.apply_filters()
        else:
            if fields & _ROW_FIELDS:  # (a note or a highlight shows in no row or count)
                self.sidebar.model.refresh_papers(change.paper_ids)
                self.sidebar.update_counts()
            self.sidebar.schedule_facets()  # (a smart list may count notes: has:note)
        if "tags" in fields:
            self.offer_known_tags()
        pid = self.pane.paper_id
        if pid in change.paper_ids and pid in self.library:
            if fields <= {"note", "modified"}:  # a note saved: the note alone, not the page
                self.pane.note_editor.show_saved(self.library.annotation(pid).note)
                self.pane.show_note_conflicts(self.library.note_conflicts(pid))
            else:
                self._show(pid)

    def _show(self, pid: str) -> None:
        """Show paper `pid` in the pane, with its note's conflicting versions."""
        self.pane.show_paper(
            self.library.full_paper(pid),
            self.library.annotation(pid),
            self.sidebar.model.highlight_terms,
        )
        self.pane.show_note_conflicts(self.library.note_conflicts(pid))

    def settle_note(self, paper_id: str, text: str) -> None:
        """The user settled the note's conflicting versions with `text`."""
        if paper_id not in self.library:
            return
        self.pane.note_editor.flush()
        try:
            self.library.resolve_note(paper_id, text)
        except OSError as exc:  # (a StorageError) the versions stay, shown as they were
            self._on_failure(str(exc), False)

    def show_prefs(self) -> None:
        """Saved searches and tag colours changed (here or in another process)."""
        prefs = self.library.prefs
        self.sidebar.saved_searches = prefs.saved_searches()
        self.sidebar.facets.set_saved_searches(self.sidebar.saved_searches)
        self.sidebar.model.tag_colours = prefs.tag_colours()
        self.pane.tag_editor.tag_colours = prefs.tag_colours()
        self.pane.tag_editor.repaint_chips()
        self.sidebar.view.viewport().update()
        self.sidebar.schedule_facets()

    def offer_known_tags(self) -> None:
        """The library's tags, offered by the tag editor (the window's first paint does
        not wait for them: ~0.1 s when 100k papers are tagged)."""
        self.pane.tag_editor.set_known_tags(list(self.library.tag_counts()))
