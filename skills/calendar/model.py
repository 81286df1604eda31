"""Calendar records: events (with recurrence and alarms) and their expanded occurrences."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime, timedelta
from typing import Any

When = datetime | date  # timezone-aware datetime, or a date for all-day events


@dataclass
class Event:
    """One VEVENT: a single event, a recurring series (rrule/rdates), or an override of one
    instance of a series (recurrence_id set)."""

    uid: str
    title: str
    start: When
    end: When
    all_day: bool = False
    timezone: str = "UTC"  # IANA name the wall-clock times belong to ("" for all-day)
    location: str = ""
    notes: str = ""
    calendar: str = "Personal"
    rrule: str = ""  # e.g. "FREQ=WEEKLY;BYDAY=MO,WE"
    rdates: list[When] = field(default_factory=list)
    exdates: list[When] = field(default_factory=list)
    alarms: list[int] = field(default_factory=list)  # minutes before start
    recurrence_id: When | None = None  # set on an override row: the original start it replaces
    cancelled: bool = False  # STATUS:CANCELLED: listed (struck through), never busy, no alarms
    # RDATE;VALUE=PERIOD: extra instances with their own end (start, end)
    rdate_periods: list[tuple[When, When]] = field(default_factory=list)
    sequence: int = 0  # SEQUENCE: a re-import only replaces this with a higher or equal one
    last_modified: str = ""  # LAST-MODIFIED as UTC ISO text (tie-break at equal SEQUENCE)
    this_and_future: bool = False  # an override with RANGE=THISANDFUTURE
    origin: str = ""  # the subscription an import came from (for removing what it dropped)

    @property
    def duration(self) -> timedelta:
        return span(self.start, self.end)

    @property
    def recurring(self) -> bool:
        return bool(self.rrule or self.rdates or self.rdate_periods)

    @property
    def rrules(self) -> list[str]:
        """Each RRULE (a file may carry several; they are stored one per line)."""
        return [r for r in self.rrule.split("\n") if r.strip()]


def span(start: When, end: When) -> timedelta:
    """end - start for two datetimes or two dates (mixing them is refused when saving)."""
    if isinstance(start, datetime) and isinstance(end, datetime):
        return end - start
    if not isinstance(start, datetime) and not isinstance(end, datetime):
        return end - start
    raise ValueError("start and end must both be dates or both be times")


_SHOWN = ("all_day", "location", "notes", "calendar", "timezone")  # the event's, as it is


@dataclass(frozen=True)
class Occurrence:
    """One concrete instance in a range; for a series, start is this occurrence's own start."""

    event: Event
    start: When
    end: When
    recurrence_id: When | None = None  # the series' original start for this instance

    @property
    def cancelled(self) -> bool:
        return self.event.cancelled

    def to_json(self) -> dict[str, Any]:
        event = self.event
        data: dict[str, Any] = {
            "uid": event.uid, "title": event.title,
            "start": self.start.isoformat(), "end": self.end.isoformat(),
            **{name: getattr(event, name) for name in _SHOWN},
            "recurring": event.recurring or self.recurrence_id is not None,
            "cancelled": event.cancelled,
        }
        if self.recurrence_id is not None:
            data["recurrence_id"] = self.recurrence_id.isoformat()
        if self.event.rrule:
            data["rrule"] = self.event.rrule
        return data
