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
import hashlib
import marshal
import os
import shutil
import struct
import sys
import tempfile
import zlib
from pathlib import Path
from typing import Any, BinaryIO

from reader.store.snapshot import cache_dir
from reader.store.storage import TEMP_PREFIX

_MAGIC = b"PRIDX001"
# magic, python major and minor, digest, payload length, payload crc32
_HEADER = struct.Struct("<8sBB32sQI")


class SearchCache:
    """The saved search index of the library whose catalogue is `papers_path`
    (reader.core.index_saving.SavedIndexes)."""

    def __init__(self, papers_path: Path, folder: Path | None = None) -> None:
        name = hashlib.sha256(os.fsencode(os.path.realpath(papers_path))).hexdigest()[:24]
        self._folder = (folder or cache_dir()) / "search"
        self._name = name
        self.index_path = self._folder / f"{name}.index"

    def _texts_path(self, digest: bytes) -> Path:
        return self._folder / f"{self._name}-{digest.hex()[:32]}.texts"

    def load(self, digest: bytes) -> tuple[BinaryIO, Any] | None:
        try:
            with open(self.index_path, "rb") as file:
                head = file.read(_HEADER.size)
                if len(head) != _HEADER.size:
                    return None
                magic, major, minor, saved_digest, length, crc = _HEADER.unpack(head)
                if (magic, major, minor, saved_digest) != (_MAGIC, *sys.version_info[:2], digest):
                    return None
                payload = file.read(length)
            if len(payload) != length or zlib.crc32(payload) != crc:
                return None
            state = marshal.loads(payload)
            texts_length = state[0]
            texts = open(self._texts_path(digest), "rb")  # noqa: SIM115 (the index reads it from now on)
        except (OSError, ValueError, EOFError, TypeError, IndexError, struct.error):
            return None
        if os.fstat(texts.fileno()).st_size != texts_length:
            texts.close()
            return None
        return texts, state

    def save(self, digest: bytes, texts: BinaryIO, length: int, state: Any) -> bool:
        try:
            payload = marshal.dumps(state)
            self._folder.mkdir(parents=True, exist_ok=True)
            texts.seek(0)
            self._write(self._texts_path(digest), lambda out: _copy(texts, out, length))
            head = _HEADER.pack(_MAGIC, *sys.version_info[:2], digest, len(payload), zlib.crc32(payload))
            self._write(self.index_path, lambda out: (out.write(head), out.write(payload)))
        except (OSError, ValueError):
            return False
        keep = self._texts_path(digest).name
        for old in self._folder.glob(f"{self._name}-*.texts"):
            if old.name != keep:
                with contextlib.suppress(OSError):
                    old.unlink()
        return True

    def _write(self, path: Path, fill: Any) -> None:
        fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX + path.name + ".", dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                fill(out)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise


def _copy(source: BinaryIO, out: BinaryIO, length: int) -> None:
    shutil.copyfileobj(source, out, 1 << 20)
    out.truncate(length)
