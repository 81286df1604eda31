"""iCalendar (.ics) import and export, so Hearth works alongside Apple, Outlook and Google."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from icalendar import Alarm, Calendar
from icalendar import Event as VEvent
from icalendar import Todo as VTodo
from icalendar.prop import vRecur

from skills.calendar.icslines import MAX_BYTES
from skills.calendar.icsread import CALENDAR_PROP, IcsError, IcsRead, IcsWhy, parse_ics, read_ics
from skills.calendar.local_edits import Conflict, Ident
from skills.calendar.model import Event
from skills.calendar.report import ImportReport
from skills.calendar.store import CalendarStore
from skills.calendar.todos import Todo

PRODID = "-//Hearth//Hearth local calendar//EN"
UTC = ZoneInfo("UTC")


# -- export ----------------------------------------------------------------------------------
def export_ics(events: list[Event], name: str = "Hearth", todos: list[Todo] | None = None
               ) -> bytes:
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("x-wr-calname", name)
    for event in events:
        cal.add_component(_to_vevent(event))
    for todo in todos or []:
        cal.add_component(_to_vtodo(todo))
    cal.add_missing_timezones()  # VTIMEZONE blocks so other apps read the TZIDs
    return bytes(cal.to_ical())


def _to_vevent(event: Event) -> VEvent:
    comp = VEvent()
    comp.add("uid", event.uid)
    comp.add("dtstamp", datetime.now(UTC))
    comp.add("summary", event.title)
    comp.add("dtstart", event.start)
    comp.add("dtend", event.end)
    _add_given(comp, location=event.location, description=event.notes)
    comp.add(CALENDAR_PROP, event.calendar)
    for rule in event.rrules:
        comp.add("rrule", vRecur.from_ical(rule))
    for rdate in event.rdates:
        comp.add("rdate", rdate)
    for exdate in event.exdates:
        comp.add("exdate", exdate)
    if event.recurrence_id is not None:
        comp.add("recurrence-id", event.recurrence_id)
    for first, last in event.rdate_periods:
        comp.add("rdate", [(first, last)])
    if event.recurrence_id is not None and event.this_and_future:
        comp["recurrence-id"].params["RANGE"] = "THISANDFUTURE"
    _add_given(comp, sequence=event.sequence)
    if event.cancelled:
        comp.add("status", "CANCELLED")
    for minutes in event.alarms:
        alarm = Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", event.title)
        alarm.add("trigger", timedelta(minutes=-minutes))
        comp.add_component(alarm)
    return comp


def _to_vtodo(todo: Todo) -> VTodo:
    comp = VTodo()
    comp.add("uid", todo.uid)
    comp.add("dtstamp", datetime.now(UTC))
    comp.add("summary", todo.title)
    _add_given(comp, due=todo.due, priority=todo.priority, description=todo.notes,
               sequence=todo.sequence)
    comp.add("status", "COMPLETED" if todo.done else "NEEDS-ACTION")
    if todo.done:
        comp.add("percent-complete", 100)
        if todo.completed is not None:
            comp.add("completed", todo.completed.astimezone(UTC))
    return comp


def _add_given(comp: VEvent | VTodo, **values: object) -> None:
    """The optional properties that have a value (no empty LOCATION, no SEQUENCE:0)."""
    for name, value in values.items():
        if value:
            comp.add(name, value)


# -- import ----------------------------------------------------------------------------------
def import_file(store: CalendarStore, path: Path, default_tz: str,
                remove_missing: bool = False,
                choices: dict[Ident, str] | None = None) -> ImportReport:
    """Read and import one .ics file (the CLI's and the GUI's import): skipped and repaired
    components are in the report; a subscription-style re-import can drop what it lost;
    `choices` answers the conflicts `conflicts_on_reimport` found (the person's edit is kept
    for any not answered)."""
    read, origin = _read_file(path, default_tz)
    report = ImportReport(skipped=list(read.skipped), repaired=list(read.repaired))
    return store.import_events(read.events, origin=origin, remove_missing=remove_missing,
                               report=report, choices=choices, todos=read.todos)


def conflicts_on_reimport(store: CalendarStore, path: Path, default_tz: str) -> list[Conflict]:
    """The events changed both in Hearth and in the file since it was imported: what to ask
    about (keep mine / take the file's / keep both) before importing. Changes nothing."""
    read, origin = _read_file(path, default_tz)
    return store.conflicts(read.events, origin)


def missing_on_reimport(store: CalendarStore, path: Path, default_tz: str) -> list[str]:
    """The titles of the events `import_file(..., remove_missing=True)` would remove: what an
    earlier import of this calendar brought in and the file no longer has. Changes nothing."""
    read, origin = _read_file(path, default_tz)
    return store.missing_from(read.events, origin)


def _read_file(path: Path, default_tz: str) -> tuple[IcsRead, str]:
    """The file's events and its origin (the calendar's name, else the file's)."""
    size = path.stat().st_size
    if size > MAX_BYTES:
        raise IcsError(IcsWhy.TOO_BIG, round(size / 2**20), path.name)
    read = read_ics(path.read_bytes(), default_tz)
    return read, "ics:" + (read.name if read.name != "Imported" else path.stem)


__all__ = ["IcsError", "IcsRead", "conflicts_on_reimport", "export_ics", "import_file",
           "missing_on_reimport",
           "parse_ics", "read_ics"]
