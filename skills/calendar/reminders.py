"""Alarm delivery: each due alarm fires once, and alarms missed while the app was closed are
delivered (marked missed) on the next check."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from skills.calendar.model import When
from skills.calendar.recurrence import key
from skills.calendar.store import CalendarStore
from skills.calendar.timeutil import as_aware
from skills.calendar.todos import due_instant

UTC = ZoneInfo("UTC")
LAST_CHECK = "reminders.last_check"
MAX_LEAD = timedelta(days=8)  # alarms further ahead of their event than this are not supported
MAX_LOOKBACK = timedelta(days=30)  # after a long absence, older missed alarms are not replayed


@dataclass(frozen=True)
class FiredAlarm:
    """What the tray (or a headless callback) shows."""

    uid: str
    title: str
    start: When
    location: str
    minutes_before: int
    due: datetime
    missed: bool  # fell due while Hearth was not running
    todo: bool = False  # a to-do falling due (start is its due date or time)


class Reminders:
    """Checks for due alarms; `check()` is cheap enough to run every 30 s."""

    def __init__(self, store: CalendarStore, notify: Callable[[FiredAlarm], None], *,
                 timezone: str = "UTC", grace: timedelta = timedelta(minutes=5),
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self._store, self._notify, self._tz = store, notify, timezone
        self._grace, self._clock = grace, clock
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def check(self, now: datetime | None = None) -> list[FiredAlarm]:
        now = now or self._clock()
        stored = self._store.state(LAST_CHECK)
        last = datetime.fromisoformat(stored) if stored else now - self._grace
        last = max(last, now - MAX_LOOKBACK)
        fired: list[FiredAlarm] = []
        for occ in self._store.occurrences(last, now + MAX_LEAD):
            if occ.cancelled:
                continue  # no reminder for what will not happen
            start = as_aware(occ.start, self._tz)
            for minutes in occ.event.alarms:
                due = start - timedelta(minutes=minutes)
                if not last < due <= now:
                    continue
                missed = due < now - self._grace
                if self._store.mark_fired(occ.event.uid, key(occ.start), minutes, missed):
                    alarm = FiredAlarm(occ.event.uid, occ.event.title, occ.start,
                                       occ.event.location, minutes, due, missed)
                    fired.append(alarm)
        fired += self._todos(last, now)
        self._store.set_state(LAST_CHECK, now.astimezone(UTC).isoformat())
        for alarm in sorted(fired, key=lambda a: a.due):
            self._notify(alarm)
        return fired

    def _todos(self, last: datetime, now: datetime) -> list[FiredAlarm]:
        """Open to-dos whose due time came since the last check, like an event's alarm."""
        fired: list[FiredAlarm] = []
        for todo in self._store.todos.due_between(last, now):
            if todo.due is None:
                continue
            due = due_instant(todo.due, todo.timezone or self._tz)
            if self._store.mark_fired(todo.uid, key(todo.due), 0, due < now - self._grace):
                fired.append(FiredAlarm(todo.uid, todo.title, todo.due, "", 0, due,
                                        due < now - self._grace, todo=True))
        return fired

    def start(self, interval: float = 30.0) -> None:
        """Check in a background thread until stop()."""
        if self._thread is not None:
            return
        self._stop.clear()
        self._thread = threading.Thread(target=self._loop, args=(interval,),
                                        name="hearth-reminders", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def _loop(self, interval: float) -> None:
        while not self._stop.is_set():
            self.check()
            self._stop.wait(interval)
