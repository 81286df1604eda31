"""One Hearth per user: a second launch hands its arguments (e.g. --toggle) to the first.

QLocalServer/QLocalSocket carry the message; a QLockFile decides who is first, because on
Windows two servers can listen on one pipe name, and a crash can leave a stale socket behind.
`hearth` takes the lock before its window and listens only after the first frame (QtNetwork and
its enum classes cost ~30 ms): a second launch in that gap keeps trying to connect for a while."""

from __future__ import annotations

import getpass
import json
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QLockFile, QObject, Signal, Slot

if TYPE_CHECKING:
    from PySide6.QtNetwork import QLocalServer, QLocalSocket

TIMEOUT_MS = 1000
# How long a second launch keeps trying to reach a first one that holds the lock but is not
# listening yet (it listens once its window is up: seconds on a busy machine).
STARTING_PATIENCE_S = 5.0
RETRY_S = 0.05
# Held while Hearth runs on Windows; packaging/windows/installer.iss names it as AppMutex, so
# setup and the uninstaller wait for Hearth to close instead of replacing DLLs it holds open.
APP_MUTEX = "HearthRunning"


def hold_app_mutex() -> list[int]:
    """Windows: create the named mutexes the installer checks (session and global); they are
    never closed, so they last exactly as long as the process. Elsewhere nothing."""
    if sys.platform != "win32":
        return []
    import ctypes

    create = ctypes.windll.kernel32.CreateMutexW
    return [int(create(None, False, name) or 0) for name in (APP_MUTEX, f"Global\\{APP_MUTEX}")]


def instance_key(data_dir: str) -> str:
    """Per user and per data folder (tests with their own HEARTH_HOME never collide)."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):
        user = "user"
    digest = _sha256_hex(f"{user}:{data_dir}".encode())[:16]
    return f"hearth-{digest}"


def _sha256_hex(data: bytes) -> str:
    """hashlib's SHA-256 digest without hashlib where CPython has its own module: hashlib
    loads OpenSSL first (~11M instructions, ~3 ms before the window). Same digest either way."""
    try:
        from _sha256 import sha256  # CPython 3.11
    except ImportError:  # 3.12 renamed it; other interpreters
        from hashlib import sha256
    return str(sha256(data).hexdigest())


class SingleInstance(QObject):
    """`acquire()` True: we are the first (listen for others). False: `send(args)` and exit.

    `claim()` then `listen()` is `acquire()` in two steps, so the listening can wait."""

    message = Signal(list)

    def __init__(self, key: str, lock_dir: Path, parent: QObject | None = None) -> None:
        """lock_dir: the user's own data folder. Not the shared temp folder, where another
        user could create the lock first (its name is predictable) and a cleaner can delete
        it under a running Hearth."""
        super().__init__(parent)
        self.key = key
        lock_dir.mkdir(parents=True, exist_ok=True)
        self._lock = QLockFile(str(lock_dir / f"{key}.lock"))
        self._lock.setStaleLockTime(0)  # a lock left by a crashed process is detected by PID
        self._server: QLocalServer | None = None
        self._clients: set[QLocalSocket] = set()

    def acquire(self) -> bool:
        return self.claim() and self.listen()

    def claim(self) -> bool:
        """True: we are the first (the lock is ours); nobody can reach us until `listen()`."""
        return bool(self._lock.tryLock(100))

    def listen(self) -> bool:
        """Accept the messages of later launches (after `claim()`)."""
        from PySide6.QtNetwork import QLocalServer

        QLocalServer.removeServer(self.key)  # a socket file left by a crash
        self._server = QLocalServer(self)
        self._server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        self._server.newConnection.connect(self._accept)
        return self._server.listen(self.key)

    def send(self, args: list[str], patience_s: float = STARTING_PATIENCE_S) -> bool:
        """From a second process: deliver args to the first one. False if nobody answered
        within `patience_s` (the first one may hold the lock and not listen yet)."""
        socket = self._connect(patience_s)
        if socket is None:
            return False
        socket.write(json.dumps(args).encode() + b"\n")
        ok = socket.waitForBytesWritten(TIMEOUT_MS)
        socket.disconnectFromServer()
        return ok

    def _connect(self, patience_s: float) -> QLocalSocket | None:
        from PySide6.QtNetwork import QLocalSocket

        deadline = time.monotonic() + patience_s
        while True:
            socket = QLocalSocket()
            if self._try_connect(socket):
                return socket
            if time.monotonic() >= deadline:
                return None
            time.sleep(RETRY_S)  # no server yet: it fails at once, so do not spin

    def _try_connect(self, socket: QLocalSocket) -> bool:
        socket.connectToServer(self.key)
        return bool(socket.waitForConnected(TIMEOUT_MS))

    def _accept(self) -> None:
        assert self._server is not None
        while self._server.hasPendingConnections():
            socket = self._server.nextPendingConnection()
            socket.setParent(self)
            self._clients.add(socket)
            socket.readyRead.connect(self._ready)
            socket.disconnected.connect(self._gone)

    @Slot()
    def _ready(self) -> None:
        from PySide6.QtNetwork import QLocalSocket

        socket = self.sender()
        if isinstance(socket, QLocalSocket):
            self._read(socket)

    @Slot()
    def _gone(self) -> None:
        from PySide6.QtNetwork import QLocalSocket

        socket = self.sender()
        if isinstance(socket, QLocalSocket) and socket in self._clients:
            self._clients.discard(socket)
            socket.deleteLater()

    def _read(self, socket: QLocalSocket) -> None:
        while socket.canReadLine():
            line = bytes(socket.readLine().data()).strip()
            try:
                args = json.loads(line)
            except ValueError:
                continue  # not one of ours: ignore rather than crash the first instance
            if isinstance(args, list):
                self.message.emit([str(a) for a in args])

    def release(self) -> None:
        for socket in list(self._clients):
            socket.readyRead.disconnect(self._ready)
            socket.disconnected.disconnect(self._gone)
            socket.abort()
            socket.deleteLater()
        self._clients.clear()
        if self._server is not None:
            self._server.close()
            self._server = None
        self._lock.unlock()
