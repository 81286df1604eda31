"""iCalendar import/export: lossless round trip, no duplicates, clear errors, all or nothing."""

from __future__ import annotations

from dataclasses import asdict
from datetime import date, datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from skills.calendar import CalendarStore, Event, IcsError, export_ics, parse_ics
from skills.calendar.ical import read_ics

TOKYO = ZoneInfo("Asia/Tokyo")


def sample_events() -> list[Event]:
    start = datetime(2026, 12, 3, 9, 30, tzinfo=TOKYO)
    return [
        Event(uid="a@x", title="Dentist", start=start, end=start + timedelta(hours=1),
              timezone="Asia/Tokyo", location="Shibuya 2-1", notes="Bring the card\nfloor 3",
              calendar="Health", alarms=[15, 60]),
        Event(uid="b@x", title="Yoga", start=start, end=start + timedelta(minutes=50),
              timezone="Asia/Tokyo", rrule="FREQ=WEEKLY;BYDAY=TH",
              exdates=[start + timedelta(days=7)], rdates=[start + timedelta(days=2)]),
        Event(uid="b@x", title="Yoga (late)", start=start + timedelta(days=14, hours=3),
              end=start + timedelta(days=14, hours=4), timezone="Asia/Tokyo",
              recurrence_id=start + timedelta(days=14)),
        Event(uid="c@x", title="Holiday", start=date(2026, 12, 24), end=date(2026, 12, 27),
              all_day=True, timezone="", calendar="Family"),
    ]


def test_export_then_import_is_lossless(tmp_path: Path, store: CalendarStore) -> None:
    store.import_events(sample_events())
    data = export_ics(store.all_events())
    other = CalendarStore(tmp_path / "other.db")
    other.import_events(parse_ics(data))
    assert [asdict(e) for e in other.all_events()] == [asdict(e) for e in store.all_events()]
    other.close()


def test_importing_twice_does_not_duplicate(store: CalendarStore) -> None:
    data = export_ics(sample_events())
    first = store.import_events(parse_ics(data))
    second = store.import_events(parse_ics(data))
    assert (first.added, first.updated) == (4, 0)
    assert (second.added, second.updated, second.unchanged) == (0, 0, 4)  # nothing new
    assert len(store.all_events()) == 4


def test_events_without_uid_still_import_once(store: CalendarStore) -> None:
    ics = ("BEGIN:VCALENDAR\nVERSION:2.0\nBEGIN:VEVENT\nSUMMARY:No uid\n"
           "DTSTART:20261201T100000Z\nDTEND:20261201T110000Z\nEND:VEVENT\nEND:VCALENDAR\n")
    store.import_events(parse_ics(ics))
    store.import_events(parse_ics(ics))
    assert len(store.all_events()) == 1


GOOD = ("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:1\r\nSUMMARY:Fine\r\n"
        "DTSTART:20261201T100000Z\r\nDTEND:20261201T110000Z\r\nEND:VEVENT\r\n")


@pytest.mark.parametrize(("tail", "line", "reason"), [
    ("BEGIN:VEVENT\r\nUID:2\r\nSUMMARY:x\r\nEND:VTODO\r\nEND:VCALENDAR\r\n", 12,
     "closes nothing"),
    ("BEGIN:VEVENT\r\nUID:2\r\nSUMMARY:x\r\nDTSTART:notadate\r\nEND:VEVENT\r\n"
     "END:VCALENDAR\r\n", 12, "DTSTART"),
    ("BEGIN:VEVENT\r\nUID:2\r\nDTSTART:20261201T100000Z\r\nRRULE:FREQ=SOMETIMES\r\n"
     "END:VEVENT\r\nEND:VCALENDAR\r\n", 12, "RRULE"),
])
def test_a_broken_event_is_skipped_with_its_line_and_the_rest_imports(
        store: CalendarStore, tail: str, line: int, reason: str) -> None:
    read = read_ics(GOOD + tail)
    (skipped,) = read.skipped
    assert (skipped.uid, skipped.line) == ("2", line) and reason in skipped.reason
    store.import_events(read.events)
    assert [e.uid for e in store.all_events()] == ["1"]


def test_a_garbage_line_inside_an_event_is_ignored_and_reported() -> None:
    read = read_ics(GOOD.replace("SUMMARY:Fine", "SUMMARY:Fine\r\nthis line is broken")
                    + "END:VCALENDAR\r\n")
    assert [e.title for e in read.events] == ["Fine"]
    assert [(r.line, r.reason) for r in read.repaired] == [
        (6, "line ignored: not an iCalendar content line")]


def test_cut_off_file_keeps_its_complete_events() -> None:
    read = read_ics(GOOD + "BEGIN:VEVENT\r\nUID:3\r\nDTSTART:20261201T100000Z\r\n")
    assert [e.uid for e in read.events] == ["1"]
    assert any("cut off" in s.reason and s.uid == "3" for s in read.skipped)


def test_not_a_calendar_at_all_is_refused() -> None:
    with pytest.raises(IcsError, match="BEGIN:VCALENDAR"):
        parse_ics("hello\nworld\n")


def test_outlook_style_file_with_floating_times_and_duration(store: CalendarStore) -> None:
    ics = ("BEGIN:VCALENDAR\nVERSION:2.0\nX-WR-CALNAME:Work\nBEGIN:VEVENT\nUID:o1\n"
           "SUMMARY:Review\nDTSTART:20261201T140000\nDURATION:PT30M\n"
           "BEGIN:VALARM\nACTION:DISPLAY\nTRIGGER:-PT10M\nEND:VALARM\nEND:VEVENT\nEND:VCALENDAR\n")
    (event,) = parse_ics(ics, default_tz="Europe/Paris")
    assert event.start == datetime(2026, 12, 1, 14, 0, tzinfo=ZoneInfo("Europe/Paris"))
    assert event.end - event.start == timedelta(minutes=30)
    assert (event.alarms, event.calendar) == ([10], "Work")
