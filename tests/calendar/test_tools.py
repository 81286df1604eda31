"""The assistant's calendar tools: readable validation errors, exact change descriptions,
free-time search, and agenda data for the UI."""

from __future__ import annotations

from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from skills.base import SkillContext, SkillError
from skills.calendar import CalendarStore, calendar_skills

TZ = "Europe/London"
CTX = SkillContext(timezone=TZ)


def tools(store: CalendarStore) -> dict[str, object]:
    return {s.name: s for s in calendar_skills(store, timezone=TZ)}


def test_only_changing_tools_need_confirmation(store: CalendarStore) -> None:
    flags = {name: t.changes_things for name, t in tools(store).items()}  # type: ignore[attr-defined]
    assert flags == {"list_events": False, "find_free_time": False, "add_event": True,
                     "update_event": True, "delete_event": True, "list_todos": False,
                     "add_todo": True, "complete_todo": True}


def test_add_then_list_in_the_users_zone(store: CalendarStore) -> None:
    t = tools(store)
    t["add_event"].run({"title": "Dentist", "start": "2026-12-03T10:00",  # type: ignore[attr-defined]
                        "location": "High St"}, CTX)
    result = t["list_events"].run({"start": "2026-12-03", "end": "2026-12-04"}, CTX)  # type: ignore[attr-defined]
    (event,) = result.data["events"]
    assert event["title"] == "Dentist"
    assert event["start"] == "2026-12-03T10:00:00+00:00"  # London is on GMT in December
    assert event["end"] == "2026-12-03T11:00:00+00:00"  # default length: one hour
    assert "Dentist" in result.text and "High St" in result.text


@pytest.mark.parametrize(("args", "message"), [
    ({"title": "x", "start": "tomorrow at 3"}, "ISO 8601"),
    ({"title": "x", "start": "2026-12-03T10:00", "end": "2026-12-03T09:00"}, "after the start"),
    ({"title": "x", "start": "3026-12-03T10:00"}, "check the year"),
    ({"title": "x", "start": "2026-12-03T10:00", "end": "2028-12-03T10:00"}, "more than a year"),
    ({"title": "x", "start": "2026-12-03T10:00", "timezone": "Mars/Olympus"}, "Unknown time zone"),
    ({"title": "x", "start": "2026-12-03T10:00", "recurrence": "FREQ=SOMETIMES"}, "recurrence"),
    ({"title": " ", "start": "2026-12-03T10:00"}, "needs a title"),
])
def test_bad_arguments_give_readable_errors_and_change_nothing(
        store: CalendarStore, args: dict[str, str], message: str) -> None:
    with pytest.raises(SkillError, match=message):
        tools(store)["add_event"].run(args, CTX)  # type: ignore[attr-defined]
    assert store.all_events() == []


def test_update_describes_old_and_new_and_keeps_length(store: CalendarStore) -> None:
    t = tools(store)
    t["add_event"].run({"title": "Dentist", "start": "2026-12-03T10:00",  # type: ignore[attr-defined]
                        "end": "2026-12-03T10:45"}, CTX)
    uid = store.all_events()[0].uid
    change = {"uid": uid, "start": "2026-12-04T10:00"}
    text = t["update_event"].describe_change(change)  # type: ignore[attr-defined]
    assert "Thu 03 Dec 2026 10:00" in text and "Fri 04 Dec 2026 10:00" in text
    assert store.get(uid).start.day == 3  # type: ignore[union-attr]  # describing changes nothing
    t["update_event"].run(change, CTX)  # type: ignore[attr-defined]
    moved = store.get(uid)
    assert moved is not None and moved.start.day == 4
    assert moved.end - moved.start == timedelta(minutes=45)


def test_delete_describes_the_whole_series(store: CalendarStore) -> None:
    t = tools(store)
    t["add_event"].run({"title": "Yoga", "start": "2026-12-03T18:00",  # type: ignore[attr-defined]
                        "recurrence": "FREQ=WEEKLY"}, CTX)
    uid = store.all_events()[0].uid
    assert "every repetition" in t["delete_event"].describe_change({"uid": uid})  # type: ignore[attr-defined]
    t["delete_event"].run({"uid": uid}, CTX)  # type: ignore[attr-defined]
    assert store.all_events() == []
    with pytest.raises(SkillError, match="No event"):
        t["delete_event"].run({"uid": uid}, CTX)  # type: ignore[attr-defined]


def test_find_free_time_within_working_hours(store: CalendarStore) -> None:
    t = tools(store)
    for start, end in [("09:00", "10:30"), ("11:00", "12:00"), ("12:00", "16:00")]:
        t["add_event"].run({"title": "Busy", "start": f"2026-12-03T{start}",  # type: ignore[attr-defined]
                            "end": f"2026-12-03T{end}"}, CTX)
    t["add_event"].run({"title": "Holiday", "start": "2026-12-03", "all_day": True}, CTX)  # type: ignore[attr-defined]
    result = t["find_free_time"].run({"start": "2026-12-03T00:00", "end": "2026-12-04T00:00",  # type: ignore[attr-defined]
                                      "duration": 45, "working_hours": "09:00-17:00"}, CTX)
    zone = ZoneInfo(TZ)
    slots = [(datetime.fromisoformat(a).astimezone(zone).strftime("%H:%M"),
              datetime.fromisoformat(b).astimezone(zone).strftime("%H:%M"))
             for a, b in result.data["slots"]]
    assert slots == [("16:00", "17:00")]  # 10:30-11:00 is too short; all-day doesn't block


def test_free_time_rejects_bad_working_hours(store: CalendarStore) -> None:
    with pytest.raises(SkillError, match="09:00-17:00"):
        tools(store)["find_free_time"].run({"start": "2026-12-03", "end": "2026-12-04",  # type: ignore[attr-defined]
                                            "duration": 30, "working_hours": "9 to 5"}, CTX)


def test_free_time_is_said_in_the_users_zone_even_after_an_event_in_another(
        store: CalendarStore) -> None:
    from skills.calendar.model import Event

    lisbon = ZoneInfo("Europe/Lisbon")  # WET in winter: the same clock as UTC, another name
    store.add(Event(uid="", title="Call Lisbon", start=datetime(2026, 12, 3, 9, tzinfo=lisbon),
                    end=datetime(2026, 12, 3, 10, tzinfo=lisbon), timezone="Europe/Lisbon"))
    tools = {t.name: t for t in calendar_skills(store, "UTC")}
    result = tools["find_free_time"].run({"start": "2026-12-03T08:00", "end": "2026-12-03T12:00",
                                          "duration": 30}, SkillContext(timezone="UTC"))
    assert result.text.splitlines()[1:] == ["- Thu 03 Dec 2026 08:00 UTC to 09:00",
                                            "- Thu 03 Dec 2026 10:00 UTC to 12:00"]
    assert "WET" not in result.text
