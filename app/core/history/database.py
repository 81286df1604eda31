"""The one SQLite connection behind a HistoryStore: pragmas, migrations, a lock, transactions."""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlite_utils

from app.core.history.records import HistoryError
from app.core.history.schema import MIGRATIONS
from backends.errors import FailureKind


class Database:
    """Shared by the model thread (writes) and the UI thread (reads) under one lock; no call
    holds it for more than a statement or two, so a reader waits milliseconds at most."""

    def __init__(self, path: Path, busy_timeout: float) -> None:
        self.path = path
        self.lock = threading.RLock()
        # Autocommit mode: every write below opens its own transaction explicitly.
        self.conn = sqlite3.connect(
            str(path), timeout=busy_timeout, isolation_level=None, check_same_thread=False
        )
        self.db = sqlite_utils.Database(self.conn, execute_plugins=False)
        try:
            self._prepare()
        except sqlite3.DatabaseError as exc:
            self.conn.close()
            raise HistoryError(f"cannot open history database {path}: {exc}",
                               FailureKind.STORAGE) from exc

    def _prepare(self) -> None:
        self.db.enable_wal()
        # In WAL mode NORMAL syncs at checkpoints only: a committed write survives a crash of
        # the process (not necessarily a power cut), and streaming writes stay cheap.
        self.conn.execute("pragma synchronous = normal")
        self.conn.execute("pragma foreign_keys = on")
        self.conn.execute("pragma secure_delete = on")  # deleted text is overwritten on disk
        try:
            MIGRATIONS.apply(self.db)
        except sqlite3.OperationalError:
            # Two processes opening a new file at once: the loser's migration failed (and was
            # rolled back) because the winner had just made the table; rerun skips what is done.
            MIGRATIONS.apply(self.db)

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
        except sqlite3.OperationalError as exc:
            full = "full" in str(exc)  # SQLITE_FULL: "database or disk is full"
            kind = FailureKind.DISK_FULL if full else FailureKind.STORAGE
            raise HistoryError(f"history database {self.path}: {exc}", kind) from exc

    def query(self, sql: str, params: list[Any] | None = None) -> list[dict[str, Any]]:
        with self.lock, self.readable_errors():
            return list(self.db.query(sql, params or []))

    def execute(self, sql: str) -> None:
        """A statement outside any transaction (FTS maintenance, checkpoints)."""
        with self.lock, self.readable_errors():
            self.conn.execute(sql)
