"""One window per library: a second launch brings the running one to the front.

Only for the same user. On POSIX the local socket is a file in the user's private
runtime folder (reader.paths.runtime_dir, mode 0700), never a guessable name in /tmp
that another local user could take first; and each end checks who is at the other end
(the socket file's owner, and the peer's credentials from the kernel) before it hands
over or obeys. Whenever that cannot be established the second launch simply opens its
own window. On Windows it stays a named pipe: the server restricts it to the user
(UserAccessOption), but the second launch does not check who created the pipe.
"""

from __future__ import annotations

import getpass
import hashlib
import os
import socket as pysocket
import stat
import struct
import sys
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from reader.core import say
from reader.paths import runtime_dir

CONNECT_TIMEOUT_MS = 500
MESSAGE = b"raise\n"
# sun_path holds 104 bytes on macOS and the BSDs, 108 on Linux, the final NUL included
MAX_SOCKET_PATH = 100
NAME_PREFIX = "paper-reader-"

_WINDOWS = sys.platform == "win32"
# how this platform tells the user id at the other end of a local socket
_SO_PEERCRED = getattr(pysocket, "SO_PEERCRED", None)  # Linux and OpenBSD
# struct ucred {pid_t pid; uid_t uid; gid_t gid;}, OpenBSD's sockpeercred {uid; gid; pid}
_PEERCRED_LAYOUT, _PEERCRED_UID = ("IIi", 0) if sys.platform.startswith("openbsd") else ("iII", 1)
# macOS, FreeBSD, NetBSD, DragonFly: getsockopt(SOL_LOCAL, LOCAL_PEERCRED) -> struct xucred
_XUCRED = _SO_PEERCRED is None and (sys.platform == "darwin" or "bsd" in sys.platform)
SOL_LOCAL = 0
LOCAL_PEERCRED = 1
XUCRED_VERSION = 0

_warned: set[str] = set()


def _warn(message: str) -> None:
    """One line on stderr, once per process for the same message."""
    if message not in _warned:
        _warned.add(message)
        print(f"paper-reader: {message}", file=sys.stderr)


def _key(folder: Path) -> str:
    key = f"{getpass.getuser()}\0{folder.resolve()}".encode("utf-8", "replace")
    return NAME_PREFIX + hashlib.sha1(key).hexdigest()[:16]


def server_name(folder: Path) -> str | None:
    """Where the window on `folder` listens: a full socket path in this user's private
    runtime folder (a pipe name on Windows). None if there is no such folder: then
    there is no single-instance at all."""
    if _WINDOWS:
        return _key(folder)
    base = runtime_dir()
    if base is None:
        _warn(say._("no private runtime folder; not looking for another window"))
        return None
    path = os.path.join(base, _key(folder))
    if len(os.fsencode(path)) >= MAX_SOCKET_PATH:
        too_deep = say._(
            "the runtime folder {folder} is too deep for a socket; not looking for another window"
        )
        _warn(too_deep.format(folder=base))
        return None
    return path


def peer_uid(fd: int) -> int | None:
    """The user id at the other end of the connected local socket `fd`, as the kernel
    has it; None if this platform cannot tell or the question fails. `fd` stays open
    (the check works on a duplicate)."""
    try:
        with pysocket.fromfd(fd, pysocket.AF_UNIX, pysocket.SOCK_STREAM) as sock:
            if _SO_PEERCRED is not None:
                creds = sock.getsockopt(pysocket.SOL_SOCKET, _SO_PEERCRED, struct.calcsize("3i"))
                return int(struct.unpack(_PEERCRED_LAYOUT, creds)[_PEERCRED_UID])
            if _XUCRED:
                # struct xucred {u_int cr_version; uid_t cr_uid; short cr_ngroups; ...}
                creds = sock.getsockopt(SOL_LOCAL, LOCAL_PEERCRED, 256)
                version, uid = struct.unpack_from("II", creds)
                return int(uid) if version == XUCRED_VERSION else None
    except (OSError, ValueError, struct.error):
        return None
    return None


def _same_user(socket: QLocalSocket) -> bool:
    """Whether the process at the other end of `socket` runs as this user. Where the
    platform has no way to ask, the private folder and the file's owner must do."""
    if _WINDOWS:
        return True
    if _SO_PEERCRED is None and not _XUCRED:
        return True
    fd = int(socket.socketDescriptor())
    if fd < 0:
        return False
    return peer_uid(fd) == os.getuid()


def _socket_file_is_ours(path: str) -> bool | None:
    """True if `path` is a socket this user owns, False if it is something else, None
    if there is nothing there (no window is running)."""
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    except OSError:
        return False
    return stat.S_ISSOCK(st.st_mode) and st.st_uid == os.getuid()


def ask_running_instance(folder: Path) -> bool:
    """True if a window of this user's on `folder` is already running (it was asked to
    come forward). False when there is none, or when whoever answers is not this user:
    then the caller opens its own window."""
    name = server_name(folder)
    if name is None:
        return False
    if not _WINDOWS:
        ours = _socket_file_is_ours(name)
        if ours is None:
            return False
        if not ours:
            not_ours = say._("{name} is not a socket of this user's; opening a window of its own")
            _warn(not_ours.format(name=name))
            return False
    socket = QLocalSocket()
    socket.connectToServer(name)
    if not socket.waitForConnected(CONNECT_TIMEOUT_MS):
        return False
    if not _same_user(socket):
        socket.abort()
        other = say._("{name} is answered by another user; opening a window of its own")
        _warn(other.format(name=name))
        return False
    socket.write(MESSAGE)
    socket.waitForBytesWritten(CONNECT_TIMEOUT_MS)
    socket.disconnectFromServer()
    return True


class InstanceServer(QObject):
    """Listens for later launches of this user's on the same library (not at all if
    there is no private runtime folder: server.isListening() is False then).

    Signals:
        activation_requested(): another launch asked this window to come forward.
    """

    activation_requested = Signal()

    def __init__(self, folder: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.server = QLocalServer(self)
        self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self.server.newConnection.connect(self._on_connection)
        name = server_name(folder)
        if name is None:
            return
        if not self.server.listen(name):
            # a socket file left by a crashed instance (in our own private folder)
            QLocalServer.removeServer(name)
            self.server.listen(name)

    def _on_connection(self) -> None:
        while self.server.hasPendingConnections():
            socket = self.server.nextPendingConnection()
            if not _same_user(socket):
                socket.abort()
                socket.deleteLater()
                continue
            socket.readyRead.connect(self._on_ready_read)
            socket.disconnected.connect(socket.deleteLater)
            if socket.bytesAvailable():
                self._on_read(socket)

    def _on_ready_read(self) -> None:
        socket = self.sender()
        if isinstance(socket, QLocalSocket):
            self._on_read(socket)

    def _on_read(self, socket: QLocalSocket) -> None:
        if bytes(socket.readAll().data()).startswith(MESSAGE.strip()):
            self.activation_requested.emit()
