"""`hearth calendar ...` from the terminal, with --json objects as the issue specifies."""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path

import pytest

from app.main import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict[str, object]]]:
    code = main(["calendar", *args, "--json"])
    out = capsys.readouterr().out
    return code, [json.loads(line) for line in out.splitlines() if line.strip()]


def test_add_list_export_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, (added,) = run(capsys, "add", "--title", "Dentist", "--start", "2026-12-03T10:00",
                         "--tz", "America/New_York", "--location", "Main St")
    assert code == 0 and added["start"] == "2026-12-03T10:00:00-05:00"
    run(capsys, "add", "--title", "Standup", "--start", "2026-12-01T09:00", "--tz", "UTC",
        "--rrule", "FREQ=DAILY;COUNT=5")
    code, events = run(capsys, "list", "--from", "2026-12-01", "--to", "2026-12-08")
    assert code == 0
    assert [e["title"] for e in events].count("Standup") == 5
    dentist = next(e for e in events if e["title"] == "Dentist")
    assert set(dentist) >= {"uid", "title", "start", "end", "all_day", "location"}
    standups = [e for e in events if e["title"] == "Standup"]
    assert standups[1]["start"] == "2026-12-02T09:00:00+00:00"  # the occurrence's own start
    ics = tmp_path / "out.ics"
    assert run(capsys, "export", str(ics))[1][0]["events"] == 2
    assert run(capsys, "import", str(ics))[1][0] == {
        "file": str(ics), "added": 0, "updated": 0, "unchanged": 2, "removed": 0, "skipped": [],
        "repaired": [], "kept": []}  # the same events again: nothing to write


def test_errors_are_one_line_without_traceback(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.ics"
    bad.write_text("BEGIN:VCALENDAR\nnonsense\nEND:VCALENDAR\n")
    assert main(["calendar", "import", str(bad)]) != 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "line 2" in err and "Traceback" not in err
    assert main(["calendar", "import", str(tmp_path / "missing.ics")]) != 0
    assert "missing.ics" in capsys.readouterr().err
    assert main(["calendar", "add", "--title", "x", "--start", "soon"]) != 0
    assert "ISO 8601" in capsys.readouterr().err


def test_list_reads_as_an_agenda_and_pages_on(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["calendar", "add", "--title", "Standup", "--start", "2026-12-01T09:00",
                 "--tz", "UTC", "--rrule", "FREQ=DAILY;COUNT=5", "--location", "Room 2"]) == 0
    capsys.readouterr()
    assert main(["calendar", "list", "--from", "2026-12-01", "--to", "2026-12-08",
                 "--tz", "Europe/Berlin", "--limit", "2"]) == 0
    out = capsys.readouterr().out.splitlines()
    # --to names the last day shown: the 8th is in, up to its end
    assert out[:3] == ["2 event(s) from Tue 01 Dec 2026 00:00 CET to Wed 09 Dec 2026 00:00 CET:",
                       "Tue 01 Dec 2026", out[2]]
    assert out[2].startswith("  10:00-11:00 CET (UTC 09:00)  Standup @ Room 2 (repeats)  [uid ")
    assert "list_events" not in "\n".join(out)  # nothing addressed to the model
    more, command = out[-1].split(". Next page: ")
    assert more == "3 more not listed" and command.startswith("hearth calendar list --from ")
    # The command it prints lists the rest.
    assert main([*command.split()[1:], "--tz", "Europe/Berlin"]) == 0
    rest = capsys.readouterr().out
    assert rest.startswith("3 event(s)") and "Sat 05 Dec 2026" in rest and "more" not in rest
    assert main(["calendar", "list", "--from", "2026-12-09", "--to", "2026-12-08"]) == 2
    assert "--to must be after --from" in capsys.readouterr().err


def test_days_can_be_named_and_a_named_last_day_is_shown_whole(
        capsys: pytest.CaptureFixture[str]) -> None:
    tomorrow = date.today() + timedelta(days=1)
    assert main(["calendar", "add", "--title", "Dentist", "--start", "tomorrow 09:30"]) == 0
    assert main(["todo", "add", "Call mum", "--due", "Tomorrow 17:00", "--json"]) == 0
    capsys.readouterr()
    assert main(["calendar", "list", "--from", "today", "--to", "tomorrow", "--json"]) == 0
    (event,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert (event["title"], event["start"][:16]) == ("Dentist", f"{tomorrow}T09:30")
    assert main(["calendar", "list", "--from", "today", "--to", "today"]) == 0
    assert "No events" in capsys.readouterr().out  # today alone: tomorrow's dentist is not in
    assert main(["todo", "list", "--json"]) == 0
    (todo,) = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert todo["due"][:16] == f"{tomorrow}T17:00"
    assert main(["todo", "add", "x", "--due", "the day after"]) != 0  # still said plainly
    assert "ISO 8601" in capsys.readouterr().err


@pytest.mark.parametrize(("typed", "read"), [
    ("today", "2026-12-03"), ("tomorrow", "2026-12-04"), ("yesterday", "2026-12-02"),
    ("tomorrow 9:05", "2026-12-04T09:05"), ("TODAY 17:00", "2026-12-03T17:00"),
    ("2026-12-24T18:00", "2026-12-24T18:00"), ("next friday", "next friday"),
])
def test_day_words_become_dates(typed: str, read: str) -> None:
    from app.cli.when import cli_when

    assert cli_when(typed, today=date(2026, 12, 3)) == read
