"""The request log's table in hearth.db: the most recent requests, kept across restarts (who
asked, tokens, duration, tools; never a message's text)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import sqlite_utils

from app.core.server.log import RequestRecord
from skills.common.migrations import LockedStore, Migrations, open_migrated

KEEP = 1000  # requests kept; older ones are dropped as new ones arrive

migrations = Migrations("server")


@migrations
def m001_requests(db: sqlite_utils.Database) -> None:
    # Counts and names only: no column can hold a prompt or an answer.
    db.execute(
        """create table server_requests (
            n integer primary key,
            at real not null,
            client text not null,
            method text not null,
            path text not null,
            status integer not null,
            model text not null default '',
            prompt_tokens integer not null default 0,
            cached_tokens integer not null default 0,
            completion_tokens integer not null default 0,
            duration_ms real not null default 0,
            queue_position integer not null default 0,
            gave_way integer not null default 0,
            finish_reason text not null default '',
            tools_offered integer not null default 0,
            tool_calls text not null default '[]',
            error text not null default ''
        )"""
    )


@migrations
def m002_batched_with(db: sqlite_utils.Database) -> None:
    db.execute("alter table server_requests add column batched_with integer not null default 0")


_COLUMNS = ("at", "client", "method", "path", "status", "model", "prompt_tokens",
            "cached_tokens", "completion_tokens", "duration_ms", "queue_position", "gave_way",
            "finish_reason", "tools_offered", "tool_calls", "error", "batched_with")


class RequestLogStore(LockedStore):
    """One connection of its own to hearth.db, used by the log's writer thread and whoever
    reads the log at start (one lock)."""

    def __init__(self, path: Path, keep: int = KEEP) -> None:
        self.keep = keep
        # secure_delete: a cleared log leaves no old rows readable
        super().__init__(open_migrated(path, migrations, pragmas=["secure_delete = on"],
                                       autocommit=True))

    def add(self, records: Iterable[RequestRecord]) -> None:
        """Append, then drop what is older than the last `keep` (one transaction)."""
        rows = [_row(record) for record in records]
        if not rows:
            return
        marks = ", ".join("?" for _ in _COLUMNS)
        with self._write() as conn:
            conn.executemany(f"insert into server_requests ({', '.join(_COLUMNS)}) "
                             f"values ({marks})", rows)
            conn.execute("delete from server_requests where n <= "
                         "(select max(n) from server_requests) - ?", [self.keep])

    def recent(self) -> list[RequestRecord]:
        """The kept requests, oldest first."""
        rows = self._rows(f"select {', '.join(_COLUMNS)} from server_requests order by n desc "
                          "limit ?", [self.keep])
        # The columns are the record's own field names.
        return [RequestRecord(**{**row, "tool_calls": [str(n) for n in json.loads(row["tool_calls"])]})
                for row in reversed(rows)]

    def clear(self) -> None:
        with self._lock:
            self._db.conn.execute("delete from server_requests")
            # The deleted rows' pages may still be in the write-ahead log: fold it in.
            self._db.conn.execute("pragma wal_checkpoint(truncate)")


def _row(record: RequestRecord) -> list[object]:
    return [json.dumps(record.tool_calls) if column == "tool_calls" else getattr(record, column)
            for column in _COLUMNS]
