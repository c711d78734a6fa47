"""One window per library, and only for the same user: the local socket lives in the
user's own 0700 runtime folder, and neither end hands over to another user's process."""

from __future__ import annotations

import getpass
import hashlib
import os
import shutil
import socket
import stat
import sys
import tempfile
from pathlib import Path

import pytest

from reader.ui import single_instance
from reader.ui.single_instance import InstanceServer, ask_running_instance, server_name

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="a named pipe on Windows")


def _private(folder: str | Path) -> bool:
    st = os.stat(folder)
    return stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid() and not st.st_mode & 0o077


@pytest.fixture
def runtime(monkeypatch):
    """A private runtime folder (XDG_RUNTIME_DIR on Linux, TMPDIR on macOS), short
    enough for AF_UNIX, and a throwaway cache for the fallback folder."""
    folder = tempfile.mkdtemp(prefix="pr-run-")  # mode 0700
    cache = tempfile.mkdtemp(prefix="pr-cache-")
    monkeypatch.setenv("XDG_RUNTIME_DIR", folder)
    if sys.platform == "darwin":
        monkeypatch.setenv("TMPDIR", folder)
    monkeypatch.setenv("XDG_CACHE_HOME", cache)
    monkeypatch.setenv("HOME", cache)  # ~/Library/Caches on macOS
    monkeypatch.setattr(single_instance, "_warned", set())  # each test sees its warnings
    # a relative name (the old bare name) would land here, not in the repository
    monkeypatch.chdir(cache)
    yield Path(folder)
    os.chmod(folder, 0o700)
    shutil.rmtree(folder, ignore_errors=True)
    shutil.rmtree(cache, ignore_errors=True)


@pytest.fixture
def lib(tmp_path):
    return tmp_path / "library"


def _listener(path: str) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.bind(path)
    sock.listen(1)
    sock.settimeout(0.5)
    return sock


OTHER_UID = os.getuid() + 1


def _other_uid(*_args) -> int:
    return OTHER_UID


def test_the_socket_is_in_the_users_private_folder_not_in_tmp(runtime, lib):
    path = Path(server_name(lib))
    assert path.is_absolute()
    assert path.parent == runtime
    assert path.parent != Path("/tmp")
    assert _private(path.parent)
    assert len(os.fsencode(path)) < 100  # the AF_UNIX limit
    assert server_name(lib) == server_name(lib / ".." / "library")
    assert server_name(lib) != server_name(lib.parent / "other")


@pytest.mark.skipif(sys.platform == "darwin", reason="macOS has TMPDIR, always set")
def test_without_xdg_runtime_dir_a_private_folder_is_created(runtime, lib, monkeypatch):
    monkeypatch.delenv("XDG_RUNTIME_DIR")
    path = Path(server_name(lib))
    assert path.parent == Path(os.environ["XDG_CACHE_HOME"]) / "paper-reader" / "run"
    assert _private(path.parent)


def test_a_runtime_folder_open_to_others_is_refused(runtime, lib):
    os.chmod(runtime, 0o755)
    path = server_name(lib)
    assert path is None or (os.path.isabs(path) and Path(path).parent != runtime)
    if path is not None:  # the fallback folder of our own, created 0700
        assert _private(Path(path).parent)


def test_a_fallback_folder_open_to_others_means_no_single_instance(runtime, lib, capsys):
    os.chmod(runtime, 0o755)
    fallback = Path(os.environ["XDG_CACHE_HOME"]) / "paper-reader" / "run"
    if sys.platform == "darwin":
        fallback = Path(os.environ["HOME"]) / "Library" / "Caches" / "paper-reader" / "run"
    fallback.mkdir(parents=True)
    fallback.chmod(0o755)
    assert server_name(lib) is None
    assert ask_running_instance(lib) is False
    server = InstanceServer(lib)
    assert not server.server.isListening()
    assert not list(fallback.iterdir())
    assert "paper-reader:" in capsys.readouterr().err


def test_a_runtime_folder_owned_by_another_user_is_refused(runtime, lib, monkeypatch):
    monkeypatch.setattr(os, "getuid", _other_uid)  # everything on disk is someone else's
    assert server_name(lib) is None
    assert ask_running_instance(lib) is False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Qt's old place on Linux")
def test_a_squatter_on_the_old_tmp_name_is_not_handed_over(runtime, lib):
    key = f"{getpass.getuser()}\0{lib.resolve()}".encode("utf-8", "replace")
    old = "/tmp/paper-reader-" + hashlib.sha1(key).hexdigest()[:16]
    if os.path.exists(old):
        pytest.skip(f"{old} is taken")
    squatter = _listener(old)
    try:
        assert ask_running_instance(lib) is False
    finally:
        squatter.close()
        os.unlink(old)


def test_a_listener_of_another_user_is_not_handed_over(runtime, lib, monkeypatch, capsys):
    monkeypatch.setattr(single_instance, "peer_uid", _other_uid)
    listener = _listener(server_name(lib))
    try:
        assert ask_running_instance(lib) is False
        try:
            conn, _ = listener.accept()
        except TimeoutError:
            pass
        else:
            with conn:
                conn.settimeout(0.5)
                try:
                    assert single_instance.MESSAGE not in conn.recv(64)
                except TimeoutError:
                    pass
    finally:
        listener.close()
    assert "another user" in capsys.readouterr().err


def test_a_socket_file_of_another_owner_is_not_connected_to(runtime, lib, monkeypatch):
    path = server_name(lib)
    assert os.path.isabs(path)
    listener = _listener(path)
    real_lstat = os.lstat

    def lstat(name, *args, **kwargs):
        st = real_lstat(name, *args, **kwargs)
        if os.fspath(name) != path:
            return st
        fields = list(st)
        fields[stat.ST_UID] = OTHER_UID
        return os.stat_result(fields)

    monkeypatch.setattr(os, "lstat", lstat)
    try:
        assert ask_running_instance(lib) is False
        with pytest.raises(TimeoutError):
            listener.accept()
    finally:
        listener.close()


def test_peer_uid_reads_the_credentials_of_the_other_end():
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    with a, b:
        assert single_instance.peer_uid(a.fileno()) == os.getuid()
        a.send(b"x")  # the descriptor is still open after the check
        assert b.recv(1) == b"x"


def test_same_user_second_launch_brings_the_first_forward(qtbot, runtime, lib):
    server = InstanceServer(lib)
    assert server.server.isListening()
    assert server.server.fullServerName() == server_name(lib)
    assert os.lstat(server_name(lib)).st_uid == os.getuid()
    with qtbot.waitSignal(server.activation_requested, timeout=3000):
        assert ask_running_instance(lib) is True


def test_the_server_ignores_another_users_connection(qtbot, runtime, lib, monkeypatch):
    server = InstanceServer(lib)
    assert server.server.isListening()
    monkeypatch.setattr(single_instance, "peer_uid", _other_uid)
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as client:
        client.connect(server_name(lib))
        client.sendall(single_instance.MESSAGE)
        with qtbot.assertNotEmitted(server.activation_requested, wait=500):
            pass


def test_a_stale_socket_file_is_replaced(qtbot, runtime, lib):
    path = server_name(lib)
    assert os.path.isabs(path)
    crashed = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    crashed.bind(path)
    crashed.close()  # the file stays, nobody listens
    assert stat.S_ISSOCK(os.lstat(path).st_mode)
    assert ask_running_instance(lib) is False
    server = InstanceServer(lib)
    assert server.server.isListening()
    assert server.server.fullServerName() == path
    with qtbot.waitSignal(server.activation_requested, timeout=3000):
        assert ask_running_instance(lib) is True
