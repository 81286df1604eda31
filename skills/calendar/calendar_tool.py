"""What every calendar and to-do tool holds: the store, and the zone a change is described in."""

from __future__ import annotations

from skills.calendar.store import CalendarStore


class CalendarTool:
    """A tool on the calendar store; `timezone` is the zone a change is described in before
    it runs (a running call has the turn's zone in its context)."""

    def __init__(self, store: CalendarStore, timezone: str = "UTC") -> None:
        self.store, self.timezone = store, timezone
