"""When a routine runs: a first wall-clock time in an IANA zone, once or repeating by an RFC 5545
RRULE (dateutil, like the calendar), so 07:30 stays 07:30 local across a DST change."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from dateutil.rrule import rrule as RRule  # noqa: N812 - the class, named as a class

from skills.base import SkillError
from skills.calendar.recurrence import normalize_rrule
from skills.calendar.rulewalk import build
from skills.calendar.timeutil import zone

UTC = ZoneInfo("UTC")
EVERY = {  # the words of `--every` and of the model's tool
    "day": "FREQ=DAILY",
    "weekday": "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR",
    "week": "FREQ=WEEKLY",
    "month": "FREQ=MONTHLY",
}
DAY_NAMES = {"MO": "Monday", "TU": "Tuesday", "WE": "Wednesday", "TH": "Thursday",
             "FR": "Friday", "SA": "Saturday", "SU": "Sunday"}


class ScheduleError(SkillError):
    """A time or repetition that cannot be used (the person's input)."""


@dataclass(frozen=True)
class Schedule:
    """`start`: the first run's wall-clock time (naive) in `timezone`; `rrule`: "" for once."""

    start: datetime
    timezone: str
    rrule: str = ""

    @property
    def first(self) -> datetime:
        return self.start.replace(tzinfo=zone(self.timezone))

    def _rule(self) -> RRule | None:
        return build(self.rrule, self.first) if self.rrule else None

    def latest_due(self, now: datetime) -> datetime | None:
        """The last run time at or before `now`, or None."""
        rule = self._rule()
        if rule is None:
            return self.first if self.first <= now else None
        found = rule.before(now.astimezone(zone(self.timezone)), inc=True)
        return _tidy(found) if isinstance(found, datetime) else None

    def next_due(self, after: datetime) -> datetime | None:
        """The first run time strictly after `after`, or None when there is none."""
        rule = self._rule()
        if rule is None:
            return self.first if self.first > after else None
        found = rule.after(after.astimezone(zone(self.timezone)), inc=False)
        return _tidy(found) if isinstance(found, datetime) else None

    def upcoming(self, after: datetime, count: int = 3) -> list[datetime]:
        found: list[datetime] = []
        moment: datetime | None = after
        while moment is not None and len(found) < count:
            moment = self.next_due(moment)
            if moment is not None:
                found.append(moment)
        return found

    def describe(self) -> str:
        """The schedule in English words (the CLI and the model's approval text)."""
        at = self.start.strftime("%H:%M")
        where = f" ({self.timezone})"
        rule = self.rrule.upper()
        if not rule:
            return f"once on {self.start.strftime('%a %d %b %Y')} at {at}{where}"
        if rule == EVERY["day"]:
            return f"every day at {at}{where}"
        if rule == EVERY["weekday"]:
            return f"every weekday at {at}{where}"
        if rule == EVERY["week"]:
            return f"every {self.start.strftime('%A')} at {at}{where}"
        if rule.startswith("FREQ=WEEKLY;BYDAY=") and ";" not in rule[18:]:
            days = [DAY_NAMES.get(d, d) for d in rule[18:].split(",")]
            return f"every {', '.join(days)} at {at}{where}"
        if rule == EVERY["month"]:
            return f"every month on day {self.start.day} at {at}{where}"
        return f"repeating ({self.rrule}) from {self.start.strftime('%a %d %b %Y')} at {at}{where}"


def _tidy(moment: datetime) -> datetime:
    """dateutil keeps the wall clock in the zone; normalising fixes the offset of a time
    that falls into a DST gap (02:30 on a spring-forward day runs at 03:30)."""
    return moment.astimezone(UTC).astimezone(moment.tzinfo)


def repetition(every: str | None, start: datetime, timezone: str) -> str:
    """`--every` (day, weekday, week, month, or an RRULE) as a checked RRULE ("" for once)."""
    if not every:
        return ""
    text = EVERY.get(every.strip().lower(), every.strip())
    try:
        rule = normalize_rrule(text, start.replace(tzinfo=zone(timezone)), timezone)
    except SkillError as exc:
        raise ScheduleError(f"--every must be day, weekday, week, month or an RRULE: {exc}") \
            from None
    if "\n" in rule:
        raise ScheduleError("A routine repeats by one rule; give a single RRULE.")
    if "FREQ=SECONDLY" in rule.upper():
        raise ScheduleError("A routine runs at most once a minute.")
    return rule


def parse_at(text: str, timezone: str, now: datetime, repeating: bool) -> datetime:
    """`--at HH:MM` (the next such time; today's, for a repeating routine) or an ISO date-time,
    as a naive wall-clock time in `timezone`."""
    tz = zone(timezone)
    text = text.strip()
    local_now = now.astimezone(tz)
    try:
        if len(text) <= 5 and ":" in text:
            clock = time.fromisoformat(text.zfill(5))
            start = datetime.combine(local_now.date(), clock)
            if not repeating and start.replace(tzinfo=tz) <= local_now:
                start += timedelta(days=1)
            return start
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise ScheduleError(f"Could not read {text!r} as a time: use HH:MM or an ISO date and "
                            "time such as 2026-12-03T07:30.") from None
    if isinstance(parsed, datetime) and parsed.tzinfo is not None:
        parsed = parsed.astimezone(tz).replace(tzinfo=None)
    if not repeating and parsed.replace(tzinfo=tz) <= local_now:
        raise ScheduleError(f"{parsed.isoformat(timespec='minutes')} has already passed.")
    return parsed.replace(second=0, microsecond=0)

