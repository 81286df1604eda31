"""Walk one RRULE lazily from a point in time, with a step budget, never materialising a series.

dateutil generates a rule from its DTSTART onwards. That is fine for a weekly meeting, but a
FREQ=SECONDLY rule from last year, or a yearly rule with BYHOUR x BYMINUTE x BYSECOND = 86,400
times a day, would walk (or build) millions of instances before reaching the asked range. So:
- rules without COUNT whose period is fixed (SECONDLY .. WEEKLY) start from a whole number of
  periods before the range (the same instances: every implicit BYxxx part is kept by the shift);
- COUNT rules without BYxxx parts skip k periods and count k fewer (exactly one per period);
- DAILY .. YEARLY rules with many times a day walk days, then the times of the days in range;
- every instance produced, before or in the range, costs one step of the caller's budget."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time, timedelta

from dateutil.rrule import DAILY, HOURLY, MINUTELY, MONTHLY, SECONDLY, WEEKLY, YEARLY, rrulestr
from dateutil.rrule import rrule as RRule  # noqa: N812 - the class, named as a class

PERIOD = {WEEKLY: timedelta(weeks=1), DAILY: timedelta(days=1), HOURLY: timedelta(hours=1),
          MINUTELY: timedelta(minutes=1), SECONDLY: timedelta(seconds=1)}
# Wall clocks and instants disagree by at most a DST fold (an hour): a shifted start that far
# early never skips an instance. MARGIN (days) pads the end of a walk past the range.
SHIFT_MARGIN = timedelta(hours=2)
MARGIN = timedelta(days=2)
_BY_PART = re.compile(r"(^|;)BY[A-Z]+=", re.IGNORECASE)
_DAYS_IN_MONTH = {1: 31, 2: 29, 3: 31, 4: 30, 5: 31, 6: 30, 7: 31, 8: 31, 9: 30, 10: 31,
                  11: 30, 12: 31}


@dataclass
class Budget:
    """Steps one expansion may take; `cut` says why it stopped early (empty when it did not)."""

    steps: int
    cut: str = ""
    spent: int = field(default=0)

    def spend(self, n: int = 1) -> bool:
        self.spent += n
        if self.spent > self.steps:
            self.cut = self.cut or f"stopped after {self.steps:,} repetitions"
            return False
        return True


def build(rule: str, dtstart: datetime) -> RRule:
    """The parsed rule, kept: parsing is most of a month's work for a calendar with many
    series, and a parsed rule is only read afterwards (each walk iterates it afresh). The zone
    is part of the key: aware datetimes at the same instant compare equal across zones, but
    their rules repeat on different wall clocks."""
    return _parsed(rule, dtstart, str(getattr(dtstart.tzinfo, "key", dtstart.tzinfo)))


@functools.lru_cache(maxsize=4096)
def _parsed(rule: str, dtstart: datetime, zone: str) -> RRule:
    built = rrulestr(rule, dtstart=dtstart, cache=False)
    if not isinstance(built, RRule):
        raise ValueError("only a single RRULE per line is supported")
    return built


def impossible(rule: RRule) -> bool:
    """BYMONTHDAY=30 with BYMONTH=2 (and the like) never happens: dateutil would search to 9999."""
    months = rule._bymonth or tuple(range(1, 13))
    days = [d for d in rule._bymonthday or () if d > 0]
    return bool(days) and not rule._bynmonthday and not rule._byyearday and all(
        min(days) > _DAYS_IN_MONTH[m] for m in months)


def walk(rule_text: str, dtstart: datetime, after: datetime, until: datetime,
         budget: Budget) -> Iterator[datetime]:
    """Instances of the rule (as dateutil defines them) in [after, until], in order.
    All datetimes are in dtstart's representation (aware in its zone, or naive)."""
    rule = build(rule_text, dtstart)
    if impossible(rule):
        return
    freq = rule._freq
    times = sorted(time(h, m, s) for h in rule._byhour for m in rule._byminute
                   for s in rule._bysecond) if freq in (YEARLY, MONTHLY, WEEKLY, DAILY) else []
    if len(times) > 1 and not rule._bysetpos:
        yield from _by_days(rule, times, dtstart, after, until, budget)
        return
    rule = _fast_forward(rule, rule_text, dtstart, after)
    if rule is None:
        return
    if rule._count is None:
        rule = rule.replace(until=_cap(rule._until, until + PERIOD.get(freq, MARGIN)))
    for start in rule:
        if not budget.spend():
            return
        if start > until:
            return
        if start >= after:
            yield start


def _cap(current: datetime | None, limit: datetime) -> datetime:
    return limit if current is None else min(current, limit)


def _fast_forward(rule: RRule, text: str, dtstart: datetime, after: datetime) -> RRule | None:
    """Start a whole number of periods before `after` when that keeps the instances exact."""
    period = PERIOD.get(rule._freq)
    if period is None:
        return rule
    step = period * rule._interval
    skip = (_wall(after) - _wall(dtstart) - SHIFT_MARGIN) // step
    if skip <= 0:
        return rule
    moved = dtstart + step * skip  # wall-clock arithmetic: same tzinfo, same local time
    if rule._count is None:
        return rule.replace(dtstart=moved)
    if _BY_PART.search(text):
        return rule  # how many instances a period holds varies: walk from the start
    if skip >= rule._count:
        return None
    return rule.replace(dtstart=moved, count=rule._count - skip)


def _wall(value: datetime) -> datetime:
    return value.replace(tzinfo=None)


def _by_days(rule: RRule, times: list[time], dtstart: datetime, after: datetime,
             until: datetime, budget: Budget) -> Iterator[datetime]:
    """Many times a day: walk the days (a cheap rule), expand the times of days in range."""
    midnight = dtstart.replace(hour=0, minute=0, second=0, microsecond=0)
    days = rule.replace(dtstart=midnight, byhour=0, byminute=0, bysecond=0, count=None,
                        until=_cap(rule._until, until + MARGIN))
    left = rule._count
    if left is None and rule._freq in PERIOD:
        days = _fast_forward(days, "", midnight, after) or days
    last_day = (until + MARGIN).date() if isinstance(until, datetime) else until
    for day in days:
        if not budget.spend():
            return
        if day.date() > last_day:
            return
        if day + timedelta(days=1) < after:  # the whole day is before the range
            if left is not None:
                left -= len(times) if day.date() != dtstart.date() else sum(
                    1 for clock in times if _at(day, clock) >= dtstart)
                if left <= 0:
                    return
            continue
        for clock in times:
            start = _at(day, clock)
            if start < dtstart:
                continue
            if (rule._until is not None and start > rule._until) or start > until:
                return
            if left is not None:
                if left <= 0:
                    return
                left -= 1
            if start >= after:
                if not budget.spend():
                    return
                yield start


def _at(day: datetime, clock: time) -> datetime:
    return datetime.combine(day.date(), clock, tzinfo=day.tzinfo)


def as_datetime(value: date) -> datetime:
    return value if isinstance(value, datetime) else datetime.combine(value, time(0))
