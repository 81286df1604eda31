"""The memory tables in hearth.db: saved facts about the person, and their standing instructions."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlite_utils

from skills.common.migrations import LockedStore, Migrations, open_migrated

TYPED = "typed"  # the source of a memory the person wrote themselves (Settings, CLI)
MAX_TEXT = 500  # characters of one memory: a fact, not a document
MAX_INSTRUCTIONS = 4000

migrations = Migrations("memory")


@migrations
def m001_memories(db: sqlite_utils.Database) -> None:
    # Ids are never given again (see MemoryStore.add), so "forget 7" can never reach a newer
    # memory. Not with AUTOINCREMENT: its sqlite_sequence table cannot be copied by
    # `hearth history recover`, which rebuilds every table from its schema.
    db.execute(
        """create table memories (
            id integer primary key,
            text text not null,
            source text not null default 'typed',
            created text not null,
            last_used text not null default ''
        )"""
    )
    db.execute("create index memories_source on memories (source)")
    db.execute("create table memory_state (name text primary key, value text not null)")


class UnknownMemory(ValueError):
    """No memory with that id (it was forgotten, or never existed)."""


@dataclass(frozen=True)
class Memory:
    """One saved fact. `source` is the chat it came from (a conversation id) or "typed"."""

    id: int
    text: str
    source: str
    created: str
    last_used: str = ""

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @property
    def typed(self) -> bool:
        return self.source == TYPED


def now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def clean_text(text: str, limit: int = MAX_TEXT) -> str:
    """One line of text, or ValueError saying what is wrong with it."""
    line = " ".join(str(text).split())
    if not line:
        raise ValueError("The memory is empty: write what Hearth should remember.")
    if len(line) > limit:
        raise ValueError(f"A memory holds at most {limit} characters; this one has "
                         f"{len(line)}. Keep it to one short fact.")
    return line


class MemoryStore(LockedStore):
    """One connection to hearth.db under one lock (the GUI's worker, the turn threads and the
    CLI each write in their own short transaction; a SIGKILL loses at most the one open)."""

    def __init__(self, path: Path) -> None:
        # secure_delete: a forgotten fact is overwritten on disk
        super().__init__(open_migrated(path, migrations, pragmas=["secure_delete = on"],
                                       autocommit=True))

    # -- reading ------------------------------------------------------------------------------
    def entries(self, query: str = "") -> list[Memory]:
        """Every memory, oldest first; `query`: only those whose text holds it (any case)."""
        rows = self._rows("select * from memories order by id", [])
        needle = query.casefold().strip()
        found = [_memory(row) for row in rows]
        return [m for m in found if needle in m.text.casefold()] if needle else found

    def get(self, memory_id: int) -> Memory:
        rows = self._rows("select * from memories where id = ?", [int(memory_id)])
        if not rows:
            raise UnknownMemory(f"There is no memory {memory_id}.")
        return _memory(rows[0])

    def from_source(self, source: str) -> list[Memory]:
        """What one chat taught (the delete dialog offers to forget these too)."""
        return [_memory(r) for r in self._rows(
            "select * from memories where source = ? order by id", [source])]

    def instructions(self) -> str:
        rows = self._rows("select value from memory_state where name = 'instructions'", [])
        return str(rows[0]["value"]) if rows else ""

    # -- writing ------------------------------------------------------------------------------
    def add(self, text: str, source: str = TYPED) -> Memory:
        line = clean_text(text)
        with self._write() as conn:
            memory_id = _next_id(conn)
            conn.execute("insert into memories (id, text, source, created) values (?, ?, ?, ?)",
                         [memory_id, line, source or TYPED, now()])
            conn.execute("insert into memory_state (name, value) values ('last_id', ?) on "
                         "conflict (name) do update set value = excluded.value", [memory_id])
        return self.get(memory_id)

    def edit(self, memory_id: int, text: str) -> Memory:
        line = clean_text(text)
        with self._write() as conn:
            if not conn.execute("update memories set text = ? where id = ?",
                                [line, int(memory_id)]).rowcount:
                raise UnknownMemory(f"There is no memory {memory_id}.")
        return self.get(memory_id)

    def delete(self, memory_id: int) -> Memory:
        with self._write() as conn:
            gone = self.get(memory_id)  # under the write lock: nothing changes it meanwhile
            conn.execute("delete from memories where id = ?", [gone.id])
        return gone

    def delete_many(self, memory_ids: Iterable[int]) -> int:
        ids = [int(i) for i in memory_ids]
        with self._write() as conn:
            return sum(conn.execute("delete from memories where id = ?", [i]).rowcount
                       for i in ids)

    def delete_all(self) -> int:
        with self._write() as conn:
            return int(conn.execute("delete from memories").rowcount)

    def touch(self, memory_ids: Iterable[int]) -> None:
        """Mark memories as used now (they were given to the model for a turn)."""
        ids = [int(i) for i in memory_ids]
        if not ids:
            return
        marks = ", ".join("?" for _ in ids)
        with self._write() as conn:
            conn.execute(f"update memories set last_used = ? where id in ({marks})",
                         [now(), *ids])

    def set_instructions(self, text: str) -> str:
        """Replace the standing instructions ("" clears them); returns what was stored."""
        value = str(text).strip()
        if len(value) > MAX_INSTRUCTIONS:
            raise ValueError(f"Standing instructions hold at most {MAX_INSTRUCTIONS} "
                             f"characters; these have {len(value)}.")
        with self._write() as conn:
            if value:
                conn.execute("insert into memory_state (name, value) values ('instructions', ?)"
                             " on conflict (name) do update set value = excluded.value", [value])
            else:
                conn.execute("delete from memory_state where name = 'instructions'")
        return value


def _next_id(conn: sqlite3.Connection) -> int:
    """One more than any id ever given (kept in memory_state; the table's own ids too)."""
    given = conn.execute("select value from memory_state where name = 'last_id'").fetchone()
    largest = conn.execute("select coalesce(max(id), 0) from memories").fetchone()[0]
    return max(int(given[0]) if given else 0, int(largest)) + 1


def _memory(row: dict[str, Any]) -> Memory:
    return Memory(int(row["id"]), str(row["text"]), str(row["source"]), str(row["created"]),
                  str(row["last_used"] or ""))
