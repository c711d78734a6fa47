"""One window per library: a second launch brings the running one to the front."""

from __future__ import annotations

import getpass
import hashlib
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

CONNECT_TIMEOUT_MS = 500
MESSAGE = b"raise\n"


def server_name(folder: Path) -> str:
    """A name unique to this user and library folder (local sockets are per machine)."""
    key = f"{getpass.getuser()}\0{folder.resolve()}".encode("utf-8", "replace")
    return "paper-reader-" + hashlib.sha1(key).hexdigest()[:16]


def ask_running_instance(folder: Path) -> bool:
    """True if a window on `folder` is already running (it was asked to come forward)."""
    socket = QLocalSocket()
    socket.connectToServer(server_name(folder))
    if not socket.waitForConnected(CONNECT_TIMEOUT_MS):
        return False
    socket.write(MESSAGE)
    socket.waitForBytesWritten(CONNECT_TIMEOUT_MS)
    socket.disconnectFromServer()
    return True


class InstanceServer(QObject):
    """Listens for later launches on the same library.

    Signals:
        activation_requested(): another launch asked this window to come forward.
    """

    activation_requested = Signal()

    def __init__(self, folder: Path, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.server = QLocalServer(self)
        self.server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        name = server_name(folder)
        if not self.server.listen(name):
            # a socket file left by a crashed instance
            QLocalServer.removeServer(name)
            self.server.listen(name)
        self.server.newConnection.connect(self._on_connection)

    def _on_connection(self) -> None:
        while self.server.hasPendingConnections():
            socket = self.server.nextPendingConnection()
            socket.readyRead.connect(lambda s=socket: self._on_read(s))
            socket.disconnected.connect(socket.deleteLater)
            if socket.bytesAvailable():
                self._on_read(socket)

    def _on_read(self, socket: QLocalSocket) -> None:
        if bytes(socket.readAll().data()).startswith(MESSAGE.strip()):
            self.activation_requested.emit()
