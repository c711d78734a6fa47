"""A binary copy of a big catalogue, so that opening it need not parse papers.json.

papers.json stays the catalogue; this is a derived cache, like a .pyc: the papers
read from papers.json, written with marshal (CPython's fastest reader: 100k papers
in ~0.3 s against ~0.8 s for orjson, and no per-field checks since we wrote it).
It is used only when it was made from papers.json exactly as it is now (size,
times, inode), by this Python version, and every chunk passes its checksum;
otherwise the catalogue is read from papers.json as always. It lives in the user's
cache folder, not in the library folder (a shared folder never feeds us one)."""

from __future__ import annotations

import contextlib
import marshal
import os
import struct
import sys
import zlib
from collections.abc import Generator, Iterator, Sequence
from operator import itemgetter
from pathlib import Path
from typing import Any, BinaryIO

from reader.core.models import Paper, paper_from_row, paper_row
from reader.core.steps import run_steps
from reader.store.cachefile import library_name, write_in_steps

ENV_VAR = "READER_CACHE_DIR"
#: catalogues smaller than this open fast enough from papers.json
MIN_PAPERS = 20_000
#: the fewest bytes a paper takes in papers.json ('"":{}'): a file smaller than
#: MIN_PAPERS of them has no snapshot, so not even the cache folder is looked up
#: (platformdirs costs ~5 ms of a start-up of the sample)
PAPER_MIN_BYTES = 5
#: papers per chunk, and per step of writing(): ~5 ms each
CHUNK_PAPERS = 1_000
_MAGIC = b"PRCAT001"
# magic, python major and minor, papers.json's size, mtime_ns, ctime_ns, inode, device; papers
_HEADER = struct.Struct("<8sBBQqqQQQ")
_CHUNK = struct.Struct("<QI")  # length, crc32

Signature = tuple[int, int, int, int, int]


def cache_dir() -> Path:
    env = os.environ.get(ENV_VAR)
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("paper-reader", appauthor=False))


def snapshot_path(papers_path: Path, folder: Path | None = None) -> Path:
    """Where the snapshot of the catalogue at `papers_path` is kept."""
    return (folder or cache_dir()) / "catalogues" / f"{library_name(papers_path)}.bin"


def signature(st: os.stat_result) -> Signature:
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev)


def load(
    papers_path: Path, folder: Path | None = None, current: Signature | None = None
) -> dict[str, Paper] | None:
    """The catalogue from its snapshot, or None if there is no usable one; `current`:
    papers.json's signature if the caller has just taken it."""
    try:
        current = current or signature(os.stat(papers_path))
        if current[0] < MIN_PAPERS * PAPER_MIN_BYTES:
            return None
        with open(snapshot_path(papers_path, folder), "rb") as file:
            head = file.read(_HEADER.size)
            if len(head) != _HEADER.size:
                return None
            magic, major, minor, *made_from, count = _HEADER.unpack(head)
            if (magic, major, minor, tuple(made_from)) != (_MAGIC, *sys.version_info[:2], current):
                return None
            papers: dict[str, Paper] = {}
            while len(papers) < count:
                rows = _read_chunk(file)
                if rows is None:
                    return None
                papers.update(zip(map(itemgetter(0), rows), map(paper_from_row, rows), strict=True))
            if len(papers) != count or file.read(1):
                return None
            return papers
    except (OSError, ValueError, EOFError, TypeError, IndexError, struct.error):
        return None


def _read_chunk(file: BinaryIO) -> list[tuple[Any, ...]] | None:
    head = file.read(_CHUNK.size)
    if len(head) != _CHUNK.size:
        return None
    length, crc = _CHUNK.unpack(head)
    payload = file.read(length)
    if len(payload) != length or zlib.crc32(payload) != crc:
        return None
    rows = marshal.loads(payload)
    if not isinstance(rows, list) or (rows and set(map(type, rows)) != {tuple}):
        return None
    return rows


def save(
    papers_path: Path, made_from: Signature, papers: Sequence[Paper], folder: Path | None = None
) -> bool:
    """Write the snapshot of `papers`, read from papers.json when it had signature
    `made_from`. False (nothing written) if papers.json has changed since, or the
    cache folder cannot be written: a missing snapshot only costs speed."""
    return bool(run_steps(writing(papers_path, made_from, papers, folder))[1])


def writing(
    papers_path: Path, made_from: Signature, papers: Sequence[Paper], folder: Path | None = None
) -> Generator[None, None, bool]:
    """save() a chunk of CHUNK_PAPERS papers per step (a few ms each), for idle time:
    the window writes it after its first paint. Returns what save() does. Until the
    last step nothing is in place; closing the generator early removes what it wrote.

    The header holds `made_from`, the signature of the papers.json the papers were
    read from, so a snapshot finished after papers.json changed is never used."""

    def unchanged() -> bool:
        return signature(os.stat(papers_path)) == made_from

    try:
        if not unchanged():
            return False
        path = snapshot_path(papers_path, folder)
        path.parent.mkdir(parents=True, exist_ok=True)
    except (OSError, ValueError):
        return False
    head = _HEADER.pack(_MAGIC, *sys.version_info[:2], *made_from, len(papers))
    # papers.json changed while we wrote: the header would keep the snapshot from
    # being used, but it would still push out one that may be good
    return (yield from write_in_steps(path, _pieces(head, papers), still_wanted=unchanged))


def _pieces(head: bytes, papers: Sequence[Paper]) -> Iterator[bytes]:
    """The header, then each chunk's length and checksum and its papers (written a
    chunk at a time, not joined: 150 MB at 100k papers)."""
    yield head
    for start in range(0, len(papers), CHUNK_PAPERS):
        payload = marshal.dumps([paper_row(p) for p in papers[start : start + CHUNK_PAPERS]])
        yield _CHUNK.pack(len(payload), zlib.crc32(payload)) + payload


def forget(papers_path: Path, folder: Path | None = None) -> None:
    with contextlib.suppress(OSError):
        snapshot_path(papers_path, folder).unlink()
