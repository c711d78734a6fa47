"""Keeping the library clean: the trash (papers deleted, what was written about them
kept until it is emptied) and the possible duplicates (found by the import's own
matching, reader.core.merge.duplicate_groups), each merged into one with a click."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from reader.core.models import Paper
from reader.core.text import plain
from reader.ui import plain as shown
from reader.ui.commands import DeletePapersCommand, MergePapersCommand
from reader.ui.controller import PaperController
from reader.ui.i18n import Counted, fill

IdRole = Qt.ItemDataRole.UserRole


def _line(paper: Paper) -> str:
    """A paper as one line: its title, then venue and year."""
    where = " · ".join(x for x in (paper.venue, str(paper.year or "")) if x)
    return shown.one_line(plain(paper.title) + (f"  ({where})" if where else ""))


class TrashDialog(QDialog):
    """The papers in the trash: put the chosen ones back, or empty the trash."""

    def __init__(self, controller: PaperController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.setWindowTitle(self.tr("Trash"))
        self.setAccessibleName(self.tr("Trash"))
        self.resize(640, 420)
        self.note = QLabel(
            self.tr(
                "Deleted papers, with what you wrote about them. Put them back, or empty "
                "the trash to forget them for good."
            ),
            self,
        )
        self.note.setWordWrap(True)
        self.list = QListWidget(self)
        self.list.setSelectionMode(QListWidget.SelectionMode.ExtendedSelection)
        self.put_back = QPushButton(self.tr("Put &Back"), self)
        self.empty = QPushButton(self.tr("&Empty Trash…"), self)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.addButton(self.put_back, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.addButton(self.empty, QDialogButtonBox.ButtonRole.DestructiveRole)
        buttons.rejected.connect(self.reject)
        self.put_back.clicked.connect(self.restore_chosen)
        self.empty.clicked.connect(self.ask_to_empty)
        layout = QVBoxLayout(self)
        layout.addWidget(self.note)
        layout.addWidget(self.list, 1)
        layout.addWidget(buttons)
        self.fill()

    def fill(self) -> None:
        self.list.clear()
        for paper in self.controller.library.trash():
            item = QListWidgetItem(_line(paper), self.list)
            item.setData(IdRole, paper.id)
        has = self.list.count() > 0
        self.put_back.setEnabled(has)
        self.empty.setEnabled(has)
        if not has:
            QListWidgetItem(self.tr("The trash is empty."), self.list).setFlags(
                Qt.ItemFlag.NoItemFlags
            )

    def restore_chosen(self) -> None:
        chosen = {item.data(IdRole) for item in self.list.selectedItems()}
        papers = [p for p in self.controller.library.trash() if p.id in chosen]
        if papers:
            back = [p.id for p in self.controller.library.restore_papers(papers)]
            counted = Counted()
            told = counted.put_back(len(back)) if back else counted.not_put_back(len(chosen))
            self.controller.put_back_shown(back, told)
        self.fill()

    def ask_to_empty(self) -> None:
        n = self.list.count()
        answer = QMessageBox.question(
            self,
            self.tr("Empty Trash"),
            self.tr(
                "Forget the %Ln paper(s) in the trash and what you wrote about them? "
                "This cannot be undone.",
                "",
                n,
            ),
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.controller.empty_trash()
            self.fill()


class DuplicatesDialog(QDialog):
    """Groups of papers that an import would take for one: merge a group into its
    first paper (the others' tags, highlights and notes go into it; they go to the
    trash), one undoable step each."""

    def __init__(self, controller: PaperController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.controller = controller
        self.setWindowTitle(self.tr("Possible Duplicates"))
        self.setAccessibleName(self.tr("Possible duplicates"))
        self.resize(720, 460)
        self.tree = QTreeWidget(self)
        self.tree.setHeaderHidden(True)
        self.tree.setRootIsDecorated(False)
        self.merge = QPushButton(self.tr("&Merge Group"), self)
        self.merge.setToolTip(
            self.tr("The group's first paper keeps everything written about the others")
        )
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, self)
        buttons.addButton(self.merge, QDialogButtonBox.ButtonRole.ActionRole)
        buttons.rejected.connect(self.reject)
        self.merge.clicked.connect(self.merge_current)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tree, 1)
        layout.addWidget(buttons)
        self.fill()

    def groups(self) -> list[list[str]]:
        from reader.core.merge import duplicate_groups

        library = self.controller.library
        return duplicate_groups(library.papers(), library.abstracts)

    def fill(self) -> None:
        self.tree.clear()
        lib = self.controller.library
        groups = self.groups()
        for number, group in enumerate(groups, start=1):
            text = fill(self.tr("Group %1: %Ln paper(s)", "", len(group)), str(number))
            heading = QTreeWidgetItem(self.tree, [text])
            heading.setData(0, IdRole, list(group))
            font = heading.font(0)
            font.setBold(True)
            heading.setFont(0, font)
            for pid in group:
                QTreeWidgetItem(heading, [_line(lib.paper(pid))]).setData(0, IdRole, [pid])
            heading.setExpanded(True)
        if not groups:
            QTreeWidgetItem(self.tree, [self.tr("No possible duplicates.")])
        self.merge.setEnabled(bool(groups))
        if groups:
            self.tree.setCurrentItem(self.tree.topLevelItem(0))

    def merge_current(self) -> None:
        item = self.tree.currentItem()
        if item is None:
            return
        heading = item.parent() or item
        merge_group(self.controller, heading.data(0, IdRole) or [])
        self.fill()


def merge_group(controller: PaperController, group: Sequence[str]) -> None:
    """Merge the papers of `group` into its first, one undoable step per paper; the
    status bar says what went into what."""
    lib = controller.library
    keep = group[0] if group else ""
    others = [pid for pid in group[1:] if keep in lib and pid in lib and pid != keep]
    if not others:
        return
    title = {pid: shown.one_line(plain(lib.paper(pid).title), 40) for pid in (keep, *others)}
    controller.undo_stack.beginMacro(Counted().merge_papers(len(group)))
    try:
        for other in others:
            controller.push(MergePapersCommand(lib, keep, other))
    finally:
        controller.undo_stack.endMacro()
    merged = [pid for pid in others if pid not in lib]  # (a merge refused is told already)
    if merged:
        controller.told.emit(Counted().merged(len(merged), title[keep], title[merged[0]]))


def delete_chosen(controller: PaperController) -> int:
    """The papers the keys act on, to the trash (undoable); how many."""
    ids = controller.target_ids()
    if ids:
        controller.push(DeletePapersCommand(controller.library, ids))
    return len(ids)
