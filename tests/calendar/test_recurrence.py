"""Recurring events expand exactly as a mature library (recurring-ical-events) expands the same
.ics, including exceptions, overrides, monthly-by-weekday rules, DST changes and all-day spans."""

from __future__ import annotations

from datetime import date, datetime, timedelta
from zoneinfo import ZoneInfo

import icalendar
import pytest
import recurring_ical_events

from skills.calendar import CalendarStore, Event, export_ics

NY, BERLIN, UTC = ZoneInfo("America/New_York"), ZoneInfo("Europe/Berlin"), ZoneInfo("UTC")


def instant(value: datetime | date) -> str:
    if isinstance(value, datetime):
        return value.astimezone(UTC).isoformat()
    return value.isoformat()


def ours(store: CalendarStore, lo: datetime, hi: datetime) -> list[tuple[str, str, str]]:
    return sorted((o.event.uid, instant(o.start), instant(o.end))
                  for o in store.occurrences(lo, hi))


def reference(store: CalendarStore, lo: datetime, hi: datetime) -> list[tuple[str, str, str]]:
    cal = icalendar.Calendar.from_ical(export_ics(store.all_events()))
    found = recurring_ical_events.of(cal).between(lo, hi)
    return sorted((str(c["UID"]), instant(c.decoded("DTSTART")), instant(c.decoded("DTEND")))
                  for c in found)


def weekly_with_exceptions(store: CalendarStore) -> None:
    start = datetime(2026, 1, 5, 10, 0, tzinfo=BERLIN)
    store.add(Event(uid="standup", title="Standup", start=start, end=start + timedelta(minutes=15),
                    timezone="Europe/Berlin", rrule="FREQ=WEEKLY;BYDAY=MO,WE;COUNT=30",
                    exdates=[datetime(2026, 1, 7, 10, 0, tzinfo=BERLIN)],
                    rdates=[datetime(2026, 1, 10, 11, 0, tzinfo=BERLIN)]))
    moved = datetime(2026, 1, 12, 10, 0, tzinfo=BERLIN)
    store.import_events([Event(uid="standup", title="Standup (moved)",
                               start=moved + timedelta(hours=5),
                               end=moved + timedelta(hours=5, minutes=15),
                               timezone="Europe/Berlin", recurrence_id=moved)])


def monthly_by_weekday(store: CalendarStore) -> None:
    start = datetime(2026, 1, 13, 18, 30, tzinfo=NY)  # the second Tuesday
    store.add(Event(uid="book-club", title="Book club", start=start,
                    end=start + timedelta(hours=2), timezone="America/New_York",
                    rrule="FREQ=MONTHLY;BYDAY=2TU;UNTIL=20261231T235959Z"))


def across_dst(store: CalendarStore) -> None:
    start = datetime(2026, 3, 1, 9, 0, tzinfo=NY)  # US DST starts 8 March 2026
    store.add(Event(uid="walk", title="Morning walk", start=start,
                    end=start + timedelta(minutes=45), timezone="America/New_York",
                    rrule="FREQ=DAILY;COUNT=20"))
    autumn = datetime(2026, 10, 19, 8, 0, tzinfo=BERLIN)  # EU DST ends 25 October 2026
    store.add(Event(uid="gym", title="Gym", start=autumn, end=autumn + timedelta(hours=1),
                    timezone="Europe/Berlin", rrule="FREQ=WEEKLY;INTERVAL=1;COUNT=4"))


def all_day_spans(store: CalendarStore) -> None:
    store.add(Event(uid="trip", title="Trip", start=date(2026, 3, 6), end=date(2026, 3, 10),
                    all_day=True))
    store.add(Event(uid="bday", title="Birthday", start=date(2020, 2, 29), end=date(2020, 3, 1),
                    all_day=True, rrule="FREQ=YEARLY"))
    store.add(Event(uid="away", title="Weekend away", start=date(2026, 1, 3),
                    end=date(2026, 1, 5), all_day=True, rrule="FREQ=MONTHLY;BYDAY=1SA"))


CASES = {
    "weekly with exceptions": weekly_with_exceptions,
    "monthly by weekday": monthly_by_weekday,
    "across DST": across_dst,
    "all-day spanning days": all_day_spans,
}


@pytest.mark.parametrize("case", CASES)
def test_expansion_matches_reference(store: CalendarStore, case: str) -> None:
    CASES[case](store)
    for lo, hi in [(datetime(2026, 1, 1, tzinfo=UTC), datetime(2027, 1, 1, tzinfo=UTC)),
                   (datetime(2026, 3, 7, 12, tzinfo=NY), datetime(2026, 3, 9, 12, tzinfo=NY)),
                   (datetime(2026, 10, 24, tzinfo=BERLIN), datetime(2026, 10, 27, tzinfo=BERLIN))]:
        assert ours(store, lo, hi) == reference(store, lo, hi)


def test_wall_clock_time_survives_dst(store: CalendarStore) -> None:
    across_dst(store)
    walks = [o for o in store.occurrences(datetime(2026, 3, 1, tzinfo=NY),
                                          datetime(2026, 3, 21, tzinfo=NY)) if o.event.uid == "walk"]
    assert {o.start.astimezone(NY).hour for o in walks} == {9}
    offsets = {o.start.astimezone(NY).utcoffset() for o in walks}
    assert offsets == {timedelta(hours=-5), timedelta(hours=-4)}


def test_exdate_and_override_replace_their_instances(store: CalendarStore) -> None:
    weekly_with_exceptions(store)
    week = store.occurrences(datetime(2026, 1, 5, tzinfo=BERLIN), datetime(2026, 1, 13, tzinfo=BERLIN))
    titles = [(o.start.astimezone(BERLIN).strftime("%a %H:%M"), o.event.title) for o in week]
    assert titles == [("Mon 10:00", "Standup"), ("Sat 11:00", "Standup"),
                      ("Mon 15:00", "Standup (moved)")]


def test_same_instant_in_two_zones_repeats_on_each_zones_clock(store: CalendarStore) -> None:
    start = datetime(2026, 3, 2, 3, 0, tzinfo=NY)  # 09:00 in Berlin: the same instant
    store.add(Event(uid="ny", title="New York", start=start, end=start + timedelta(hours=1),
                    timezone="America/New_York", rrule="FREQ=DAILY;COUNT=20"))
    store.add(Event(uid="ber", title="Berlin", start=start.astimezone(BERLIN),
                    end=start.astimezone(BERLIN) + timedelta(hours=1), timezone="Europe/Berlin",
                    rrule="FREQ=DAILY;COUNT=20"))
    found = [o for o in store.occurrences(datetime(2026, 3, 2, tzinfo=UTC),
                                          datetime(2026, 3, 16, tzinfo=UTC))
             if o.start.astimezone(UTC).day == 15]
    hours = {o.event.uid: (o.start.astimezone(NY).hour, o.start.astimezone(BERLIN).hour)
             for o in found}
    assert hours == {"ny": (3, 8), "ber": (4, 9)}  # New York changed clocks on 8 March
