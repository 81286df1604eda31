"""Which events the person changed or deleted in Hearth, and from which revision: a re-import
replaces them only when the file changed too, and then only as the person chooses."""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime

import sqlite_utils

from skills.calendar.model import Event
from skills.common.migrations import Migrations

MINE, THEIRS, BOTH = "mine", "theirs", "both"  # a conflict's answers, as a sync client asks
CHOICES = (MINE, THEIRS, BOTH)
Ident = tuple[str, str]  # (UID, RECURRENCE-ID key); "" for a series or a single event

migrations = Migrations("calendar_edits")  # its own component: other calendar tables move on


@migrations
def m001_local_edits(db: sqlite_utils.Database) -> None:
    db.execute(
        """create table calendar_local_edits (
            uid text not null, recurrence_id text not null,
            edited_at text not null, deleted integer not null default 0,
            base_sequence integer not null default 0,
            base_last_modified text not null default '',
            primary key (uid, recurrence_id))"""
    )


@dataclass(frozen=True)
class LocalEdit:
    """The person's change to one row, and the revision it was made on (its base)."""

    uid: str
    recurrence_id: str
    edited_at: str  # UTC, as LAST-MODIFIED is kept: 20261202T101500Z
    deleted: bool
    base_sequence: int
    base_last_modified: str

    def file_changed(self, event: Event) -> bool:
        """Whether the file holds a later revision than the one the person edited: a higher
        SEQUENCE, or a LAST-MODIFIED after the edited revision's (after the edit itself when
        that revision had none)."""
        if event.sequence != self.base_sequence:
            return event.sequence > self.base_sequence
        since = self.base_last_modified or self.edited_at
        return bool(event.last_modified) and event.last_modified > since


@dataclass(frozen=True)
class Conflict:
    """A row changed both in Hearth and in the file: the person picks MINE, THEIRS or BOTH."""

    uid: str
    recurrence_id: str
    title: str  # as Hearth has it now ("" when deleted in Hearth)
    file_title: str
    edited_at: str
    deleted: bool

    @property
    def ident(self) -> Ident:
        return self.uid, self.recurrence_id

    def __str__(self) -> str:
        mine = "deleted in Hearth" if self.deleted else f"'{self.title}' in Hearth"
        return f"{mine}, '{self.file_title}' in the file (UID {self.uid})"


def now_text() -> str:
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")


def mark(conn: sqlite3.Connection, ident: Ident, base: tuple[int, str],
         deleted: bool = False) -> None:
    """Record an edit of `ident` made now; the first edit's base revision is kept (a second
    edit is still on top of what was imported)."""
    conn.execute(
        "insert into calendar_local_edits (uid, recurrence_id, edited_at, deleted, "
        "base_sequence, base_last_modified) values (?, ?, ?, ?, ?, ?) on conflict "
        "(uid, recurrence_id) do update set edited_at = excluded.edited_at, "
        "deleted = excluded.deleted",
        [*ident, now_text(), int(deleted), *base])


def rebase(conn: sqlite3.Connection, ident: Ident, event: Event) -> None:
    """The person kept their version over `event`: the next import of it asks no more."""
    conn.execute("update calendar_local_edits set base_sequence = ?, base_last_modified = ? "
                 "where uid = ? and recurrence_id = ?",
                 [event.sequence, event.last_modified, *ident])


def forget(conn: sqlite3.Connection, ident: Ident) -> None:
    """The file's version was taken: the row is the file's again."""
    conn.execute("delete from calendar_local_edits where uid = ? and recurrence_id = ?",
                 list(ident))


def load(conn: sqlite3.Connection) -> dict[Ident, LocalEdit]:
    rows = conn.execute("select uid, recurrence_id, edited_at, deleted, base_sequence, "
                        "base_last_modified from calendar_local_edits").fetchall()
    return {(r[0], r[1]): LocalEdit(r[0], r[1], r[2], bool(r[3]), int(r[4]), r[5])
            for r in rows}


def edit_for(edits: dict[Ident, LocalEdit], ident: Ident) -> LocalEdit | None:
    """The edit that governs `ident`: its own, or its whole event deleted in Hearth."""
    whole = edits.get((ident[0], ""))
    if whole is not None and whole.deleted:
        return whole
    return edits.get(ident)
