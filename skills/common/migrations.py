"""Append-only, named SQLite migrations (after simonw/llm): each runs once, in order, ever;
opening a store's database with its migrations applied; and the lock and transactions such a
store keeps around its one connection."""

from __future__ import annotations

import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sqlite_utils

MigrationFn = Callable[[sqlite_utils.Database], None]


@dataclass(frozen=True)
class Migration:
    name: str
    apply: MigrationFn


class Migrations:
    """An ordered list of named migrations for one component (e.g. "history", "calendar").

    Never edit or reorder a released migration: append a new one. Applied names are recorded in
    `_migrations` so every earlier schema upgrades to the current one."""

    def __init__(self, component: str) -> None:
        self.component = component
        self._items: list[Migration] = []

    def __call__(self, fn: MigrationFn) -> MigrationFn:
        self._items.append(Migration(fn.__name__, fn))
        return fn

    @property
    def names(self) -> list[str]:
        return [m.name for m in self._items]

    def applied(self, db: sqlite_utils.Database) -> list[str]:
        if "_migrations" not in db.table_names():
            return []
        rows = db.execute(
            "select name from _migrations where component = ? order by rowid", [self.component]
        ).fetchall()
        return [r[0] for r in rows]

    def apply(self, db: sqlite_utils.Database, upto: str | None = None) -> list[str]:
        """Apply what is missing (optionally stopping after `upto`, for tests); returns names."""
        db.execute(
            "create table if not exists _migrations (component text not null, name text not null,"
            " applied_at text not null default (datetime('now')), primary key (component, name))"
        )
        done = set(self.applied(db))
        ran: list[str] = []
        for migration in self._items:
            if migration.name not in done and self._run(db, migration):
                ran.append(migration.name)
            if migration.name == upto:
                break
        return ran

    def _run(self, db: sqlite_utils.Database, migration: Migration) -> bool:
        """Apply one migration in its own write transaction; False when another process (a
        concurrent first start) applied it while this one waited for the lock."""
        conn: sqlite3.Connection = db.conn
        with conn:  # each migration commits whole or not at all
            # sqlite3 runs DDL in autocommit unless a transaction is open: open one, or a
            # migration failing half-way would leave half a schema behind.
            if not conn.in_transaction:
                conn.execute("begin immediate")
            if migration.name in self.applied(db):  # decided under the lock, not before it
                return False
            migration.apply(db)
            conn.execute(
                "insert into _migrations (component, name) values (?, ?)",
                [self.component, migration.name],
            )
        return True


def open_migrated(path: Path, *migrations: Migrations, pragmas: Sequence[str] = (),
                  autocommit: bool = False, timeout: float = 30) -> sqlite_utils.Database:
    """`path` opened for use from any thread (WAL, then `pragmas`), `migrations` applied; the
    connection is closed again when that fails. `autocommit`: no implicit transactions."""
    path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlite3.connect(str(path), check_same_thread=False, timeout=timeout,
                           isolation_level=None if autocommit else "DEFERRED")
    try:
        _use_wal(conn, timeout)
        for pragma in pragmas:
            conn.execute(f"pragma {pragma}")
        db = sqlite_utils.Database(conn, execute_plugins=False)
        for component in migrations:
            try:
                component.apply(db)
            except sqlite3.OperationalError:
                # Two processes making a new file at once: the loser's migration failed (and was
                # rolled back) because the winner had just made its table; the rerun skips it.
                component.apply(db)
    except sqlite3.Error:
        conn.close()
        raise
    return db


def _use_wal(conn: sqlite3.Connection, timeout: float) -> None:
    """WAL mode, waiting up to `timeout` seconds for another connection's lock. SQLite answers
    "locked" at once here, without its busy handler, when two processes open a new file together
    (a concurrent first start): waiting would deadlock on the rollback journal's lock upgrade."""
    deadline = time.monotonic() + timeout
    pause = 0.002
    while True:
        try:
            conn.execute("pragma journal_mode = wal")
            return
        except sqlite3.OperationalError as exc:
            busy = getattr(exc, "sqlite_errorcode", 0) & 0xFF in (5, 6)  # BUSY, LOCKED
            if not busy or time.monotonic() + pause > deadline:
                raise
        time.sleep(pause)  # the other process's conversion takes a few milliseconds
        pause = min(pause * 2, 0.1)


class LockedStore:
    """One connection to a migrated database under one lock, safe from several threads."""

    def __init__(self, db: sqlite_utils.Database) -> None:
        self._db = db
        self._lock = threading.RLock()

    def close(self) -> None:
        with self._lock:
            self._db.conn.close()

    def stamp(self) -> tuple[int, int]:
        """Differs after any write: by this store (its connection's change count) or by
        another process (SQLite's data_version), so a view may keep what it read until then."""
        with self._lock:
            version = self._db.conn.execute("pragma data_version").fetchone()[0]
            return int(version), self._db.conn.total_changes

    def _rows(self, sql: str, params: Sequence[Any]) -> list[dict[str, Any]]:
        with self._lock:
            return list(self._db.query(sql, params))

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One immediate transaction under the lock (one already open is joined): committed
        whole or rolled back, so a kill mid-write leaves the last committed state."""
        with self._lock:
            conn = self._db.conn
            if not conn.in_transaction:
                conn.execute("begin immediate")
            try:
                yield conn
            except BaseException:
                conn.rollback()
                raise
            conn.commit()
