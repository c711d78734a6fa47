"""File → Import and Export: dialogs, drag-and-drop, progress with Cancel."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QObject, Signal
from PySide6.QtWidgets import QWidget

from reader.core import say
from reader.core.library import Library
from reader.ui import plain
from reader.ui.i18n import Counted, fill, number

if TYPE_CHECKING:  # imported when first used: not needed to open the window
    from PySide6.QtWidgets import QMessageBox, QProgressDialog

    from reader.importing import ImportReport, PreparedImport
    from reader.ui.tasks import Task, TaskRunner

IMPORT_FILTER = QT_TRANSLATE_NOOP(
    "Transfers",
    "Paper lists (*.json *.bib *.bibtex *.ris *.csv *.tsv *.txt);;"
    "JSON (*.json);;BibTeX (*.bib *.bibtex);;RIS (*.ris);;CSV (*.csv *.tsv);;"
    "Plain-text abstracts (*.txt);;All files (*)",
)
#: the export's file types (translated when shown) and the format each one writes
EXPORT_FILTERS = {
    QT_TRANSLATE_NOOP("Transfers", "JSON, everything (*.json)"): "json",
    QT_TRANSLATE_NOOP("Transfers", "BibTeX (*.bib)"): "bibtex",
    QT_TRANSLATE_NOOP("Transfers", "CSV spreadsheet (*.csv)"): "csv",
    QT_TRANSLATE_NOOP("Transfers", "Markdown, one file per paper (folder)"): "markdown",
}


CANCELLED = QT_TRANSLATE_NOOP("Transfers", "Import cancelled; nothing was changed.")
#: an import of up to this many papers is worded for search on its worker (~0.2 ms a
#: paper), a bigger one in the window's idle steps
WORDED_ON_THE_WORKER = 5_000

translate = QCoreApplication.translate


class Transfers(QObject):
    """Runs imports off the GUI thread and writes exports.

    Signals:
        import_finished(object): the ImportReport of a finished import.
        import_failed(str): why an import wrote nothing (also for Cancel).
        message(str): a short line for the status bar.
    """

    import_finished = Signal(object)
    #: an import taken in, as one step to undo (an ImportCommand, to push)
    imported = Signal(object)
    import_failed = Signal(str)
    message = Signal(str)

    def __init__(self, library: Library, runner: TaskRunner | None = None) -> None:
        super().__init__()
        self._library = library
        self._runner = runner  # none given: a daemon-thread one (TaskRunner), made on first use
        self.progress: QProgressDialog | None = None
        self._task: Task | None = None
        #: the largest file an import reads (None: $READER_MAX_IMPORT_SIZE, else 1 GiB)
        self.max_bytes: int | None = None
        #: where the file dialogs open: the folder last imported from or exported to
        self.last_folder: Path | None = None

    @property
    def _window(self) -> QWidget | None:
        parent = self.parent()
        return parent if isinstance(parent, QWidget) else None

    # -- import -------------------------------------------------------------

    def choose_and_import(self) -> None:
        from PySide6.QtWidgets import QFileDialog

        # the folder of the last import, else the home folder (Qt's "" is the
        # program's working folder: the source checkout when started from one)
        start = str(self.last_folder or Path.home())
        paths, _ = QFileDialog.getOpenFileNames(
            self._window, self.tr("Import papers"), start, self.tr(IMPORT_FILTER)
        )
        if paths:
            self.last_folder = Path(paths[0]).parent
            self.import_files([Path(p) for p in paths])

    @property
    def task(self) -> Task | None:
        """The import running, None when none is (a cancelled one is over at once,
        whatever its worker thread is still finishing)."""
        return self._task

    def import_files(self, paths: Sequence[Path], fmt: str | None = None) -> None:
        """Read, match and write an import on the worker thread; the papers are taken
        into the library here, on the GUI thread, once written (see _apply).

        Nothing here reads the files (nor asks what they are): the worker does, and
        refuses what is not a regular file or is over the size limit
        (reader.formats.reading). Cancel ends the import at once: the worker stops at
        its next look (between chunks of a read, between the stages of a file), and
        what it still does until then is ignored; it never writes once cancelled."""
        from PySide6.QtCore import Qt
        from PySide6.QtWidgets import QProgressDialog

        from reader.formats.common import display_name
        from reader.importing import ImportCancelled, prepare_import, write_import
        from reader.ui.tasks import Task

        if self._task is not None:
            self.message.emit(self.tr("An import is already running."))
            return
        library = self._library
        # what the worker plans against, read there: the papers found by the keys they
        # are matched on, read when met (only an import adds papers, one at a time)
        papers = library.papers_by_id()
        files = list(paths)
        names = [display_name(f.name) for f in files]
        progress = QProgressDialog("", self.tr("Cancel"), 0, 0, self._window)
        reading = fill(self.tr("Reading %1…"), names[0])
        progress.setLabel(plain.PlainLabel(reading))  # (file names: as typed)
        progress.setWindowTitle(self.tr("Importing"))
        progress.setWindowModality(Qt.WindowModality.WindowModal)
        progress.setMinimumDuration(300)
        progress.setAutoClose(False)
        progress.setAutoReset(False)
        self.progress = progress

        def work(task: Task) -> PreparedImport:
            prepared = prepare_import(
                papers,
                files,
                fmt,
                progress=task.progress,
                cancelled=lambda: task.cancelled,
                max_bytes=self.max_bytes,
                abstracts=library.abstracts,
                matcher=library.matcher(),
            )
            task.progress(len(files) + 1, len(files))
            # Cancel's last chance: once papers.json is being rewritten, the import is finished
            if not task.commit():
                raise ImportCancelled()
            try:
                # the files alone: the library in memory takes the papers in on the GUI
                # thread (_apply), which goes on meanwhile (a save of the user's waits
                # for the library lock while papers.json is written)
                write_import(library, prepared)
            except (OSError, ValueError) as exc:
                raise _NotSaved(say.told(exc)) from exc
            _word(library, prepared)
            return prepared

        def on_progress(done: int, total: int) -> None:
            if self._task is not started or self.progress is not progress:
                return  # (a cancelled import's worker, not yet stopped)
            if done < total:
                reading = self.tr("Reading %1 (%2 of %3)…")
                progress.setLabelText(fill(reading, names[done], number(done + 1), number(total)))
            elif done == total:
                progress.setLabelText(self.tr("Matching against the library…"))
            else:
                progress.setLabelText(self.tr("Saving…"))
                progress.setCancelButton(None)  # too late to cancel: it finishes

        def done(prepared: PreparedImport) -> None:
            if self._task is started:
                self._apply(prepared)

        def failed(exc: BaseException) -> None:
            if self._task is started:
                self._failed(exc)

        if self._runner is None:
            from reader.ui.tasks import TaskRunner

            self._runner = TaskRunner(daemon=True)
        progress.canceled.connect(self.cancel)
        started = Task()  # a placeholder: a synchronous runner finishes within start()
        self._task = started
        task = self._runner.start(work, done, failed, on_progress)
        if self._task is started:  # still running: the real task stands for it
            self._task = started = task

    def cancel(self) -> None:
        """Cancel the running import, if it can still be: at once, the worker left to
        stop at its next look (and ignored until then). Once the import is being
        written it is too late (the worker has committed): it finishes."""
        task = self._task
        if task is None or not task.cancel():
            return
        self._task = None
        self._finish()
        self.import_failed.emit(self.tr(CANCELLED))

    def _finish(self) -> None:
        progress, self.progress = self.progress, None
        if progress is not None:
            progress.canceled.disconnect(self.cancel)
            progress.close()
            progress.deleteLater()

    def _apply(self, prepared: PreparedImport) -> None:
        """The worker wrote the papers: the library takes them in (a Cancel that came
        too late changes nothing: papers.json holds them), then the annotations the
        files carried are restored."""
        from reader.importing import finish_import

        self._task = None
        lib = self._library
        # what the import changed of the catalogue, to undo it as one step
        before = lib.full_papers(p.id for p in prepared.papers if p.id in lib)
        added = [p.id for p in prepared.papers if p.id not in lib]
        try:
            report = finish_import(self._library, prepared)
        except (OSError, ValueError) as exc:  # (the annotations restored, the tag colours)
            self._finish()
            self.import_failed.emit(fill(self.tr("Import not saved: %1"), say.told(exc)))
            return
        self._finish()
        self.message.emit(summary(report).splitlines()[0])
        if prepared.papers:
            from reader.ui.commands import ImportCommand

            name = ", ".join(report.files) or self.tr("papers")
            self.imported.emit(ImportCommand(lib, list(prepared.papers), before, added, name))
        self.import_finished.emit(report)

    def _failed(self, exc: BaseException) -> None:
        from reader.importing import ImportCancelled

        self._task = None
        self._finish()
        if isinstance(exc, ImportCancelled):
            self.import_failed.emit(self.tr(CANCELLED))
        elif isinstance(exc, _NotSaved):
            self.import_failed.emit(fill(self.tr("Import not saved: %1"), str(exc)))
        else:
            self.import_failed.emit(fill(self.tr("Nothing imported: %1"), say.told(exc)))

    # -- export -------------------------------------------------------------

    def choose_and_export(self, ids: Sequence[str], what: str) -> None:
        """Ask where to export `ids`: "selection", "view", "library" (or other papers)."""
        from PySide6.QtWidgets import QFileDialog

        if not ids:
            self.message.emit(self.tr("Nothing to export."))
            return
        if what == "selection":
            title = self.tr("Export the selection (%Ln paper(s))", "", len(ids))
        elif what == "view":
            title = self.tr("Export the current view (%Ln paper(s))", "", len(ids))
        elif what == "library":
            title = self.tr("Export the whole library (%Ln paper(s))", "", len(ids))
        else:
            title = self.tr("Export %Ln paper(s)", "", len(ids))
        kinds = {self.tr(shown): fmt for shown, fmt in EXPORT_FILTERS.items()}
        path, chosen = QFileDialog.getSaveFileName(
            self._window,
            title,
            str((self.last_folder or Path.home()) / "papers.json"),
            ";;".join(kinds),
        )
        if path:
            self.last_folder = Path(path).parent
            self.export(ids, kinds.get(chosen, "json"), Path(path))

    def export(self, ids: Sequence[str], fmt: str, path: Path) -> Path | None:
        from reader.exporting import export_to

        if fmt == "markdown" and path.suffix:
            path = path.with_suffix("")
        try:
            written = export_to(self._library, list(ids), fmt, path)
        except (OSError, ValueError) as exc:
            self.import_failed.emit(fill(self.tr("Export failed: %1"), say.told(exc)))
            return None
        from reader.formats.common import display_name

        exported = Counted().exported(len(ids))
        self.message.emit(fill(exported, display_name(str(written))))
        return written


def _word(library: Library, prepared: PreparedImport) -> None:
    """Word for search the papers an import wrote, on its worker: the window's search
    then only takes them in (a big import's many are worded in the window's idle
    steps, the import not kept waiting for them)."""
    from reader.store.catalogue_words import WordsError

    words = library.search_words()
    if words is None or not hasattr(words, "word_papers"):
        return
    if len(prepared.papers) <= WORDED_ON_THE_WORKER:
        with contextlib.suppress(WordsError):  # (the window's steps word them then)
            words.word_papers([p.id for p in prepared.papers])


class _NotSaved(Exception):
    """The worker could not write the import (the message says why)."""


def show_report(parent: QWidget, report: ImportReport) -> QMessageBox:
    """A non-blocking summary of an import, with every skipped record in the details."""
    from PySide6.QtWidgets import QMessageBox

    skipped = translate("Transfers", "skipped %1: %2")
    details = [fill(skipped, say.told(s.place), say.told(s.reason)) for s in report.skipped]
    title = translate("Transfers", "Import finished")
    box = plain.message(
        parent, QMessageBox.Icon.Information, title, summary(report), details or None
    )
    box.setModal(False)  # open() would make it window-modal
    box.show()
    return box


def summary(report: ImportReport) -> str:
    """What an import did, in the language in use (its notes as the formats said them)."""
    text = fill(
        translate("Transfers", "%1: %2 added, %3 updated, %4 unchanged, %5 skipped"),
        ", ".join(report.files),
        number(report.added),
        number(report.updated),
        number(report.unchanged),
        number(len(report.skipped)),
    )
    if report.annotations:
        restored = Counted().annotations_restored(report.annotations)
        text = fill(translate("Transfers", "%1, %2"), text, restored)
    return "\n".join([text, *map(say.told, report.notes)])


def dropped_files(mime: Any) -> list[Path]:
    """Local files in a drop, if any."""
    if not mime.hasUrls():
        return []
    return [Path(u.toLocalFile()) for u in mime.urls() if u.isLocalFile() and u.toLocalFile()]
