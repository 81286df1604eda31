"""To-dos (VTODO) in the calendar's tables: title, due date or time, priority, done."""

from __future__ import annotations

import sqlite3
import threading
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any
from zoneinfo import ZoneInfo

import sqlite_utils

from skills.base import SkillError
from skills.calendar.model import When

UTC = ZoneInfo("UTC")
PRIORITY_WORDS = {1: "high", 5: "medium", 9: "low"}  # RFC 5545: 1 highest .. 9 lowest, 0 none


@dataclass(frozen=True)
class Todo:
    uid: str
    title: str
    due: When | None = None  # a date, or an aware time (in `timezone`)
    timezone: str = ""
    priority: int = 0
    done: bool = False
    completed: datetime | None = None
    notes: str = ""
    sequence: int = 0
    origin: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.uid, "title": self.title,
                "due": self.due.isoformat() if self.due is not None else None,
                "priority": self.priority, "done": self.done,
                "completed": self.completed.isoformat() if self.completed else None,
                "notes": self.notes}


def migrate(db: sqlite_utils.Database) -> None:
    """The calendar's m004 migration: one row per to-do."""
    db.execute(
        """create table calendar_todos (
            uid text primary key, title text not null, due text not null default '',
            timezone text not null default '', due_utc text not null default '',
            priority integer not null default 0, done integer not null default 0,
            completed text not null default '', notes text not null default '',
            sequence integer not null default 0, origin text not null default '',
            created text not null default (datetime('now')))""")
    db.execute("create index calendar_todos_due on calendar_todos (done, due_utc)")


class TodoTable:
    """The to-dos, on the calendar store's connection and lock (one transaction per write)."""

    def __init__(self, db: sqlite_utils.Database, lock: threading.RLock) -> None:
        self._db, self._lock = db, lock

    def add(self, todo: Todo) -> Todo:
        todo = _checked(replace(todo, uid=todo.uid or f"{uuid.uuid4()}@hearth"))
        with self._lock, self._db.conn:
            if self._row(todo.uid) is not None:
                raise SkillError(f"A to-do with id {todo.uid} already exists.")
            self._db.table("calendar_todos").insert(_to_row(todo))
        return todo

    def get(self, uid: str) -> Todo:
        row = self._row(uid)
        if row is None:
            rows = self._select("where uid like ?", [uid + "%"]) if uid else []
            if len(rows) != 1:
                raise SkillError(f"No to-do with id {uid!r}. List the to-dos to find its id.")
            return rows[0]
        return _from_row(row)

    def all(self, include_done: bool = False) -> list[Todo]:
        """Open to-dos (and done ones when asked): due first by time, undated last."""
        where = "" if include_done else "where done = 0"
        return self._select(f"{where} order by done, due_utc = '', due_utc, priority = 0, "
                            "priority, created", [])

    def complete(self, uid: str, done: bool = True, now: datetime | None = None) -> Todo:
        with self._lock, self._db.conn:
            todo = self.get(uid)
            after = replace(todo, done=done, completed=(now or datetime.now(UTC)) if done
                            else None, sequence=todo.sequence + 1)
            self._db.table("calendar_todos").upsert(_to_row(after), pk="uid")
        return after

    def delete(self, uid: str) -> Todo:
        with self._lock, self._db.conn:
            todo = self.get(uid)
            self._db.execute("delete from calendar_todos where uid = ?", [todo.uid])
        return todo

    def due_between(self, lo: datetime, hi: datetime) -> list[Todo]:
        """Open to-dos whose due time falls in (lo, hi] (reminders)."""
        return self._select("where done = 0 and due_utc > ? and due_utc <= ?",
                            [_utc_text(lo), _utc_text(hi)])

    def write_all(self, todos: Iterable[Todo], conn: sqlite3.Connection) -> tuple[int, int]:
        """Upsert imported to-dos inside the caller's transaction; (added, updated). A stored
        copy with a higher SEQUENCE is kept."""
        added = updated = 0
        for todo in todos:
            old = self._row(todo.uid)
            if old is not None and int(old["sequence"]) > todo.sequence:
                continue
            row = _to_row(_checked(todo))
            names = ", ".join(row)
            conn.execute(f"insert or replace into calendar_todos ({names}) values "
                         f"({', '.join('?' for _ in row)})", list(row.values()))
            added, updated = (added + 1, updated) if old is None else (added, updated + 1)
        return added, updated

    def _row(self, uid: str) -> dict[str, Any] | None:
        with self._lock:
            return next(self._db.query("select * from calendar_todos where uid = ?", [uid]), None)

    def _select(self, clause: str, params: list[Any]) -> list[Todo]:
        with self._lock:
            rows = list(self._db.query(f"select * from calendar_todos {clause}", params))
        return [_from_row(row) for row in rows]


def _checked(todo: Todo) -> Todo:
    if not todo.title.strip():
        raise SkillError("A to-do needs a title.")
    if not 0 <= todo.priority <= 9:
        raise SkillError("Priority runs from 1 (highest) to 9 (lowest), 0 for none.")
    return replace(todo, title=todo.title.strip())


def due_instant(due: When, tz: str) -> datetime:
    """When a to-do falls due: its time, or 09:00 on its day in `tz` (a date-only to-do
    reminds in the morning, not at midnight)."""
    if isinstance(due, datetime):
        return due
    return datetime(due.year, due.month, due.day, 9, tzinfo=ZoneInfo(tz or "UTC"))


def _utc_text(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat()


def _to_row(todo: Todo) -> dict[str, Any]:
    due, tz = todo.due, todo.timezone
    if isinstance(due, datetime):
        tz = tz or str(getattr(due.tzinfo, "key", "UTC"))
        text = due.astimezone(ZoneInfo(tz)).replace(tzinfo=None).isoformat()
    else:
        text = due.isoformat() if due is not None else ""
    return {"uid": todo.uid, "title": todo.title, "due": text, "timezone": tz,
            "due_utc": _utc_text(due_instant(due, tz)) if due is not None else "",
            "priority": todo.priority, "done": int(todo.done),
            "completed": todo.completed.astimezone(UTC).isoformat() if todo.completed else "",
            "notes": todo.notes, "sequence": todo.sequence, "origin": todo.origin}


def _from_row(row: dict[str, Any]) -> Todo:
    text, tz = row["due"], row["timezone"]
    due: When | None = None
    if text:
        due = (datetime.fromisoformat(text).replace(tzinfo=ZoneInfo(tz or "UTC"))
               if "T" in text else date.fromisoformat(text))
    completed = datetime.fromisoformat(row["completed"]) if row["completed"] else None
    return Todo(row["uid"], row["title"], due, tz, int(row["priority"]), bool(row["done"]),
                completed, row["notes"], int(row["sequence"]), row["origin"])
