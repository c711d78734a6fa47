"""The atomic TinyDB storage on real files."""

import json
import os
import stat

import pytest

from reader.store.storage import (
    AtomicJSONStorage,
    DamagedFileError,
    StorageError,
    atomic_write,
    remove_stale_temp_files,
)


def test_write_then_read_round_trip(tmp_path):
    path = tmp_path / "a.json"
    storage = AtomicJSONStorage(path)
    storage.write({"t": {"1": {"note": "ünïcödé ∑ 中文"}}})
    assert json.loads(path.read_text("utf-8")) == {"t": {"1": {"note": "ünïcödé ∑ 中文"}}}
    assert AtomicJSONStorage(path).read() == {"t": {"1": {"note": "ünïcödé ∑ 中文"}}}
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]  # no temp file left


def test_rereads_when_another_process_replaced_the_file(tmp_path):
    path = tmp_path / "a.json"
    mine = AtomicJSONStorage(path)
    mine.write({"t": {"1": {"v": 1}}})
    assert mine.read() == {"t": {"1": {"v": 1}}}
    AtomicJSONStorage(path).write({"t": {"1": {"v": 2}}})
    assert mine.changed_on_disk()
    assert mine.read() == {"t": {"1": {"v": 2}}}


def test_lone_surrogate_is_refused_before_writing(tmp_path):
    path = tmp_path / "a.json"
    storage = AtomicJSONStorage(path)
    storage.write({"t": {}})
    before = path.read_bytes()
    with pytest.raises(StorageError):
        storage.write({"t": {"1": {"note": "bad \ud800"}}})
    assert path.read_bytes() == before


def test_failed_replace_leaves_previous_file_and_no_temp(tmp_path, monkeypatch):
    path = tmp_path / "a.json"
    atomic_write(path, b'{"old": {}}')

    def boom(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    with pytest.raises(StorageError, match="No space left"):
        atomic_write(path, b'{"new": {}}')
    assert path.read_bytes() == b'{"old": {}}'
    assert [p.name for p in tmp_path.iterdir()] == ["a.json"]


def test_symlink_keeps_pointing_and_permissions_kept(tmp_path):
    real = tmp_path / "real.json"
    atomic_write(real, b"{}")
    os.chmod(real, 0o640)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    atomic_write(link, b'{"x": {}}')
    assert link.is_symlink()
    assert real.read_bytes() == b'{"x": {}}'
    assert stat.S_IMODE(real.stat().st_mode) == 0o640


def test_read_only_file_is_respected_even_as_root(tmp_path):
    path = tmp_path / "a.json"
    atomic_write(path, b"{}")
    os.chmod(path, 0o444)
    # os.access() says writable to root; the mode bits still say read-only
    with pytest.raises(StorageError, match="read-only"):
        atomic_write(path, b'{"x": {}}')
    assert path.read_bytes() == b"{}"


@pytest.mark.parametrize(
    "content",
    [b"", b'{"t": {"1": {"a"', b"\x00\x01garbage", b"[1, 2]", b'{"t": [1]}', b"\xff\xfe{}"],
    ids=["empty", "truncated", "garbage", "wrong-shape", "wrong-table", "bad-utf8"],
)
def test_damaged_files_are_reported(tmp_path, content):
    path = tmp_path / "a.json"
    path.write_bytes(content)
    with pytest.raises(DamagedFileError, match="a.json"):
        AtomicJSONStorage(path).read()


def test_stale_temp_files_are_removed(tmp_path):
    (tmp_path / ".tmp-annotations.json.abc").write_text("partial")
    (tmp_path / "keep.json").write_text("{}")
    removed = remove_stale_temp_files(tmp_path)
    assert [p.name for p in removed] == [".tmp-annotations.json.abc"]
    assert [p.name for p in tmp_path.iterdir()] == ["keep.json"]


def test_read_only_folder_is_respected_even_as_root(tmp_path):
    folder = tmp_path / "ro"
    folder.mkdir()
    path = folder / "a.json"
    atomic_write(path, b"{}")
    os.chmod(folder, 0o555)
    try:
        with pytest.raises(StorageError, match="folder is read-only"):
            atomic_write(path, b'{"x": {}}')
        with pytest.raises(StorageError, match="folder is read-only"):
            atomic_write(folder / "new.json", b"{}")
    finally:
        os.chmod(folder, 0o755)
    assert path.read_bytes() == b"{}"
    assert sorted(p.name for p in folder.iterdir()) == ["a.json"]


def test_new_files_are_private_and_kept_modes_survive_rewrites(tmp_path):
    path = tmp_path / "notes.json"
    atomic_write(path, b"{}")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600  # notes are nobody else's business
    os.chmod(path, 0o644)
    atomic_write(path, b'{"y": {}}')
    assert stat.S_IMODE(path.stat().st_mode) == 0o644


def test_a_folder_sync_error_is_reported(tmp_path, monkeypatch):
    path = tmp_path / "a.json"
    atomic_write(path, b"{}")
    real_fsync = os.fsync
    calls = []

    def fsync(fd):
        calls.append(fd)
        if len(calls) == 2:  # the folder's, after the rename: the rename may not last
            raise OSError(5, "Input/output error")
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    with pytest.raises(StorageError, match="input/output error"):
        atomic_write(path, b'{"new": {}}')
    assert json.loads(path.read_bytes()) == {"new": {}}  # whole, never a mix


def test_unsavable_values_are_refused_as_value_errors(tmp_path):
    from reader.store.storage import UnsavableValueError

    storage = AtomicJSONStorage(tmp_path / "a.json")
    with pytest.raises(UnsavableValueError) as info:
        storage.write({"t": {"1": {"n": 2**70}}})
    assert isinstance(info.value, ValueError) and isinstance(info.value, StorageError)
    assert not (tmp_path / "a.json").exists()
