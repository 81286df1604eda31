"""Copy what can still be read from a damaged hearth.db into a new file; the original is kept.

The sqlite3 command line's `.recover` is not always installed, so this uses what Python's
sqlite3 module can do: the schema is read from sqlite_master, each ordinary table is copied row
by row in rowid order (a damaged stretch is skipped by probing further rowids), and search
indexes are rebuilt by the schema's own triggers as the rows go in. Nothing writes to the
damaged file: it is opened read-only and, once the copy verifies, renamed aside.
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from skills.index_health import move_database

BATCH = 500


@dataclass
class Recovery:
    """What a recovery copied, into which file, and where the damaged original went."""

    source: Path
    copy: Path
    rows: dict[str, int] = field(default_factory=dict)
    damaged_tables: list[str] = field(default_factory=list)
    kept_as: Path | None = None

    def summary(self) -> str:
        total = sum(self.rows.values())
        lost = f"; unreadable parts in {', '.join(self.damaged_tables)}" if (
            self.damaged_tables) else ""
        kept = f"; the damaged file is kept as {self.kept_as}" if self.kept_as else ""
        return f"recovered {total:,} rows into {self.copy}{lost}{kept}"


def recover(source: Path, install: bool = True) -> Recovery:
    """Copy `source` into a new file beside it; with `install` the copy takes its place."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    copy = source.with_name(f"{source.stem}.recovered-{stamp}{source.suffix}")
    result = Recovery(source, copy)
    src = sqlite3.connect(f"file:{source}?mode=ro", uri=True)
    dst = sqlite3.connect(copy)
    try:
        _copy(src, dst, result)
        dst.commit()
        verdict = dst.execute("pragma integrity_check").fetchone()[0]
        if verdict != "ok":
            raise sqlite3.DatabaseError(f"the recovered copy does not verify: {verdict}")
    finally:
        src.close()
        dst.close()
    if install:
        install_copy(result, stamp)
    return result


def install_copy(result: Recovery, stamp: str = "") -> None:
    """The verified copy takes the original's place; the original (and its -wal and -shm) is
    renamed beside it, never deleted. Whatever had the original open must have closed it."""
    source = result.source
    stamp = stamp or time.strftime("%Y%m%d-%H%M%S")
    result.kept_as = source.with_name(f"{source.stem}.damaged-{stamp}{source.suffix}")
    move_database(source, result.kept_as)
    os.replace(result.copy, source)
    result.copy = source


def _copy(src: sqlite3.Connection, dst: sqlite3.Connection, result: Recovery) -> None:
    schema = src.execute(
        "select type, name, tbl_name, sql from sqlite_master where sql is not null"
        " order by case type when 'table' then 0 when 'trigger' then 1 else 2 end, rowid"
    ).fetchall()
    virtual = [name for kind, name, _, sql in schema
               if kind == "table" and sql.lower().startswith("create virtual")]
    tables = [name for kind, name, _, sql in schema if kind == "table"
              and name not in virtual and not _is_shadow(name, virtual)
              and not name.startswith("sqlite_")]
    for kind, name, _, sql in schema:  # tables, virtual tables and triggers before the rows
        if kind == "trigger" or (kind == "table" and not _is_shadow(name, virtual)):
            dst.execute(sql)
    for table in tables:
        result.rows[table] = _copy_rows(src, dst, table, result)
    for kind, _, _, sql in schema:  # indexes after the rows: faster, and never block a row
        if kind == "index":
            try:
                dst.execute(sql)
            except sqlite3.IntegrityError:
                result.damaged_tables.append("an index")  # duplicates a unique index refuses
    dst.execute(f"pragma user_version = {_user_version(src)}")


def _is_shadow(name: str, virtual: list[str]) -> bool:
    return any(name.startswith(v + "_") for v in virtual)


def _user_version(src: sqlite3.Connection) -> int:
    try:
        return int(src.execute("pragma user_version").fetchone()[0])
    except sqlite3.Error:
        return 0


def _copy_rows(src: sqlite3.Connection, dst: sqlite3.Connection, table: str,
               result: Recovery) -> int:
    quoted = '"' + table.replace('"', '""') + '"'
    try:
        columns = [row[1] for row in src.execute(f"pragma table_info({quoted})")]
    except sqlite3.Error:
        result.damaged_tables.append(table)
        return 0
    names = ", ".join('"' + c.replace('"', '""') + '"' for c in columns)
    insert = f"insert or ignore into {quoted} (rowid, {names}) values (?{', ?' * len(columns)})"
    copied, last, damaged = 0, None, False
    while True:
        try:
            rows = _batch(src, quoted, names, last, BATCH)
        except sqlite3.DatabaseError:
            damaged = True
            try:  # a damaged row further on spoils the batch: take the good ones one by one
                rows = _batch(src, quoted, names, last, 1)
            except sqlite3.DatabaseError:
                last = _skip(src, quoted, names, last)
                if last is None:
                    break
                continue
        if not rows:
            break
        dst.executemany(insert, rows)
        copied += len(rows)
        last = rows[-1][0]
    if damaged:
        result.damaged_tables.append(table)
    return copied


def _batch(src: sqlite3.Connection, quoted: str, names: str, after: int | None,
           limit: int) -> list[tuple[Any, ...]]:
    where = "" if after is None else f" where rowid > {int(after)}"
    return src.execute(
        f"select rowid, {names} from {quoted}{where} order by rowid limit {limit}").fetchall()


def _skip(src: sqlite3.Connection, quoted: str, names: str, last: int | None) -> int | None:
    """A rowid past the damaged stretch from which reading works again, or None."""
    start = int(last or 0)
    for power in range(1, 31):  # jumps of 2, 4, 8 ... rowids
        probe: int = start + (1 << power)
        try:
            _batch(src, quoted, names, probe, 1)
            return probe
        except sqlite3.DatabaseError:
            continue
    return None
