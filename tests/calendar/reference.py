"""Occurrence-by-occurrence comparison of Hearth's calendar with recurring-ical-events (the
reference) over each file's first year (tests/calendar/test_corpus.py, bench_calendar.py)."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events

from skills.calendar import CalendarStore
from skills.calendar.ical import read_ics

UTC = ZoneInfo("UTC")
ZONE = "Europe/Berlin"  # the importing user's zone: floating times mean this wall clock
Item = tuple[str, str, str, str]  # uid, start, end, title


@dataclass
class Agreement:
    name: str
    ours: list[Item]
    reference: list[Item] | None  # None: the reference could not read the file
    error: str = ""

    @property
    def same(self) -> bool:
        return self.reference is not None and self.ours == self.reference

    def difference(self) -> tuple[list[Item], list[Item]]:
        theirs = self.reference or []
        return ([i for i in self.ours if i not in theirs], [i for i in theirs if i not in self.ours])


def _text(value: date) -> str:
    if isinstance(value, datetime):
        aware = value if value.tzinfo else value.replace(tzinfo=ZoneInfo(ZONE))
        return aware.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return value.isoformat()


def first_year(data: bytes) -> tuple[datetime, datetime]:
    cal = icalendar.Calendar.from_ical(data)
    starts = [c.decoded("DTSTART") for c in cal.walk("VEVENT") if c.get("DTSTART") is not None]
    days = [s.date() if isinstance(s, datetime) else s for s in starts]
    lo = datetime.combine(min(days), time(0), tzinfo=UTC)
    return lo, lo + timedelta(days=365)


def compare(path: Path, reference: bytes | None = None) -> Agreement:
    """`reference`: the same calendar as the reference must be given it (a bare VEVENT
    wrapped in a VCALENDAR, say), when it reads RFC 5545 otherwise than Hearth must."""
    data = path.read_bytes()
    standard = reference or data
    lo, hi = first_year(standard)
    todo = {str(c.get("UID")) for c in icalendar.Calendar.from_ical(standard).walk("VTODO")}
    with tempfile.TemporaryDirectory() as tmp:
        store = CalendarStore(Path(tmp) / "hearth.db")
        store.import_events(read_ics(data, ZONE).events)
        listed = store.listing(lo, hi, limit=100_000).occurrences
        store.close()
    ours = sorted((o.event.uid, _text(o.start), _text(o.end), o.event.title) for o in listed
                  if o.event.uid not in todo)
    try:
        found = recurring_ical_events.of(icalendar.Calendar.from_ical(standard)).between(lo,
                                                                                         hi)
    except Exception as exc:  # noqa: BLE001 - the reference refuses the file: say why
        return Agreement(path.name, ours, None, f"{type(exc).__name__}: {exc}")
    theirs = sorted((str(c.get("UID", "")), _text(c.decoded("DTSTART")), _text(_end(c)),
                     str(c.get("SUMMARY", "")).strip() or "(untitled)") for c in found)
    # Files without UIDs: Hearth derives a stable one; compare the rest of the fields.
    if any(not uid for uid, *_ in theirs):
        ours = sorted(("",) + i[1:] for i in ours)
    return Agreement(path.name, ours, theirs)


def _end(component: icalendar.cal.Component) -> date:
    """The reference's end, except one documented repair: an all-day event that ends when it
    starts (holiday feeds write DTEND = DTSTART) lasts its day, as Google and Apple show it;
    recurring-ical-events reports it zero-length. Only the end differs; the instances agree."""
    start = component.decoded("DTSTART")
    if component.get("DTEND") is not None:
        end: date = component.decoded("DTEND")
    elif component.get("DURATION") is not None:
        end = start + component.decoded("DURATION")
    else:
        end = start if isinstance(start, datetime) else start + timedelta(days=1)
    if not isinstance(start, datetime) and not isinstance(end, datetime) and end == start:
        end = start + timedelta(days=1)
    return end
