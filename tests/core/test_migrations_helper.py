"""The shared migration runner: each named migration runs once, whole or not at all."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest
import sqlite_utils

from skills.common import migrations as migrations_module
from skills.common.migrations import Migrations, open_migrated


def test_failing_migration_leaves_no_half_schema(tmp_path: Path) -> None:
    migrations = Migrations("demo")

    @migrations
    def m001_ok(db: sqlite_utils.Database) -> None:
        db.execute("create table a (x integer)")

    @migrations
    def m002_breaks(db: sqlite_utils.Database) -> None:
        db.execute("create table b (x integer)")
        raise RuntimeError("disk full")

    db = sqlite_utils.Database(tmp_path / "x.db")
    with pytest.raises(RuntimeError):
        migrations.apply(db)
    assert "a" in db.table_names() and "b" not in db.table_names()
    assert migrations.applied(db) == ["m001_ok"]


def test_each_migration_runs_once_and_upto_stops(tmp_path: Path) -> None:
    migrations = Migrations("demo")
    ran: list[str] = []

    @migrations
    def m001(db: sqlite_utils.Database) -> None:
        ran.append("m001")

    @migrations
    def m002(db: sqlite_utils.Database) -> None:
        ran.append("m002")

    db = sqlite_utils.Database(tmp_path / "x.db")
    assert migrations.apply(db, upto="m001") == ["m001"]
    assert migrations.apply(db) == ["m002"]
    assert migrations.apply(db) == []
    assert ran == ["m001", "m002"]


def _rollback_writer(path: Path) -> sqlite3.Connection:
    """Another process part-way through writing a file still in rollback-journal mode: what a
    concurrent first start holds while it makes the file, before its own switch to WAL."""
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("create table made_first (x integer)")
    other.execute("begin immediate")
    other.execute("insert into made_first values (1)")
    return other


def test_a_new_file_another_process_is_making_is_opened_once_it_is_done(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "x.db"
    other = _rollback_writer(path)
    waiting = threading.Event()
    real_sleep = migrations_module.time.sleep

    def sleep(seconds: float) -> None:
        waiting.set()  # the open met the other's lock and waits for it
        real_sleep(seconds)

    monkeypatch.setattr(migrations_module.time, "sleep", sleep)
    opened: list[object] = []
    migrations = Migrations("demo")
    migrations(lambda db: db.execute("create table mine (x integer)"))
    thread = threading.Thread(target=lambda: opened.append(_open(path, migrations)))
    thread.start()
    assert waiting.wait(60), opened  # SQLite answers "locked" at once here: no busy handler
    other.execute("commit")
    other.close()
    thread.join(60)
    db = opened[0]
    assert isinstance(db, sqlite_utils.Database), db
    assert db.execute("pragma journal_mode").fetchone()[0] == "wal"
    assert {"made_first", "mine"} <= set(db.table_names())
    db.conn.close()


def test_a_lock_held_past_the_timeout_is_said_as_a_lock(tmp_path: Path) -> None:
    path = tmp_path / "x.db"
    other = _rollback_writer(path)
    try:
        with pytest.raises(sqlite3.OperationalError, match="locked"):
            open_migrated(path, Migrations("demo"), timeout=0.05)
    finally:
        other.execute("rollback")
        other.close()


def _open(path: Path, migrations: Migrations) -> object:
    try:
        return open_migrated(path, migrations, timeout=60)
    except sqlite3.Error as exc:
        return exc
