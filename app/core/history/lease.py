"""Which store instances are alive: an OS file lock per open store, freed by the OS at death.

An answer still "streaming" when a store opens may belong to another live process (the window
streams while `hearth history list` runs), or to one that crashed. Each open store holds a lock
on its own file; the OS releases it when the process ends in any way, SIGKILL included, so a
lock that can be taken means its owner is gone and its answers were interrupted."""

from __future__ import annotations

import contextlib
import uuid
from pathlib import Path

from filelock import FileLock, Timeout


class WriterLease:
    """Held from open to close. `token` is recorded on the answers this store streams; it is
    empty when the folder cannot be locked (then others treat our streams as abandoned, the
    behaviour without leases)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.token = ""
        self._lock: FileLock | None = None
        token = uuid.uuid4().hex
        lock = _lock(folder / f"{token}.lock")
        try:
            folder.mkdir(parents=True, exist_ok=True)
            lock.acquire(timeout=0)
        except (OSError, Timeout):
            return
        self.token, self._lock = token, lock

    def release(self) -> None:
        if self._lock is not None:
            self._lock.release()
            with contextlib.suppress(OSError):
                (self.folder / f"{self.token}.lock").unlink(missing_ok=True)
            self._lock = None

    def alive_tokens(self) -> set[str]:
        """Tokens of every store open now, this one included; dead owners' files are removed."""
        if not self.folder.is_dir():
            return {self.token} - {""}
        return {p.stem for p in self.folder.glob("*.lock") if self.is_alive(p.stem)}

    def is_alive(self, token: str) -> bool:
        """Whether the store that wrote `token` is still open somewhere (ours counts)."""
        if not token:
            return False
        if token == self.token:
            return True
        path = self.folder / f"{token}.lock"
        if not path.exists():
            return False
        probe = _lock(path)
        try:
            probe.acquire(timeout=0)
        except Timeout:
            return True
        except OSError:
            # Cannot tell: say gone. If wrong, the live writer's next status update heals it;
            # the other way round an answer would show as streaming forever.
            return False
        probe.release()
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)  # its owner died without cleaning up
        return False


def _lock(path: Path) -> FileLock:
    # No soft-lock fallback: a soft lock outlives a crash, so its owner would look alive forever.
    return FileLock(path, thread_local=False, fallback_to_soft=False)
