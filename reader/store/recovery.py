"""Damaged files at start: moved aside (never deleted), newest good backup restored, user told."""

from __future__ import annotations

import functools

from reader.core import say
from reader.store.files import ANNOTATIONS_FILE, PAPERS_FILE, LibraryFolder
from reader.store.journal import JOURNAL_FILE, DamagedJournal
from reader.store.storage import DamagedFileError, StorageError, atomic_write, move_aside


def recover(folder: LibraryFolder) -> list[str]:
    """Check both files of `folder`; handle each damaged one. Returns what the user
    must be told. A file that cannot even be moved aside (read-only folder) is left
    untouched, read as empty and never written."""
    messages: list[str] = []
    for name in (ANNOTATIONS_FILE, PAPERS_FILE):
        found = folder.problem(name)
        if found is None:
            continue
        try:
            # checked again under the lock: another process may have recovered it already
            message = folder.locked(functools.partial(_recover, folder, name))
        except StorageError as exc:
            folder.unreadable.add(name)
            message = _left_as_it_is(name, found, None if str(exc) == str(found) else exc)
        if message:
            messages.append(message)
    # no forget_cached(): the storages saw any file moved or restored change on disk
    journal = _check_journal(folder)
    if journal:
        messages.append(journal)
    return messages


def _check_journal(folder: LibraryFolder) -> str | None:
    """A journal that cannot be read is left alone (the saves in it not shown, no
    more saved); one with a damaged line is folded up to that line and moved aside
    (in a read-only library: only the lines before are used)."""
    if ANNOTATIONS_FILE in folder.unreadable:
        return None  # nothing is loaded from annotations.json: nor from its journal
    found, good = folder.journal_problem()
    if found is None:
        return None
    if not isinstance(found, DamagedJournal):
        folder.unreadable.add(JOURNAL_FILE)
        unread = say._("{problem}. The saves in it are not shown, and no more can be saved.")
        return unread.format(problem=found)
    if folder.read_only():
        shown = say._("{problem}. The {count} saves before it are shown; the rest is ignored.")
        return shown.format(problem=found, count=good)
    try:
        return folder.fold_journal()
    except StorageError as exc:
        shown = say._(
            "{problem}. The {count} saves before it are shown; the rest is ignored ({error})."
        )
        return shown.format(problem=found, count=good, error=exc)


def _left_as_it_is(name: str, found: StorageError, exc: StorageError | None) -> str:
    """What is said of a damaged file of `name` that could not be moved aside (`exc`:
    why, if it says more than `found`)."""
    if name == ANNOTATIONS_FILE and exc is None:
        told = say._(
            "{problem}. It is left as it is: no annotations are loaded from it and changes"
            " to it will not be saved."
        )
    elif name == ANNOTATIONS_FILE:
        told = say._(
            "{problem}. It could not be moved aside ({error}). It is left as it is: no"
            " annotations are loaded from it and changes to it will not be saved."
        )
    elif exc is None:
        told = say._(
            "{problem}. It is left as it is: no papers are loaded from it and changes to it"
            " will not be saved."
        )
    else:
        told = say._(
            "{problem}. It could not be moved aside ({error}). It is left as it is: no papers"
            " are loaded from it and changes to it will not be saved."
        )
    return told.format(problem=found, error=exc)


def _recover(folder: LibraryFolder, name: str) -> str | None:
    path = folder.papers_path if name == PAPERS_FILE else folder.annotations_path
    found = folder.problem(name)
    if found is None:
        return None
    if not isinstance(found, DamagedFileError):
        raise found  # unreadable, not damaged: leave it where it is
    from reader.store.backups import stamp_now  # (backups: only for a damaged file)

    aside = move_aside(path, "damaged", stamp_now())
    if name == PAPERS_FILE:
        told = say._(
            "{problem}. The damaged file was kept as {aside}. The paper list starts over;"
            " your annotations are kept and show again when you import your paper lists."
        )
        return told.format(problem=found, aside=aside)
    good = folder.backups.newest_good()
    if good is None:
        told = say._(
            "{problem}. The damaged file was kept as {aside}. No backup was found: starting"
            " with no annotations."
        )
        return told.format(problem=found, aside=aside)
    info, raw = good
    atomic_write(path, raw)
    when = info.taken.astimezone().strftime("%Y-%m-%d %H:%M")
    told = say._(
        "{problem}. The damaged file was kept as {aside}. Restored the newest good backup,"
        " {backup} (taken {when})."
    )
    return told.format(problem=found, aside=aside, backup=info.name, when=when)
