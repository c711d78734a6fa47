"""The user's cache folder: what is derived from a library and kept between starts
(the catalogue's index, the search index), never trusted, made anew when unusable."""

from __future__ import annotations

import contextlib
import os
import sqlite3
import time
import weakref
from pathlib import Path

ENV_VAR = "READER_CACHE_DIR"


def cache_dir() -> Path:
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("paper-reader", appauthor=False))


def library_name(folder: Path) -> str:
    """What names a library's files in the cache folder: a digest of where the
    library folder is (never its content: a shared folder never feeds us one)."""
    import hashlib  # not before a small library's first paint: OpenSSL takes ~3 ms to load

    return hashlib.sha256(os.fsencode(os.path.realpath(folder))).hexdigest()[:24]


def set_aside(path: Path) -> Path:
    """Rename an SQLite database that cannot be used (and its -wal, -shm) aside:
    never trusted, never deleted. Returns the new name."""
    aside = path.with_name(f"{path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
    for suffix in ("", "-wal", "-shm"):
        with contextlib.suppress(OSError):
            os.replace(f"{path}{suffix}", f"{aside}{suffix}")
    return aside


def quick_check(path: Path, timeout: float, table: str = "") -> str:
    """SQLite's PRAGMA quick_check of the database at `path` (of `table` and its
    indexes alone, if given), opened read-only ("ok" when sound), waiting up to
    `timeout` seconds for a writer's lock."""
    db = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=timeout)
    try:
        which = f"({table})" if table.isidentifier() else ""
        return str(db.execute(f"PRAGMA quick_check{which}").fetchone()[0])
    finally:
        db.close()


def owned(owner: object, db: sqlite3.Connection) -> sqlite3.Connection:
    """`db`, closed when `owner` is collected if it is not closed before. (A closing
    __del__ is not enough: an owner collected in a cycle of references goes with its
    connections in any order, and one finalized open is a ResourceWarning since 3.13.)"""
    weakref.finalize(owner, db.close)
    return db
