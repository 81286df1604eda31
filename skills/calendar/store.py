"""The calendar's tables in hearth.db: events, overrides, to-dos, and which alarms have fired."""

from __future__ import annotations

import heapq
import json
import uuid
from collections.abc import Iterable
from dataclasses import replace
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import sqlite_utils

from skills.base import SkillError
from skills.calendar import local_edits
from skills.calendar.listing import DEFAULT_LIMIT, Listing, take
from skills.calendar.local_edits import BOTH, MINE, THEIRS, Conflict, Ident, LocalEdit
from skills.calendar.model import Event, Occurrence, When, span
from skills.calendar.recurrence import (
    SERIES_STEPS,
    key,
    last_end,
    normalize_rrule,
    series,
    sort_key,
)
from skills.calendar.report import ImportIssue, ImportReport, IssueWhy, Kept, KeptWhy, fault
from skills.calendar.rulewalk import Budget
from skills.calendar.todos import Todo, TodoTable
from skills.calendar.todos import migrate as migrate_todos
from skills.common.migrations import LockedStore, Migrations, open_migrated

UTC = ZoneInfo("UTC")
FAR_FUTURE = "9999-12-31T00:00:00+00:00"
# All-day dates float: widen their UTC bounds by the largest zone offsets so SQL prefilters safely.
FLOAT_SLACK = timedelta(hours=14)
# How far before a range an overridden instance may start and still reach into it.
OVERRIDE_REACH = timedelta(days=400)
OCCURRENCES_LIMIT = 10_000  # occurrences() (the view, reminders, free time) stops here

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


@migrations
def m003_import_fields(db: sqlite_utils.Database) -> None:
    for column in ("rdate_periods text not null default '[]'",
                   "sequence integer not null default 0",
                   "last_modified text not null default ''",
                   "this_and_future integer not null default 0",
                   "origin text not null default ''"):
        db.execute(f"alter table calendar_events add column {column}")
    db.execute("create index calendar_events_origin on calendar_events (origin)")


@migrations
def m004_todos(db: sqlite_utils.Database) -> None:
    migrate_todos(db)


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


# Event fields stored as they are, and flags stored as 0 or 1.
_PLAIN = ("uid", "title", "location", "notes", "calendar", "rrule", "sequence", "last_modified",
          "origin")
_FLAGS = ("all_day", "cancelled", "this_and_future")


def event_to_row(event: Event) -> dict[str, Any]:
    tz = "" if event.all_day else (event.timezone or "UTC")
    zone = tz or "UTC"
    recurring = event.recurring and event.recurrence_id is None
    return {
        **{name: getattr(event, name) for name in _PLAIN},
        **{name: int(getattr(event, name)) for name in _FLAGS},
        "recurrence_id": "" if event.recurrence_id is None else key(event.recurrence_id),
        "start": dump_when(event.start, zone),
        "end": dump_when(event.end, zone),
        "timezone": tz,
        "rdates": json.dumps([dump_when(d, zone) for d in event.rdates]),
        "exdates": json.dumps([dump_when(d, zone) for d in event.exdates]),
        "alarms": json.dumps(sorted(set(event.alarms))),
        "rdate_periods": json.dumps([[dump_when(a, zone), dump_when(b, zone)]
                                     for a, b in event.rdate_periods]),
        "start_utc": _utc(event.start, -FLOAT_SLACK),
        "end_utc": _series_end(event) if recurring else _utc(event.end, FLOAT_SLACK),
        "updated": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def _series_end(event: Event) -> str:
    """A series that runs for ever always passes the SQL range prefilter; a finite one (UNTIL,
    a short COUNT) only up to its last instance (plus a day: a THISANDFUTURE move may follow)."""
    try:
        end = last_end(event)
    except (ValueError, TypeError, OverflowError):
        end = None
    if end is None:
        return FAR_FUTURE
    try:
        return _utc(end + timedelta(days=1), FLOAT_SLACK)
    except OverflowError:
        return FAR_FUTURE


def row_to_event(row: dict[str, Any]) -> Event:
    tz = row["timezone"] or "UTC"
    rid = row["recurrence_id"]
    flags: dict[str, Any] = {name: bool(row[name]) for name in _FLAGS}
    return Event(
        **{name: row[name] for name in _PLAIN}, **flags,
        start=load_when(row["start"], tz),
        end=load_when(row["end"], tz),
        timezone=row["timezone"],
        rdates=[load_when(d, tz) for d in _list(row["rdates"])],
        exdates=[load_when(d, tz) for d in _list(row["exdates"])],
        alarms=list(_list(row["alarms"])),
        recurrence_id=_load_rid(rid, tz) if rid else None,
        rdate_periods=[(load_when(a, tz), load_when(b, tz))
                       for a, b in _list(row["rdate_periods"])],
    )


def _list(text: str) -> list[Any]:
    """A stored JSON list; most are empty, and parsing "[]" thousands of times adds up."""
    return [] if text == "[]" else list(json.loads(text))


def _load_rid(text: str, tz: str) -> When:
    if "T" in text:  # stored as a UTC key: YYYYMMDDTHHMMSS
        return datetime.strptime(text, "%Y%m%dT%H%M%S").replace(tzinfo=UTC).astimezone(
            ZoneInfo(tz)
        )
    return date.fromisoformat(text)


_COLUMNS = ("uid", "recurrence_id", "title", "start", "end", "all_day", "timezone", "location",
            "notes", "calendar", "rrule", "rdates", "exdates", "alarms", "cancelled",
            "rdate_periods", "sequence", "last_modified", "this_and_future", "origin",
            "start_utc", "end_utc", "updated")
_UPSERT = (
    "insert into calendar_events ({}) values ({}) on conflict (uid, recurrence_id) do update "
    "set {}".format(", ".join(f'"{c}"' for c in _COLUMNS), ", ".join("?" for _ in _COLUMNS),
                    ", ".join(f'"{c}" = excluded."{c}"' for c in _COLUMNS[2:]))
)


class CalendarStore(LockedStore):
    """Events kept on this machine. Safe to use from several threads (one lock, one connection)."""

    def __init__(self, path: Path) -> None:
        super().__init__(open_migrated(path, migrations, local_edits.migrations,
                                       pragmas=["foreign_keys = on"]))
        self.todos = TodoTable(self._db, self._lock)

    # -- reading -----------------------------------------------------------------------------
    def get(self, uid: str) -> Event | None:
        return self._by_ident((uid, ""))

    def all_events(self) -> list[Event]:
        """Every series, single event and override (for export)."""
        rows = self._rows("select * from calendar_events order by uid, recurrence_id", [])
        return [row_to_event(r) for r in rows]

    def occurrences(self, lo: datetime, hi: datetime, query: str = "") -> list[Occurrence]:
        """Everything that overlaps [lo, hi), series expanded, sorted by start (at most
        OCCURRENCES_LIMIT of them; `listing` says how many more and where to continue)."""
        return self.listing(lo, hi, query, limit=OCCURRENCES_LIMIT).occurrences

    def listing(self, lo: datetime, hi: datetime, query: str = "",
                limit: int = DEFAULT_LIMIT) -> Listing:
        """One page of occurrences overlapping [lo, hi), in start order, streamed: memory and
        work stay bounded by `limit`, the "more" count cap and each series' step budget."""
        rows = self._rows(
            "select * from calendar_events where start_utc < ? and end_utc > ?",
            [hi.astimezone(UTC).isoformat(), (lo.astimezone(UTC) - FLOAT_SLACK).isoformat()],
        )
        needle = query.casefold().strip()
        # Filter before expanding: a search never walks the series it cannot match.
        events = [e for e in map(row_to_event, rows) if not needle or needle in _haystack(e)]
        masters = {e.uid: e for e in events if e.recurrence_id is None}
        by_uid: dict[str, list[Event]] = {}
        for override in self._overrides(lo, hi):
            by_uid.setdefault(override.uid, []).append(override)
        singles: list[Occurrence] = []
        for event in events:
            if event.recurrence_id is None:
                continue
            master = masters.get(event.uid)
            if master is not None and key(event.recurrence_id) in {key(x) for x in
                                                                  master.exdates}:
                continue
            singles += series(replace(event, rrule="", rdates=[], rdate_periods=[]), [], lo, hi,
                              Budget(1))
        budgets: list[tuple[Event, Budget]] = []
        streams = [iter(sorted(singles, key=lambda o: sort_key(o, lo)))]
        for master in masters.values():
            budget = Budget(SERIES_STEPS)
            budgets.append((master, budget))
            streams.append(series(master, by_uid.get(master.uid, []), lo, hi, budget))
        merged = heapq.merge(*streams, key=lambda o: sort_key(o, lo))
        result = take(merged, max(1, limit), lambda o: sort_key(o, lo))
        result.cuts = [f"'{m.title}' ({m.uid}) {b.cut}" for m, b in budgets if b.cut]
        return result

    def _overrides(self, lo: datetime, hi: datetime) -> list[Event]:
        """Overrides whose RECURRENCE-ID can fall near [lo, hi) (wherever they moved to), and
        every THISANDFUTURE one (it changes the instances after it)."""
        first, last = lo - OVERRIDE_REACH, hi + FLOAT_SLACK
        rows = self._rows(
            "select * from calendar_events where recurrence_id != '' and ("
            "recurrence_id between ? and ? or recurrence_id between ? and ? "
            "or this_and_future = 1)",
            [key(first), key(last), first.date().isoformat(),
             (last + timedelta(days=1)).date().isoformat()],
        )
        return [row_to_event(r) for r in rows]

    # -- changing ----------------------------------------------------------------------------
    def add(self, event: Event) -> Event:
        event = self._prepare(replace(event, uid=event.uid or f"{uuid.uuid4()}@hearth"))
        with self._lock, self._db.conn:
            if self.get(event.uid) is not None:
                raise SkillError(f"An event with UID {event.uid} already exists.")
            self._db.table("calendar_events").insert(event_to_row(event))
            self._mark((event.uid, ""), event)
        return event

    def save(self, event: Event) -> Event:
        """Write one override made in Hearth (an instance changed on its own): upserted by
        (UID, RECURRENCE-ID) and marked as the person's edit, made on the stored revision."""
        event = self._prepare(event)
        row = event_to_row(event)
        with self._lock, self._db.conn:
            ident = (event.uid, row["recurrence_id"])
            base = self._by_ident(ident) or self.get(event.uid) or event
            self._db.table("calendar_events").upsert(row, pk=("uid", "recurrence_id"))
            self._mark(ident, base)
        return event

    def update(self, uid: str, **changes: Any) -> tuple[Event, Event]:
        """Change fields of a whole event or series; returns (before, after)."""
        with self._lock, self._db.conn:
            before = self._require(uid)
            after = self._prepare(replace(before, **changes))
            self._db.table("calendar_events").upsert(event_to_row(after),
                                                     pk=("uid", "recurrence_id"))
            self._mark((uid, ""), before)
        return before, after

    def delete(self, uid: str) -> Event:
        """Delete an event or a whole series, overrides and alarm history included."""
        with self._lock, self._db.conn:
            before = self._require(uid)
            self._db.execute("delete from calendar_events where uid = ?", [uid])
            self._db.execute("delete from calendar_alarm_log where uid = ?", [uid])
            self._mark((uid, ""), before, deleted=True)  # a re-import does not bring it back
        return before

    def _mark(self, ident: Ident, base: Event, deleted: bool = False) -> None:
        local_edits.mark(self._db.conn, ident, (base.sequence, base.last_modified), deleted)

    def _by_ident(self, ident: Ident) -> Event | None:
        rows = self._rows("select * from calendar_events where uid = ? and recurrence_id = ?",
                          list(ident))
        return row_to_event(rows[0]) if rows else None

    def local_edits(self) -> dict[Ident, LocalEdit]:
        """The rows the person changed or deleted in Hearth (what a re-import must respect)."""
        with self._lock:
            return local_edits.load(self._db.conn)

    def import_events(self, events: Iterable[Event], *, origin: str = "",
                      remove_missing: bool = False, report: ImportReport | None = None,
                      choices: dict[Ident, str] | None = None,
                      todos: Iterable[Todo] = ()) -> ImportReport:
        """Upsert by (UID, RECURRENCE-ID) in ONE transaction: all or nothing (a kill half-way
        leaves the calendar as it was), never duplicates. A stored copy with a higher SEQUENCE
        (or, at the same SEQUENCE, a later LAST-MODIFIED) is kept. What the person changed or
        deleted in Hearth is kept unless the file changed it too; then `choices` (by ident:
        MINE, THEIRS or BOTH; MINE when not given) decides. With `remove_missing`, the
        events an earlier import of the same `origin` brought in and this one lacks are removed.
        Events that cannot be saved are skipped and listed in the report. `todos` (VTODOs)
        are saved in the same transaction."""
        report = report or ImportReport()
        chosen = self._chosen(events, origin, report)
        with self._lock:
            stored = {(r["uid"], r["recurrence_id"]): r for r in self._rows(
                "select * from calendar_events", [])}
            plan = _ImportPlan(stored, self.local_edits(), choices or {}, report)
            for ident, event in chosen.items():
                plan.take(ident, event)
            gone = [i for i, r in stored.items()
                    if remove_missing and origin and r["origin"] == origin and i not in chosen]
            self._write_all(plan.rows, gone, plan,
                            [replace(t, origin=origin or t.origin) for t in todos], report)
            report.removed = len(gone)
        return report

    def conflicts(self, events: Iterable[Event], origin: str = "") -> list[Conflict]:
        """The rows an import of `events` would find changed both in Hearth and in the file
        (to ask about before importing); changes nothing."""
        chosen = self._chosen(events, origin, ImportReport())
        edits = self.local_edits()
        found: dict[Ident, Conflict] = {}
        for ident, event in chosen.items():
            edit = local_edits.edit_for(edits, ident)
            if edit is None or not edit.file_changed(event):
                continue
            own = (edit.uid, edit.recurrence_id)  # one question for a deleted event's rows
            mine = None if edit.deleted else self._by_ident(ident)
            if own not in found or not own[1] and ident == own:
                found[own] = Conflict(own[0], own[1], mine.title if mine else "", event.title,
                                      edit.edited_at, edit.deleted or mine is None)
        return list(found.values())

    def _chosen(self, events: Iterable[Event], origin: str,
                report: ImportReport) -> dict[tuple[str, str], Event]:
        """The events an import saves, by (UID, RECURRENCE-ID); the unreadable are reported."""
        chosen: dict[tuple[str, str], Event] = {}
        for event in events:
            try:
                event = self._prepare(replace(event, origin=origin or event.origin))
            except (SkillError, ValueError, TypeError) as exc:
                report.skipped.append(ImportIssue(event.uid, 0, fault(IssueWhy.OTHER, exc)))
                continue
            ident = (event.uid, "" if event.recurrence_id is None else key(event.recurrence_id))
            kept = chosen.get(ident)
            if kept is None or not _newer((kept.sequence, kept.last_modified), event):
                chosen[ident] = event  # duplicates in one file: the latest revision wins
        return chosen

    def missing_from(self, events: Iterable[Event], origin: str) -> list[str]:
        """The titles of what `import_events(events, origin=origin, remove_missing=True)`
        would remove (asked before it happens); changes nothing."""
        if not origin:
            return []
        chosen = self._chosen(events, origin, ImportReport())
        rows = self._rows("select uid, recurrence_id, title from calendar_events where origin = ?"
                          " order by start", [origin])
        return [r["title"] for r in rows if (r["uid"], r["recurrence_id"]) not in chosen]

    def _write_all(self, rows: list[tuple[Any, ...]], gone: list[tuple[str, str]],
                   plan: _ImportPlan, todos: list[Todo], report: ImportReport) -> None:
        with self._write() as conn:
            conn.executemany(_UPSERT, rows)
            for ident, event in plan.rebased:
                local_edits.rebase(conn, ident, event)
            for ident in plan.forgotten:
                local_edits.forget(conn, ident)
            added, updated = self.todos.write_all(todos, conn)
            report.added, report.updated = report.added + added, report.updated + updated
            conn.executemany("delete from calendar_events where uid = ? and recurrence_id = ?",
                             gone)
            conn.executemany("delete from calendar_alarm_log where uid = ? and not exists ("
                             "select 1 from calendar_events e where e.uid = calendar_alarm_log.uid)",
                             [(uid,) for uid, _ in gone])

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


# Not what an event says: when it was written, and which import brought it.
_STAMPS = ("updated", "origin")


class _ImportPlan:
    """What an import writes, row by row, and what it tells the person it kept and why."""

    def __init__(self, stored: dict[Ident, dict[str, Any]], edits: dict[Ident, LocalEdit],
                 choices: dict[Ident, str], report: ImportReport) -> None:
        self.stored, self.edits, self.choices, self.report = stored, edits, choices, report
        self.rows: list[tuple[Any, ...]] = []
        self.rebased: list[tuple[Ident, Event]] = []
        self.forgotten: list[Ident] = []

    def take(self, ident: Ident, event: Event) -> None:
        old = self.stored.get(ident)
        row = event_to_row(event)
        if old is not None and all(old[c] == row[c] for c in _COLUMNS if c not in _STAMPS):
            self.report.unchanged += 1  # the same event again: nothing to write
            return
        edit = local_edits.edit_for(self.edits, ident)
        if edit is not None and not self._settled(ident, event, edit):
            return
        if edit is None and old is not None and _newer((int(old["sequence"]),
                                                        str(old["last_modified"])), event):
            self.report.unchanged += 1
            return
        self.rows.append(tuple(row[c] for c in _COLUMNS))
        if old is None:
            self.report.added += 1
        else:
            self.report.updated += 1

    def _settled(self, ident: Ident, event: Event, edit: LocalEdit) -> bool:
        """Whether the file's version goes on to be written (the person's edit gives way)."""
        own = (edit.uid, edit.recurrence_id)  # a deleted event's edit covers all its rows
        choice = self.choices.get(own, MINE)
        if edit.deleted and choice == THEIRS:  # taken back from the file, every row of it
            if own == ident:
                self.forgotten.append(own)
                self._kept(ident, event, edit, KeptWhy.TOOK_FILES, chosen=True)
            return True
        if not edit.file_changed(event):
            self._kept(ident, event, edit, KeptWhy.NOT_NEWER)
            return False
        return self._both_changed(ident, event, edit)

    def _both_changed(self, ident: Ident, event: Event, edit: LocalEdit) -> bool:
        """Changed in Hearth and in the file: as the person chose (theirs is written)."""
        own = (edit.uid, edit.recurrence_id)
        choice = self.choices.get(own, MINE)
        if choice == THEIRS:
            self.forgotten.append(own)
            self._kept(ident, event, edit, KeptWhy.TOOK_FILES, chosen=True)
            return True
        if own == ident:
            self.rebased.append((own, event))
        if choice == BOTH and not edit.deleted:
            copy = replace(event, uid=_copy_uid(event.uid, ident[1]), recurrence_id=None,
                           this_and_future=False, origin="")
            self.rows.append(tuple(event_to_row(copy)[c] for c in _COLUMNS))
            self.report.added += 1
            self._kept(ident, event, edit, KeptWhy.KEPT_BOTH, chosen=True)
            return False
        self._kept(ident, event, edit, KeptWhy.KEPT_YOURS, chosen=own in self.choices)
        return False

    def _kept(self, ident: Ident, event: Event, edit: LocalEdit, why: KeptWhy,
              chosen: bool = False) -> None:
        """Tell which version was kept of an event as the person knows it: its title in Hearth
        (the file's when deleted), and which occurrence for one of a series."""
        mine = self.stored.get(ident)
        when = (event.recurrence_id or event.start).isoformat()[:16] if ident[1] else ""
        self.report.kept.append(Kept(event.uid, why, mine["title"] if mine else event.title,
                                     when, edit.deleted, chosen))


def _copy_uid(uid: str, rid: str) -> str:
    """The file's version kept beside the person's: a stable UID, so importing the same file
    again updates the copy instead of adding another."""
    return f"{uid}{'-' + rid if rid else ''}-file-copy"


def _newer(old: tuple[int, str], new: Event) -> bool:
    """Whether `old` (SEQUENCE, LAST-MODIFIED) is a strictly later revision than `new` (RFC
    5545: SEQUENCE first); equal revisions are replaced (a re-import refreshes them)."""
    sequence, modified = old
    if sequence != new.sequence:
        return sequence > new.sequence
    return bool(modified and new.last_modified and modified > new.last_modified)


def _haystack(event: Event) -> str:
    return f"{event.title}\n{event.location}\n{event.notes}\n{event.calendar}".casefold()
