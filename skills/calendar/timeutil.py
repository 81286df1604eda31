"""Calendar time helpers: zones by name, strict ISO 8601 parsing, and sane-range checks
(the computer's own zone is skills/common/clock.py)."""

from __future__ import annotations

from datetime import date, datetime, time, timedelta
from zoneinfo import ZoneInfo

from skills.base import SkillError
from skills.calendar.model import When, span
from skills.common.clock import valid_zone

MIN_YEAR, MAX_YEAR = 1900, 2200


def zone(name: str) -> ZoneInfo:
    if not name or not valid_zone(name):
        raise SkillError(f"Unknown time zone {name!r}: use an IANA name like 'Europe/Berlin'.")
    return ZoneInfo(name)


def parse_when(text: str, tz: str, *, all_day: bool = False) -> When:
    """ISO 8601 date or datetime. A time without offset is wall-clock time in `tz`."""
    text = text.strip()
    try:
        if all_day or (len(text) == 10 and "T" not in text):
            value: When = date.fromisoformat(text[:10])
        else:
            parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
            value = parsed if parsed.tzinfo else parsed.replace(tzinfo=zone(tz))
    except ValueError:
        raise SkillError(
            f"Could not read {text!r} as a date or time: use ISO 8601, e.g. "
            "'2026-12-03T14:00' or '2026-12-03'."
        ) from None
    check_year(value)
    return value


def check_year(value: When) -> None:
    if not MIN_YEAR <= value.year <= MAX_YEAR:
        raise SkillError(f"{value.isoformat()} is outside {MIN_YEAR}-{MAX_YEAR}; check the year.")


def check_span(start: When, end: When, *, limit: timedelta = timedelta(days=366)) -> None:
    if span(start, end) <= timedelta(0):
        raise SkillError(f"The end ({end.isoformat()}) must be after the start ({start.isoformat()}).")
    if span(start, end) > limit:
        raise SkillError("That event would last more than a year; check the dates.")


def as_aware(value: When, tz: str) -> datetime:
    """A date becomes midnight in tz; a datetime is returned as is."""
    if isinstance(value, datetime):
        return value
    return datetime.combine(value, time(0), tzinfo=zone(tz or "UTC"))


def describe(when: When) -> str:
    """A date or time as the tools show it to the model (English, with the zone's name)."""
    if isinstance(when, datetime):
        return when.strftime("%a %d %b %Y %H:%M %Z").strip()
    return when.strftime("%a %d %b %Y")
