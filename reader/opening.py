"""Open a library folder for the CLI and the window: recover, seed, migrate."""

from __future__ import annotations

import dataclasses
import gc
from pathlib import Path
from typing import TYPE_CHECKING

from reader import paths
from reader.core import collector, say
from reader.core.library import Library, now_iso
from reader.core.models import Paper
from reader.store.files import ANNOTATIONS_FILE, LibraryFolder, not_a_folder
from reader.store.legacy import migrate_legacy
from reader.store.legacy_papers import migrate_papers_json
from reader.store.migrations import migrate
from reader.store.recovery import recover
from reader.store.storage import StorageError

if TYPE_CHECKING:
    from reader.store.backups import Backups


class OpenedLibrary:
    """The library, its folder, and what to tell the user about opening it. (A plain
    class: a dataclass is ~1 ms of the program's start.)"""

    def __init__(
        self,
        library: Library,
        folder: LibraryFolder,
        messages: list[str] | None = None,
        notices: list[str] | None = None,
    ) -> None:
        self.library = library
        self.folder = folder
        #: problems the user must be told about (a damaged file recovered, read-only...)
        self.messages = [] if messages is None else messages
        #: plain information (a new library was seeded)
        self.notices = [] if notices is None else notices
        #: the papers of the bundled sample a new library was given (0: none); the
        #: notices say so too (the window says it with its own plural forms)
        self.seeded = 0

    @property
    def backups(self) -> Backups:
        """Backups of annotations.json: take("close") on close, take_if_due() hourly."""
        return self.folder.backups


def sample_papers() -> list[Paper]:
    """The bundled ICML 2025 sample as Papers."""
    from reader.formats import read_papers

    result = read_papers(paths.bundled_sample(), "json")
    source = "bundled ICML 2025 sample"
    return [dataclasses.replace(p, source=source) for p in result.records]


#: From this many papers on, what was loaded is taken out of the collector's scans.
FREEZE_MIN_PAPERS = 20_000


def open_library(folder: Path, *, seed: bool = True, early: bool = False) -> OpenedLibrary:
    """Open (creating if needed) the library in `folder`. A damaged file is moved
    aside and replaced by the newest good backup; an empty library is seeded with
    the bundled sample; the schema is brought up to date (backup first). Raises
    StorageError with a one-line reason only if the folder cannot be used at all.

    An earlier version's papers.json becomes this device's first catalogue file. With
    `early` (the window), a big library whose catalogue index is made anew opens with
    the papers taken in first (see CatalogueDB.load)."""
    if folder.exists() and not folder.is_dir():
        raise StorageError(not_a_folder(folder))
    # loading makes hundreds of thousands of objects, none of them garbage: the
    # collector would scan them all several times (0.3-0.5 s at 100k papers)
    with collector.paused():
        opened = _open(folder, seed, early)
        if len(opened.library) >= FREEZE_MIN_PAPERS:
            gc.freeze()  # long-lived: kept out of every later scan (the window does it too)
    return opened


def seeded_notice(folder: Path, count: int) -> str:
    """The notice that a new library in `folder` was given `count` sample papers."""
    notice = say._("New library in {folder}: added the {count} papers of the bundled sample.")
    return notice.format(folder=folder, count=count)


def _open(folder: Path, seed: bool, early: bool) -> OpenedLibrary:
    store = LibraryFolder(folder)
    store.catalogue.opens_early = early
    try:
        moved = migrate_legacy(store)
    except StorageError as exc:  # the old files stay where they are: tried again next time
        not_moved = say._("The annotations of an earlier version could not be moved: {error}")
        moved = [not_moved.format(error=exc)]
    messages = [*moved, *recover(store)]
    notices = []
    seeded = 0
    try:
        catalogue = migrate_papers_json(store)
        if catalogue:
            notices.append(catalogue)
    except StorageError as exc:  # papers.json stays where it is: tried again next time
        not_moved = say._("The catalogue of an earlier version could not be moved: {error}")
        messages.append(not_moved.format(error=exc))
    read_only = store.read_only()
    if read_only:
        read_only_told = say._(
            "{reason}. You can read this library, but changes will not be saved."
        )
        messages.append(read_only_told.format(reason=read_only))
    elif seed and store.is_empty():
        added = now_iso()  # (the table's Added column, the sort by date added)
        papers = [dataclasses.replace(p, added=p.added or added) for p in sample_papers()]
        store.add_papers(papers)
        seeded = len(papers)
        notices.append(seeded_notice(folder, seeded))
    if not read_only and ANNOTATIONS_FILE not in store.unreadable:
        messages.extend(migrate(store))
    library = Library(store)
    messages.extend(store.take_problems())  # (later ones: the window's poll)
    opened = OpenedLibrary(library, store, messages, notices)
    opened.seeded = seeded
    return opened
