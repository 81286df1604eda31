"""`hearth routines` headless, as cron runs it: add, list, run-due (once per time), run, the
held change approved from the terminal, delete; and a SIGKILL in the middle of writing."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from datetime import datetime
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest
import time_machine

from app.core.history import HistoryStore
from app.core.paths import Paths
from app.core.routines import RoutineStore
from app.main import main
from tests.support.model_output import tool_call_output
from tests.support.scripted_cli import script_file

BERLIN = ZoneInfo("Europe/Berlin")


def hearth(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict]]:
    capsys.readouterr()
    code = main([*args])
    out = capsys.readouterr().out
    return code, [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def script(tmp_path: Path, *outputs: str) -> list[str]:
    return ["--engine", "scripted", "--script", script_file(tmp_path, *outputs)]


def test_run_due_runs_each_time_once_and_prints_one_record_per_run(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with time_machine.travel(datetime(2026, 12, 2, 7, 0, tzinfo=BERLIN), tick=True) as clock:
        code, added = hearth(capsys, "routines", "add", "--ask", "What is due today?",
                             "--at", "07:30", "--every", "weekday", "--tz", "Europe/Berlin",
                             "--json")
        assert code == 0 and added[0]["next"] == "2026-12-02T07:30+01:00"
        assert added[0]["schedule"] == "every weekday at 07:30 (Europe/Berlin)"
        engine = script(tmp_path, "Two things are due.", "Title")
        code, runs = hearth(capsys, "routines", "run-due", "--json", *engine)
        assert (code, runs) == (0, [])  # not yet
        clock.move_to(datetime(2026, 12, 2, 7, 30, 20, tzinfo=BERLIN))
        code, runs = hearth(capsys, "routines", "run-due", "--json", *engine)
        assert code == 0 and len(runs) == 1
        assert set(runs[0]) >= {"routine_id", "conversation_id", "due", "started", "status"}
        assert runs[0]["routine_id"] == added[0]["id"] and runs[0]["status"] == "done"
        assert runs[0]["due"] == "2026-12-02T06:30:00+00:00"
        assert hearth(capsys, "routines", "run-due", "--json", *engine) == (0, [])
        history = HistoryStore(Paths.from_env().history_db)
        said = [m.content for m in history.messages(runs[0]["conversation_id"])]
        history.close()
        assert said == ["What is due today?", "Two things are due."]
        code, listed = hearth(capsys, "routines", "list", "--json")
        assert listed[0]["next"] == "2026-12-03T07:30+01:00"
        assert hearth(capsys, "routines", "delete", added[0]["id"], "--json")[0] == 0
        assert hearth(capsys, "routines", "list", "--json") == (0, [])


def test_a_routine_run_from_the_terminal_holds_its_calendar_change_until_approved(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, added = hearth(capsys, "routines", "add", "--ask", "Book lunch with Anna", "--at",
                      "2030-01-01T08:00", "--json")
    call = tool_call_output("", "add_event", {"title": "Lunch with Anna",
                                              "start": "2030-01-02T12:00"})
    engine = script(tmp_path, call.split("</think>\n\n", 1)[1], "It waits for your approval.")
    code, runs = hearth(capsys, "routines", "run", added[0]["id"], "--json", *engine)
    assert code == 0 and runs[0]["status"] == "waiting_approval"
    assert hearth(capsys, "calendar", "list", "--from", "2030-01-01", "--to", "2030-01-05",
                  "--json") == (0, [])
    _, pending = hearth(capsys, "routines", "pending", "--json")
    assert pending[0]["tool"] == "add_event" and "Lunch with Anna" in pending[0]["description"]
    code, decided = hearth(capsys, "routines", "approve", str(pending[0]["id"]), "--json")
    assert code == 0 and decided[0]["status"] == "approved"
    _, events = hearth(capsys, "calendar", "list", "--from", "2030-01-01", "--to", "2030-01-05",
                       "--json")
    assert [e["title"] for e in events] == ["Lunch with Anna"]


def test_a_routine_can_start_tomorrow_in_words(capsys: pytest.CaptureFixture[str]) -> None:
    from datetime import date, timedelta

    code, (added,) = hearth(capsys, "routines", "add", "--ask", "What is on today?", "--at",
                            "tomorrow 07:30", "--every", "day", "--json")
    assert code == 0
    assert added["next"][:16] == f"{date.today() + timedelta(days=1)}T07:30"


def test_bad_input_is_one_line_and_changes_nothing(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["routines", "add", "--ask", "x", "--at", "25:99"]) != 0
    assert "Could not read" in capsys.readouterr().err
    assert main(["routines", "add", "--ask", "x", "--at", "07:00", "--every", "sometimes"]) != 0
    assert main(["routines", "delete", "nope"]) != 0
    assert "No routine" in capsys.readouterr().err
    assert hearth(capsys, "routines", "list", "--json") == (0, [])


KILL_WRITER = """
import os, signal, sys
from datetime import datetime, timezone
from pathlib import Path
from app.core.routines import RoutineStore, Schedule
store = RoutineStore(Path(sys.argv[1]))
stop, calls = int(sys.argv[2]), 0
def tick():
    global calls
    calls += 1
    if calls == stop:
        os.kill(os.getpid(), signal.SIGKILL)
    return 0
now = datetime.now(timezone.utc)
for i in range(200):
    store.add(f"R{i}", f"ask {i}", Schedule(datetime(2030, 1, 1, 7, 30), "UTC", "FREQ=DAILY"), now)
    print(i, flush=True)
    if i == 20:
        store._db.conn.set_progress_handler(tick, 5)
"""


def test_a_kill_in_the_middle_of_a_write_keeps_every_routine_written_before_it(
        tmp_path: Path) -> None:
    db = tmp_path / "hearth.db"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run([sys.executable, "-c", KILL_WRITER, str(db), "40"], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == -signal.SIGKILL
    written = len(done.stdout.split())
    store = RoutineStore(db)
    try:
        kept = store.all()
        assert written - 1 <= len(kept) <= written + 1  # the one being written: all or nothing
        assert all(r.ask == f"ask {r.title[1:]}" for r in kept)
        assert store._db.conn.execute("pragma integrity_check").fetchone()[0] == "ok"
    finally:
        store.close()
