"""The calendar's tables in hearth.db: events, overrides, and which alarms have fired."""

from __future__ import annotations

import json
import sqlite3
import threading
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import sqlite_utils

from skills.base import SkillError
from skills.calendar.model import Event, Occurrence, When, span
from skills.calendar.recurrence import expand, key, normalize_rrule
from skills.migrations import Migrations

UTC = ZoneInfo("UTC")
FAR_FUTURE = "9999-12-31T00:00:00+00:00"
# All-day dates float: widen their UTC bounds by the largest zone offsets so SQL prefilters safely.
FLOAT_SLACK = timedelta(hours=14)

migrations = Migrations("calendar")


@migrations
def m001_events(db: sqlite_utils.Database) -> None:
    db.execute(
        """create table calendar_events (
            uid text not null, recurrence_id text not null default '',
            title text not null, start text not null, "end" text not null,
            all_day integer not null default 0, timezone text not null default 'UTC',
            location text not null default '', notes text not null default '',
            calendar text not null default 'Personal', rrule text not null default '',
            rdates text not null default '[]', exdates text not null default '[]',
            alarms text not null default '[]', cancelled integer not null default 0,
            start_utc text not null, end_utc text not null,
            created text not null default (datetime('now')),
            updated text not null default (datetime('now')),
            primary key (uid, recurrence_id))"""
    )
    db.execute("create index calendar_events_range on calendar_events (start_utc, end_utc)")


@migrations
def m002_alarm_log(db: sqlite_utils.Database) -> None:
    db.execute(
        """create table calendar_alarm_log (
            uid text not null, occurrence text not null, minutes integer not null,
            fired_at text not null, missed integer not null default 0,
            primary key (uid, occurrence, minutes))"""
    )
    db.execute("create table calendar_state (name text primary key, value text not null)")


def dump_when(value: When, tz: str) -> str:
    """Wall-clock time in the event's zone (no offset), or a plain date."""
    if isinstance(value, datetime):
        return value.astimezone(ZoneInfo(tz)).replace(tzinfo=None).isoformat()
    return value.isoformat()


def load_when(text: str, tz: str) -> When:
    if "T" not in text:
        return date.fromisoformat(text)
    return datetime.fromisoformat(text).replace(tzinfo=ZoneInfo(tz or "UTC"))


def _utc(value: When, slack: timedelta) -> str:
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    midnight = datetime(value.year, value.month, value.day, tzinfo=UTC)
    return (midnight + slack).isoformat()


def event_to_row(event: Event) -> dict[str, Any]:
    tz = "" if event.all_day else (event.timezone or "UTC")
    zone = tz or "UTC"
    recurring = event.recurring and event.recurrence_id is None
    return {
        "uid": event.uid,
        "recurrence_id": "" if event.recurrence_id is None else key(event.recurrence_id),
        "title": event.title,
        "start": dump_when(event.start, zone),
        "end": dump_when(event.end, zone),
        "all_day": int(event.all_day),
        "timezone": tz,
        "location": event.location,
        "notes": event.notes,
        "calendar": event.calendar,
        "rrule": event.rrule,
        "rdates": json.dumps([dump_when(d, zone) for d in event.rdates]),
        "exdates": json.dumps([dump_when(d, zone) for d in event.exdates]),
        "alarms": json.dumps(sorted(set(event.alarms))),
        "cancelled": int(event.cancelled),
        "start_utc": _utc(event.start, -FLOAT_SLACK),
        # A series may run for ever; its rows always pass the SQL range prefilter.
        "end_utc": FAR_FUTURE if recurring else _utc(event.end, FLOAT_SLACK),
        "updated": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def row_to_event(row: dict[str, Any]) -> Event:
    tz = row["timezone"] or "UTC"
    rid = row["recurrence_id"]
    return Event(
        uid=row["uid"],
        title=row["title"],
        start=load_when(row["start"], tz),
        end=load_when(row["end"], tz),
        all_day=bool(row["all_day"]),
        timezone=row["timezone"],
        location=row["location"],
        notes=row["notes"],
        calendar=row["calendar"],
        rrule=row["rrule"],
        rdates=[load_when(d, tz) for d in json.loads(row["rdates"])],
        exdates=[load_when(d, tz) for d in json.loads(row["exdates"])],
        alarms=list(json.loads(row["alarms"])),
        recurrence_id=_load_rid(rid, tz) if rid else None,
        cancelled=bool(row["cancelled"]),
    )


def _load_rid(text: str, tz: str) -> When:
    if "T" in text:  # stored as a UTC key: YYYYMMDDTHHMMSS
        return datetime.strptime(text, "%Y%m%dT%H%M%S").replace(tzinfo=UTC).astimezone(
            ZoneInfo(tz)
        )
    return date.fromisoformat(text)


@dataclass
class ImportReport:
    added: int = 0
    updated: int = 0


class CalendarStore:
    """Events kept on this machine. Safe to use from several threads (one lock, one connection)."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(path), check_same_thread=False, timeout=30)
        conn.execute("pragma journal_mode=wal")
        conn.execute("pragma foreign_keys=on")
        self._db = sqlite_utils.Database(conn)
        self._lock = threading.RLock()
        with self._lock:
            migrations.apply(self._db)

    def close(self) -> None:
        with self._lock:
            self._db.conn.close()

    # -- reading -----------------------------------------------------------------------------
    def get(self, uid: str) -> Event | None:
        rows = self._rows("select * from calendar_events where uid = ? and recurrence_id = ''",
                          [uid])
        return row_to_event(rows[0]) if rows else None

    def all_events(self) -> list[Event]:
        """Every series, single event and override (for export)."""
        rows = self._rows("select * from calendar_events order by uid, recurrence_id", [])
        return [row_to_event(r) for r in rows]

    def occurrences(self, lo: datetime, hi: datetime, query: str = "") -> list[Occurrence]:
        """Everything that overlaps [lo, hi), series expanded, sorted by start."""
        rows = self._rows(
            "select * from calendar_events where start_utc < ? and end_utc > ?",
            [hi.astimezone(UTC).isoformat(), (lo.astimezone(UTC) - FLOAT_SLACK).isoformat()],
        )
        events = [row_to_event(r) for r in rows]
        overrides: dict[str, list[Event]] = {}
        for event in events:
            if event.recurrence_id is not None:
                overrides.setdefault(event.uid, []).append(event)
        found: list[Occurrence] = []
        for event in events:
            if event.recurrence_id is None:
                found += expand(event, overrides.get(event.uid, []), lo, hi)
        needle = query.casefold().strip()
        if needle:
            found = [o for o in found if needle in _haystack(o.event)]
        return sorted(found, key=lambda o: key(o.start) if isinstance(o.start, datetime)
                      else o.start.isoformat())

    # -- changing ----------------------------------------------------------------------------
    def add(self, event: Event) -> Event:
        event = self._prepare(replace(event, uid=event.uid or f"{uuid.uuid4()}@hearth"))
        with self._lock, self._db.conn:
            if self.get(event.uid) is not None:
                raise SkillError(f"An event with UID {event.uid} already exists.")
            self._db.table("calendar_events").insert(event_to_row(event))
        return event

    def update(self, uid: str, **changes: Any) -> tuple[Event, Event]:
        """Change fields of a whole event or series; returns (before, after)."""
        with self._lock, self._db.conn:
            before = self._require(uid)
            after = self._prepare(replace(before, **changes))
            self._db.table("calendar_events").upsert(event_to_row(after),
                                                     pk=("uid", "recurrence_id"))
        return before, after

    def delete(self, uid: str) -> Event:
        """Delete an event or a whole series, overrides and alarm history included."""
        with self._lock, self._db.conn:
            before = self._require(uid)
            self._db.execute("delete from calendar_events where uid = ?", [uid])
            self._db.execute("delete from calendar_alarm_log where uid = ?", [uid])
        return before

    def import_events(self, events: Iterable[Event]) -> ImportReport:
        """Upsert by (UID, RECURRENCE-ID) in one transaction: all or nothing, never duplicates."""
        report = ImportReport()
        prepared = [self._prepare(e) for e in events]
        with self._lock, self._db.conn:
            table = self._db.table("calendar_events")
            for event in prepared:
                row = event_to_row(event)
                exists = self._rows(
                    "select 1 from calendar_events where uid = ? and recurrence_id = ?",
                    [row["uid"], row["recurrence_id"]],
                )
                table.upsert(row, pk=("uid", "recurrence_id"))
                if exists:
                    report.updated += 1
                else:
                    report.added += 1
        return report

    # -- alarms (used by Reminders) ----------------------------------------------------------
    def state(self, name: str) -> str | None:
        rows = self._rows("select value from calendar_state where name = ?", [name])
        return str(rows[0]["value"]) if rows else None

    def set_state(self, name: str, value: str) -> None:
        with self._lock, self._db.conn:
            self._db.table("calendar_state").upsert({"name": name, "value": value}, pk="name")

    def mark_fired(self, uid: str, occurrence: str, minutes: int, missed: bool) -> bool:
        """Record an alarm as delivered; False when it had already fired (so it fires once)."""
        with self._lock, self._db.conn:
            cursor = self._db.execute(
                "insert or ignore into calendar_alarm_log (uid, occurrence, minutes, fired_at,"
                " missed) values (?, ?, ?, ?, ?)",
                [uid, occurrence, minutes, datetime.now(UTC).isoformat(), int(missed)],
            )
            return cursor.rowcount == 1

    # -- helpers -----------------------------------------------------------------------------
    def _rows(self, sql: str, params: list[Any]) -> list[dict[str, Any]]:
        with self._lock:
            cursor = self._db.execute(sql, params)
            names = [d[0] for d in cursor.description]
            return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]

    def _require(self, uid: str) -> Event:
        event = self.get(uid)
        if event is None:
            raise SkillError(f"No event with UID {uid!r}. List events first to find its UID.")
        return event

    @staticmethod
    def _prepare(event: Event) -> Event:
        if not event.title.strip():
            raise SkillError("An event needs a title.")
        if isinstance(event.start, datetime) != isinstance(event.end, datetime):
            raise SkillError("Start and end must both be dates (all-day) or both be times.")
        length = span(event.start, event.end)
        # Zero-length timed events (deadlines, reminders) are fine; negative ones are not.
        all_day = not isinstance(event.start, datetime)
        if length < timedelta(0) or (length == timedelta(0) and all_day):
            raise SkillError(f"The end ({event.end.isoformat()}) must be after the start "
                             f"({event.start.isoformat()}).")
        rrule = normalize_rrule(event.rrule, event.start, event.timezone) if event.rrule else ""
        return replace(event, rrule=rrule, all_day=all_day)


def _haystack(event: Event) -> str:
    return f"{event.title}\n{event.location}\n{event.notes}\n{event.calendar}".casefold()
