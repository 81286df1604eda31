"""Free-time search: gaps between timed events, within working hours, long enough to use."""

from __future__ import annotations

from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from skills.base import SkillError
from skills.calendar.model import Occurrence

Slot = tuple[datetime, datetime]


def parse_working_hours(text: str | None) -> tuple[time, time] | None:
    """"09:00-17:00" -> (09:00, 17:00); None or "" -> no limit."""
    if not text:
        return None
    try:
        first, second = (part.strip() for part in text.split("-", 1))
        begin, end = time.fromisoformat(first), time.fromisoformat(second)
    except ValueError:
        raise SkillError(f"Working hours must look like '09:00-17:00', not {text!r}.") from None
    if end <= begin:
        raise SkillError("Working hours must end after they start.")
    return begin, end


def busy_intervals(occurrences: list[Occurrence]) -> list[Slot]:
    """Merged busy time. All-day events (holidays, birthdays) and cancelled ones do not block
    time, as in most calendar apps."""
    spans = sorted((o.start, o.end) for o in occurrences if not o.cancelled
                   and isinstance(o.start, datetime) and isinstance(o.end, datetime))
    merged: list[Slot] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def windows(lo: datetime, hi: datetime, hours: tuple[time, time] | None, tz: str) -> list[Slot]:
    if hours is None:
        return [(lo, hi)]
    zone = ZoneInfo(tz)
    found: list[Slot] = []
    day = lo.astimezone(zone).date()
    while day <= hi.astimezone(zone).date():
        begin = datetime.combine(day, hours[0], tzinfo=zone)
        end = datetime.combine(day, hours[1], tzinfo=zone)
        if max(begin, lo) < min(end, hi):
            found.append((max(begin, lo), min(end, hi)))
        day += timedelta(days=1)
    return found


def free_slots(occurrences: list[Occurrence], lo: datetime, hi: datetime, duration: timedelta,
               hours: tuple[time, time] | None, tz: str) -> list[Slot]:
    busy = busy_intervals(occurrences)
    slots: list[Slot] = []
    for begin, end in windows(lo, hi, hours, tz):
        cursor = begin
        for b_start, b_end in busy:
            if b_end <= cursor or b_start >= end:
                continue
            if b_start - cursor >= duration:
                slots.append((cursor, b_start))
            cursor = max(cursor, b_end)
        if end - cursor >= duration:
            slots.append((cursor, end))
    # A slot may start where an event in another zone ends: say it in the user's zone.
    zone = ZoneInfo(tz or "UTC")
    return [(a.astimezone(zone), b.astimezone(zone)) for a, b in slots]
