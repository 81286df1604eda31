"""Hostile calendars stay bounded: high-frequency rules, a COUNT of a billion, BYxxx products of
86,400 a day, 100,000 overrides, deep nesting and a 200 MB file are limited or skipped with a
reason, in bounded work (asserted on counts and steps, never on the clock). Imports are atomic:
a process killed in the middle of writing leaves the calendar as it was."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from app.main import main
from skills.calendar import CalendarStore, Event
from skills.calendar.ical import read_ics
from skills.calendar.icslines import MAX_DEPTH
from skills.calendar.listing import MORE_CAP
from skills.calendar.recurrence import SERIES_STEPS, series
from skills.calendar.rulewalk import Budget
from tests.calendar.kill_import import KILL_DURING_IMPORT

BERLIN = ZoneInfo("Europe/Berlin")
START = datetime(2025, 1, 1, 9, tzinfo=BERLIN)
EVERY = ";".join(f"{part}={','.join(map(str, values))}" for part, values in [
    ("BYMONTH", range(1, 13)), ("BYMONTHDAY", range(1, 32)), ("BYHOUR", range(24)),
    ("BYMINUTE", range(60)), ("BYSECOND", range(60))])


def add(store: CalendarStore, uid: str, rule: str, start: datetime = START) -> Event:
    return store.add(Event(uid=uid, title=uid, start=start, end=start + timedelta(seconds=1),
                           timezone="Europe/Berlin", rrule=rule))


def steps(event: Event, lo: datetime, hi: datetime, limit: int) -> tuple[int, int]:
    """(occurrences taken, steps spent) for the first `limit` occurrences in [lo, hi)."""
    budget = Budget(SERIES_STEPS)
    taken = 0
    for _ in series(event, [], lo, hi, budget):
        taken += 1
        if taken == limit:
            break
    return taken, budget.spent


@pytest.mark.parametrize("rule", [
    "FREQ=SECONDLY",
    "FREQ=SECONDLY;COUNT=1000000000",
    "FREQ=MINUTELY;INTERVAL=7",
    "FREQ=YEARLY;" + EVERY,  # every second of the year: the kind of rule from issue 18
    "FREQ=DAILY;COUNT=1000000000;" + EVERY,
])
def test_high_frequency_rules_cost_what_is_listed_not_what_came_before(
        store: CalendarStore, rule: str) -> None:
    event = add(store, "fast", rule)
    lo = datetime(2026, 12, 1, tzinfo=BERLIN)
    taken, spent = steps(event, lo, lo + timedelta(days=365), 1000)
    # Almost two years after DTSTART: at most two hours of a SECONDLY rule before the range.
    assert taken == 1000 and spent <= 1000 + 7200 + 1
    page = store.listing(lo, lo + timedelta(days=365), limit=100)
    assert len(page.occurrences) == 100 and page.occurrences[0].start >= lo
    assert page.more == MORE_CAP and page.more_at_least and page.cuts == []
    assert "more than 10,000 more" in page.note()


def test_a_rule_that_never_happens_ends_at_the_range(store: CalendarStore) -> None:
    event = add(store, "never", "FREQ=SECONDLY;BYMONTH=2;BYMONTHDAY=30")
    lo = datetime(2026, 1, 1, tzinfo=BERLIN)
    assert steps(event, lo, lo + timedelta(days=365), 10) == (0, 0)


def test_a_rule_that_must_walk_is_cut_with_a_reason(store: CalendarStore) -> None:
    # COUNT with a filter: the 2026 instances depend on every one before, from the year 2000.
    add(store, "walker", "FREQ=MINUTELY;BYSECOND=0,30;COUNT=1000000000",
        datetime(2000, 1, 1, tzinfo=BERLIN))
    add(store, "fine", "FREQ=DAILY")
    lo = datetime(2026, 1, 1, tzinfo=BERLIN)
    page = store.listing(lo, lo + timedelta(days=7), limit=100)
    assert {o.event.uid for o in page.occurrences} == {"fine"}
    (cut,) = page.cuts
    assert cut == "'walker' (walker) stopped after 200,000 repetitions"
    assert "ask for a shorter range" in page.note()


def test_a_hundred_thousand_overrides(store: CalendarStore) -> None:
    start = datetime(2000, 1, 1, 9, tzinfo=BERLIN)
    add(store, "daily", "FREQ=DAILY", start)
    overrides = [Event(uid="daily", title=f"moved {i}", start=start + timedelta(days=i, hours=2),
                       end=start + timedelta(days=i, hours=3), timezone="Europe/Berlin",
                       recurrence_id=start + timedelta(days=i)) for i in range(100_000)]
    report = store.import_events(overrides)
    assert (report.added, report.skipped) == (100_000, [])
    lo = datetime(2026, 3, 2, tzinfo=BERLIN)
    week = store.occurrences(lo, lo + timedelta(days=7))
    assert [(o.start.hour, o.event.title[:5]) for o in week] == [(11, "moved")] * 7


def test_deep_nesting_is_skipped_and_the_rest_imports() -> None:
    deep = "".join(f"BEGIN:X{i}\r\n" for i in range(100_000))
    deep += "".join(f"END:X{i}\r\n" for i in reversed(range(100_000)))
    text = ("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:deep\r\nDTSTART:20260101T100000Z\r\n" + deep
            + "END:VEVENT\r\nBEGIN:VEVENT\r\nUID:ok\r\nDTSTART:20260101T100000Z\r\n"
            "SUMMARY:Fine\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n")
    read = read_ics(text)
    assert [e.uid for e in read.events] == ["ok"]
    (skip,) = read.skipped
    assert (skip.uid, skip.reason) == ("deep", f"components nested more than {MAX_DEPTH} deep")


def test_a_200_mb_file_is_refused_in_one_line_without_reading_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    big = tmp_path / "huge.ics"
    with big.open("wb") as f:
        f.truncate(200 * 1024 * 1024)  # sparse: no disk used, never read
    assert main(["calendar", "import", str(big)]) != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "200 MB" in err and "64 MB" in err


@pytest.mark.parametrize("when", [3, 300])
def test_a_kill_during_a_20000_event_import_leaves_nothing_half_imported(
        tmp_path: Path, when: int) -> None:
    db = tmp_path / "hearth.db"
    store = CalendarStore(db)
    store.import_events(read_ics("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:before\r\nDTSTART:"
                                 "20260101T100000Z\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n").events)
    store.close()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run([sys.executable, "-c", KILL_DURING_IMPORT, str(db), str(when), "1000"],
                          capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == -9 and not done.stdout  # killed before the import finished
    store = CalendarStore(db)
    assert [e.uid for e in store.all_events()] == ["before"]  # all or nothing: nothing
    store.close()


def test_the_assistant_gets_a_page_and_a_count_for_a_secondly_event(store: CalendarStore) -> None:
    from skills.base import SkillContext
    from skills.calendar import calendar_skills

    add(store, "tick", "FREQ=SECONDLY")
    tools = {t.name: t for t in calendar_skills(store, "Europe/Berlin")}
    result = tools["list_events"].run({"start": "2026-01-01", "end": "2027-01-01"},
                                      SkillContext(timezone="Europe/Berlin"))
    assert len(result.data["events"]) == 50 and result.data["more_at_least"]
    assert result.text.splitlines()[-1] == (
        "... and more than 10,000 more: call list_events again with "
        "start=2026-01-01T00:00:50+01:00 (same end) to see them.")
