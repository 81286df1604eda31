"""Calendar edits are the person's: re-importing the same export keeps what was renamed, moved
or deleted in Hearth; a file changed too is asked about (keep mine / take the file's / both)."""

from __future__ import annotations

import json
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from app.core.paths import Paths
from app.main import main
from app.ui.pages.calendar.edits import THIS, delete_occurrence, save_occurrence
from skills.calendar import CalendarStore

BERLIN = ZoneInfo("Europe/Berlin")
WEEK = (datetime(2026, 1, 5, tzinfo=BERLIN), datetime(2026, 1, 12, tzinfo=BERLIN))

EXPORT = """BEGIN:VCALENDAR
VERSION:2.0
PRODID:-//Google Inc//Google Calendar 70.9054//EN
X-WR-CALNAME:Work
BEGIN:VEVENT
DTSTART;TZID=Europe/Berlin:20260105T093000
DTEND;TZID=Europe/Berlin:20260105T100000
RRULE:FREQ=WEEKLY;BYDAY=MO,WE,FR
UID:sync@google.com
LAST-MODIFIED:20251201T090000Z
SEQUENCE:2
SUMMARY:Team sync
END:VEVENT
BEGIN:VEVENT
DTSTART;TZID=Europe/Berlin:20260109T150000
DTEND;TZID=Europe/Berlin:20260109T153000
UID:sync@google.com
RECURRENCE-ID;TZID=Europe/Berlin:20260109T093000
LAST-MODIFIED:20251202T090000Z
SEQUENCE:3
SUMMARY:Team sync (afternoon)
END:VEVENT
BEGIN:VEVENT
DTSTART:20260106T120000Z
DTEND:20260106T130000Z
UID:lunch@google.com
SEQUENCE:0
SUMMARY:Lunch with Sam
END:VEVENT
BEGIN:VEVENT
DTSTART:20260107T160000Z
DTEND:20260107T161500Z
UID:call@google.com
SEQUENCE:{call_sequence}
SUMMARY:{call_title}
END:VEVENT
BEGIN:VEVENT
DTSTART;VALUE=DATE:20260110
DTEND;VALUE=DATE:20260111
UID:trip@google.com
SUMMARY:Trip to Lyon
END:VEVENT
END:VCALENDAR
"""


def export(tmp_path: Path, call_sequence: int = 1, call_title: str = "Call the bank") -> Path:
    path = tmp_path / "work.ics"
    path.write_text(EXPORT.format(call_sequence=call_sequence, call_title=call_title))
    return path


def cli_import(capsys: pytest.CaptureFixture[str], path: Path,
               *extra: str) -> tuple[int, dict[str, Any]]:
    code = main(["calendar", "import", str(path), "--tz", "Europe/Berlin", "--json", *extra])
    captured = capsys.readouterr()
    lines = [json.loads(line) for line in captured.out.splitlines() if line.strip()]
    return code, lines[0] if lines else {"error": captured.err}


def week(store: CalendarStore) -> list[tuple[str, str, str]]:
    return sorted((o.event.title, _clock(o.start, "%a %H:%M"), _clock(o.end, "%H:%M"))
                  for o in store.occurrences(*WEEK))


def _clock(value: Any, pattern: str) -> str:
    return value.astimezone(BERLIN).strftime(pattern) if isinstance(value, datetime) else (
        value.strftime("%a all day"))


def edit_in_hearth(store: CalendarStore) -> list[tuple[str, str, str]]:
    """Rename one event, move another, delete one occurrence and rename the moved one: as the
    calendar view does (the same functions, on the same store)."""
    found = {(o.event.title, _clock(o.start, "%a")[:3]): o
             for o in store.occurrences(*WEEK)}
    save_occurrence(store, found["Lunch with Sam", "Tue"], {"title": "Lunch with Sam & Jo"})
    call = found["Call the bank", "Wed"]
    save_occurrence(store, call, {"start": call.start + timedelta(days=1),
                                  "end": call.end + timedelta(days=1)})
    delete_occurrence(store, found["Team sync", "Wed"], THIS)
    save_occurrence(store, found["Team sync (afternoon)", "Fri"], {"title": "Sync at the café"},
                    THIS)
    return week(store)


def test_reimporting_the_same_export_keeps_every_edit(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = export(tmp_path)
    assert cli_import(capsys, path)[1]["added"] == 5
    store = CalendarStore(Paths.from_env().history_db)
    edited = edit_in_hearth(store)
    assert ("Call the bank", "Thu 17:00", "17:15") in edited
    code, report = cli_import(capsys, path)
    assert code == 0
    assert (report["added"], report["updated"], report["unchanged"]) == (0, 0, 1)
    reasons = sorted(i["reason"] for i in report["kept"])
    assert len(reasons) == 4 and all("kept as you" in r for r in reasons)
    assert any(r.startswith("'Sync at the café' on 2026-01-09") for r in reasons)
    assert week(store) == edited  # renamed, moved and deleted stay so
    assert ("Team sync", "Wed 09:30", "10:00") not in week(store)
    store.close()


def test_a_file_changed_too_is_asked_about(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    cli_import(capsys, export(tmp_path))
    store = CalendarStore(Paths.from_env().history_db)
    edit_in_hearth(store)
    newer = export(tmp_path, call_sequence=2, call_title="Call the bank (new number)")
    code, report = cli_import(capsys, newer)  # no one to ask: nothing changes
    assert code != 0 and "--on-conflict" in report["error"]
    assert ("Call the bank", "Thu 17:00", "17:15") in week(store)
    code, report = cli_import(capsys, newer, "--on-conflict", "both")
    assert code == 0 and report["added"] == 1
    assert {("Call the bank", "Thu 17:00", "17:15"),
            ("Call the bank (new number)", "Wed 17:00", "17:15")} <= set(week(store))
    assert "kept both" in " ".join(i["reason"] for i in report["kept"])
    code, report = cli_import(capsys, newer)  # answered once: not asked again
    assert code == 0 and report["updated"] == 0
    newest = export(tmp_path, call_sequence=3, call_title="Call the bank (final)")
    code, report = cli_import(capsys, newest, "--on-conflict", "theirs")
    assert code == 0 and report["updated"] == 1  # the copy kept beside it is yours now
    titles = [t for t, *_ in week(store)]
    assert "Call the bank (final)" in titles and "Call the bank" not in titles
    store.close()


def test_a_deleted_event_stays_deleted(store: CalendarStore, tmp_path: Path) -> None:
    from skills.calendar.ical import import_file

    path = export(tmp_path)
    import_file(store, path, "Europe/Berlin")
    store.delete("lunch@google.com")
    report = import_file(store, path, "Europe/Berlin")
    assert report.added == 0 and "kept as you deleted it" in report.kept[0].reason
    assert "Lunch with Sam" not in [t for t, *_ in week(store)]


def test_a_deleted_series_changed_in_the_file_is_asked_once_and_comes_back_whole(
        store: CalendarStore, tmp_path: Path) -> None:
    from skills.calendar.ical import conflicts_on_reimport, import_file

    path = export(tmp_path)
    import_file(store, path, "Europe/Berlin")
    store.delete("sync@google.com")  # the series and its moved Friday
    newer = tmp_path / "newer.ics"
    newer.write_text(path.read_text().replace("SEQUENCE:3", "SEQUENCE:4"))  # the Friday moved
    (conflict,) = conflicts_on_reimport(store, newer, "Europe/Berlin")
    assert (conflict.uid, conflict.recurrence_id, conflict.deleted) == ("sync@google.com", "",
                                                                       True)
    import_file(store, newer, "Europe/Berlin")  # not answered: it stays deleted
    assert not [t for t, *_ in week(store) if t.startswith("Team sync")]
    import_file(store, newer, "Europe/Berlin", choices={conflict.ident: "theirs"})
    assert [t for t, *_ in week(store) if t.startswith("Team sync")] == [
        "Team sync", "Team sync", "Team sync (afternoon)"]
