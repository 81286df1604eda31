"""The one SQLite connection behind a HistoryStore: pragmas, migrations, a lock, transactions."""

from __future__ import annotations

import logging
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlite_utils

from app.core.history.records import HistoryError
from app.core.history.schema import MIGRATIONS
from backends.errors import FailureKind, kind_of
from skills.common.migrations import open_migrated

log = logging.getLogger(__name__)

# In WAL mode NORMAL syncs at checkpoints only: a committed write survives a crash of the process
# (not necessarily a power cut), and streaming writes stay cheap. secure_delete: deleted text is
# overwritten on disk.
_PRAGMAS = ("synchronous = normal", "foreign_keys = on", "secure_delete = on")


class Database:
    """Shared by the model thread (writes) and the UI thread (reads) under one lock; no call
    holds it for more than a statement or two, so a reader waits milliseconds at most."""

    def __init__(self, path: Path, busy_timeout: float) -> None:
        self.path = path
        self._busy_timeout = busy_timeout
        self.lock = threading.RLock()
        self.read_only = False
        try:
            # Autocommit mode: every write below opens its own transaction explicitly.
            self.db = open_migrated(path, MIGRATIONS, pragmas=_PRAGMAS, autocommit=True,
                                    timeout=busy_timeout)
        except sqlite3.DatabaseError as exc:
            self._open_read_only(path, busy_timeout, exc)

    @property
    def conn(self) -> sqlite3.Connection:
        return self.db.conn

    def _open_read_only(self, path: Path, busy_timeout: float, cause: sqlite3.DatabaseError) -> None:
        """Where the file cannot be written (a read-only disk, a damaged file), keep reading it:
        history stays visible, and every write says why it cannot happen."""
        hint = _hint(cause)
        # A full disk or a lock held too long is said as it is: the file is fine, and opening it
        # read-only would quietly drop what this run writes.
        if kind_of(cause) in (FailureKind.DISK_FULL, FailureKind.BUSY) or not path.exists():
            raise HistoryError(f"cannot open history database {path}: {cause}{hint}",
                               kind_of(cause)) from cause
        for mode in ("ro", "ro&immutable=1"):  # immutable: no -shm can be made beside it
            conn = sqlite3.connect(f"file:{path}?mode={mode}", uri=True, timeout=busy_timeout,
                                   isolation_level=None, check_same_thread=False)
            try:
                conn.execute("select count(*) from _migrations").fetchone()
            except sqlite3.DatabaseError:
                conn.close()
                continue
            self.read_only = True
            self.db = sqlite_utils.Database(conn, execute_plugins=False)
            log.info("history database %s opened read-only: %s", path, cause)
            return
        raise HistoryError(f"cannot open history database {path}: {cause}{hint}",
                           FailureKind.STORAGE) from cause

    def fall_back_read_only(self, cause: sqlite3.DatabaseError) -> None:
        """Damage met by the first write after opening (the crash recovery's): keep reading."""
        with self.lock:
            self.conn.close()
            self._open_read_only(self.path, self._busy_timeout, cause)

    def close(self) -> None:
        with self.lock:
            self.conn.close()

    @contextmanager
    def write(self) -> Iterator[sqlite3.Connection]:
        """One immediate transaction: taken up front so two writers never deadlock upgrading."""
        with self.lock, self.readable_errors():
            self.conn.execute("begin immediate")
            try:
                yield self.conn
            except BaseException:
                if self.conn.in_transaction:
                    self.conn.execute("rollback")
                raise
            self.conn.execute("commit")

    @contextmanager
    def readable_errors(self) -> Iterator[None]:
        """A full disk or a file locked too long becomes a HistoryError the caller can show."""
        try:
            yield
        except sqlite3.DatabaseError as exc:  # full, read-only, locked too long, damaged
            if isinstance(exc, _CALLER_ERRORS):
                raise  # a bug or a constraint the caller handles, not the storage
            kind = kind_of(exc)
            if kind is FailureKind.INTERNAL:
                kind = FailureKind.STORAGE
            note = " (opened read-only)" if self.read_only else ""
            raise HistoryError(f"history database {self.path}{note}: {exc}{_hint(exc)}",
                               kind) from exc

    def query(self, sql: str, params: list[Any] | None = None) -> list[dict[str, Any]]:
        with self.lock, self.readable_errors():
            return list(self.db.query(sql, params or []))

    def execute(self, sql: str) -> None:
        """A statement outside any transaction (FTS maintenance, checkpoints)."""
        with self.lock, self.readable_errors():
            self.conn.execute(sql)


_CALLER_ERRORS = (sqlite3.ProgrammingError, sqlite3.IntegrityError, sqlite3.InterfaceError,
                  sqlite3.DataError, sqlite3.NotSupportedError)


def is_damage(exc: BaseException | None) -> bool:
    """A damaged file (SQLITE_CORRUPT, SQLITE_NOTADB), not a full or read-only disk."""
    code = getattr(exc, "sqlite_errorcode", 0) & 0xFF
    return isinstance(exc, sqlite3.DatabaseError) and (code in (11, 26) or "malformed" in str(exc))


def _hint(exc: sqlite3.DatabaseError) -> str:
    if is_damage(exc):
        return ("; `hearth history recover` copies what can be read into a new file "
                "(this one is kept)")
    return ""
