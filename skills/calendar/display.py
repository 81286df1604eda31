"""How an occurrence shows in the user's zone: timed events converted (their own zone named
when its clock differs), all-day events kept on their own dates whatever the zone."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, datetime
from zoneinfo import ZoneInfo

from skills.calendar.model import Occurrence


@dataclass(frozen=True)
class Shown:
    start: datetime
    end: datetime
    own_zone: str  # the event's zone when its wall clock differs from the user's, else ""
    own_start: datetime  # the start on the event's own wall clock


@dataclass(frozen=True)
class ShownDays:
    first: date  # all-day: the dates as written, never shifted by a zone
    last: date  # inclusive


def view_times(occ: Occurrence, user_tz: str) -> Shown:
    """A timed occurrence in `user_tz`; its own zone is named when the offsets differ."""
    assert isinstance(occ.start, datetime) and isinstance(occ.end, datetime)
    user = ZoneInfo(user_tz or "UTC")
    own = ZoneInfo(occ.event.timezone or "UTC")
    start, own_start = occ.start.astimezone(user), occ.start.astimezone(own)
    differs = start.utcoffset() != own_start.utcoffset()
    return Shown(start, occ.end.astimezone(user), occ.event.timezone if differs else "",
                 own_start)


def view_days(occ: Occurrence) -> ShownDays:
    """An all-day occurrence's dates (DTEND is exclusive: a one-day event ends on its day)."""
    first = occ.start if not isinstance(occ.start, datetime) else occ.start.date()
    end = occ.end if not isinstance(occ.end, datetime) else occ.end.date()
    return ShownDays(first, max(first, date.fromordinal(end.toordinal() - 1)))
