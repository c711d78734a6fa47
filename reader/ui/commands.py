"""One QUndoCommand per kind of edit; each calls one Library method."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from PySide6.QtGui import QUndoCommand

from reader.core.library import Library, SaveFailed
from reader.core.models import Annotation, Status

if TYPE_CHECKING:
    from reader.core.triage import Decision

NOTE_COMMAND_ID = 1001


#: called with (message, kept_in_memory) when an edit could not be written
FailureHandler = Callable[[str, bool], None]


class LibraryCommand(QUndoCommand):
    """An edit through the Library. Qt calls redo/undo from C++, where a Python
    exception would be lost, so failures go to `on_failure` instead: SaveFailed
    (kept in memory, retried later) or ValueError (refused, nothing changed)."""

    on_failure: FailureHandler | None = None

    def _guard(self, fn: Callable[[], None]) -> None:
        try:
            fn()
        except SaveFailed as exc:
            if self.on_failure:
                self.on_failure(str(exc), True)
        except ValueError as exc:
            if self.on_failure:
                self.on_failure(str(exc), False)

    def redo(self) -> None:
        self._guard(self.apply)

    def undo(self) -> None:
        self._guard(self.revert)

    def apply(self) -> None:
        raise NotImplementedError

    def revert(self) -> None:
        raise NotImplementedError


class _SnapshotCommand(LibraryCommand):
    """Edits several annotations; undo puts back what they were before."""

    def __init__(self, library: Library, paper_ids: Sequence[str], text: str) -> None:
        super().__init__(text)
        self._library = library
        self._ids = list(dict.fromkeys(paper_ids))
        self._before: dict[str, Annotation | None] = library.annotations_of(self._ids)

    def revert(self) -> None:
        self._library.put_annotations(self._before)


class SetStatusCommand(_SnapshotCommand):
    def __init__(self, library: Library, paper_ids: Sequence[str], status: Status) -> None:
        n = len(set(paper_ids))
        what = "paper" if n == 1 else f"{n} papers"
        super().__init__(library, paper_ids, f"Mark {what} {status.value}")
        self._status = status

    def apply(self) -> None:
        self._library.set_status(self._ids, self._status)


class AddTagsCommand(_SnapshotCommand):
    def __init__(self, library: Library, paper_ids: Sequence[str], tags: Sequence[str]) -> None:
        super().__init__(library, paper_ids, f"Add tag {', '.join(tags)}")
        self._tags = list(tags)

    def apply(self) -> None:
        self._library.add_tags(self._ids, self._tags)


class RemoveTagsCommand(_SnapshotCommand):
    def __init__(self, library: Library, paper_ids: Sequence[str], tags: Sequence[str]) -> None:
        super().__init__(library, paper_ids, f"Remove tag {', '.join(tags)}")
        self._tags = list(tags)

    def apply(self) -> None:
        self._library.remove_tags(self._ids, self._tags)


class SetNoteCommand(LibraryCommand):
    """A note edit. Consecutive saves of one paper's note merge into one step."""

    def __init__(self, library: Library, paper_id: str, old: str, new: str) -> None:
        super().__init__("Edit note")
        self._library = library
        self.paper_id = paper_id
        self._old = old
        self._new = new

    def id(self) -> int:
        return NOTE_COMMAND_ID

    def mergeWith(self, other: QUndoCommand) -> bool:  # noqa: N802 (Qt override)
        if not isinstance(other, SetNoteCommand) or other.paper_id != self.paper_id:
            return False
        self._new = other._new
        return True

    def apply(self) -> None:
        self._library.set_note(self.paper_id, self._new)

    def revert(self) -> None:
        self._library.set_note(self.paper_id, self._old)


class TriageDecisionCommand(_SnapshotCommand):
    """A triage decision: the decisions are exclusive, so the others' tags go."""

    def __init__(
        self, library: Library, paper_id: str, decision: Decision, others: Sequence[Decision]
    ) -> None:
        super().__init__(library, [paper_id], f"Triage: {decision.label}")
        self.paper_id = paper_id
        self._decision = decision
        self._other_tags = [d.value for d in others if d.kind == "tag" and d != decision]

    def apply(self) -> None:
        if self._other_tags:
            self._library.remove_tags(self._ids, self._other_tags)
        if self._decision.kind == "status":
            self._library.set_status(self._ids, Status(self._decision.value))
        else:
            self._library.add_tags(self._ids, [self._decision.value])
