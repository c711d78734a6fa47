"""Unnamed files in the cache folder, for what is too big to keep in memory."""

from __future__ import annotations

from typing import BinaryIO

from reader.store.snapshot import cache_dir


def search_texts_file() -> BinaryIO:
    """A file for a search index's keyed texts (reader.core.record_texts): on disk
    in the cache folder, not in a tmpfs /tmp (that would be memory again), and gone
    when closed or when the program ends, however it ends."""
    import tempfile

    folder = cache_dir() / "search"
    folder.mkdir(parents=True, exist_ok=True)
    return tempfile.TemporaryFile(dir=folder, prefix="texts-")
