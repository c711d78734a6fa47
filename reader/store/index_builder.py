"""Builds a big catalogue's token indexes in a process of its own and saves them
in the search cache, where the window takes them up (reader.core.index_saving).

The window makes the keyed texts (it searches them meanwhile) and lends this
process their file; the ~10 s of building and the ~100 MB it takes at 100k
papers are then neither the window's time nor its memory. Run as
`python -m reader.store.index_builder FOLDER NAME DIGEST COUNT LENGTH TEXTS_FD LAYOUT_FD`:
exit status 0 once saved."""

from __future__ import annotations

import os
import sys
from typing import Any, cast

from reader.core.index_saving import saved_state
from reader.core.models import Paper
from reader.core.record_texts import CatalogueTexts
from reader.core.tokens import TokenIndex
from reader.store.search_cache import SearchCache


class _Positioned:
    """A file read with pread at a position of its own: the window reads the same
    open file, so its shared position is never moved."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._at = 0

    def seek(self, at: int, whence: int = 0) -> int:
        self._at = at
        return at

    def read(self, size: int = -1) -> bytes:
        if size < 0:
            size = os.fstat(self._fd).st_size - self._at
        data = os.pread(self._fd, size, self._at)
        self._at += len(data)
        return data

    def close(self) -> None:
        os.close(self._fd)


def build(
    folder: str, name: str, digest: bytes, count: int, length: int, texts_fd: int, layout: bytes
) -> None:
    texts_file = cast(Any, _Positioned(texts_fd))
    starts, ends = layout[: 8 * (count + 1)], layout[8 * (count + 1) :]
    texts = CatalogueTexts(cast(list[Paper], [None] * count))
    texts.adopt(texts_file, length, starts, ends)
    tokens = {line: TokenIndex(count, texts.part(line, ahead=True)) for line in (0, 1, None)}
    for line_tokens in tokens.values():
        line_tokens.step(None)
    state = saved_state(length, starts, ends, tokens)
    del tokens
    for _ in SearchCache.named(folder, name).save(digest, texts_file, length, state):
        pass


def main(argv: list[str]) -> int:
    folder, name, digest, count, length, texts_fd, layout_fd = argv
    with os.fdopen(int(layout_fd), "rb") as file:
        layout = file.read()
    if hasattr(os, "nice"):
        os.nice(10)  # the window comes first
    build(folder, name, bytes.fromhex(digest), int(count), int(length), int(texts_fd), layout)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
