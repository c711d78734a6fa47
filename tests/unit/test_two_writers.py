"""Two real processes hammering one library lose no update."""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "helpers"))
from store_harness import run_two_writers

from reader.store.storage import AtomicJSONStorage


@pytest.mark.parametrize("fold_bytes", [256 * 1024, 2048], ids=["journal", "folding-often"])
def test_two_processes_lose_no_update(tmp_path, fold_bytes):
    # each writer: its own annotations, one field of a shared annotation per round,
    # and one field of a single "hot" annotation both update every round; with a
    # small journal bound each also folds the journal every dozen saves or so,
    # between the other's appends
    result = run_two_writers(tmp_path / "library", n=100, fold_bytes=fold_bytes)
    assert result["problems"] == []
    assert result["lost"] == 0 and result["updates"] == 600


def test_a_replaced_file_is_always_noticed_even_at_equal_size(tmp_path):
    # Same size, same clock tick: only the inode tells the files apart, and the
    # file system may hand a freed inode number to the next file. The storage keeps
    # its last file open so its number cannot be reused while it compares.
    path = tmp_path / "a.json"
    mine = AtomicJSONStorage(path)
    mine.write({"t": {"1": {"v": 0}}})
    other = AtomicJSONStorage(path)
    for n in range(1, 200):
        other.write({"t": {"1": {"v": n % 10}}})
        assert mine.changed_on_disk()
        assert mine.read() == {"t": {"1": {"v": n % 10}}}
