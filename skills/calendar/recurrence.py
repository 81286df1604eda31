"""Expand events over a range: RRULE, RDATE, EXDATE and overridden instances, DST-correct.

Times are generated as wall-clock times in the event's zone (zoneinfo), so a 09:00 weekly meeting
stays at 09:00 across daylight-saving changes, as RFC 5545 requires."""

from __future__ import annotations

import re
from datetime import datetime, time
from zoneinfo import ZoneInfo

from dateutil.rrule import rrule as RRule
from dateutil.rrule import rrulestr

from skills.base import SkillError
from skills.calendar.model import Event, Occurrence, When

UTC = ZoneInfo("UTC")
_UNTIL = re.compile(r"UNTIL=(\d{8})(T\d{6})?(Z?)", re.IGNORECASE)


def key(value: When) -> str:
    """Compare instants across zones: datetimes in UTC, dates as dates."""
    if isinstance(value, datetime):
        return value.astimezone(UTC).strftime("%Y%m%dT%H%M%S")
    return value.isoformat()


def normalize_rrule(rule: str, start: When, tz: str) -> str:
    """Validate an RRULE and make UNTIL agree with DTSTART (UTC for timed, floating for all-day)."""
    rule = rule.strip()
    if rule.upper().startswith("RRULE:"):
        rule = rule[6:]
    if not rule:
        return ""
    match = _UNTIL.search(rule)
    if match:
        rule = rule.replace(match.group(0), "UNTIL=" + _until(match, start, tz))
    try:
        _build(rule, start)
    except (ValueError, TypeError) as exc:
        raise SkillError(f"Not a valid recurrence rule ({rule}): {exc}") from None
    return rule


def _until(match: re.Match[str], start: When, tz: str) -> str:
    day, clock, zulu = match.group(1), match.group(2) or "", match.group(3)
    if not isinstance(start, datetime):
        return day  # all-day series: UNTIL is a date
    if zulu:
        return day + clock + "Z"
    wall = datetime.strptime(day + (clock or "T235959"), "%Y%m%dT%H%M%S")
    local = wall.replace(tzinfo=ZoneInfo(tz or "UTC"))
    return local.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def _build(rule: str, start: When) -> RRule:
    dtstart = start if isinstance(start, datetime) else datetime.combine(start, time(0))
    built = rrulestr(rule, dtstart=dtstart)
    if not isinstance(built, RRule):
        raise ValueError("only a single RRULE is supported")
    return built


def expand(master: Event, overrides: list[Event], lo: datetime, hi: datetime) -> list[Occurrence]:
    """Every occurrence of `master` (with its overrides) that overlaps [lo, hi)."""
    if not master.recurring:
        return [Occurrence(master, master.start, master.end)] if _overlaps(
            master.start, master.end, lo, hi
        ) else []
    by_id = {key(o.recurrence_id): o for o in overrides if o.recurrence_id is not None}
    excluded = {key(x) for x in master.exdates}
    found: list[Occurrence] = []
    for start in _starts(master, lo, hi):
        k = key(start)
        if k in excluded or k in by_id:
            continue
        end = start + master.duration
        if _overlaps(start, end, lo, hi):
            found.append(Occurrence(master, start, end, recurrence_id=start))
    for override in by_id.values():
        if override.cancelled or key(override.recurrence_id or override.start) in excluded:
            continue
        if _overlaps(override.start, override.end, lo, hi):
            found.append(Occurrence(override, override.start, override.end, override.recurrence_id))
    found.sort(key=lambda o: key(o.start))
    return found


def _starts(master: Event, lo: datetime, hi: datetime) -> list[When]:
    """Series starts that could overlap the range (widened by the event's duration)."""
    window_lo, window_hi = lo - master.duration, hi
    starts: list[When] = []
    if master.rrule:
        rule = _build(master.rrule, master.start)
        if isinstance(master.start, datetime):
            starts += rule.between(window_lo, window_hi, inc=True)
        else:
            naive_lo = window_lo.astimezone(lo.tzinfo).replace(tzinfo=None)
            naive_hi = window_hi.astimezone(hi.tzinfo).replace(tzinfo=None)
            starts += [d.date() for d in rule.between(naive_lo, naive_hi, inc=True)]
    seen = {key(s) for s in starts}
    for extra in master.rdates:
        if key(extra) not in seen:
            starts.append(extra)
            seen.add(key(extra))
    return starts


def _overlaps(start: When, end: When, lo: datetime, hi: datetime) -> bool:
    s, e = _instant(start, lo), _instant(end, lo)
    if s == e:  # a zero-length event is "in" the range when it starts there
        return lo <= s < hi
    return s < hi and e > lo


def _instant(value: When, reference: datetime) -> datetime:
    """All-day dates are floating: they mean midnight in the zone of the range being asked."""
    if isinstance(value, datetime):
        return value
    return datetime.combine(value, time(0), tzinfo=reference.tzinfo)


