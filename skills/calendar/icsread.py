"""Reading .ics files leniently: per component, repaired the way the common programs repair,
each component that cannot be understood skipped with its UID, line and reason."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import date, datetime, time, timedelta, tzinfo
from enum import StrEnum
from typing import Any
from zoneinfo import ZoneInfo

from dateutil.rrule import rrulestr
from icalendar import Component

from skills.base import SkillError
from skills.calendar.icslines import MAX_BYTES, Block, read_blocks
from skills.calendar.model import Event, When, span
from skills.calendar.recurrence import normalize_rrule
from skills.calendar.report import Fault, ImportIssue, IssueWhy, fault
from skills.calendar.todos import Todo
from skills.calendar.zones import iana_name, matching_zone, same_rules

CALENDAR_PROP = "X-HEARTH-CALENDAR"  # the Hearth calendar an exported event belongs to
UTC = ZoneInfo("UTC")
LISTED_YEARS, LISTED_MAX = 10, 5_000  # a series listed one by one (see _listed)
OWN_RULES = "this file's rules"  # the alias of an IANA-named VTIMEZONE with other rules


class IcsWhy(StrEnum):
    """Why nothing of a file can be imported: a code the UI and the CLI each put into words."""

    TOO_BIG = "too_big"
    NOT_ICALENDAR = "not_icalendar"


class IcsError(SkillError):
    """A file that is not iCalendar at all, or too big (nothing in it can be imported); str()
    words it in English for the CLI and the model."""

    def __init__(self, why: IcsWhy, megabytes: int = 0, name: str = "") -> None:
        self.why, self.megabytes, self.name = why, megabytes, name
        self.limit = MAX_BYTES // 2**20
        super().__init__(
            f"{name or 'The file'} is {megabytes} MB; Hearth imports calendar files up to "
            f"{self.limit} MB (split it, or export a shorter range)." if why is IcsWhy.TOO_BIG
            else "Not an iCalendar file: no BEGIN:VCALENDAR found.")


class _PropError(ValueError):
    """A bad property value inside an event, reported at that property's line."""

    def __init__(self, prop: str, why: IssueWhy, *details: object) -> None:
        super().__init__(why.value)
        self.prop, self.why, self.details = prop, why, details


@dataclass
class IcsRead:
    """What a file held: the events Hearth understood, and what it skipped or repaired."""

    events: list[Event]
    name: str = "Imported"
    todos: list[Todo] = field(default_factory=list)
    skipped: list[ImportIssue] = field(default_factory=list)
    repaired: list[ImportIssue] = field(default_factory=list)


def parse_ics(data: bytes | str, default_tz: str = "UTC") -> list[Event]:
    """Every VEVENT Hearth can understand; IcsError only for a file that is not iCalendar at
    all. `read_ics` also gives the to-dos (VTODO) and says what was skipped or repaired."""
    return read_ics(data, default_tz).events


def read_ics(data: bytes | str, default_tz: str = "UTC") -> IcsRead:
    if len(data) > MAX_BYTES:
        raise IcsError(IcsWhy.TOO_BIG, round(len(data) / 2**20))
    text = data.decode("utf-8-sig", errors="replace") if isinstance(data, bytes) else data
    try:
        parsed = read_blocks(text)
    except ValueError:
        raise IcsError(IcsWhy.NOT_ICALENDAR) from None
    wr_zone = iana_name(parsed.properties.get("X-WR-TIMEZONE", ""))
    reader = _Reader(default_tz, wr_zone)
    result = IcsRead([], name=parsed.properties.get("X-WR-CALNAME", "").strip() or "Imported")
    result.skipped += [ImportIssue("", line, found) for line, found in parsed.notes]
    own_rules: dict[str, str] = {}  # IANA-named VTIMEZONEs whose rules differ: an alias
    for block in parsed.blocks:
        if block.name == "VTIMEZONE" and not block.problem:
            alias = reader.add_zone(block)
            if alias:
                own_rules[alias[0]] = alias[1]
    if own_rules:  # read every time given in those zones by the file's rules
        for block in parsed.blocks:
            block.lines = [(n, _renamed(line, own_rules)) for n, line in block.lines]
    for block in parsed.blocks:
        if block.name == "VTIMEZONE":
            continue
        uid = (block.first("UID") or (0, ""))[1].strip()
        if block.problem:
            result.skipped.append(ImportIssue(uid, block.problem_line or block.line,
                                              block.problem))
            continue
        fixes: list[ImportIssue] = [ImportIssue(uid, n, Fault(IssueWhy.LINE_IGNORED))
                                    for n in block.ignored]
        try:
            if block.name == "VTODO":
                result.todos.append(reader.todo(block, fixes))
                result.repaired += fixes
                continue
            event = reader.event(block, result.name, fixes)
        except _PropError as exc:
            found = block.first(exc.prop)
            result.skipped.append(ImportIssue(uid, found[0] if found else block.line,
                                              _prop_fault(exc)))
            continue
        except (ValueError, TypeError, KeyError, IndexError, AttributeError, OverflowError,
                SkillError) as exc:
            result.skipped.append(ImportIssue(uid, block.line, fault(IssueWhy.UNREADABLE, exc)))
            continue
        result.events.append(event)
        result.repaired += [replace(f, uid=event.uid) for f in fixes]
    return result


# What Hearth reads from an event (RRULE is read from the raw lines, so not parsed twice).
USED = frozenset({"UID", "SUMMARY", "DTSTART", "DTEND", "DUE", "DURATION", "RDATE", "EXDATE",
                  "RECURRENCE-ID", "STATUS", "SEQUENCE", "LAST-MODIFIED", "LOCATION",
                  "DESCRIPTION", CALENDAR_PROP, "TRIGGER", "ACTION", "PRIORITY", "COMPLETED",
                  "PERCENT-COMPLETE"})


class _Reader:
    """Turns components into Events in IANA zones, repairing what common programs repair."""

    def __init__(self, default_tz: str, wr_zone: str) -> None:
        self.default_tz, self.wr_zone = default_tz, wr_zone
        self.zones: dict[str, str] = {}  # TZID -> IANA name for this file's VTIMEZONEs

    def add_zone(self, block: Block) -> tuple[str, str] | None:
        """Learn a VTIMEZONE; for one named after an IANA zone whose rules it does not keep,
        (its TZID, an alias) under which the file's own rules are read."""
        tzid = (block.first("TZID") or (0, ""))[1].strip()
        if not tzid:
            return None
        if iana_name(tzid):
            try:
                vtimezone: Any = Component.from_ical(block.text())  # a Timezone
                own = vtimezone.to_tz(lookup_tzid=False)
            except (ValueError, TypeError, KeyError, IndexError, AttributeError):
                return None
            if same_rules(own, iana_name(tzid)):
                return None
            alias = f"{tzid} ({OWN_RULES})"
            block.lines = [(n, _renamed(line, {tzid: alias})) for n, line in block.lines]
            tzid = alias
        try:
            component: Any = Component.from_ical(block.text())  # a Timezone (has to_tz)
            location = (block.first("X-LIC-LOCATION") or (0, ""))[1].strip()
            self.zones[tzid] = matching_zone(component.to_tz(), (location, self.default_tz))
        except (ValueError, TypeError, KeyError, IndexError, AttributeError):
            self.zones[tzid] = ""
        return (tzid.removesuffix(f" ({OWN_RULES})"), tzid) if tzid.endswith(
            f"({OWN_RULES})") else None

    def todo(self, block: Block, fixes: list[ImportIssue]) -> Todo:
        """A VTODO as Thunderbird, Apple Reminders and others write it: DUE (a date or a
        time; else DTSTART), PRIORITY, STATUS:COMPLETED or PERCENT-COMPLETE:100, COMPLETED."""
        comp = Component.from_ical(block.text(USED))
        uid = str(comp.get("uid", "")).strip() or _stable_uid(comp)
        note = _Notes(uid, block, fixes)
        due: When | None = None
        tz = ""
        for prop in ("DUE", "DTSTART"):
            if comp.get(prop) is not None:
                raw = self.when(comp, prop, note)
                tz = self.zone_of(raw, comp, prop)
                due = self.pin(raw, tz)
                break
        completed = getattr(comp.get("completed"), "dt", None)
        done = (str(comp.get("status", "")).upper() == "COMPLETED" or completed is not None
                or _int(comp.get("percent-complete")) >= 100)
        return Todo(uid, str(comp.get("summary", "")).strip() or "(untitled)", due, tz,
                    min(9, max(0, _int(comp.get("priority")))), done,
                    _aware(completed) if done and isinstance(completed, datetime) else None,
                    str(comp.get("description", "")), _int(comp.get("sequence")))

    def event(self, block: Block, calendar_name: str, fixes: list[ImportIssue]) -> Event:
        comp = Component.from_ical(block.text(USED))
        uid = str(comp.get("uid", "")).strip() or _stable_uid(comp)
        note = _Notes(uid, block, fixes)
        start_raw = self.when(comp, "DTSTART", note)
        tz = self.zone_of(start_raw, comp, "DTSTART")
        start = self.pin(start_raw, tz)
        start, end = self.span(comp, block, start, tz, note)
        rid = comp.get("recurrence-id")
        rrule = self.rrules(block, start, tz, note)
        listed: list[When] = []
        if rrule and isinstance(start_raw, datetime) and self._unmatched(start_raw):
            rrule, listed = _listed(rrule, start_raw, note)
        all_day = not isinstance(start, datetime)
        return Event(
            uid=uid,
            title=str(comp.get("summary", "")).strip() or "(untitled)",
            start=start, end=end, all_day=all_day, timezone="" if all_day else tz,
            location=str(comp.get("location", "")),
            notes=str(comp.get("description", "")),
            calendar=str(comp.get(CALENDAR_PROP, "")) or calendar_name,
            rrule=rrule,
            rdates=[*self.dates_for(comp.get("rdate"), start, tz), *listed],
            rdate_periods=self.periods(comp.get("rdate"), tz),
            exdates=self.dates_for(comp.get("exdate"), start, tz),
            alarms=_alarms(comp, start, end),
            recurrence_id=_like(self.pin(rid.dt, tz), start) if rid is not None else None,
            this_and_future=rid is not None and str(rid.params.get("RANGE", "")).upper()
            == "THISANDFUTURE",
            cancelled=str(comp.get("status", "")).upper() == "CANCELLED",
            sequence=_int(comp.get("sequence")),
            last_modified=_utc_text(comp.get("last-modified")),
        )

    def when(self, comp: Component, prop: str, note: _Notes) -> When:
        if comp.get(prop) is None:
            raise _PropError(prop, IssueWhy.PROP_MISSING)
        try:
            value = comp.decoded(prop)
        except (ValueError, TypeError) as exc:
            raise _PropError(prop, IssueWhy.PROP_NOT_TIME, exc) from None
        if not isinstance(value, date):
            raise _PropError(prop, IssueWhy.PROP_NOT_TIME)
        tzid = str(comp.get(prop).params.get("TZID", ""))
        if isinstance(value, datetime) and tzid and not iana_name(tzid) and \
                not self.zones.get(tzid) and value.tzinfo is None:
            note.fix(prop, IssueWhy.UNKNOWN_ZONE, repr(tzid), self.default_tz)
        found: When = value
        return found

    def zone_of(self, value: When, comp: Component, prop: str) -> str:
        if not isinstance(value, datetime):
            return self.default_tz
        tzid = str(comp.get(prop).params.get("TZID", "")) if comp.get(prop) is not None else ""
        if value.tzinfo is None:
            return self.wr_zone or self.default_tz
        named = getattr(value.tzinfo, "key", None)
        if named and iana_name(str(named)):
            zone = iana_name(str(named))
            return self.wr_zone if zone == "UTC" and self.wr_zone else zone
        return iana_name(tzid) or self.zones.get(tzid) or "UTC"

    def pin(self, value: When, tz: str) -> When:
        """A value in the event's zone: floating and custom-zone times keep their wall clock."""
        if not isinstance(value, datetime):
            return value
        zone = ZoneInfo(tz)
        info: tzinfo | None = value.tzinfo
        if info is None:
            return value.replace(tzinfo=zone)
        if getattr(info, "key", None) is None and self._custom(info):
            return value.replace(tzinfo=zone)
        return value.astimezone(zone)

    def _unmatched(self, value: When) -> bool:
        """A time in a file's own zone that no IANA zone follows (kept as UTC instants)."""
        info = value.tzinfo if isinstance(value, datetime) else None
        name = str(getattr(info, "_tzid", "") or "")
        return info is not None and getattr(info, "key", None) is None and \
            self.zones.get(name) == ""

    def _custom(self, info: tzinfo) -> bool:
        name = str(getattr(info, "_tzid", "") or getattr(info, "zone", "") or "")
        return bool(self.zones.get(name))

    def span(self, comp: Component, block: Block, start: When, tz: str,
             note: _Notes) -> tuple[When, When]:
        if comp.get("dtend") is not None or comp.get("due") is not None:
            prop = "DTEND" if comp.get("dtend") is not None else "DUE"
            try:
                end = self.pin(self.when(comp, prop, note), tz)
            except _PropError:
                note.fix(prop, IssueWhy.DEFAULT_LENGTH)
                end = _default_end(start)
        elif comp.get("duration") is not None:
            try:
                end = _after(start, comp.decoded("duration"))
            except (ValueError, TypeError):
                note.fix("DURATION", IssueWhy.DEFAULT_LENGTH)
                end = _default_end(start)
        else:
            end = _default_end(start)
        prop = "DTEND" if comp.get("dtend") is not None else "DTSTART"
        if isinstance(start, datetime) != isinstance(end, datetime):
            end = _same_kind(start, end)
            note.fix(prop, IssueWhy.KINDS_MATCHED)
        if span(start, end) < timedelta(0):
            # As recurring-ical-events and the common programs do: the two were swapped.
            note.fix(prop, IssueWhy.SWAPPED)
            start, end = end, start
        elif span(start, end) == timedelta(0) and not isinstance(start, datetime):
            if comp.get("dtend") is not None:
                note.fix(prop, IssueWhy.ONE_DAY)
            end = start + timedelta(days=1)
        return start, end

    def rrules(self, block: Block, start: When, tz: str, note: _Notes) -> str:
        lines = block.all("RRULE")
        texts = [value.strip() for _, value in lines]
        if any(not t for t in texts):
            note.fix("RRULE", IssueWhy.EMPTY_RRULE)
        kept = [t for t in texts if t]
        if len(kept) > len(set(kept)):
            note.fix("RRULE", IssueWhy.RRULE_TWICE)
        try:
            return normalize_rrule("\n".join(kept), start, tz)
        except SkillError as exc:
            raise _PropError("RRULE", IssueWhy.RRULE_UNREADABLE, exc) from None

    def dates(self, prop: Any, tz: str, periods: bool) -> list[When]:
        found: list[When] = []
        for item in prop if isinstance(prop, list) else [prop] if prop is not None else []:
            for entry in item.dts:
                if isinstance(entry.dt, tuple) == periods:
                    found.append(self.pin(entry.dt, tz))
        return found

    def dates_for(self, prop: object, start: When, tz: str) -> list[When]:
        """RDATE/EXDATE values; on an all-day event a time means its own date (mixed files)."""
        values = self.dates(prop, tz, periods=False)
        if isinstance(start, datetime):
            return values
        return [v.date() if isinstance(v, datetime) else v for v in values]

    def periods(self, prop: Any, tz: str) -> list[tuple[When, When]]:
        found: list[tuple[When, When]] = []
        for item in prop if isinstance(prop, list) else [prop] if prop is not None else []:
            for entry in item.dts:
                if isinstance(entry.dt, tuple):
                    first = self.pin(entry.dt[0], tz)
                    length = entry.dt[1]
                    last = first + length if isinstance(length, timedelta) else self.pin(length,
                                                                                        tz)
                    found.append((first, last))
        return found


class _Notes:
    """Collects what was repaired in one component, at the line of the property concerned."""

    def __init__(self, uid: str, block: Block, fixes: list[ImportIssue]) -> None:
        self.uid, self.block, self.fixes = uid, block, fixes

    def fix(self, prop: str, why: IssueWhy, *details: object) -> None:
        found = self.block.first(prop)
        self.fixes.append(ImportIssue(self.uid, found[0] if found else self.block.line,
                                      fault(why, *details)))


def _prop_fault(exc: _PropError) -> Fault:
    return fault(exc.why, exc.prop, *exc.details)


def _renamed(line: str, aliases: dict[str, str]) -> str:
    """A content line with TZID parameters (and a VTIMEZONE's TZID) renamed per `aliases`."""
    head, colon, value = line.partition(":")
    if head.strip().upper() == "TZID":
        return f"{head}:{aliases.get(value.strip(), value)}"
    for tzid, alias in aliases.items():
        head = re.sub(rf'(;TZID=)"?{re.escape(tzid)}"?(?=;|$)', _with(alias), head,
                      flags=re.IGNORECASE)
    return head + colon + value


def _with(alias: str) -> Callable[[re.Match[str]], str]:
    return lambda match: match.group(1) + alias


def _listed(rrule: str, start: datetime, note: _Notes) -> tuple[str, list[When]]:
    """A series in a zone of the file's own that no IANA zone follows repeats on that zone's
    wall clock: its instances are worked out in it now and kept as UTC times (up to
    LISTED_YEARS ahead); the rule stays when that cannot be done."""
    horizon = start + timedelta(days=365 * LISTED_YEARS)
    found: list[When] = []
    try:
        for rule in rrule.split("\n"):
            for moment in rrulestr(rule, dtstart=start, cache=False):
                if moment > horizon or len(found) >= LISTED_MAX:
                    break
                found.append(moment.astimezone(UTC))
    except (ValueError, TypeError, OverflowError):
        return rrule, []
    note.fix("RRULE", IssueWhy.LISTED, len(found))
    return "", found


def _after(start: When, length: timedelta) -> When:
    """start + DURATION: days are nominal (the same wall clock), hours exact (RFC 5545
    3.3.6), so an hour that crosses a DST change still lasts an hour."""
    if not isinstance(start, datetime) or length < timedelta(0):
        return start + length
    days = timedelta(days=length.days)
    return ((start + days).astimezone(UTC) + (length - days)).astimezone(start.tzinfo)


def _like(rid: When, start: When) -> When:
    """A RECURRENCE-ID written as a time on an all-day series names that day's instance."""
    return rid.date() if isinstance(rid, datetime) and not isinstance(start, datetime) else rid


def _default_end(start: When) -> When:
    return start + timedelta(days=1) if not isinstance(start, datetime) else start


def _same_kind(start: When, end: When) -> When:
    if isinstance(start, datetime):
        day = end.date() if isinstance(end, datetime) else end
        moment = datetime.combine(day, time(0), tzinfo=start.tzinfo)
        return moment if moment >= start else start
    day = end.date() if isinstance(end, datetime) else end
    return day if day > start else start + timedelta(days=1)


def _int(value: object) -> int:
    try:
        return int(str(value)) if value is not None else 0
    except ValueError:
        return 0


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _utc_text(prop: object) -> str:
    value = getattr(prop, "dt", None)
    if isinstance(value, datetime):
        aware = value if value.tzinfo else value.replace(tzinfo=UTC)
        return aware.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")
    return ""


def _alarms(comp: Component, start: When, end: When) -> list[int]:
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


def _stable_uid(comp: Component) -> str:
    """Files without UIDs still import once: derive one from the event's own content."""
    start = comp.get("dtstart")
    basis = f"{comp.get('summary', '')}|{start.to_ical() if start is not None else ''!r}"
    return hashlib.sha256(basis.encode()).hexdigest()[:32] + "@import.hearth"

