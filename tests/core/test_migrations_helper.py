"""The shared migration runner: each named migration runs once, whole or not at all."""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlite_utils

from skills.common.migrations import Migrations


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
