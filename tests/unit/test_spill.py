"""The search index's texts go to an unnamed file in the cache folder."""

from __future__ import annotations

import os
from pathlib import Path

from reader.store import spill


def test_search_texts_file_is_on_disk_in_the_cache_folder_and_leaves_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("READER_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "cache" / "search"
    with spill.search_texts_file() as file:
        file.write(b"authors\ntitle\nabstract")
        file.seek(0)
        assert file.read() == b"authors\ntitle\nabstract"
        assert folder.is_dir()
        assert os.fstat(file.fileno()).st_dev == os.stat(folder).st_dev
        fd_link = Path(f"/proc/self/fd/{file.fileno()}")
        if fd_link.exists():  # (Linux: where the unnamed file is; /tmp is on the same disk here)
            assert Path(os.readlink(fd_link)).parent == folder
    assert list(folder.iterdir()) == []
