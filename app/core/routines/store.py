"""Routines, their runs and the changes their answers wait to have approved, in hearth.db."""

from __future__ import annotations

import json
import uuid
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import sqlite_utils

from app.core.routines.schedule import Schedule
from skills.base import SkillError
from skills.common.migrations import LockedStore, Migrations, open_migrated

UTC = ZoneInfo("UTC")
migrations = Migrations("routines")


@migrations
def m001_routines(db: sqlite_utils.Database) -> None:
    db.execute(
        """create table routines (
            id text primary key, title text not null, ask text not null,
            start text not null, timezone text not null, rrule text not null default '',
            paused integer not null default 0, created text not null, anchor text not null)""")
    db.execute(
        """create table routine_runs (
            id integer primary key autoincrement, routine_id text not null,
            due text not null, manual integer not null default 0, started text not null,
            finished text not null default '', status text not null,
            conversation_id text not null default '', note text not null default '',
            unique (routine_id, due))""")
    db.execute(
        """create table routine_approvals (
            id integer primary key autoincrement, run_id integer not null,
            conversation_id text not null, call_id text not null, name text not null,
            arguments text not null, description text not null,
            status text not null default 'pending', result text not null default '',
            created text not null, decided text not null default '',
            unique (conversation_id, call_id))""")


class RoutineNotFound(SkillError):
    """No routine (or approval) with that id."""


@dataclass(frozen=True)
class Routine:
    id: str
    title: str
    ask: str
    schedule: Schedule
    paused: bool
    created: datetime
    anchor: datetime  # run times before this are not owed (created, edited, resumed)

    def to_json(self, now: datetime | None = None) -> dict[str, Any]:
        following = None if self.paused else self.schedule.next_due(now or datetime.now(UTC))
        return {"id": self.id, "title": self.title, "ask": self.ask,
                "start": self.schedule.start.isoformat(timespec="minutes"),
                "timezone": self.schedule.timezone, "rrule": self.schedule.rrule,
                "schedule": self.schedule.describe(), "paused": self.paused,
                "created": self.created.isoformat(timespec="seconds"),
                "next": following.isoformat(timespec="minutes") if following else None}


@dataclass(frozen=True)
class Run:
    id: int
    routine_id: str
    due: datetime
    manual: bool
    started: datetime
    status: str  # running, done, waiting_approval, failed, timed_out, interrupted, cut
    conversation_id: str = ""
    finished: str = ""
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"routine_id": self.routine_id, "conversation_id": self.conversation_id,
                "due": self.due.isoformat(timespec="seconds"),
                "started": self.started.isoformat(timespec="seconds"),
                "status": self.status, "manual": self.manual, "note": self.note}


@dataclass(frozen=True)
class Approval:
    """A change a routine's answer asked for; nothing happens until the person decides."""

    id: int
    run_id: int
    conversation_id: str
    call_id: str
    name: str
    arguments: dict[str, Any] = field(default_factory=dict)
    description: str = ""
    status: str = "pending"  # pending, approved, denied, failed
    result: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "conversation_id": self.conversation_id, "tool": self.name,
                "arguments": self.arguments, "description": self.description,
                "status": self.status, "result": self.result}


class RoutineStore(LockedStore):
    """The routines tables; safe from several threads (one lock, one connection). Every write
    is one transaction, so a kill mid-write leaves the last committed state."""

    def __init__(self, path: Path) -> None:
        super().__init__(open_migrated(path, migrations))

    # -- routines ------------------------------------------------------------------------
    def add(self, title: str, ask: str, schedule: Schedule, now: datetime) -> Routine:
        if not ask.strip():
            raise SkillError("A routine needs something to ask.")
        routine = Routine(uuid.uuid4().hex[:8], title.strip() or ask.strip()[:60], ask.strip(),
                          schedule, False, now, now)
        with self._write():
            self._db.table("routines").insert(_routine_row(routine))
        return routine

    def update(self, routine_id: str, now: datetime, **changes: Any) -> Routine:
        """Change title, ask, schedule or paused. A new schedule or a resume owes no run
        for the times before it (the anchor moves to now)."""
        with self._write():
            before = self.get(routine_id)
            fields = {"title": before.title, "ask": before.ask, "schedule": before.schedule,
                      "paused": before.paused, **changes}
            moved = fields["schedule"] != before.schedule or (before.paused
                                                              and not fields["paused"])
            after = Routine(before.id, fields["title"], fields["ask"], fields["schedule"],
                            bool(fields["paused"]), before.created,
                            now if moved else before.anchor)
            self._db.table("routines").upsert(_routine_row(after), pk="id")
        return after

    def delete(self, routine_id: str) -> Routine:
        with self._write():
            routine = self.get(routine_id)
            self._db.execute("delete from routines where id = ?", [routine.id])
            self._db.execute("delete from routine_runs where routine_id = ?", [routine.id])
        return routine

    def get(self, routine_id: str) -> Routine:
        rows = self._rows("select * from routines where id = ?", [routine_id])
        if not rows and routine_id:  # a unique prefix, as `hearth history` accepts
            rows = self._rows("select * from routines where id like ?", [routine_id + "%"])
        if len(rows) != 1:
            raise RoutineNotFound(f"No routine with id {routine_id!r}: `hearth routines list` "
                                  "shows them.")
        return _routine(rows[0])

    def all(self) -> list[Routine]:
        return [_routine(r) for r in self._rows("select * from routines order by created", [])]

    # -- runs ----------------------------------------------------------------------------
    def claim(self, routine_id: str, due: datetime, started: datetime,
              manual: bool = False) -> Run | None:
        """Record that a run for `due` starts now; None when one was already recorded for
        that time (another process or an earlier call ran it): each time runs once."""
        with self._write():
            cursor = self._db.execute(
                "insert or ignore into routine_runs (routine_id, due, manual, started, status)"
                " values (?, ?, ?, ?, 'running')",
                [routine_id, _iso(due), int(manual), _iso(started)])
            if cursor.rowcount != 1:
                return None
            run_id = cursor.lastrowid
        return self.run(int(run_id or 0))

    def update_run(self, run_id: int, **fields: object) -> Run:
        with self._write():
            self._db.table("routine_runs").update(run_id, fields)
        return self.run(run_id)

    def run(self, run_id: int) -> Run:
        rows = self._rows("select * from routine_runs where id = ?", [run_id])
        if not rows:
            raise RoutineNotFound(f"No run {run_id}.")
        return _run(rows[0])

    def runs(self, routine_id: str | None = None, limit: int = 50) -> list[Run]:
        where, params = ("where routine_id = ?", [routine_id]) if routine_id else ("", [])
        rows = self._rows(f"select * from routine_runs {where} order by started desc, id desc "
                          "limit ?", [*params, limit])
        return [_run(r) for r in rows]

    def last_scheduled_due(self, routine_id: str) -> datetime | None:
        rows = self._rows("select max(due) as due from routine_runs where routine_id = ? and "
                          "manual = 0", [routine_id])
        return _time(rows[0]["due"]) if rows and rows[0]["due"] else None

    def end_stale(self, before: datetime, now: datetime) -> int:
        """Runs still "running" though started before `before`: the process running them
        died (a kill, a crash). They end as interrupted, said so in their history."""
        with self._write():
            cursor = self._db.execute(
                "update routine_runs set status = 'interrupted', finished = ? where status = "
                "'running' and started < ?", [_iso(now), _iso(before)])
        return int(cursor.rowcount)

    # -- approvals -----------------------------------------------------------------------
    def hold(self, run_id: int, conversation_id: str, call_id: str, name: str,
             arguments: dict[str, Any], description: str, now: datetime) -> None:
        """Keep a change for approval (a second text for the same call, as an overwrite
        asks twice, is added to its description)."""
        with self._write():
            self._db.execute(
                "insert into routine_approvals (run_id, conversation_id, call_id, name, arguments,"
                " description, created) values (?, ?, ?, ?, ?, ?, ?) on conflict "
                "(conversation_id, call_id) do update set description = description || "
                "char(10) || excluded.description",
                [run_id, conversation_id, call_id, name, json.dumps(arguments), description,
                 _iso(now)])

    def approvals(self, conversation_id: str | None = None,
                  status: str | None = "pending") -> list[Approval]:
        given = {"conversation_id": conversation_id, "status": status}
        wanted = {column: value for column, value in given.items() if value}
        where = " and ".join(f"{column} = ?" for column in wanted)  # the names are ours
        rows = self._rows(f"select * from routine_approvals {'where ' + where if where else ''} "
                          "order by id", list(wanted.values()))
        return [_approval(r) for r in rows]

    def approval(self, approval_id: int) -> Approval:
        rows = self._rows("select * from routine_approvals where id = ?", [approval_id])
        if not rows:
            raise RoutineNotFound(f"No pending change with id {approval_id}.")
        return _approval(rows[0])

    def decide(self, approval_id: int, status: str, result: str, now: datetime,
               expected: str = "pending") -> bool:
        """Move an approval on from `expected` once: False when it had moved already (a
        second click, another window), so a change never runs twice."""
        with self._write():
            cursor = self._db.execute(
                "update routine_approvals set status = ?, result = ?, decided = ? where id = ? "
                "and status = ?", [status, result, _iso(now), approval_id, expected])
        return cursor.rowcount == 1


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds")


def _time(text: str) -> datetime:
    return datetime.fromisoformat(text)


def _routine_row(r: Routine) -> dict[str, Any]:
    return {"id": r.id, "title": r.title, "ask": r.ask,
            "start": r.schedule.start.isoformat(timespec="minutes"),
            "timezone": r.schedule.timezone, "rrule": r.schedule.rrule, "paused": int(r.paused),
            "created": _iso(r.created), "anchor": _iso(r.anchor)}


def _routine(row: dict[str, Any]) -> Routine:
    schedule = Schedule(datetime.fromisoformat(row["start"]), row["timezone"], row["rrule"])
    return Routine(row["id"], row["title"], row["ask"], schedule, bool(row["paused"]),
                   _time(row["created"]), _time(row["anchor"]))


def _run(row: dict[str, Any]) -> Run:
    return Run(int(row["id"]), row["routine_id"], _time(row["due"]), bool(row["manual"]),
               _time(row["started"]), row["status"], row["conversation_id"], row["finished"],
               row["note"])


def _approval(row: dict[str, Any]) -> Approval:
    return Approval(int(row["id"]), int(row["run_id"]), row["conversation_id"], row["call_id"],
                    row["name"], json.loads(row["arguments"]), row["description"],
                    row["status"], row["result"])
