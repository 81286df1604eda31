"""HistoryStore: conversations and messages in hearth.db, safe to share between threads.

Write policy for streaming: an answer is added with status "streaming" and updated with the
text so far (`update_message(id, content=..., reasoning=...)`), then marked "complete" (or
"cancelled"/"error"). Each call is one small committed transaction (see database.py), so a
committed write survives a crash of the process. Callers should throttle updates (the assistant
writes at most every ~250 ms); each text update rewrites the message and re-indexes it for
search (well under a millisecond for a 2,000-token answer, see bench/results/history.md). A
message still "streaming" when a store opens, whose writer is no longer open (lease.py), was
left by a crash and is marked "interrupted". Deleting a whole conversation goes through
app/core/conversations.py, which also forgets what other parts keep of it.
"""

from __future__ import annotations

import sqlite3
import uuid
from pathlib import Path
from typing import Any, cast

from app.core.history import alternatives, export, search
from app.core.history.database import Database, is_damage
from app.core.history.lease import WriterLease
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
    storable,
    to_columns,
)

TITLE_MAX = 200
_NEXT_ACTIVITY = "(select coalesce(max(activity), 0) + 1 from conversations)"


class HistoryStore:
    """Every conversation on this machine; safe to share between threads."""

    def __init__(self, path: Path, busy_timeout: float = 10.0) -> None:
        """`busy_timeout`: seconds to wait for another writer (the calendar, another process)."""
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lease = WriterLease(self.path.parent / (self.path.name + "-writers"))
        try:
            self._db = Database(self.path, busy_timeout)
            if not self._db.read_only:
                self._recover_or_read_only()
        except BaseException:
            self._lease.release()
            raise
        self._conn = self._db.conn  # for tests and the crash checks (integrity_check)

    def _recover_or_read_only(self) -> None:
        try:
            self._recover()
        except HistoryError as exc:
            if not is_damage(exc.__cause__):
                raise  # a full disk, a lock held too long: said as it is
            # Damage the opening checks missed: reading may still work, writing would not.
            self._db.fall_back_read_only(cast(sqlite3.DatabaseError, exc.__cause__))

    def _recover(self) -> None:
        """Answers left "streaming" by a store that is no longer open were cut short."""
        alive = sorted(self._lease.alive_tokens())  # a handful: one per open store
        marks = ", ".join("?" for _ in alive)
        with self._db.write() as conn:
            conn.execute(
                "update messages set status = 'interrupted' where status = 'streaming'"
                f" and writer not in ({marks})",
                alive,
            )

    @property
    def writer_token(self) -> str:
        """This store's token among the open ones (lease.py)."""
        return self._lease.token

    @property
    def read_only(self) -> bool:
        """Opened read-only (a read-only disk or a damaged file): reads work, writes say why."""
        return self._db.read_only

    def close(self) -> None:
        self._db.close()
        self._lease.release()

    # Conversations

    def create_conversation(self, title: str = "", model: str = "",
                            conversation_id: str | None = None) -> Conversation:
        """A new conversation; `conversation_id` lets a caller hand out the id before it is
        stored (the assistant returns a turn's handle before touching the disk)."""
        stamp = now()
        conversation_id = conversation_id or uuid.uuid4().hex
        with self._db.write() as conn:
            conn.execute(
                "insert into conversations (id, title, created, updated, model, activity)"
                f" values (?, ?, ?, ?, ?, {_NEXT_ACTIVITY})",
                [conversation_id, _clean_title(title), stamp, stamp, model],
            )
        return self._conversation(conversation_id)

    def get_conversation(self, conversation_id: str) -> Conversation | None:
        rows = self._db.query("select * from conversations where id = ?", [conversation_id])
        return conversation_from_row(rows[0]) if rows else None

    def _conversation(self, conversation_id: str) -> Conversation:
        found = self.get_conversation(conversation_id)
        if found is None:
            raise NotFound(f"no conversation with id {conversation_id!r}")
        return found

    def list_conversations(self, include_archived: bool = False,
                           include_empty: bool = True) -> list[Conversation]:
        """Pinned first, then the most recently updated. `include_empty=False` leaves out
        chats without a single message (started, then never used)."""
        conditions = [] if include_archived else ["archived = 0"]
        if not include_empty:
            conditions.append("exists (select 1 from messages m where m.conversation_id = c.id)")
        where = f"where {' and '.join(conditions)}" if conditions else ""
        rows = self._db.query(
            f"select * from conversations c {where} order by pinned desc, activity desc"
        )
        return [conversation_from_row(row) for row in rows]

    def empty_conversations(self) -> list[str]:
        """Ids of chats without a single message."""
        rows = self._db.query("select id from conversations c where not exists"
                           " (select 1 from messages m where m.conversation_id = c.id)")
        return [str(row["id"]) for row in rows]

    def resolve_id(self, prefix: str) -> str:
        """A full conversation id from a unique prefix of it (what a person types on the CLI)."""
        prefix = prefix.strip()
        if not prefix:
            raise NotFound("no conversation id given")
        escaped = prefix.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")
        rows = self._db.query(
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

    def _set_conversation(self, conversation_id: str, **values: object) -> None:
        assignments = ", ".join(f"{name} = ?" for name in values)  # names are ours, not input
        with self._db.write() as conn:
            cursor = conn.execute(
                f"update conversations set {assignments} where id = ?",
                [*values.values(), conversation_id],
            )
            if cursor.rowcount == 0:
                raise NotFound(f"no conversation with id {conversation_id!r}")

    def delete_conversation(self, conversation_id: str) -> None:
        """Deletes for real: the messages (cascade), their search index entries, and the bytes
        on disk (secure_delete, FTS segments merged, WAL checkpointed and truncated)."""
        with self._db.write() as conn:
            cursor = conn.execute("delete from conversations where id = ?", [conversation_id])
            if cursor.rowcount == 0:
                raise NotFound(f"no conversation with id {conversation_id!r}")
        # FTS5 records a delete as a tombstone beside the old entries; merging all segments
        # drops both, so the words no longer exist anywhere in the index.
        self._db.execute("insert into messages_fts (messages_fts) values ('optimize')")
        self._db.execute("insert into conversations_fts (conversations_fts) values ('optimize')")
        # Best effort: a reader in another process may hold old pages until it finishes.
        self._db.execute("pragma wal_checkpoint(truncate)")

    # Messages

    def add_message(
        self, conversation_id: str, role: str, content: str = "", **fields: object
    ) -> StoredMessage:
        """Append a message (status "complete" unless given) and bump the conversation."""
        values = {"role": role, "content": content, **fields}
        check_fields(values)
        columns = to_columns(values)
        columns.update(id=uuid.uuid4().hex, conversation_id=conversation_id, created=now())
        columns["writer"] = self._lease.token
        names = ", ".join(columns)
        marks = ", ".join("?" for _ in columns)
        with self._db.write() as conn:
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

    def update_message(self, message_id: str, **fields: object) -> None:
        """Change any settable fields; cheap enough to call every few hundred milliseconds."""
        if not fields:
            return
        check_fields(fields)
        columns = to_columns(fields)
        if fields.get("status") == "streaming":
            columns["writer"] = self._lease.token
        assignments = ", ".join(f"{name} = ?" for name in columns)  # names checked above
        with self._db.write() as conn:
            cursor = conn.execute(
                f"update messages set {assignments} where id = ?", [*columns.values(), message_id]
            )
            if cursor.rowcount == 0:
                raise NotFound(f"no message with id {message_id!r}")

    def get_message(self, message_id: str) -> StoredMessage | None:
        rows = self._db.query("select * from messages where id = ?", [message_id])
        return message_from_row(rows[0]) if rows else None

    def _message(self, message_id: str) -> StoredMessage:
        found = self.get_message(message_id)
        if found is None:
            raise NotFound(f"no message with id {message_id!r}")
        return found

    def messages(self, conversation_id: str) -> list[StoredMessage]:
        rows = self._db.query(
            "select * from messages where conversation_id = ? order by seq", [conversation_id]
        )
        return [message_from_row(row) for row in rows]

    def delete_messages_after(self, conversation_id: str, seq: int) -> None:
        """Drop every message after `seq` (edit-and-resend), and the other answers kept for
        the message at `seq` and the dropped ones."""
        with self._db.write() as conn:
            alternatives.forget_from(conn, conversation_id, seq)
            conn.execute(
                "delete from messages where conversation_id = ? and seq > ?",
                [conversation_id, seq],
            )

    # Answer alternatives (alternatives.py)

    def keep_alternative(self, conversation_id: str, user_message_id: str) -> int:
        """Regenerate: put the answer to this user message (and all after it) aside as an
        alternative; the new answer will be the next one. Returns its position (2, 3...)."""
        with self._db.write() as conn:
            found = conn.execute("select seq from messages where id = ? and conversation_id = ?"
                                 " and role = 'user'", [user_message_id, conversation_id])
            row = found.fetchone()
            if row is None:
                raise NotFound(f"no message of yours with id {user_message_id!r}")
            return alternatives.keep(conn, conversation_id, user_message_id, int(row[0]))

    def select_alternative(self, conversation_id: str, user_message_id: str,
                           position: int) -> None:
        """Show answer `position` (from 1) to this user message, with what followed it."""
        with self._db.write() as conn:
            alternatives.select(conn, conversation_id, user_message_id, position)

    def alternatives(self, conversation_id: str) -> dict[str, tuple[int, int]]:
        """{user message id: (answer shown, how many answers)} where there are several."""
        with self._db.lock, self._db.readable_errors():
            return alternatives.shown(self._db.conn, conversation_id)

    # Search, export, titles

    def search(self, query: str, limit: int = 50) -> list[SearchHit]:
        """Conversations whose title, then messages whose text, contains every word of `query`
        (as prefixes), best first."""
        with self._db.lock, self._db.readable_errors():
            return search.search(self._db.conn, query, limit)

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
        rows = self._db.query(
            """select 1 from conversations c where c.id = ? and trim(c.title) = ''
               and exists (select 1 from messages where conversation_id = c.id and role = 'user')
               and exists (select 1 from messages where conversation_id = c.id
                           and role = 'assistant' and status = 'complete' and content != '')""",
            [conversation_id],
        )
        return bool(rows)


def _clean_title(title: str) -> str:
    """One line, no surrounding space, bounded: model-made titles can carry newlines."""
    return storable(" ".join(str(title).split())[:TITLE_MAX])
