"""Answer alternatives: regenerate keeps the earlier answer, and the user switches between them.

The shown alternative's messages are ordinary rows of `messages` (so the prompt, search and
export read it like any answer); the others wait as JSON in `answer_alternatives`, each with
everything that followed it, because a later exchange belongs to the answer it continued."""

from __future__ import annotations

import json
import sqlite3
from typing import Any

from app.core.history.records import NotFound


def keep(conn: sqlite3.Connection, conversation_id: str, anchor_id: str, anchor_seq: int) -> int:
    """Put aside everything after the anchor (its answer and what followed) as an alternative
    and make room for a new one, shown; returns the new one's position."""
    rows = _query(conn, "select position, messages from answer_alternatives"
                        " where anchor_id = ? order by position", [anchor_id])
    tail = _stash(conn, conversation_id, anchor_seq)
    if rows:
        conn.execute("update answer_alternatives set messages = ? where anchor_id = ?"
                     " and messages is null", [tail, anchor_id])
    else:
        conn.execute("insert into answer_alternatives values (?, ?, 1, ?)",
                     [conversation_id, anchor_id, tail])
    position = (rows[-1]["position"] if rows else 1) + 1
    conn.execute("insert into answer_alternatives values (?, ?, ?, null)",
                 [conversation_id, anchor_id, position])
    return position


def select(conn: sqlite3.Connection, conversation_id: str, anchor_id: str,
           position: int) -> None:
    """Show alternative `position` of the anchor's answers: the shown one is put aside."""
    rows = _query(conn, "select position, messages from answer_alternatives"
                        " where anchor_id = ? and conversation_id = ?",
                  [anchor_id, conversation_id])
    chosen = next((r for r in rows if r["position"] == position), None)
    if chosen is None:
        raise NotFound(f"no answer {position} to that message")
    if chosen["messages"] is None:
        return  # already shown
    anchor = _query(conn, "select seq from messages where id = ?", [anchor_id])
    if not anchor:
        raise NotFound(f"no message with id {anchor_id!r}")
    tail = _stash(conn, conversation_id, int(anchor[0]["seq"]))
    conn.execute("update answer_alternatives set messages = ? where anchor_id = ?"
                 " and messages is null", [tail, anchor_id])
    for row in json.loads(chosen["messages"]):
        names = ", ".join(row)  # column names this store wrote itself
        marks = ", ".join("?" for _ in row)
        conn.execute(f"insert into messages ({names}) values ({marks})", list(row.values()))
    conn.execute("update answer_alternatives set messages = null where anchor_id = ?"
                 " and position = ?", [anchor_id, position])


def shown(conn: sqlite3.Connection, conversation_id: str) -> dict[str, tuple[int, int]]:
    """{anchor user message id: (position shown, how many)} for anchors with alternatives."""
    rows = _query(conn, "select anchor_id, count(*) as total,"
                        " max(case when messages is null then position end) as shown"
                        " from answer_alternatives where conversation_id = ?"
                        " group by anchor_id", [conversation_id])
    return {str(r["anchor_id"]): (int(r["shown"] or 0), int(r["total"])) for r in rows}


def forget_from(conn: sqlite3.Connection, conversation_id: str, seq: int) -> None:
    """Forget the alternatives anchored at shown messages from `seq` on (an edited question:
    its old answers answered other words)."""
    conn.execute("delete from answer_alternatives where anchor_id in (select id from messages"
                 " where conversation_id = ? and seq >= ?)", [conversation_id, seq])


def _stash(conn: sqlite3.Connection, conversation_id: str, anchor_seq: int) -> str:
    """The messages after the anchor as JSON, removed from `messages` (and its search index)."""
    rows = _query(conn, "select * from messages where conversation_id = ? and seq > ?"
                        " order by seq", [conversation_id, anchor_seq])
    for row in rows:
        row.pop("n", None)  # a restored message gets a fresh rowid (the search index keys on it)
    conn.execute("delete from messages where conversation_id = ? and seq > ?",
                 [conversation_id, anchor_seq])
    return json.dumps(rows, ensure_ascii=False)


def _query(conn: sqlite3.Connection, sql: str, params: list[Any]) -> list[dict[str, Any]]:
    cursor = conn.execute(sql, params)
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]
