"""Files of the cache folder (catalogue snapshots, saved search indexes), written a
piece per step of idle time and renamed into place whole."""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Callable, Generator, Iterable
from pathlib import Path

from reader.store.storage import TEMP_PREFIX

#: a temporary file older than this is what a crash left (a live writer touches its
#: own every few ms)
STALE_TEMP_S = 600


def library_name(papers_path: Path) -> str:
    """What names a library's files in the cache folder: a digest of where its
    catalogue is (never its content: a shared folder never feeds us one)."""
    import hashlib  # not before a small library's first paint: OpenSSL takes ~3 ms to load

    return hashlib.sha256(os.fsencode(os.path.realpath(papers_path))).hexdigest()[:24]


def write_in_steps(
    path: Path, pieces: Iterable[bytes], still_wanted: Callable[[], bool] = lambda: True
) -> Generator[None, None, bool]:
    """Write `pieces` to a temporary file beside `path`, a step a piece, then rename
    it to `path` if `still_wanted()`. Returns whether it did: an error only costs
    speed in a cache, so none is raised. Until the last step nothing is in place;
    closing the generator early removes what it wrote. No fsync: a torn cache file
    fails its checksums."""
    _remove_stale_temp_files(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX + path.name + ".", dir=path.parent)
    except OSError:
        return False
    done = False
    try:
        with os.fdopen(fd, "wb") as out:
            for piece in pieces:
                out.write(piece)
                yield
        if still_wanted():
            os.replace(tmp, path)
            done = True
    except (OSError, ValueError):
        pass
    finally:
        if not done:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
    return done


def _remove_stale_temp_files(path: Path) -> None:
    """What a crash in the middle of writing `path` left behind. A writer that is
    still alive touches its file every few ms (and if its file is removed anyway,
    its rename fails: nothing is written, no harm)."""
    old = time.time() - STALE_TEMP_S
    for leftover in path.parent.glob(TEMP_PREFIX + path.name + ".*"):
        with contextlib.suppress(OSError):
            if leftover.stat().st_mtime < old:
                leftover.unlink()
