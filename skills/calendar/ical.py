"""iCalendar (.ics) import and export, so Hearth works alongside Apple, Outlook and Google."""

from __future__ import annotations

import hashlib
import re
from datetime import date, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

from icalendar import Alarm, Calendar
from icalendar import Event as VEvent
from icalendar.prop import vRecur

from skills.base import SkillError
from skills.calendar.model import Event, When, span
from skills.calendar.recurrence import normalize_rrule

PRODID = "-//Hearth//Hearth local calendar//EN"
CALENDAR_PROP = "X-HEARTH-CALENDAR"
_CONTENT_LINE = re.compile(r"^[A-Za-z0-9-]+(;[^:]*)?:")
UTC = ZoneInfo("UTC")


class IcsError(SkillError):
    """A file that is not valid iCalendar; the message names the line that broke it."""


class _PropError(ValueError):
    """A bad property value inside an event, reported at that property's line."""

    def __init__(self, prop: str, message: str) -> None:
        super().__init__(message)
        self.prop = prop


# -- export ----------------------------------------------------------------------------------
def export_ics(events: list[Event], name: str = "Hearth") -> bytes:
    cal = Calendar()
    cal.add("prodid", PRODID)
    cal.add("version", "2.0")
    cal.add("x-wr-calname", name)
    for event in events:
        cal.add_component(_to_vevent(event))
    cal.add_missing_timezones()  # VTIMEZONE blocks so other apps read the TZIDs
    return bytes(cal.to_ical())


def _to_vevent(event: Event) -> VEvent:
    comp = VEvent()
    comp.add("uid", event.uid)
    comp.add("dtstamp", datetime.now(UTC))
    comp.add("summary", event.title)
    comp.add("dtstart", event.start)
    comp.add("dtend", event.end)
    if event.location:
        comp.add("location", event.location)
    if event.notes:
        comp.add("description", event.notes)
    comp.add(CALENDAR_PROP, event.calendar)
    if event.rrule:
        comp.add("rrule", vRecur.from_ical(event.rrule))
    for rdate in event.rdates:
        comp.add("rdate", rdate)
    for exdate in event.exdates:
        comp.add("exdate", exdate)
    if event.recurrence_id is not None:
        comp.add("recurrence-id", event.recurrence_id)
    if event.cancelled:
        comp.add("status", "CANCELLED")
    for minutes in event.alarms:
        alarm = Alarm()
        alarm.add("action", "DISPLAY")
        alarm.add("description", event.title)
        alarm.add("trigger", timedelta(minutes=-minutes))
        comp.add_component(alarm)
    return comp


# -- import ----------------------------------------------------------------------------------
def parse_ics(data: bytes | str, default_tz: str = "UTC") -> list[Event]:
    """Every VEVENT in the file, or IcsError naming the first line that is wrong."""
    text = data.decode("utf-8-sig", errors="replace") if isinstance(data, bytes) else data
    blocks = _check_syntax(text)
    try:
        cal = Calendar.from_ical(text)
    except (ValueError, KeyError, IndexError) as exc:
        raise IcsError(f"Not a valid iCalendar file: {exc}") from None
    events: list[Event] = []
    name = str(cal.get("x-wr-calname", "") or "Imported")
    for number, comp in enumerate(cal.walk("VEVENT")):
        begin, props = blocks[number] if number < len(blocks) else (0, {})
        try:
            events.append(_from_vevent(comp, default_tz, name))
        except _PropError as exc:
            line = props.get(exc.prop, begin)
            raise IcsError(f"Line {line}: {exc.prop} {exc}.") from None
        except (ValueError, TypeError, KeyError, AttributeError, SkillError) as exc:
            raise IcsError(f"Line {begin}: the event starting there is invalid ({exc}).") from None
    return events


def _check_syntax(text: str) -> list[tuple[int, dict[str, int]]]:
    """Validate content lines and BEGIN/END nesting. For each VEVENT: the line of its BEGIN and
    the line of each of its own properties (to point errors at the right line)."""
    stack: list[str] = []
    vevents: list[tuple[int, dict[str, int]]] = []
    seen_any = False
    for number, raw in enumerate(text.splitlines(), start=1):
        if not raw.strip() or raw[0] in " \t":
            continue  # blank, or a folded continuation of the previous line
        if not _CONTENT_LINE.match(raw):
            raise IcsError(f"Line {number} is not an iCalendar content line: {raw[:60]!r}")
        name, _, value = raw.partition(":")
        name, value = name.split(";")[0].upper(), value.strip().upper()
        if not seen_any and (name, value) != ("BEGIN", "VCALENDAR"):
            raise IcsError(f"Line {number}: an iCalendar file must start with BEGIN:VCALENDAR.")
        seen_any = True
        if name == "BEGIN":
            stack.append(value)
            if value == "VEVENT":
                vevents.append((number, {}))
        elif name == "END":
            if not stack or stack[-1] != value:
                expected = stack[-1] if stack else "nothing"
                raise IcsError(f"Line {number}: END:{value} does not close {expected}.")
            stack.pop()
        elif stack and stack[-1] == "VEVENT":
            vevents[-1][1].setdefault(name, number)
    if not seen_any:
        raise IcsError("The file is empty: no BEGIN:VCALENDAR found.")
    if stack:
        raise IcsError(f"The file ends before END:{stack[-1]} (it looks cut off).")
    return vevents


def _from_vevent(comp: Any, default_tz: str, calendar_name: str) -> Event:
    start_raw = _when(comp, "DTSTART")
    tz = _zone_name(start_raw, default_tz)
    start = _normalize(start_raw, tz)
    end = _end(comp, start, tz)
    rid = comp.get("recurrence-id")
    uid = str(comp.get("uid", "")) or _stable_uid(comp)
    rrule = _rrule(comp, start, tz)
    return Event(
        uid=uid,
        title=str(comp.get("summary", "")) or "(untitled)",
        start=start,
        end=end,
        all_day=not isinstance(start, datetime),
        timezone="" if not isinstance(start, datetime) else tz,
        location=str(comp.get("location", "")),
        notes=str(comp.get("description", "")),
        calendar=str(comp.get(CALENDAR_PROP, "")) or calendar_name,
        rrule=rrule,
        rdates=_date_list(comp.get("rdate"), tz),
        exdates=_date_list(comp.get("exdate"), tz),
        alarms=_alarms(comp, start, end),
        recurrence_id=_normalize(rid.dt, tz) if rid is not None else None,
        cancelled=str(comp.get("status", "")).upper() == "CANCELLED",
    )


def _when(comp: Any, prop: str) -> When:
    if comp.get(prop) is None:
        raise _PropError(prop, "is missing")
    try:
        value = comp.decoded(prop)
    except (ValueError, TypeError) as exc:
        raise _PropError(prop, f"is not a date or time ({exc})") from None
    if not isinstance(value, date):
        raise _PropError(prop, f"{str(comp.get(prop).to_ical(), 'utf-8', 'replace')!r} is not "
                               "a date or time")
    return value


def _rrule(comp: Any, start: When, tz: str) -> str:
    prop = comp.get("rrule")
    if prop is None:
        return ""
    text = prop.to_ical().decode() if hasattr(prop, "to_ical") else str(prop)
    try:
        return normalize_rrule(text, start, tz)
    except SkillError as exc:
        raise _PropError("RRULE", str(exc)) from None


def _zone_name(value: When, default_tz: str) -> str:
    if not isinstance(value, datetime) or value.tzinfo is None:
        return default_tz
    key = getattr(value.tzinfo, "key", None)
    if key:
        return str(key)
    return "UTC"  # a custom VTIMEZONE without an IANA name: keep the instant, in UTC


def _normalize(value: When, tz: str) -> When:
    if not isinstance(value, datetime):
        return value
    if value.tzinfo is None:  # floating time: the user's zone
        return value.replace(tzinfo=ZoneInfo(tz))
    return value.astimezone(ZoneInfo(tz))


def _end(comp: Any, start: When, tz: str) -> When:
    if comp.get("dtend") is not None:
        return _normalize(_when(comp, "DTEND"), tz)
    if comp.get("duration") is not None:
        end: When = start + comp.decoded("duration")
        return end
    return start + timedelta(days=1) if not isinstance(start, datetime) else start


def _date_list(prop: Any, tz: str) -> list[When]:
    if prop is None:
        return []
    props = prop if isinstance(prop, list) else [prop]
    found: list[When] = []
    for item in props:
        for entry in item.dts:
            value = entry.dt[0] if isinstance(entry.dt, tuple) else entry.dt  # PERIOD: its start
            found.append(_normalize(value, tz))
    return found


def _alarms(comp: Any, start: When, end: When) -> list[int]:
    minutes: list[int] = []
    for alarm in comp.walk("VALARM"):
        trigger = alarm.get("trigger")
        if trigger is None:
            continue
        value = trigger.dt
        if isinstance(value, timedelta):
            if str(trigger.params.get("RELATED", "START")).upper() == "END":
                value += span(start, end)
            minutes.append(max(0, round(-value.total_seconds() / 60)))
        elif isinstance(value, datetime) and isinstance(start, datetime):
            minutes.append(max(0, round((start - value).total_seconds() / 60)))
    return sorted(set(minutes))


def _stable_uid(comp: Any) -> str:
    """Files without UIDs still import once: derive one from the event's own content."""
    basis = f"{comp.get('summary', '')}|{comp.get('dtstart').to_ical()!r}".encode()
    return hashlib.sha256(basis).hexdigest()[:32] + "@import.hearth"


