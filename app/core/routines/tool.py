"""The model's tool to propose a routine: the person approves it in words, with its next runs."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from app.core.routines.schedule import Schedule, parse_at, repetition
from app.core.routines.store import RoutineStore
from skills.base import SkillContext, SkillResult, object_schema
from skills.calendar.timeutil import zone

UTC = ZoneInfo("UTC")


class ProposeRoutine:
    """add_routine: a question Hearth asks itself at a time, once or repeating."""

    name = "add_routine"
    description = (
        "Create a routine: a question Hearth asks itself at a time, once or repeating (e.g. "
        "'every weekday at 07:30: what is on today', 'in 20 minutes: remind me to call Anna'). "
        "The user approves it first. Its answers arrive as new conversations.")
    parameters = object_schema({
        "ask": {"type": "string", "description": "what to ask when it runs"},
        "at": {"type": "string",
               "description": "HH:MM, or an ISO date and time such as 2026-12-03T07:30"},
        "every": {"type": "string", "description": "day, weekday, week, month, or an RFC "
                  "5545 RRULE such as FREQ=WEEKLY;BYDAY=FR; leave out for once"},
        "title": {"type": "string", "description": "a short name for it"},
    }, required=["ask", "at"])
    changes_things = True
    family = "calendar"  # switched on and off with the calendar in Settings > Skills

    def __init__(self, store: Callable[[], RoutineStore], timezone: str,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self._store, self._tz, self._clock = store, timezone, clock

    def schedule(self, arguments: dict[str, Any]) -> Schedule:
        zone(self._tz)
        every = str(arguments.get("every") or "")
        start = parse_at(str(arguments["at"]), self._tz, self._clock(), repeating=bool(every))
        return Schedule(start, self._tz, repetition(every, start, self._tz))

    def describe_change(self, arguments: dict[str, Any]) -> str:
        schedule = self.schedule(arguments)
        runs = ", ".join(t.strftime("%a %d %b %Y %H:%M")
                         for t in schedule.upcoming(self._clock(), 3))
        title = str(arguments.get("title") or arguments["ask"])
        return (f"Add the routine \u201c{title}\u201d: ask \u201c{arguments['ask']}\u201d "
                f"{schedule.describe()}. Next runs: {runs or 'none'}.")

    def run(self, arguments: dict[str, Any], context: SkillContext) -> SkillResult:
        schedule = self.schedule(arguments)
        routine = self._store().add(str(arguments.get("title") or ""), str(arguments["ask"]),
                                    schedule, self._clock())
        return SkillResult(f"Routine {routine.id} added: {schedule.describe()}.",
                           data=routine.to_json(self._clock()))
