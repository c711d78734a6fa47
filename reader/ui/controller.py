"""Connects the sidebar and the reader pane to the library through undoable commands."""

from __future__ import annotations

from typing import Sequence

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QUndoCommand, QUndoStack

from reader.core.index import SearchIndex
from reader.core.library import Change, Library
from reader.core.models import Status
from reader.store.storage import StorageError
from reader.ui.commands import AddTagsCommand, RemoveTagsCommand, SetNoteCommand, SetStatusCommand
from reader.ui.reader_view import ReaderPane
from reader.ui.sidebar import Sidebar


class PaperController(QObject):
    """Owns the undo stack; turns user intents into commands and library changes
    into repaints.

    Signals:
        save_failed(str): a change could not be written (the message says why).
        library_changed(object): a reader.core.library.Change, on the GUI thread.
    """

    save_failed = Signal(str)
    library_changed = Signal(object)

    def __init__(
        self,
        library: Library,
        index: SearchIndex,
        sidebar: Sidebar,
        pane: ReaderPane,
        undo_stack: QUndoStack,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.library = library
        self.index = index
        self.sidebar = sidebar
        self.pane = pane
        self.undo_stack = undo_stack
        library.subscribe(self.library_changed.emit)
        self.library_changed.connect(self._on_library_changed)
        sidebar.view.selectionModel().currentChanged.connect(lambda *_: self.show_current())
        sidebar.filtered.connect(self.show_current)
        pane.status_chosen.connect(lambda status: self.set_status(status, [pane.paper_id]))
        pane.tags_added.connect(lambda tags: self.add_tags(tags, [pane.paper_id]))
        pane.tag_removed.connect(lambda tag: self.remove_tags([tag], [pane.paper_id]))
        pane.note_editor.note_committed.connect(self.commit_note)
        self._known_tags()

    # -- what the user acts on --------------------------------------------

    def target_ids(self) -> list[str]:
        """The selected papers, else the one shown."""
        ids = self.sidebar.selected_ids()
        if not ids and self.pane.paper_id:
            ids = [self.pane.paper_id]
        return ids

    def show_current(self) -> None:
        pid = self.sidebar.current_id()
        if pid and pid in self.library:
            self.pane.show_paper(self.library.paper(pid), self.library.annotation(pid),
                                 self.sidebar.model.highlight_terms)
        elif not self.sidebar.model.rowCount() or not pid:
            self.pane.show_paper(None, None)

    # -- edits --------------------------------------------------------------

    def _push(self, command: QUndoCommand) -> None:
        try:
            self.undo_stack.push(command)
        except (StorageError, ValueError) as exc:
            self.save_failed.emit(str(exc))

    def set_status(self, status: Status, ids: Sequence[str] | None = None) -> None:
        ids = [i for i in (ids if ids is not None else self.target_ids()) if i]
        if ids:
            self._push(SetStatusCommand(self.library, ids, status))

    def add_tags(self, tags: Sequence[str], ids: Sequence[str] | None = None) -> None:
        ids = [i for i in (ids if ids is not None else self.target_ids()) if i]
        if ids and tags:
            self._push(AddTagsCommand(self.library, ids, tags))

    def remove_tags(self, tags: Sequence[str], ids: Sequence[str] | None = None) -> None:
        ids = [i for i in (ids if ids is not None else self.target_ids()) if i]
        if ids and tags:
            self._push(RemoveTagsCommand(self.library, ids, tags))

    def commit_note(self, paper_id: str, old: str, new: str) -> None:
        if paper_id not in self.library:
            return
        try:
            self.undo_stack.push(SetNoteCommand(self.library, paper_id, old, new))
        except (StorageError, ValueError) as exc:
            if self.pane.note_editor.paper_id == paper_id:
                self.pane.note_editor.mark_unsaved(old)
            self.save_failed.emit(f"Note not saved yet (kept in the editor): {exc}")

    def flush(self) -> None:
        """Save whatever is typed and not yet saved (quit, close, signals)."""
        self.pane.note_editor.flush()

    # -- library events -----------------------------------------------------

    def _on_library_changed(self, change: Change) -> None:
        self.index.update(change.paper_ids)
        if "papers" in change.fields:
            self.sidebar.resort()  # new papers take their place in the order
        elif self.sidebar.query_text():
            # a filtered view may now include or exclude the edited papers
            self.sidebar.apply_filters()
        else:
            self.sidebar.model.refresh_papers(change.paper_ids)
            self.sidebar.update_counts()
            self.sidebar.schedule_facets()
        if "tags" in change.fields:
            self._known_tags()
        pid = self.pane.paper_id
        if pid in change.paper_ids and pid in self.library:
            self.pane.show_paper(self.library.paper(pid), self.library.annotation(pid),
                                 self.sidebar.model.highlight_terms)

    def _known_tags(self) -> None:
        self.pane.tag_editor.set_known_tags(list(self.library.tag_counts()))
