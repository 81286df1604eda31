"""Each quirk of real exports, through `hearth calendar import --json` and the calendar tools:
repaired the way the common programs do and said in the report, or skipped with UID, line and
reason while the rest of the file imports; re-import by UID, SEQUENCE and subscription removal."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from app.main import main
from skills.base import SkillContext
from skills.calendar import CalendarStore, calendar_skills

CORPUS = Path(__file__).parent / "corpus"
BERLIN = ZoneInfo("Europe/Berlin")
CTX = SkillContext(timezone="Europe/Berlin")


def cli(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict[str, Any]]]:
    code = main(["calendar", *args, "--json"])
    out = capsys.readouterr().out
    return code, [json.loads(line) for line in out.splitlines() if line.strip()]


def imported(capsys: pytest.CaptureFixture[str], name: str, *extra: str) -> dict[str, Any]:
    code, (report,) = cli(capsys, "import", str(CORPUS / name), "--tz", "Europe/Berlin", *extra)
    assert code == 0
    return report


def listed(capsys: pytest.CaptureFixture[str], start: str, end: str,
           *extra: str) -> list[dict[str, Any]]:
    code, items = cli(capsys, "list", "--from", start, "--to", end, "--tz", "Europe/Berlin",
                      *extra)
    assert code == 0
    return [i for i in items if "uid" in i]


def reasons(report: dict[str, Any], key: str = "repaired") -> list[tuple[int, str]]:
    return [(i["line"], i["reason"]) for i in report[key]]


def test_google_export_folded_mid_parameter_imports_whole(
        capsys: pytest.CaptureFixture[str]) -> None:
    report = imported(capsys, "google-00.ics")
    assert (report["added"], report["skipped"], report["repaired"]) == (4, [], [])
    events = listed(capsys, "2026-01-12", "2026-01-17")
    moved = [e for e in events if e["title"] == "Team sync 0 (moved)"]
    assert [e["start"] for e in moved] == ["2026-01-14T15:00:00+01:00"]
    assert "2026-01-14T09:30:00+01:00" not in [e["start"] for e in events]  # never twice


def test_holiday_feed_quirks_are_repaired_and_reported(
        capsys: pytest.CaptureFixture[str]) -> None:
    report = imported(capsys, "holidays-de.ics")
    assert report["added"] == 6 and report["skipped"] == []
    found = reasons(report)
    assert (11, "all-day event ends when it starts: read as one day") in found  # its DTEND
    assert (23, "the same RRULE written twice: kept once") in found
    assert any(r == "empty RRULE ignored" for _, r in found)
    next_year = listed(capsys, "2027-01-01", "2027-01-02")
    assert [(e["title"], e["start"], e["end"], e["all_day"]) for e in next_year] == [
        ("New Year's Day", "2027-01-01", "2027-01-02", True)]


def test_end_before_start_is_swapped_and_said(capsys: pytest.CaptureFixture[str]) -> None:
    report = imported(capsys, "edge-end-before-start.ics")
    assert reasons(report) == [(8, "end before start: start and end swapped")]
    (event,) = listed(capsys, "2026-01-05", "2026-01-06")
    assert (event["start"], event["end"]) == ("2026-01-05T09:00:00+00:00",
                                              "2026-01-05T10:00:00+00:00")


def test_broken_component_is_skipped_with_uid_line_and_reason(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (CORPUS / "sports-00.ics").read_text()
    broken = text.replace("DTSTART:20260110T153000Z", "DTSTART:2026-01-10 15:30", 1)
    path = tmp_path / "fixtures.ics"
    path.write_text(broken)
    code, (report,) = cli(capsys, "import", str(path))
    assert code == 0 and report["added"] == 19
    (skip,) = report["skipped"]
    assert skip["uid"] == "match-0-1@fixtures.example" and "DTSTART" in skip["reason"]
    assert broken.splitlines()[skip["line"] - 1].startswith("DTSTART:2026-01-10")


def test_windows_zone_names_and_custom_vtimezone_keep_wall_clock_across_dst(
        capsys: pytest.CaptureFixture[str]) -> None:
    imported(capsys, "edge-custom-vtimezone.ics")
    imported(capsys, "edge-windows-zone-no-vtimezone.ics")
    events = listed(capsys, "2026-03-01", "2026-04-15")
    across = [datetime.fromisoformat(e["start"]) for e in events if e["title"] == "Across DST"]
    assert len(across) == 6 and {s.astimezone(BERLIN).hour for s in across} == {9}
    assert {e["timezone"] for e in events if e["title"] == "Across DST"} == {"Europe/Berlin"}
    pst = [e for e in events if e["title"] == "PST standup"]
    assert {e["timezone"] for e in pst} == {"America/Los_Angeles"}
    assert {datetime.fromisoformat(e["start"]).astimezone(
        ZoneInfo("America/Los_Angeles")).hour for e in pst} == {9}


def test_the_tools_show_the_users_zone_and_the_events_own(store: CalendarStore) -> None:
    from skills.calendar.ical import import_file

    import_file(store, CORPUS / "edge-windows-zone-no-vtimezone.ics", "Europe/Berlin")
    tools = {t.name: t for t in calendar_skills(store, "Europe/Berlin")}
    text = tools["list_events"].run({"start": "2026-03-02", "end": "2026-03-03"}, CTX).text
    assert "Mon 02 Mar 2026 18:00 CET - 19:00 (America/Los_Angeles 09:00)" in text


def test_reimport_is_idempotent_and_follows_sequence(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first = imported(capsys, "sports-01.ics")
    again = imported(capsys, "sports-01.ics")
    assert (first["added"], again["added"], again["updated"], again["unchanged"]) == (
        20, 0, 0, 20)  # the same file again changes nothing
    text = (CORPUS / "sports-01.ics").read_bytes().decode()
    older = tmp_path / "older.ics"  # an old copy: match 7 at SEQUENCE 0, another time
    older.write_bytes(text.replace("DTSTART:20260224T173000Z\r\nDURATION:PT1H45M\r\n"
                                  "SUMMARY:FC 1 vs Rovers 7", "DTSTART:20260224T120000Z\r\n"
                                  "DURATION:PT1H45M\r\nSUMMARY:FC 1 vs Rovers 7").replace(
        "SEQUENCE:1", "SEQUENCE:0").encode())
    code, (stale,) = cli(capsys, "import", str(older))
    assert (stale["updated"], stale["unchanged"]) == (0, 20)
    (match,) = [e for e in listed(capsys, "2026-02-24", "2026-02-25") if "Rovers 7" in e["title"]]
    assert match["start"] == "2026-02-24T17:30:00+00:00"  # the newer revision stayed


def test_subscription_reimport_removes_dropped_events_only_on_request(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    imported(capsys, "sports-02.ics")
    text = (CORPUS / "sports-02.ics").read_bytes().decode()
    start = text.index("BEGIN:VEVENT\r\nUID:match-2-3@")
    shorter = tmp_path / "sports-02.ics"
    shorter.write_bytes(text[:start].encode() + text[text.index("END:VEVENT\r\n", start) + 12:].encode())
    code, (kept,) = cli(capsys, "import", str(shorter))
    assert kept["removed"] == 0
    code, (pruned,) = cli(capsys, "import", str(shorter), "--remove-missing")
    assert pruned["removed"] == 1
    titles = [e["title"] for e in listed(capsys, "2026-01-01", "2026-07-01", "--limit", "500")]
    assert "FC 2 vs Rovers 3" not in titles and "FC 2 vs Rovers 4" in titles


def test_cancelled_is_listed_struck_never_busy_and_overrides_hide_instances(
        store: CalendarStore) -> None:
    from skills.calendar.ical import import_file

    import_file(store, CORPUS / "edge-cancelled.ics", "Europe/Berlin")
    tools = {t.name: t for t in calendar_skills(store, "Europe/Berlin")}
    agenda = tools["list_events"].run({"start": "2026-01-12", "end": "2026-01-21"}, CTX)
    flags = [(e["start"][:10], e["cancelled"]) for e in agenda.data["events"]]
    assert flags == [("2026-01-12", True), ("2026-01-19", False), ("2026-01-20", True)]
    assert "(cancelled)" in agenda.text
    free = tools["find_free_time"].run({"start": "2026-01-20T10:00+01:00",
                                        "end": "2026-01-20T11:00+01:00", "duration": 60}, CTX)
    assert len(free.data["slots"]) == 1  # the cancelled 10:00 meeting does not block


def test_rdate_periods_thisandfuture_and_moved_out_of_range(store: CalendarStore) -> None:
    from skills.calendar.ical import import_file

    for name in ("edge-rdate-periods.ics", "edge-thisandfuture.ics",
                 "edge-moved-out-of-range.ics"):
        import_file(store, CORPUS / name, "Europe/Berlin")
    lo = datetime(2026, 1, 1, tzinfo=BERLIN)
    found = store.occurrences(lo, lo + timedelta(days=60))
    period = [o for o in found if o.event.uid == "rp" and o.start.day == 10]
    assert [(o.start.hour, o.end.hour) for o in period] == [(11, 14)]  # 10Z/PT3H in Berlin
    course = [(o.start.date().isoformat(), o.start.astimezone(ZoneInfo("Europe/London")).hour,
               o.event.title) for o in found if o.event.uid == "taf"]
    assert course[3] == ("2026-01-26", 9, "Course")
    assert course[4:6] == [("2026-02-02", 14, "Course (afternoons)"),
                           ("2026-02-09", 14, "Course (afternoons)")]
    review = [o.start.date().isoformat() for o in found if o.event.uid == "moo"]
    assert review == ["2026-01-05", "2026-01-19", "2026-01-26"]  # the 12th moved to 2028
    later = store.occurrences(datetime(2028, 3, 1, tzinfo=BERLIN), datetime(2028, 3, 2,
                                                                            tzinfo=BERLIN))
    assert [o.event.title for o in later] == ["Review (much later)"]


def test_thunderbird_todo_with_a_due_date_is_imported(capsys: pytest.CaptureFixture[str]) -> None:
    report = imported(capsys, "thunderbird-00.ics")
    assert report["added"] == 3 and report["skipped"] == []
    # A to-do, not an event: on the to-do list, due at its DUE in its own zone.
    assert "Buy sheet music" not in [e["title"] for e in listed(capsys, "2026-01-15", "2026-01-17")]
    assert main(["todo", "list", "--json"]) == 0
    (todo,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert (todo["title"], todo["due"]) == ("Buy sheet music", "2026-01-15T18:00:00-05:00")


def test_listing_ten_years_pages_without_loss_or_repeat(capsys: pytest.CaptureFixture[str]) -> None:
    code, _ = cli(capsys, "add", "--title", "Walk", "--start", "2026-01-01T07:00", "--tz",
                  "Europe/Berlin", "--rrule", "FREQ=DAILY")
    assert code == 0
    start, seen, pages = "2026-01-01", [], 0
    while start:
        code, items = cli(capsys, "list", "--from", start, "--to", "2036-01-01", "--tz",
                          "Europe/Berlin", "--limit", "500")
        seen += [i["start"] for i in items if "uid" in i]
        tail = [i for i in items if "more" in i]
        start = tail[0]["next_start"] if tail else ""
        pages += 1
    # ten years and a day: --to names the last day shown, so 1 Jan 2036 is in
    assert pages == 8 and len(seen) == len(set(seen)) == 3653


def test_the_assistant_is_told_how_many_more(store: CalendarStore) -> None:
    tools = {t.name: t for t in calendar_skills(store, "Europe/Berlin")}
    tools["add_event"].run({"title": "Walk", "start": "2026-01-01T07:00",
                            "recurrence": "FREQ=DAILY"}, CTX)
    result = tools["list_events"].run({"start": "2026-01-01", "end": "2027-01-01"}, CTX)
    assert len(result.data["events"]) == 50 and result.data["more"] == 315
    assert result.text.splitlines()[-1] == (
        "... and 315 more: call list_events again with start=2026-02-20T07:00:00+01:00 "
        "(same end) to see them.")


@pytest.mark.parametrize("zone", ["Pacific/Kiritimati", "Pacific/Pago_Pago", "Asia/Tokyo"])
def test_all_day_events_never_shift_a_day_whatever_the_users_zone(
        store: CalendarStore, zone: str) -> None:
    from skills.calendar.ical import import_file

    import_file(store, CORPUS / "google-00.ics", "Europe/Berlin")  # a trip, 1-3 March
    tools = {t.name: t for t in calendar_skills(store, zone)}
    ctx = SkillContext(timezone=zone)
    result = tools["list_events"].run({"start": "2026-03-01", "end": "2026-03-02",
                                       "query": "Lyon"}, ctx)
    (trip,) = result.data["events"]
    assert (trip["start"], trip["end"], trip["all_day"]) == ("2026-03-01", "2026-03-04", True)
    assert "Sun 01 Mar 2026 - Tue 03 Mar 2026 (all day)" in result.text
