"""Tag management: rename (onto an existing tag merges), delete, colour; Alt+1…9 toggles."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtGui import QColor, QKeySequence, QShortcut, QStandardItem, QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QColorDialog,
    QDialog,
    QHBoxLayout,
    QHeaderView,
    QInputDialog,
    QMessageBox,
    QPushButton,
    QTableView,
    QVBoxLayout,
    QWidget,
)

from reader.core.library import Library
from reader.ui import plain
from reader.ui.commands import EditCommand
from reader.ui.controller import PaperController
from reader.ui.i18n import fill, number
from reader.ui.theme import flat_scroll_bars

translate = QCoreApplication.translate

MAX_COLOURED = 9
TAG_ROLE = Qt.ItemDataRole.UserRole + 20


class RenameTagCommand(EditCommand):
    """Rename a tag on every paper that has it, its colour too; undo takes back each
    paper's tags and the colours, tag by tag, where nobody changed them since."""

    def __init__(self, library: Library, old: str, new: str) -> None:
        super().__init__(library, fill(translate("Commands", "Rename tag %1 to %2"), old, new))
        self._old, self._new = old, new

    def first(self) -> None:
        self.record(lambda: self._library.rename_tag(self._old, self._new))


class DeleteTagCommand(EditCommand):
    """As RenameTagCommand, of taking a tag (and its colour) off every paper."""

    def __init__(self, library: Library, tag: str) -> None:
        super().__init__(library, fill(translate("Commands", "Delete tag %1"), tag))
        self._tag = tag

    def first(self) -> None:
        self.record(lambda: self._library.delete_tag(self._tag))


def coloured_tags(library: Library) -> list[str]:
    """The tags Alt+1…Alt+9 toggle: those with a colour, in the order they got it."""
    return list(library.tag_colours())[:MAX_COLOURED]


def toggle_coloured_tag(controller: PaperController, number: int) -> None:
    """Alt+N: add the N-th coloured tag to the selection, or remove it if all have it."""
    tags = coloured_tags(controller.library)
    ids = controller.target_ids()
    if not ids or not 1 <= number <= len(tags):
        return
    tag = tags[number - 1]
    lib = controller.library
    if all(tag.casefold() in (t.casefold() for t in lib.tags(pid)) for pid in ids):
        controller.remove_tags([tag], ids)
    else:
        controller.add_tags([tag], ids)


class TagManager(QDialog):
    """Every tag with its count and colour; rename, delete and colour them."""

    def __init__(self, controller: PaperController, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle(self.tr("Manage tags"))
        self.setAccessibleName(self.tr("Manage tags"))
        self.controller = controller
        self.model = QStandardItemModel(self)
        self.table = QTableView(self)
        self.table.setModel(self.model)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.setAccessibleName(self.tr("Tags"))
        flat_scroll_bars(self.table)
        buttons = QHBoxLayout()
        self.rename_button = QPushButton(self.tr("&Rename…"), self)
        self.delete_button = QPushButton(self.tr("&Delete"), self)
        self.colour_button = QPushButton(self.tr("&Colour…"), self)
        self.clear_colour_button = QPushButton(self.tr("&No Colour"), self)
        for b in (
            self.rename_button,
            self.delete_button,
            self.colour_button,
            self.clear_colour_button,
        ):
            buttons.addWidget(b)
        buttons.addStretch(1)
        close = QPushButton(self.tr("Close"), self)
        close.clicked.connect(self.accept)
        buttons.addWidget(close)
        layout = QVBoxLayout(self)
        layout.addWidget(self.table)
        layout.addLayout(buttons)
        self.rename_button.clicked.connect(self.rename)
        self.delete_button.clicked.connect(self.delete)
        self.colour_button.clicked.connect(self.choose_colour)
        self.clear_colour_button.clicked.connect(lambda: self._set_colour(None))
        controller.library_changed.connect(lambda _change: self.refresh())
        # the dialog is not modal; Ctrl+Z here undoes like in the main window
        for keys, slot in (
            (QKeySequence.StandardKey.Undo, controller.undo_stack.undo),
            (QKeySequence.StandardKey.Redo, controller.undo_stack.redo),
        ):
            QShortcut(QKeySequence(keys), self, activated=slot)
        self.refresh()
        self.resize(520, 420)

    def refresh(self) -> None:
        current = self.current_tag()
        lib = self.controller.library
        counts = lib.tag_counts()
        colours = lib.tag_colours()
        order = coloured_tags(lib)
        self.model.clear()
        self.model.setHorizontalHeaderLabels(
            [self.tr("Tag"), self.tr("Papers"), self.tr("Colour"), self.tr("Key")]
        )
        for tag in sorted(set(counts) | set(colours), key=str.casefold):
            name = QStandardItem(tag)
            name.setData(tag, TAG_ROLE)
            swatch = QStandardItem(colours.get(tag, ""))
            if tag in colours:
                swatch.setBackground(QColor(colours[tag]))
            key = f"Alt+{order.index(tag) + 1}" if tag in order else ""
            self.model.appendRow(
                [name, QStandardItem(number(counts.get(tag, 0))), swatch, QStandardItem(key)]
            )
        self.table.resizeColumnsToContents()
        # the tag's name takes the width the others leave: the table fills the dialog
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        if current:
            self.select(current)

    def select(self, tag: str) -> bool:
        for row in range(self.model.rowCount()):
            if self.model.item(row, 0).data(TAG_ROLE) == tag:
                self.table.selectRow(row)
                return True
        return False

    def current_tag(self) -> str:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        return str(rows[0].data(TAG_ROLE)) if rows else ""

    def rename(self) -> None:
        tag = self.current_tag()
        if not tag:
            return
        new, ok = QInputDialog.getText(
            self,
            self.tr("Rename tag"),
            plain.html(fill(self.tr("New name for “%1”:"), tag)),
            text=tag,
        )
        new = new.strip()
        if not ok or not new or new == tag:
            return
        if new.casefold() in (t.casefold() for t in self.controller.library.tag_counts()):
            question = fill(self.tr("“%1” exists already. Merge “%2” into it?"), new, tag)
            answer = QMessageBox.question(self, self.tr("Merge tags"), plain.html(question))
            if answer != QMessageBox.StandardButton.Yes:
                return
        self.controller.push(RenameTagCommand(self.controller.library, tag, new))
        self.select(new)

    def delete(self) -> None:
        tag = self.current_tag()
        if not tag:
            return
        n = len(self.controller.library.papers_with_tag(tag))
        question = fill(self.tr("Remove “%1” from %Ln paper(s)? (Ctrl+Z undoes.)", "", n), tag)
        answer = QMessageBox.question(self, self.tr("Delete tag"), plain.html(question))
        if answer == QMessageBox.StandardButton.Yes:
            self.controller.push(DeleteTagCommand(self.controller.library, tag))

    def choose_colour(self) -> None:
        tag = self.current_tag()
        if not tag:
            return
        start = QColor(self.controller.library.tag_colours().get(tag, "#4a90d9"))
        title = plain.window_title(fill(self.tr("Colour for “%1”"), tag))
        colour = QColorDialog.getColor(start, self, title)
        if colour.isValid():
            self._set_colour(colour.name())

    def _set_colour(self, colour: str | None) -> None:
        tag = self.current_tag()
        if not tag:
            return
        colours = self.controller.library.tag_colours()
        if colour is not None and tag not in colours and len(colours) >= MAX_COLOURED:
            QMessageBox.information(
                self,
                self.tr("Tag colours"),
                fill(self.tr("At most %1 tags have colours."), number(MAX_COLOURED)),
            )
            return
        try:  # this tag's colour alone: another program's colours of others stay
            self.controller.library.set_tag_colour(tag, colour)
        except (ValueError, OSError) as exc:
            self.controller.save_failed.emit(fill(self.tr("Colour not changed: %1"), str(exc)))


def tag_colour_map(library: Library) -> dict[str, str]:
    return dict(library.tag_colours())


def install_tag_actions(
    window: QWidget,
    controller: PaperController,
    actions: object,
    numbers: Sequence[int] = range(1, MAX_COLOURED + 1),
) -> None:
    """Alt+1…Alt+9 and Paper → Manage Tags…"""
    add = actions.add  # type: ignore[attr-defined]
    for n in numbers:
        add(
            f"toggle_tag_{n}",
            QT_TRANSLATE_NOOP("Actions", "Toggle Coloured Tag %1"),
            [f"Alt+{n}"],
            lambda n=n: toggle_coloured_tag(controller, n),
            args=(str(n),),
        )
    add(
        "manage_tags",
        QT_TRANSLATE_NOOP("Actions", "Mana&ge Tags…"),
        ["Ctrl+Shift+G"],
        lambda: TagManager(controller, window).show(),
        menu="&Paper",
    )
