"""One QUndoCommand per kind of edit; each calls one Library method."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QUndoCommand

from reader.core import say
from reader.core.edits import NO_EDIT, Edit, Kept
from reader.core.library import Library, SaveFailed
from reader.core.models import Paper, Status
from reader.store.storage import StorageError
from reader.ui import names, plain
from reader.ui.i18n import Counted, fill, number

if TYPE_CHECKING:
    from reader.core.triage import Decision

translate = QCoreApplication.translate

NOTE_COMMAND_ID = 1001


#: called with (message, kept_in_memory) when an edit could not be written
FailureHandler = Callable[[str, bool], None]


class LibraryCommand(QUndoCommand):
    """An edit through the Library. Qt calls redo/undo from C++, where a Python
    exception would be lost, so failures go to `on_failure` instead: SaveFailed
    (kept in memory, retried later) or ValueError (refused, nothing changed)."""

    on_failure: FailureHandler | None = None
    #: told, as a line for the status bar, what an undo or redo left as others made it
    on_kept: Callable[[str], None] | None = None
    # told of papers an undo put back from the trash (to select and show) and a line
    # for the status bar saying what it did
    on_put_back: Callable[[list[str], str], None] | None = None

    def _put_back(self, ids: list[str], told: str) -> None:
        if self.on_put_back is not None:
            self.on_put_back(ids, told)

    def _guard(self, fn: Callable[[], None]) -> None:
        try:
            fn()
        except SaveFailed as exc:
            if self.on_failure:
                self.on_failure(str(exc), True)
        except (ValueError, StorageError) as exc:  # (StorageError: a read-only folder)
            if self.on_failure:
                self.on_failure(say.told(exc), False)

    def redo(self) -> None:
        self._guard(self.apply)

    def undo(self) -> None:
        self._guard(self.revert)

    def apply(self) -> None:
        raise NotImplementedError

    def revert(self) -> None:
        raise NotImplementedError


class EditCommand(LibraryCommand):
    """An edit that keeps what it changed (reader.core.edits.Edit: per paper, per
    field, tag and highlight, before and after). Undo is an edit of its own: what
    the edit changed goes back only where nobody (this window, the command line,
    another program) changed it since; what they did stays and is told. Redo
    likewise, the other way. Subclasses make the edit in first() through record()."""

    def __init__(self, library: Library, text: str) -> None:
        super().__init__(text)
        self._library = library
        self._edit: Edit | None = None

    def first(self) -> None:
        raise NotImplementedError

    def record(self, edit: Callable[[], Edit]) -> None:
        """Make one library edit of this command, keeping what it changed (in memory
        only, if it could not be written)."""
        try:
            made = edit()
        except SaveFailed as exc:
            self._edit = (self._edit or NO_EDIT).then(exc.edit)
            raise
        self._edit = (self._edit or NO_EDIT).then(made)

    def apply(self) -> None:
        if self._edit is None:
            self._edit = NO_EDIT
            self.first()
        else:
            self._tell(translate("Commands", "Redo"), self._library.revert(self._edit.inverse()))

    def revert(self) -> None:
        if self._edit is not None and not self._edit.is_empty:
            self._tell(translate("Commands", "Undo"), self._library.revert(self._edit))

    def _tell(self, what: str, kept: Sequence[Kept]) -> None:
        if kept and self.on_kept is not None:
            self.on_kept(kept_message(self._library, what, kept))


def kept_message(library: Library, what: str, kept: Sequence[Kept], shown: int = 3) -> str:
    """E.g. "Undo left 1 change made elsewhere since: tag rl of “Title”"."""
    parts = []
    for one in kept[:shown]:
        if one.paper_id and one.paper_id in library:
            title = plain.one_line(library.paper(one.paper_id).title, 40)
            parts.append(fill(translate("Commands", "%1 of “%2”"), one.what, title))
        else:
            parts.append(one.what)
    told = ", ".join(parts)
    if len(kept) > shown:
        told = fill(translate("Commands", "%1 and %2 more"), told, number(len(kept) - shown))
    return plain.one_line(Counted().changes_kept(len(kept), what, told))


class SetStatusCommand(EditCommand):
    def __init__(self, library: Library, paper_ids: Sequence[str], status: Status) -> None:
        n = len(set(paper_ids))
        super().__init__(library, Counted().mark_papers(n, names.status(status.value).lower()))
        self._ids = list(dict.fromkeys(paper_ids))
        self._status = status

    def first(self) -> None:
        self.record(lambda: self._library.set_status(self._ids, self._status))


class AddTagsCommand(EditCommand):
    def __init__(self, library: Library, paper_ids: Sequence[str], tags: Sequence[str]) -> None:
        super().__init__(library, fill(translate("Commands", "Add tag %1"), ", ".join(tags)))
        self._ids = list(dict.fromkeys(paper_ids))
        self._tags = list(tags)

    def first(self) -> None:
        self.record(lambda: self._library.add_tags(self._ids, self._tags))


class RemoveTagsCommand(EditCommand):
    def __init__(self, library: Library, paper_ids: Sequence[str], tags: Sequence[str]) -> None:
        super().__init__(library, fill(translate("Commands", "Remove tag %1"), ", ".join(tags)))
        self._ids = list(dict.fromkeys(paper_ids))
        self._tags = list(tags)

    def first(self) -> None:
        self.record(lambda: self._library.remove_tags(self._ids, self._tags))


class SetNoteCommand(EditCommand):
    """A note edit. Consecutive saves of one paper's note merge into one step (from
    the first one's before to the last one's after)."""

    def __init__(self, library: Library, paper_id: str, old: str, new: str) -> None:
        super().__init__(library, translate("Commands", "Edit note"))
        self.paper_id = paper_id
        self._new = new

    def id(self) -> int:
        return NOTE_COMMAND_ID

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 (Qt override)
        if not isinstance(other, SetNoteCommand) or other.paper_id != self.paper_id:
            return False
        self._new = other._new
        self._edit = (self._edit or NO_EDIT).then(other._edit or NO_EDIT)
        return True

    def first(self) -> None:
        self.record(lambda: self._library.set_note(self.paper_id, self._new))


class TriageDecisionCommand(EditCommand):
    """A triage decision: the decisions are exclusive, so the others' tags go."""

    def __init__(
        self, library: Library, paper_id: str, decision: Decision, others: Sequence[Decision]
    ) -> None:
        label = names.decision_label(decision.label)
        super().__init__(library, fill(translate("Commands", "Triage: %1"), label))
        self._ids = [paper_id]
        self.paper_id = paper_id
        self._decision = decision
        self._other_tags = [d.value for d in others if d.kind == "tag" and d != decision]

    def first(self) -> None:
        lib, ids = self._library, self._ids
        if self._other_tags:
            self.record(lambda: lib.remove_tags(ids, self._other_tags))
        if self._decision.kind == "status":
            self.record(lambda: lib.set_status(ids, Status(self._decision.value)))
        else:
            self.record(lambda: lib.add_tags(ids, [self._decision.value]))


class DeletePapersCommand(LibraryCommand):
    """Papers to the trash; undo puts them back (what was written about them never
    left)."""

    def __init__(self, library: Library, paper_ids: Sequence[str]) -> None:
        n = len(paper_ids)
        super().__init__(Counted().move_to_trash(n))
        self._library = library
        self._ids = list(paper_ids)
        self._gone: list[Paper] = []

    def apply(self) -> None:
        self._gone = self._library.delete_papers(self._ids)

    def revert(self) -> None:
        if not self._gone:
            return
        back = [p.id for p in self._library.restore_papers(self._gone)]
        counted = Counted()
        told = counted.put_back(len(back)) if back else counted.not_put_back(len(self._gone))
        self._put_back(back, told)


class MergePapersCommand(LibraryCommand):
    """Make one paper part of another (see Library.merge_papers); undo takes back what
    the merge added and puts the other paper back."""

    def __init__(self, library: Library, keep: str, other: str) -> None:
        super().__init__(translate("Commands", "Merge Papers"))
        self._library = library
        self.keep, self.other = keep, other
        self._paper = library.full_paper(other)
        self._edit: Edit = NO_EDIT

    def apply(self) -> None:
        self._edit = self._library.merge_papers(self.keep, self.other)

    def revert(self) -> None:
        title = plain.one_line(self._paper.title, 40)
        if not self._library.restore_papers([self._paper]):
            # forgotten since (the trash emptied elsewhere): what it brought stays
            told = translate(
                "Commands", "Merge not undone: the Trash was emptied since (what it brought stays)"
            )
            self._put_back([], told)
            return
        self._library.revert(self._edit)
        told = fill(translate("Commands", "Merge undone: “%1” is a paper of its own again"), title)
        self._put_back([self.keep, self.other], told)


class ImportCommand(LibraryCommand):
    """An import as one step: undo moves the papers it added to the trash and puts
    back the earlier versions of those it updated (each a line of a new catalogue
    file: on every computer); redo brings its papers back. (The import itself made
    the first step: pushing it changes nothing.)"""

    def __init__(
        self,
        library: Library,
        papers: Sequence[Paper],
        before: Sequence[Paper],
        added: Sequence[str],
        name: str,
    ) -> None:
        super().__init__(fill(translate("Commands", "Import of %1"), name))
        self._library = library
        self._papers, self._before, self._added = list(papers), list(before), list(added)
        self._done = True

    def apply(self) -> None:
        if self._done:  # (the import's own write)
            self._done = False
            return
        added = set(self._added)  # (back from the trash, unless it was emptied since)
        self._library.restore_papers([p for p in self._papers if p.id in added])
        self._library.add_papers([p for p in self._papers if p.id not in added])

    def revert(self) -> None:
        self._library.delete_papers(self._added)
        if self._before:
            self._library.add_papers(self._before)
