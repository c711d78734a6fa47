"""Importing files into a library: read, plan against what is there, write once."""

from __future__ import annotations

import dataclasses
import gc
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from reader.core import collector, say
from reader.core.library import Library, now_iso
from reader.core.merge import Abstracts, Matcher, Skipped, plan_import
from reader.core.models import Annotation, Paper
from reader.opening import FREEZE_MIN_PAPERS


@dataclass
class ImportReport:
    files: list[str] = field(default_factory=list)
    added: int = 0
    updated: int = 0
    unchanged: int = 0
    annotations: int = 0
    skipped: list[Skipped] = field(default_factory=list)
    #: what the files' reading noted (an encoding guessed, fields lost...), as said
    notes: list[str | say.Said] = field(default_factory=list)

    def summary(self) -> str:
        text = (
            f"{', '.join(self.files)}: {self.added} added, {self.updated} updated, "
            f"{self.unchanged} unchanged, {len(self.skipped)} skipped"
        )
        if self.annotations:
            text += f", {self.annotations} annotations restored"
        return "\n".join([text, *map(str, self.notes)])

    def to_dict(self) -> dict[str, Any]:
        return {
            "files": self.files,
            "added": self.added,
            "updated": self.updated,
            "unchanged": self.unchanged,
            "annotations": self.annotations,
            # (English, as str() has them: the same in every language)
            "skipped": [{"place": str(s.place), "reason": str(s.reason)} for s in self.skipped],
            "notes": [str(note) for note in self.notes],
        }


@dataclass
class PreparedImport:
    """An import read and planned (off the GUI thread), not yet written."""

    report: ImportReport
    papers: list[Paper]
    annotations: list[Annotation]
    id_map: dict[str, str]
    tag_colours: dict[str, str] = field(default_factory=dict)


def prepare_import(
    existing: Mapping[str, Paper],
    files: Sequence[Path],
    fmt: str | None = None,
    *,
    progress: Callable[[int, int], bool] | None = None,
    cancelled: Callable[[], bool] | None = None,
    max_bytes: int | None = None,
    abstracts: Abstracts | None = None,
    matcher: Matcher | None = None,
) -> PreparedImport:
    """Read every file and plan the import against `existing` papers (as a library
    lists them: `abstracts` fetches theirs, `matcher` finds them by their match keys,
    see plan_import). Touches no library but through these, so it may run on a worker
    thread. Raises FormatError for a file
    that yields no paper (or is refused: not a regular file, over `max_bytes`, None
    for the configured limit), ImportCancelled when `progress` returns False or
    `cancelled()` turns true (asked between chunks of a file's read and between the
    stages of reading it)."""
    with collector.paused():
        return _prepare(existing, files, fmt, progress, cancelled, max_bytes, abstracts, matcher)


def _prepare(
    existing: Mapping[str, Paper],
    files: Sequence[Path],
    fmt: str | None,
    progress: Callable[[int, int], bool] | None,
    cancelled: Callable[[], bool] | None = None,
    max_bytes: int | None = None,
    abstracts: Abstracts | None = None,
    matcher: Matcher | None = None,
) -> PreparedImport:
    from reader.formats import ReadCancelled, read_papers
    from reader.formats.common import display_name

    # names as they can be printed and stored (a name whose bytes are not UTF-8 too)
    report = ImportReport(files=[display_name(str(f)) for f in files])
    records: list[Paper] = []
    annotations: list[Annotation] = []
    colours: dict[str, str] = {}
    for n, path in enumerate(files):
        if progress is not None and not progress(n, len(files)):
            raise ImportCancelled()
        try:
            result = read_papers(path, fmt, max_bytes=max_bytes, cancelled=cancelled)
        except ReadCancelled:
            raise ImportCancelled() from None
        records.extend(result.records)
        annotations.extend(result.annotations)
        colours.update(result.tag_colours)
        report.skipped.extend(result.skipped)
        report.notes.extend(
            say.Said("{place}: {reason}", place=w.place, reason=w.reason) for w in result.warnings
        )
    if progress is not None and not progress(len(files), len(files)):
        raise ImportCancelled()
    annotations = _storable(annotations, report)
    plan = plan_import(existing, records, abstracts, matcher)
    if cancelled is not None and cancelled():
        raise ImportCancelled()
    report.skipped.extend(plan.skipped)
    added = _stamped(plan.added, now_iso())
    report.added, report.updated, report.unchanged = len(added), len(plan.updated), plan.unchanged
    return PreparedImport(report, [*added, *plan.updated], annotations, plan.id_map, colours)


def _storable(annotations: list[Annotation], report: ImportReport) -> list[Annotation]:
    """The annotations that can be stored as they are; one that cannot (a note over
    the limit, say) is skipped with its reason, its paper imported all the same:
    checked here, before anything is written, not once the papers are."""
    from reader.core.cleaning import clean_annotation

    usable = []
    for ann in annotations:
        try:
            usable.append(clean_annotation(ann))
        except ValueError as exc:
            place = say.Said("the annotations of paper {id}", id=ann.paper_id)
            why = say.Said("{error}; the paper is imported without them", error=say.said(exc))
            report.skipped.append(Skipped(place, why))
    return usable


def _stamped(papers: list[Paper], stamp: str) -> list[Paper]:
    """`papers`, each without an `added` time given `stamp`.

    In place: the planned new papers were made from the files just read (or merged from
    them), so nothing else holds them yet; a frozen copy of each would cost a second at
    100k papers.
    """
    for paper in papers:
        if not paper.added:
            object.__setattr__(paper, "added", stamp)
    return papers


def apply_import(lib: Library, prepared: PreparedImport) -> ImportReport:
    """Write a prepared import: the papers in one write, then the annotations the
    file carried for papers that have none yet (the user's own are never touched)."""
    write_import(lib, prepared)
    return finish_import(lib, prepared)


def write_import(lib: Library, prepared: PreparedImport) -> None:
    """The slow half of apply_import(): the papers written to disk (a new catalogue
    file, annotations.json backed up first), the library in memory left as it is.
    A worker thread may run it while the library's own thread goes on
    (Library.write_papers); that thread then calls finish_import()."""
    with collector.paused():
        # from here on as the library lists them: an import's undo keeps no abstracts
        prepared.papers = lib.write_papers(prepared.papers)
        if len(lib) >= FREEZE_MIN_PAPERS:
            # the papers made live on: out of the collector's scans, as after loading,
            # or its next pass would scan them all (~0.3 s at 100k papers), the
            # interpreter held, the GUI thread waiting
            gc.freeze()


def finish_import(lib: Library, prepared: PreparedImport) -> ImportReport:
    """The rest of apply_import() once write_import() wrote the papers, on the
    library's own thread: the papers taken in (and announced), then the annotations
    the file carried for papers that have none yet, as they are now (the user's own,
    even those written while the papers were being written, are never touched)."""
    report = prepared.report
    with collector.paused():
        lib.papers_written(prepared.papers)
    restored = {}
    for ann in prepared.annotations:
        pid = prepared.id_map.get(ann.paper_id, ann.paper_id)
        if pid in lib and lib.annotation(pid).is_empty and not ann.is_empty:
            restored[pid] = dataclasses.replace(ann, paper_id=pid)
    if restored:
        # each only if the paper has nothing of its own on disk when it is written
        lib.fill_if_empty(restored.values())
        report.annotations = len(restored)
    mine = {t.casefold() for t in lib.tag_colours()}
    new_colours = {t: c for t, c in prepared.tag_colours.items() if t.casefold() not in mine}
    if new_colours:  # (only where the tag has no colour on disk then)
        lib.fill_tag_colours(new_colours)
    return report


def import_files(
    lib: Library,
    files: Sequence[Path],
    fmt: str | None = None,
    *,
    max_bytes: int | None = None,
) -> ImportReport:
    """Read, plan and write an import (the command line's way). `max_bytes`: the
    largest file read (None: the configured limit, reading.max_import_bytes())."""
    with collector.paused():  # one collector pass after all, not one after each stage
        prepared = prepare_import(
            lib.papers_by_id(),
            files,
            fmt,
            max_bytes=max_bytes,
            abstracts=lib.abstracts,
            matcher=lib.matcher(),
        )
        return apply_import(lib, prepared)


class ImportCancelled(Exception):
    """The user cancelled; nothing was written."""
