"""Built search indexes of big catalogues, kept in the cache folder between runs.

Two files a library: `<name>.index` (a header with the digest of the papers the
index was built from, then its token tables, marshalled, with a checksum) and
`<name>-<digest>.texts` (the keyed texts the index searches). Both are written
whole to a temporary file and renamed into place, the texts first, so a crash
leaves the old pair or the new one; the index names its texts by digest, and a
reader checks the digest, the checksum and the texts' length. A cache: anything
wrong with it only costs the time to build the index again."""

from __future__ import annotations

import contextlib
import functools
import io
import marshal
import os
import struct
import subprocess
import sys
import tempfile
import zlib
from collections.abc import Generator, Iterator
from pathlib import Path
from typing import Any, BinaryIO

from reader.store.cachefile import library_name, write_in_steps
from reader.store.snapshot import cache_dir

_MAGIC = b"PRIDX001"
#: the module run to build an index in a process of its own
BUILDER = "reader.store.index_builder"
# magic, python major and minor, digest, payload length, payload crc32
_HEADER = struct.Struct("<8sBB32sQI")


class SearchCache:
    """The saved search index of the library whose catalogue is `papers_path`
    (reader.core.index_saving.SavedIndexes)."""

    def __init__(self, papers_path: Path, folder: Path | None = None) -> None:
        self._papers_path = papers_path
        self._given_folder = folder

    @classmethod
    def named(cls, folder: str, name: str) -> SearchCache:
        """The cache of the library whose cache `folder` and `name` these are (for
        the builder process)."""
        cache = cls(Path(folder) / "papers.json")
        cache.__dict__.update(_folder=Path(folder), _name=name)
        return cache

    def build_elsewhere(
        self, digest: bytes, texts: BinaryIO, length: int, starts: bytes, ends: bytes
    ) -> subprocess.Popen[bytes] | None:
        """Start a process that builds the token indexes of these texts and saves
        them here under `digest` (reader.store.index_builder); None where it cannot
        run (no fork-and-exec with open files to lend: Windows; texts in memory)."""
        if os.name != "posix":
            return None
        try:
            texts.flush()
            texts_fd = texts.fileno()
            self._folder.mkdir(parents=True, exist_ok=True)
            with tempfile.TemporaryFile(dir=self._folder) as layout:
                layout.write(starts + ends)
                layout.flush()
                layout.seek(0)
                args = [
                    str(self._folder),
                    self._name,
                    digest.hex(),
                    str(len(ends) // 8),
                    str(length),
                    str(texts_fd),
                    str(layout.fileno()),
                ]
                return subprocess.Popen(
                    [sys.executable, "-m", BUILDER, *args],
                    stdin=subprocess.DEVNULL,
                    stdout=subprocess.DEVNULL,
                    pass_fds=(texts_fd, layout.fileno()),
                )
        except (OSError, ValueError, TypeError, AttributeError, io.UnsupportedOperation):
            return None  # no interpreter to run (sys.executable empty), no file to lend...

    @functools.cached_property
    def _name(self) -> str:  # made on first use: not before a small library's first paint
        return library_name(self._papers_path)

    @functools.cached_property
    def _folder(self) -> Path:
        return (self._given_folder or cache_dir()) / "search"

    @property
    def index_path(self) -> Path:
        return self._folder / f"{self._name}.index"

    def _texts_path(self, digest: bytes) -> Path:
        return self._folder / f"{self._name}-{digest.hex()[:32]}.texts"

    def load(self, digest: bytes) -> Generator[None, None, tuple[BinaryIO, Any] | None]:
        """The texts file and state saved under `digest` (None: none, or damaged),
        read LOAD_STEP bytes a step (~4 ms; then one step to unmarshal, ~10-30 ms at
        100k papers)."""
        try:
            with open(self.index_path, "rb") as file:
                head = file.read(_HEADER.size)
                if len(head) != _HEADER.size:
                    return None
                magic, major, minor, saved_digest, length, crc = _HEADER.unpack(head)
                if (magic, major, minor, saved_digest) != (_MAGIC, *sys.version_info[:2], digest):
                    return None
                if (
                    length > os.fstat(file.fileno()).st_size - _HEADER.size
                ):  # (damaged: no buffer that big)
                    return None
                payload = bytearray(length)
                view, done, read_crc = memoryview(payload), 0, 0
                while done < length:
                    yield
                    got = file.readinto(view[done : done + LOAD_STEP])
                    if not got:
                        return None
                    read_crc = zlib.crc32(view[done : done + got], read_crc)
                    done += got
                view.release()
            if read_crc != crc:
                return None
            yield
            state = marshal.loads(payload)
            texts_length = state[0]
            texts = open(self._texts_path(digest), "rb")  # noqa: SIM115 (the index reads it from now on)
        except (OSError, ValueError, EOFError, TypeError, IndexError, struct.error):
            return None
        if os.fstat(texts.fileno()).st_size != texts_length:
            texts.close()
            return None
        return texts, state

    def save(
        self, digest: bytes, texts: BinaryIO, length: int, state: Any
    ) -> Generator[None, None, None]:
        """Write the texts then the index, COPY_STEP bytes a step; a step may be
        the last one (closing the generator removes what was half written)."""
        try:
            self._folder.mkdir(parents=True, exist_ok=True)
        except OSError:
            return
        if not (yield from write_in_steps(self._texts_path(digest), _copied(texts, length))):
            return
        payload = marshal.dumps(state)
        yield
        head = _HEADER.pack(
            _MAGIC, *sys.version_info[:2], digest, len(payload), zlib.crc32(payload)
        )
        if not (yield from write_in_steps(self.index_path, (head, payload))):
            return
        keep = self._texts_path(digest).name
        for old in self._folder.glob(f"{self._name}-*.texts"):
            if old.name != keep:
                with contextlib.suppress(OSError):
                    old.unlink()


#: bytes of texts copied a step (~5 ms)
COPY_STEP = 8 << 20
#: bytes of a saved index read per step of load()
LOAD_STEP = 4 << 20


def _copied(texts: BinaryIO, length: int) -> Iterator[bytes]:
    """The first `length` bytes of `texts`, COPY_STEP at a time (read at their place
    each time: the file is read elsewhere between steps)."""
    for start in range(0, length, COPY_STEP):
        texts.seek(start)
        piece = texts.read(min(COPY_STEP, length - start))
        if not piece:
            raise OSError("the texts file is shorter than it was")
        yield piece
