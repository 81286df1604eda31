"""HistoryStore: conversations and messages in hearth.db, safe to share between threads.

Write policy for streaming: an answer is added with status "streaming" and updated with the
text so far (`update_message(id, content=..., reasoning=...)`), then marked "complete" (or
"cancelled"/"error"). Each call is one small committed transaction (WAL, synchronous=NORMAL:
no fsync per commit, yet a committed write survives a crash of the process). Callers should
throttle updates (the assistant writes at most every ~250 ms); each text update rewrites the
message and re-indexes it for search. A message still "streaming" when a store opens was left by
a crash and is marked "interrupted".
"""

from __future__ import annotations

import sqlite3
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import sqlite_utils

from app.core.history import export, search
from app.core.history.records import (
    Conversation,
    HistoryError,
    NotFound,
    SearchHit,
    StoredMessage,
    check_fields,
    conversation_from_row,
    message_from_row,
    now,
    to_columns,
)
from app.core.history.schema import MIGRATIONS

TITLE_MAX = 200
_NEXT_ACTIVITY = "(select coalesce(max(activity), 0) + 1 from conversations)"


class HistoryStore:
    """Every conversation on this machine. One connection guarded by a lock: the model thread
    writes while the UI thread reads, and no call holds the lock for more than a statement or
    two, so readers wait milliseconds at most."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.RLock()
        conn = sqlite3.connect(
            str(self.path), timeout=10, isolation_level=None, check_same_thread=False
        )
        self._conn = conn
        self._db = sqlite_utils.Database(conn, execute_plugins=False)
        try:
            self._prepare()
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise HistoryError(f"cannot open history database {self.path}: {exc}") from exc

    def _prepare(self) -> None:
        self._conn.execute("pragma busy_timeout = 10000")  # the calendar shares this file
        self._db.enable_wal()
        self._conn.execute("pragma synchronous = normal")
        self._conn.execute("pragma foreign_keys = on")
        self._conn.execute("pragma secure_delete = on")  # deleted text is overwritten on disk
        self._migrate()
        with self._write():
            self._conn.execute(
                "update messages set status = 'interrupted' where status = 'streaming'"
            )

    def _migrate(self) -> None:
        try:
            MIGRATIONS.apply(self._db)
        except sqlite3.OperationalError:
            # Two processes opening a new file at once: the loser's migration failed (and was
            # rolled back) because the winner had just made the table; rerun skips what is done.
            MIGRATIONS.apply(self._db)

    def close(self) -> None:
        with self._lock:
            self._conn.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One immediate transaction: taken up front so two writers never deadlock upgrading."""
        with self._lock:
            self._conn.execute("begin immediate")
            try:
                yield self._conn
            except BaseException:
                self._conn.execute("rollback")
                raise
            self._conn.execute("commit")

    def _query(self, sql: str, params: list[Any] | None = None) -> list[dict[str, Any]]:
        with self._lock:
            return list(self._db.query(sql, params or []))

    # Conversations

    def create_conversation(self, title: str = "", model: str = "") -> Conversation:
        stamp = now()
        conversation_id = uuid.uuid4().hex
        with self._write() as conn:
            conn.execute(
                "insert into conversations (id, title, created, updated, model, activity)"
                f" values (?, ?, ?, ?, ?, {_NEXT_ACTIVITY})",
                [conversation_id, _clean_title(title), stamp, stamp, model],
            )
        return self._conversation(conversation_id)

    def get_conversation(self, conversation_id: str) -> Conversation | None:
        rows = self._query("select * from conversations where id = ?", [conversation_id])
        return conversation_from_row(rows[0]) if rows else None

    def _conversation(self, conversation_id: str) -> Conversation:
        found = self.get_conversation(conversation_id)
        if found is None:
            raise NotFound(f"no conversation with id {conversation_id!r}")
        return found

    def list_conversations(self, include_archived: bool = False) -> list[Conversation]:
        """Pinned first, then the most recently updated."""
        where = "" if include_archived else "where archived = 0"
        rows = self._query(
            f"select * from conversations {where} order by pinned desc, activity desc"
        )
        return [conversation_from_row(row) for row in rows]

    def resolve_id(self, prefix: str) -> str:
        """A full conversation id from a unique prefix of it (what a person types on the CLI)."""
        prefix = prefix.strip()
        if not prefix:
            raise NotFound("no conversation id given")
        escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        rows = self._query(
            "select id from conversations where id like ? escape '\\' limit 2", [escaped + "%"]
        )
        if not rows:
            raise NotFound(f"no conversation with id {prefix!r}")
        if len(rows) > 1 and rows[0]["id"] != prefix:
            raise HistoryError(f"{prefix!r} matches several conversations; give more of the id")
        return str(rows[0]["id"])

    def rename(self, conversation_id: str, title: str) -> None:
        self._set_conversation(conversation_id, title=_clean_title(title))

    def set_pinned(self, conversation_id: str, pinned: bool) -> None:
        self._set_conversation(conversation_id, pinned=int(pinned))

    def set_archived(self, conversation_id: str, archived: bool) -> None:
        self._set_conversation(conversation_id, archived=int(archived))

    def _set_conversation(self, conversation_id: str, **values: Any) -> None:
        assignments = ", ".join(f"{name} = ?" for name in values)  # names are ours, not input
        with self._write() as conn:
            cursor = conn.execute(
                f"update conversations set {assignments} where id = ?",
                [*values.values(), conversation_id],
            )
            if cursor.rowcount == 0:
                raise NotFound(f"no conversation with id {conversation_id!r}")

    def delete_conversation(self, conversation_id: str) -> None:
        """Deletes for real: the messages (cascade), their search index entries, and the bytes
        on disk (secure_delete, FTS segments merged, WAL checkpointed and truncated)."""
        with self._write() as conn:
            cursor = conn.execute("delete from conversations where id = ?", [conversation_id])
            if cursor.rowcount == 0:
                raise NotFound(f"no conversation with id {conversation_id!r}")
        with self._lock:
            # FTS5 records a delete as a tombstone beside the old entries; merging all segments
            # drops both, so the words no longer exist anywhere in the index.
            self._conn.execute("insert into messages_fts (messages_fts) values ('optimize')")
            # Best effort: a reader in another process may hold old pages until it finishes.
            self._conn.execute("pragma wal_checkpoint(truncate)")

    # Messages

    def add_message(
        self, conversation_id: str, role: str, content: str = "", **fields: Any
    ) -> StoredMessage:
        """Append a message (status "complete" unless given) and bump the conversation."""
        values = {"role": role, "content": content, **fields}
        check_fields(values)
        columns = to_columns(values)
        columns.update(id=uuid.uuid4().hex, conversation_id=conversation_id, created=now())
        names = ", ".join(columns)
        marks = ", ".join("?" for _ in columns)
        with self._write() as conn:
            self._touch(conn, conversation_id, role, str(fields.get("model", "")))
            conn.execute(
                f"insert into messages ({names}, seq) values ({marks},"
                " (select coalesce(max(seq), 0) + 1 from messages where conversation_id = ?))",
                [*columns.values(), conversation_id],
            )
        return self._message(columns["id"])

    def _touch(self, conn: sqlite3.Connection, conversation_id: str, role: str, model: str) -> None:
        cursor = conn.execute(
            f"update conversations set updated = ?, activity = {_NEXT_ACTIVITY},"
            " model = case when ? = 'assistant' and ? != '' then ? else model end where id = ?",
            [now(), role, model, model, conversation_id],
        )
        if cursor.rowcount == 0:
            raise NotFound(f"no conversation with id {conversation_id!r}")

    def update_message(self, message_id: str, **fields: Any) -> None:
        """Change any settable fields; cheap enough to call every few hundred milliseconds."""
        if not fields:
            return
        check_fields(fields)
        columns = to_columns(fields)
        assignments = ", ".join(f"{name} = ?" for name in columns)  # names checked above
        with self._write() as conn:
            cursor = conn.execute(
                f"update messages set {assignments} where id = ?", [*columns.values(), message_id]
            )
            if cursor.rowcount == 0:
                raise NotFound(f"no message with id {message_id!r}")

    def get_message(self, message_id: str) -> StoredMessage | None:
        rows = self._query("select * from messages where id = ?", [message_id])
        return message_from_row(rows[0]) if rows else None

    def _message(self, message_id: str) -> StoredMessage:
        found = self.get_message(message_id)
        if found is None:
            raise NotFound(f"no message with id {message_id!r}")
        return found

    def messages(self, conversation_id: str) -> list[StoredMessage]:
        rows = self._query(
            "select * from messages where conversation_id = ? order by seq", [conversation_id]
        )
        return [message_from_row(row) for row in rows]

    def delete_messages_after(self, conversation_id: str, seq: int) -> None:
        """Drop every message after `seq` (edit-and-resend, regenerate)."""
        with self._write() as conn:
            conn.execute(
                "delete from messages where conversation_id = ? and seq > ?",
                [conversation_id, seq],
            )

    # Search, export, titles

    def search(self, query: str, limit: int = 50) -> list[SearchHit]:
        """Messages containing every word of `query` (as prefixes), best first."""
        with self._lock:
            return search.search(self._conn, query, limit)

    def export_markdown(self, conversation_id: str | None = None) -> str:
        parts = [
            export.conversation_markdown(c, self.messages(c.id))
            for c in self._chosen(conversation_id)
        ]
        return "\n---\n\n".join(parts)

    def export_json(self, conversation_id: str | None = None) -> list[dict[str, Any]]:
        return [
            export.conversation_json(c, self.messages(c.id)) for c in self._chosen(conversation_id)
        ]

    def _chosen(self, conversation_id: str | None) -> list[Conversation]:
        if conversation_id is None:
            return self.list_conversations(include_archived=True)
        return [self._conversation(conversation_id)]

    def needs_title(self, conversation_id: str) -> bool:
        """True once the first exchange is done (a question and a complete answer) and the
        conversation still has no title; a title the user gave is never replaced."""
        rows = self._query(
            """select 1 from conversations c where c.id = ? and trim(c.title) = ''
               and exists (select 1 from messages where conversation_id = c.id and role = 'user')
               and exists (select 1 from messages where conversation_id = c.id
                           and role = 'assistant' and status = 'complete' and content != '')""",
            [conversation_id],
        )
        return bool(rows)


def _clean_title(title: str) -> str:
    """One line, no surrounding space, bounded: model-made titles can carry newlines."""
    return " ".join(str(title).split())[:TITLE_MAX]
