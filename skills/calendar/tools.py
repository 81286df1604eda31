"""The calendar tools the model can call; the three that change things are confirmed first."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from skills.base import ReadOnlyTool, Skill, SkillContext, SkillError, SkillResult, object_schema
from skills.calendar.calendar_tool import CalendarTool
from skills.calendar.display import view_days, view_times
from skills.calendar.freetime import free_slots, parse_working_hours
from skills.calendar.model import Event, Occurrence
from skills.calendar.store import OCCURRENCES_LIMIT, CalendarStore
from skills.calendar.timeutil import as_aware, check_span, describe, parse_when, zone

# Said once per tool description rather than on every start/end (each is sent in the prefix).
TIMES = " Times are ISO 8601, e.g. 2026-12-03T14:00, in the user's zone unless an offset is given."
FREE_TIME_RANGE = timedelta(days=400)  # free slots over years mean nothing
TOOL_LIMIT = 50  # occurrences one list_events call shows the model (it can ask for more)
MAX_LIMIT = 1000


def _range(args: dict[str, Any], tz: str, longest: timedelta | None = None
           ) -> tuple[datetime, datetime]:
    lo = as_aware(parse_when(str(args["start"]), tz), tz)
    hi = as_aware(parse_when(str(args["end"]), tz), tz)
    if hi <= lo:
        raise SkillError("The end of the range must be after its start.")
    if longest is not None and hi - lo > longest:
        raise SkillError("Ask for at most about a year at a time.")
    return lo, hi


def line(occ: Occurrence, tz: str = "") -> str:
    """One occurrence in the user's zone (its own zone named when that differs)."""
    e = occ.event
    if e.all_day:
        days = view_days(occ)  # the dates as written, whatever the user's zone
        span = f"{describe(days.first)} (all day)" if days.first == days.last else (
            f"{describe(days.first)} - {describe(days.last)} (all day)")
    else:
        shown = view_times(occ, tz or e.timezone or "UTC")
        span = f"{describe(shown.start)} - {shown.end:%H:%M}"
        if shown.own_zone:
            span += f" ({shown.own_zone} {shown.own_start:%H:%M})"
    where = f" @ {e.location}" if e.location else ""
    repeat = " (repeats)" if occ.recurrence_id is not None else ""
    cancelled = " (cancelled)" if e.cancelled else ""
    return f"- {e.title}: {span}{where}{repeat}{cancelled} [uid {e.uid}]"


class ListEvents(ReadOnlyTool, CalendarTool):
    name = "list_events"
    description = "List calendar events between start and end, optionally matching words." + TIMES
    parameters = object_schema({
        "start": {"type": "string"},
        "end": {"type": "string"},
        "query": {"type": "string", "description": "In title, place or notes."},
        "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT,
                  "description": f"Default {TOOL_LIMIT}."},
    }, required=["start", "end"])

    def run(self, arguments: dict[str, Any], context: SkillContext) -> SkillResult:
        lo, hi = _range(arguments, context.timezone)
        try:
            limit = min(MAX_LIMIT, max(1, int(arguments.get("limit") or TOOL_LIMIT)))
        except (TypeError, ValueError):
            raise SkillError("limit must be a whole number of events.") from None
        page = self.store.listing(lo, hi, str(arguments.get("query", "")), limit=limit)
        found = page.occurrences
        head = f"{len(found)} event(s) from {describe(lo)} to {describe(hi)}:"
        lines = [head, *(line(o, context.timezone) for o in found)] if found else [
            "No events in that range."]
        if page.more:
            count = f"more than {page.more:,}" if page.more_at_least else f"{page.more:,}"
            nxt = page.next_start.isoformat() if page.next_start is not None else ""
            lines.append(f"... and {count} more: call list_events again with start={nxt} "
                         f"(same end) to see them.")
        lines += [f"Limited: {cut}; ask for a shorter range." for cut in page.cuts]
        return SkillResult(text="\n".join(lines), data={
            "kind": "agenda", "events": [o.to_json() for o in found], **page.to_json()})


class FindFreeTime(ReadOnlyTool, CalendarTool):
    name = "find_free_time"
    description = ("Find free slots of at least `duration` minutes between start and end,"
                   " optionally within working hours." + TIMES)
    parameters = object_schema({
        "start": {"type": "string"},
        "end": {"type": "string"},
        "duration": {"type": "integer", "minimum": 5, "maximum": 1440,
                     "description": "Minutes."},
        "working_hours": {"type": "string", "description": "e.g. 09:00-17:00"},
    }, required=["start", "end", "duration"])

    def run(self, arguments: dict[str, Any], context: SkillContext) -> SkillResult:
        lo, hi = _range(arguments, context.timezone, FREE_TIME_RANGE)
        duration = timedelta(minutes=int(arguments["duration"]))
        hours = parse_working_hours(arguments.get("working_hours"))
        zone(context.timezone)
        page = self.store.listing(lo, hi, limit=OCCURRENCES_LIMIT)
        if page.more or page.cuts:
            raise SkillError("That range holds too many events to find free time reliably; "
                             "ask for a shorter range.")
        slots = free_slots(page.occurrences, lo, hi, duration, hours, context.timezone)
        if not slots:
            return SkillResult(text="No free slot that long in that range.", data={"slots": []})
        lines = [f"- {describe(a)} to {b:%H:%M}" for a, b in slots[:20]]
        return SkillResult(text="Free slots:\n" + "\n".join(lines),
                           data={"kind": "slots", "slots": [[a.isoformat(), b.isoformat()]
                                                            for a, b in slots]})


EVENT_FIELDS: dict[str, Any] = {
    "title": {"type": "string"},
    "start": {"type": "string", "description": "A date alone: all day."},
    "end": {"type": "string", "description": "Default: start + 1 hour."},
    "all_day": {"type": "boolean"},
    "location": {"type": "string"},
    "notes": {"type": "string"},
    "recurrence": {"type": "string", "description": "RRULE, e.g. FREQ=WEEKLY;BYDAY=MO"},
    "timezone": {"type": "string", "description": "IANA; default the user's."},
    "alarm_minutes": {"type": "integer", "minimum": 0, "maximum": 10080,
                      "description": "Remind this many minutes before."},
}


def build_event(args: dict[str, Any], tz: str, base: Event | None = None) -> Event:
    """An Event from tool arguments (over `base` for updates), validated."""
    tz = str(args.get("timezone") or (base.timezone if base and base.timezone else tz))
    zone(tz)
    all_day = bool(args.get("all_day", base.all_day if base else False))
    if "start" in args:
        start = parse_when(str(args["start"]), tz, all_day=all_day)
    elif base is not None:
        start = base.start
    else:
        raise SkillError("A new event needs a start.")
    all_day = all_day or not isinstance(start, datetime)
    if "end" in args:
        end = parse_when(str(args["end"]), tz, all_day=all_day)
    elif base is not None and "start" in args:
        end = start + base.duration  # moving an event keeps its length
    elif base is not None:
        end = base.end
    else:
        end = start + (timedelta(days=1) if all_day else timedelta(hours=1))
    check_span(start, end)
    alarms = [int(args["alarm_minutes"])] if "alarm_minutes" in args else (
        base.alarms if base else [])
    fields: dict[str, Any] = dict(
        title=str(args.get("title", base.title if base else "")).strip(),
        start=start, end=end, all_day=all_day, timezone="" if all_day else tz,
        location=str(args.get("location", base.location if base else "")),
        notes=str(args.get("notes", base.notes if base else "")),
        rrule=str(args.get("recurrence", base.rrule if base else "")), alarms=alarms,
    )
    if base is not None:
        return replace(base, **fields)
    return Event(uid="", **fields)


def summary(event: Event) -> str:
    when = describe(event.start) if not event.all_day else f"{describe(event.start)} (all day)"
    parts = [f"'{event.title}' on {when}"]
    if not event.all_day:
        parts.append(f"until {event.end:%H:%M}")
    if event.location:
        parts.append(f"at {event.location}")
    if event.rrule:
        parts.append(f"repeating {event.rrule}")
    return " ".join(parts)


class AddEvent(CalendarTool):
    name = "add_event"
    description = "Add an event to the user's calendar." + TIMES
    parameters = object_schema(EVENT_FIELDS, required=["title", "start"])
    changes_things = True

    def run(self, arguments: dict[str, Any], context: SkillContext) -> SkillResult:
        event = self.store.add(build_event(arguments, context.timezone))
        return SkillResult(text=f"Added {summary(event)} [uid {event.uid}].",
                           data={"kind": "event", "uid": event.uid})

    def describe_change(self, arguments: dict[str, Any]) -> str:
        try:
            return "Add " + summary(build_event(arguments, self.timezone))
        except SkillError as exc:
            return f"Add an event (the details are invalid: {exc})"


class UpdateEvent(CalendarTool):
    name = "update_event"
    description = ("Change an event by its uid, giving only the fields to change (a moved start"
                   " keeps the length unless end is given)." + TIMES)
    parameters = object_schema({"uid": {"type": "string"}, **EVENT_FIELDS}, required=["uid"])
    changes_things = True

    def _changes(self, arguments: dict[str, Any], tz: str) -> tuple[Event, Event]:
        base = self.store.get(str(arguments["uid"]))
        if base is None:
            raise SkillError(f"No event with uid {arguments['uid']!r}; list events to find it.")
        rest = {k: v for k, v in arguments.items() if k != "uid"}
        return base, build_event(rest, tz, base=base)

    def run(self, arguments: dict[str, Any], context: SkillContext) -> SkillResult:
        _, after = self._changes(arguments, context.timezone)
        before, after = self.store.update(
            after.uid, title=after.title, start=after.start, end=after.end,
            all_day=after.all_day, timezone=after.timezone, location=after.location,
            notes=after.notes, rrule=after.rrule, alarms=after.alarms)
        return SkillResult(text=f"Changed {summary(before)} -> {summary(after)}.",
                           data={"kind": "event", "uid": after.uid})

    def describe_change(self, arguments: dict[str, Any]) -> str:
        try:
            before, after = self._changes(arguments, self.timezone)
        except SkillError as exc:
            return f"Change event {arguments.get('uid')!r} (it cannot be changed: {exc})"
        return f"Change {summary(before)}\n    to {summary(after)}"


class DeleteEvent(CalendarTool):
    name = "delete_event"
    description = "Delete an event (a whole series if it repeats) by its uid."
    parameters = object_schema({"uid": {"type": "string"}}, required=["uid"])
    changes_things = True

    def run(self, arguments: dict[str, Any], context: SkillContext) -> SkillResult:
        event = self.store.delete(str(arguments["uid"]))
        return SkillResult(text=f"Deleted {summary(event)}.", data={"kind": "event",
                                                                    "uid": event.uid})

    def describe_change(self, arguments: dict[str, Any]) -> str:
        event = self.store.get(str(arguments.get("uid", "")))
        if event is None:
            return f"Delete event {arguments.get('uid')!r} (no such event)"
        series = " and every repetition of it" if event.recurring else ""
        return f"Delete {summary(event)}{series}"


def calendar_skills(store: CalendarStore, timezone: str = "UTC") -> list[Skill]:
    from skills.calendar.todo_tools import todo_skills

    return [ListEvents(store), FindFreeTime(store), AddEvent(store, timezone),
            UpdateEvent(store, timezone), DeleteEvent(store), *todo_skills(store, timezone)]
