"""Alarms fire once each, and those that fell due while Hearth was closed arrive marked missed."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path
from zoneinfo import ZoneInfo

from skills.calendar import CalendarStore, Event, FiredAlarm, Reminders

UTC = ZoneInfo("UTC")
T0 = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)


def meeting(store: CalendarStore, uid: str, start: datetime, alarms: list[int]) -> None:
    store.add(Event(uid=uid, title=uid, start=start, end=start + timedelta(hours=1),
                    alarms=alarms))


def test_due_alarm_fires_once(store: CalendarStore) -> None:
    meeting(store, "standup", T0 + timedelta(minutes=30), [15])
    fired: list[FiredAlarm] = []
    reminders = Reminders(store, fired.append)
    reminders.check(T0)
    assert fired == []  # not due yet
    reminders.check(T0 + timedelta(minutes=15))
    reminders.check(T0 + timedelta(minutes=16))
    assert [(a.uid, a.minutes_before, a.missed) for a in fired] == [("standup", 15, False)]


def test_alarms_due_while_closed_arrive_missed_after_restart(tmp_path: Path) -> None:
    db = tmp_path / "hearth.db"
    store = CalendarStore(db)
    meeting(store, "review", T0 + timedelta(hours=2), [10])
    Reminders(store, lambda a: None).check(T0)  # the app runs, then closes at T0
    store.close()
    reopened = CalendarStore(db)  # restarted three hours later
    fired: list[FiredAlarm] = []
    Reminders(reopened, fired.append).check(T0 + timedelta(hours=3))
    Reminders(reopened, fired.append).check(T0 + timedelta(hours=3, minutes=1))
    assert [(a.uid, a.missed) for a in fired] == [("review", True)]
    reopened.close()


def test_each_occurrence_of_a_series_fires(store: CalendarStore) -> None:
    store.add(Event(uid="pill", title="Pill", start=T0, end=T0 + timedelta(minutes=5),
                    rrule="FREQ=DAILY", alarms=[0]))
    fired: list[FiredAlarm] = []
    reminders = Reminders(store, fired.append)
    reminders.check(T0 - timedelta(minutes=1))
    for day in range(3):
        reminders.check(T0 + timedelta(days=day, seconds=1))
    assert [a.start for a in fired] == [T0 + timedelta(days=d) for d in range(3)]
    assert not any(a.missed for a in fired)


def test_a_cancelled_instance_gives_no_reminder(store: CalendarStore) -> None:
    start = T0 + timedelta(minutes=30)
    store.add(Event(uid="club", title="Club", start=start, end=start + timedelta(hours=1),
                    rrule="FREQ=DAILY", alarms=[15]))
    store.import_events([Event(uid="club", title="Club", start=start, end=start + timedelta(
        hours=1), recurrence_id=start, cancelled=True, alarms=[15])])
    fired: list[FiredAlarm] = []
    reminders = Reminders(store, fired.append)
    reminders.check(T0 + timedelta(minutes=16))
    reminders.check(T0 + timedelta(days=1, minutes=16))
    assert [a.start for a in fired] == [start + timedelta(days=1)]  # today's is called off
