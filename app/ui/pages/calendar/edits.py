"""Changing events from the calendar view, on the same store the calendar tools use.

A repeating event changes as the person chooses: "this one" (an override of that instance, or
an exclusion when deleting), "this and following" (the series ends before it and a new series
starts there), or "all" (the series itself, moved by as much as this instance moved)."""

from __future__ import annotations

import re
import uuid
from dataclasses import replace
from datetime import UTC, date, datetime, timedelta
from typing import TYPE_CHECKING, TypedDict

from skills.calendar.model import Event, Occurrence, When

if TYPE_CHECKING:  # the store (SQLite) loads with the calendar, not with this module
    from skills.calendar.store import CalendarStore

THIS, FOLLOWING, ALL = "this", "following", "all"


class EventChanges(TypedDict, total=False):
    """Event fields a change sets (what the event dialog gives, or a drag's new times)."""

    title: str
    start: When
    end: When
    all_day: bool
    timezone: str
    location: str
    notes: str
    rrule: str
    alarms: list[int]
    exdates: list[When]


def instance_key(occ: Occurrence) -> When:
    """The original start of this instance in its series (what an override replaces); an
    override listed on its own carries it (editing it again must not add a second one)."""
    if occ.recurrence_id is not None:
        return occ.recurrence_id
    return occ.event.recurrence_id if occ.event.recurrence_id is not None else occ.start


def _until(before: object) -> str:
    """An RRULE UNTIL just before this instance (UTC for timed events, a date for all-day)."""
    if isinstance(before, datetime):
        return (before.astimezone(UTC) - timedelta(seconds=1)).strftime("%Y%m%dT%H%M%SZ")
    assert isinstance(before, date)
    return (before - timedelta(days=1)).strftime("%Y%m%d")


def _end_series_before(rrule: str, before: object) -> str:
    rules = []
    for rule in rrule.split("\n"):
        if not rule.strip():
            continue
        parts = [p for p in rule.split(";") if not re.match(r"(?i)(UNTIL|COUNT)=", p)]
        rules.append(";".join([*parts, f"UNTIL={_until(before)}"]))
    return "\n".join(rules)


def _remaining(rrule: str, before: int) -> str:
    """The rule for the instances from this one on: a COUNT shrinks by those already past."""
    def fix(part: str) -> str:
        match = re.match(r"(?i)COUNT=(\d+)$", part)
        return f"COUNT={max(1, int(match.group(1)) - before)}" if match else part

    return "\n".join(";".join(fix(p) for p in rule.split(";"))
                     for rule in rrule.split("\n") if rule.strip())


def _instances_before(store: CalendarStore, master: Event, cut: When) -> int:
    start = master.start if isinstance(master.start, datetime) else datetime.combine(
        master.start, datetime.min.time()).astimezone()
    end = cut if isinstance(cut, datetime) else datetime.combine(
        cut, datetime.min.time()).astimezone()
    listing = store.listing(start, end, limit=100_000)
    return sum(1 for o in listing.occurrences
               if o.event.uid == master.uid and _before(instance_key(o), cut))


def _before(value: When, cut: When) -> bool:
    if isinstance(value, datetime) and isinstance(cut, datetime):
        return value < cut
    return (value.date() if isinstance(value, datetime) else value) < (
        cut.date() if isinstance(cut, datetime) else cut)


def save_occurrence(store: CalendarStore, occ: Occurrence, changes: EventChanges,
                    scope: str = ALL) -> Event:
    """Apply `changes` (Event fields) to this occurrence as `scope` says; returns the event
    written. A single event ignores the scope."""
    master: Event | None = store.get(occ.event.uid)
    if master is None:
        raise ValueError("This event is no longer in the calendar.")
    if not master.recurring or scope == ALL:
        return _change_series(store, master, occ, changes)
    if scope == THIS:
        override = replace(master, rrule="", rdates=[], exdates=[], rdate_periods=[],
                           recurrence_id=instance_key(occ), sequence=master.sequence + 1,
                           this_and_future=False, start=occ.start, end=occ.end)
        override = replace(override, **changes)
        saved: Event = store.save(override)  # marked as the person's: a re-import keeps it
        return saved
    # this and following: the old series stops before this instance, a new one starts here
    cut = instance_key(occ)
    past = _instances_before(store, master, cut)
    store.update(master.uid, rrule=_end_series_before(master.rrule, cut))
    fresh = replace(master, uid=f"{uuid.uuid4()}@hearth", start=occ.start, end=occ.end,
                    rrule=_remaining(master.rrule, past), exdates=[], rdates=[],
                    rdate_periods=[], recurrence_id=None, sequence=0)
    added: Event = store.add(replace(fresh, **changes))
    return added


def _change_series(store: CalendarStore, master: Event, occ: Occurrence,
                   changes: EventChanges) -> Event:
    fields = changes.copy()
    if master.recurring and ("start" in fields or "end" in fields):
        # Moving one instance of "all" moves the whole series by as much.
        start_shift = _shift(occ.start, fields.get("start", occ.start))
        end_shift = _shift(occ.end, fields.get("end", occ.end))
        fields["start"] = master.start + start_shift
        fields["end"] = master.end + end_shift
        # Exclusions move with the series; instances changed on their own stay as they are,
        # and the series' moved copy of each is excluded so it does not show twice.
        changed = [e.recurrence_id for e in store.all_events()
                   if e.uid == master.uid and e.recurrence_id is not None]
        fields["exdates"] = [x + start_shift for x in [*master.exdates, *changed]]
    _, after = store.update(master.uid, **fields)
    return after


def _shift(old: When, new: When) -> timedelta:
    if isinstance(old, datetime) and isinstance(new, datetime):
        return new - old
    if not isinstance(old, datetime) and not isinstance(new, datetime):
        return timedelta(days=(new - old).days)
    raise ValueError("Change an all-day event into a timed one (or back) for the whole series.")


def delete_occurrence(store: CalendarStore, occ: Occurrence, scope: str = ALL) -> str:
    """Delete this occurrence as `scope` says; returns the uid touched."""
    master: Event | None = store.get(occ.event.uid)
    if master is None:
        return occ.event.uid
    if not master.recurring or scope == ALL:
        store.delete(master.uid)
    elif scope == THIS:
        store.update(master.uid, exdates=[*master.exdates, instance_key(occ)])
    else:
        store.update(master.uid, rrule=_end_series_before(master.rrule, instance_key(occ)))
    return master.uid


def new_event(changes: EventChanges, zone: str) -> Event:
    """A new event from the event dialog's fields (in `zone` when they name none)."""
    start = changes["start"]
    all_day = not isinstance(start, datetime)
    return Event(uid="", title=changes["title"], start=start, end=changes["end"],
                 all_day=all_day, timezone="" if all_day else changes.get("timezone") or zone,
                 location=changes.get("location", ""), notes=changes.get("notes", ""),
                 rrule=changes.get("rrule", ""), alarms=changes.get("alarms", []))
