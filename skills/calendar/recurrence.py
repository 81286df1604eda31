"""Expand events over a range: RRULE, RDATE (dates, times, periods), EXDATE, overrides
(RANGE=THISANDFUTURE included), lazily, within a step budget, DST-correct.

Times are generated as wall-clock times in the event's zone (zoneinfo), so a 09:00 weekly meeting
stays at 09:00 across daylight-saving changes, as RFC 5545 requires. The semantics follow
recurring-ical-events (the reference the tests and bench/ compare against): DTSTART is always an
instance, a DATE in EXDATE removes that day's instances, an RDATE PERIOD keeps its own length."""

from __future__ import annotations

import heapq
import re
from collections.abc import Iterable, Iterator
from datetime import datetime, time, timedelta
from zoneinfo import ZoneInfo

from skills.base import SkillError
from skills.calendar.model import Event, Occurrence, When, span
from skills.calendar.rulewalk import Budget, as_datetime, build, walk

UTC = ZoneInfo("UTC")
_UNTIL = re.compile(r"UNTIL=(\d{8})(T\d{6})?(Z?)", re.IGNORECASE)
SERIES_STEPS = 200_000  # repetitions one series may generate for one query
END_STEPS = 5_000  # a COUNT rule longer than this is stored as running for ever


def key(value: When) -> str:
    """Compare instants across zones: datetimes in UTC, dates as dates."""
    if isinstance(value, datetime):
        return value.astimezone(UTC).strftime("%Y%m%dT%H%M%S")
    return value.isoformat()


def normalize_rrule(rule: str, start: When, tz: str) -> str:
    """Validate RRULEs (one per line) and make UNTIL agree with DTSTART (UTC for timed, a date
    for all-day). Empty lines go; a rule written twice is kept once."""
    kept: list[str] = []
    for line in rule.replace("\r", "\n").split("\n"):
        text = line.strip()
        if text.upper().startswith("RRULE:"):
            text = text[6:].strip()
        if not text:
            continue
        match = _UNTIL.search(text)
        if match:
            text = text.replace(match.group(0), "UNTIL=" + _until(match, start, tz))
        try:
            build(text, as_datetime(start))
        except (ValueError, TypeError, KeyError, IndexError) as exc:
            raise SkillError(f"Not a valid recurrence rule ({text}): {exc}") from None
        if text not in kept:
            kept.append(text)
    return "\n".join(kept)


def _until(match: re.Match[str], start: When, tz: str) -> str:
    day, clock, zulu = match.group(1), match.group(2) or "", match.group(3)
    if not isinstance(start, datetime):
        return day  # all-day series: UNTIL is a date
    if zulu:
        return day + clock + "Z"
    # A date, or a floating time, with a zoned start: the user's wall clock (a date: to its end)
    wall = datetime.strptime(day + (clock or "T235959"), "%Y%m%dT%H%M%S")
    local = wall.replace(tzinfo=ZoneInfo(tz or "UTC"))
    return local.astimezone(UTC).strftime("%Y%m%dT%H%M%SZ")


def last_end(event: Event) -> When | None:
    """When a series' last instance ends, for the range prefilter; None when it runs for ever
    (or its COUNT is too long to walk when saving)."""
    ends: list[datetime] = []
    start = as_datetime(event.start)
    for rule in event.rrules:
        built = build(rule, start)
        if built._until is not None:
            ends.append(built._until)
        elif built._count is None or built._count > END_STEPS:
            return None
        else:
            ends += list(built)[-1:]
    ends += [as_datetime(d) for d in event.rdates] + [as_datetime(b) for _, b in
                                                      event.rdate_periods]
    last = max([start, *(_same_kind(e, start) for e in ends)])
    end = last + max([event.duration, *(span(a, b) for a, b in event.rdate_periods)])
    return end if isinstance(event.start, datetime) else end.date()


def _same_kind(value: datetime, like: datetime) -> datetime:
    if (value.tzinfo is None) == (like.tzinfo is None):
        return value
    if like.tzinfo is None:
        return value.replace(tzinfo=None)
    return value.replace(tzinfo=like.tzinfo)


def expand(master: Event, overrides: list[Event], lo: datetime, hi: datetime,
           budget: Budget | None = None) -> list[Occurrence]:
    """Every occurrence of `master` (with its overrides) that overlaps [lo, hi), sorted."""
    found = list(series(master, overrides, lo, hi, budget or Budget(SERIES_STEPS)))
    skipped = {key(x) for x in master.exdates}
    found += [Occurrence(o, o.start, o.end, o.recurrence_id) for o in overrides
              if key(o.recurrence_id or o.start) not in skipped
              and overlaps(o.start, o.end, lo, hi)]
    return sorted(found, key=lambda o: sort_key(o, lo))


def sort_key(occ: Occurrence, lo: datetime) -> tuple[datetime, int, str]:
    """Start order; all-day dates are midnight in the range's zone and come first that day."""
    timed = isinstance(occ.start, datetime)
    return (instant(occ.start, lo).astimezone(UTC), int(timed), occ.event.uid)


def series(master: Event, overrides: Iterable[Event], lo: datetime, hi: datetime,
           budget: Budget) -> Iterator[Occurrence]:
    """The occurrences of `master` itself (not of its overrides) overlapping [lo, hi), in
    start order; instances replaced by an override are left out."""
    if not master.recurring:
        if overlaps(master.start, master.end, lo, hi):
            yield Occurrence(master, master.start, master.end)
        return
    yield from _Series(master, list(overrides), lo, budget).between(lo, hi)


class _Series:
    """One recurring event prepared for expansion, in its own representation: aware datetimes
    in its zone for timed events, naive midnights for all-day ones (as dateutil wants)."""

    def __init__(self, master: Event, overrides: list[Event], lo: datetime,
                 budget: Budget) -> None:
        self.master, self.budget = master, budget
        self.timed = isinstance(master.start, datetime)
        self.tz = ZoneInfo(master.timezone or "UTC") if self.timed else None
        self.start = self.local(master.start)
        self.floating_zone = lo.tzinfo
        self.exkeys = {key(self.value(self.local(x))) for x in master.exdates}
        self.exdays = {x for x in master.exdates if not isinstance(x, datetime)}
        self.periods = {key(self.value(self.local(a))): self.local(b) - self.local(a)
                        for a, b in master.rdate_periods}
        self.exact_periods = {key(self.value(self.local(a))): self.local(b).astimezone(UTC)
                              - self.local(a).astimezone(UTC)
                              for a, b in master.rdate_periods} if self.timed else {}
        self.replaced: set[str] = set()
        self.future: list[tuple[datetime, Event]] = []
        for o in overrides:
            if o.recurrence_id is None:
                continue
            self.replaced.add(key(o.recurrence_id))
            if o.this_and_future:
                self.future.append((self.local(o.recurrence_id), o))
        self.future.sort(key=lambda pair: pair[0])
        lengths = [master.duration, *self.periods.values()]
        lengths += [abs(o.duration) + abs(self.local(o.start) - rid) for rid, o in self.future]
        self.longest = max(lengths)

    def local(self, value: When) -> datetime:
        if self.timed:
            assert self.tz is not None
            if isinstance(value, datetime):
                return value.astimezone(self.tz)
            return datetime.combine(value, time(0), tzinfo=self.tz)
        day = value.date() if isinstance(value, datetime) else value
        return datetime.combine(day, time(0))

    def end_of(self, begin: datetime, length: timedelta, event: Event, k: str) -> datetime:
        if not self.timed:
            return begin + length
        exact = self.exact_periods.get(k)
        if exact is None:
            exact = self.local(event.end).astimezone(UTC) - self.local(event.start).astimezone(
                UTC)
        return exact_end(begin, length, exact)

    def value(self, local: datetime) -> When:
        return local if self.timed else local.date()

    def window(self, moment: datetime) -> datetime:
        if self.timed:
            return moment.astimezone(self.tz)
        return moment.astimezone(self.floating_zone).replace(tzinfo=None)

    def candidates(self, after: datetime, until: datetime) -> Iterator[datetime]:
        """Series starts in [after, until], sorted, each once."""
        extra = sorted({self.local(d) for d in self.master.rdates}
                       | {self.local(a) for a, _ in self.master.rdate_periods} | {self.start})
        sources: list[Iterable[datetime]] = [[d for d in extra if after <= d <= until]]
        sources += [walk(rule, self.start, after, until, self.budget)
                    for rule in self.master.rrules]
        last: datetime | None = None
        for start in heapq.merge(*sources):
            if start != last:
                last = start
                yield start

    def between(self, lo: datetime, hi: datetime) -> Iterator[Occurrence]:
        after, until = self.window(lo) - self.longest, self.window(hi)
        for start in self.candidates(after, until):
            value = self.value(start)
            k = key(value)
            if k in self.exkeys or k in self.replaced or start.date() in self.exdays:
                continue
            if self.timed and start.date().isoformat() in self.replaced:
                continue  # an override whose RECURRENCE-ID is the DATE of this instance
            event, begin = self.master, start
            length = self.periods.get(k)
            for rid, override in self.future:
                if rid >= start:
                    break
                event = override
                begin = start + (self.local(override.start) - rid)
            if length is None:
                length = event.duration
            first, last = self.value(begin), self.value(self.end_of(begin, length, event, k))
            if overlaps(first, last, lo, hi):
                # After a THISANDFUTURE override, its fields speak for the later instances.
                yield Occurrence(event, first, last, recurrence_id=value)


def exact_end(begin: datetime, wall: timedelta, exact: timedelta) -> datetime:
    """An instance's end: a length of whole days is nominal (the same wall clock days
    later), any other is exact (RFC 5545 3.3.6): an hour across a DST change is an hour."""
    if wall % timedelta(days=1) == timedelta(0):
        return begin + wall
    return (begin.astimezone(UTC) + exact).astimezone(begin.tzinfo)


def overlaps(start: When, end: When, lo: datetime, hi: datetime) -> bool:
    s, e = instant(start, lo), instant(end, lo)
    if s == e:  # a zero-length event is "in" the range when it starts there
        return lo <= s < hi
    return s < hi and e > lo


def instant(value: When, reference: datetime) -> datetime:
    """All-day dates are floating: they mean midnight in the zone of the range being asked."""
    if isinstance(value, datetime):
        return value
    return datetime.combine(value, time(0), tzinfo=reference.tzinfo)
