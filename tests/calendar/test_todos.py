"""To-dos (VTODO) in the calendar: the CLI, Thunderbird and Apple Reminders files in and out
again, reminders at their due time, the model's tools asking first, and a kill mid-write."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import icalendar
import pytest

from app.core.assistant import Assistant, TurnMode
from app.core.events import ConfirmationNeeded
from app.core.history import HistoryStore
from app.core.runner import ModelRunner
from app.core.settings import Settings
from app.main import main
from backends.scripted import ScriptedBackend
from skills.calendar import CalendarStore, Reminders, calendar_skills, export_ics, read_ics
from tests.support.model_output import tool_call_output

FILES = Path(__file__).parent / "todos"
BERLIN = ZoneInfo("Europe/Berlin")
UTC = ZoneInfo("UTC")


def todo(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict[str, Any]]]:
    capsys.readouterr()
    code = main(["todo", *args, "--json"])
    out = capsys.readouterr().out
    return code, [json.loads(line) for line in out.splitlines() if line.strip()]


def test_todo_add_list_done_from_the_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    code, (added,) = todo(capsys, "add", "Renew passport", "--due", "2026-12-04T17:00",
                          "--tz", "Europe/Berlin", "--priority", "1")
    assert code == 0 and added["due"] == "2026-12-04T17:00:00+01:00" and added["priority"] == 1
    _, (second,) = todo(capsys, "add", "Buy milk")
    _, listed = todo(capsys, "list")
    assert [t["title"] for t in listed] == ["Renew passport", "Buy milk"]  # dated first
    code, (done,) = todo(capsys, "done", second["id"][:8])  # a unique start of the id is enough
    assert code == 0 and done["done"] and done["completed"]
    assert [t["title"] for t in todo(capsys, "list")[1]] == ["Renew passport"]
    assert [t["done"] for t in todo(capsys, "list", "--all")[1]] == [False, True]
    assert main(["todo", "done", "no-such-id"]) != 0
    assert "No to-do" in capsys.readouterr().err
    assert main(["todo", "add", "x", "--due", "someday"]) != 0
    assert len(todo(capsys, "list", "--all")[1]) == 2  # nothing half-added


@pytest.mark.parametrize("name", ["thunderbird-tasks.ics", "apple-reminders.ics"])
def test_import_and_export_keep_the_todos(store: CalendarStore, tmp_path: Path,
                                          name: str) -> None:
    read = read_ics((FILES / name).read_bytes(), "Europe/Berlin")
    store.import_events(read.events, todos=read.todos)
    before = [(t.title, t.due, t.priority, t.done) for t in store.todos.all(include_done=True)]
    data = export_ics(store.all_events(), todos=store.todos.all(include_done=True))
    exported = icalendar.Calendar.from_ical(data)  # another program reads what we wrote
    assert len(list(exported.walk("VTODO"))) == len(before)
    again = CalendarStore(tmp_path / "other.db")
    try:
        back = read_ics(data, "UTC")
        again.import_events(back.events, todos=back.todos)
        after = [(t.title, t.due, t.priority, t.done) for t in again.todos.all(include_done=True)]
    finally:
        again.close()
    assert after == before


def test_thunderbird_and_apple_todos_read_as_their_apps_show_them(store: CalendarStore) -> None:
    for name in ("thunderbird-tasks.ics", "apple-reminders.ics"):
        read = read_ics((FILES / name).read_bytes(), "Europe/Berlin")
        assert read.events == [] and read.skipped == []
        store.import_events(read.events, todos=read.todos)
    found = {t.title: t for t in store.todos.all(include_done=True)}
    passport = found["Renew passport"]
    assert passport.due == datetime(2026, 12, 4, 17, tzinfo=BERLIN) and passport.priority == 1
    assert found["Return library books"].done
    assert found["Return library books"].completed == datetime(2026, 11, 10, 8, tzinfo=UTC)
    assert found["Think about a new bike"].due is None
    assert found["Call Anna"].due == date(2026, 12, 3) and found["Call Anna"].priority == 9
    assert found["Water the plants"].done and not found["Call Anna"].done
    assert [t.title for t in store.todos.all()] == ["Call Anna", "Renew passport",
                                                    "Think about a new bike"]


def test_a_todo_reminds_at_its_due_time_once_and_not_when_done(store: CalendarStore) -> None:
    read = read_ics((FILES / "thunderbird-tasks.ics").read_bytes(), "Europe/Berlin")
    store.import_events([], todos=read.todos)
    fired: list[Any] = []
    reminders = Reminders(store, fired.append, timezone="Europe/Berlin")
    due = datetime(2026, 12, 4, 17, tzinfo=BERLIN)
    reminders.check(now=due - timedelta(minutes=10))
    assert fired == []
    reminders.check(now=due + timedelta(seconds=30))
    assert [(a.title, a.todo, a.missed) for a in fired] == [("Renew passport", True, False)]
    reminders.check(now=due + timedelta(minutes=1))
    assert len(fired) == 1  # once
    store.todos.add(store.todos.get(fired[0].uid).__class__(
        "", "Done already", due + timedelta(hours=1), "Europe/Berlin", done=True))
    reminders.check(now=due + timedelta(hours=2))
    assert len(fired) == 1


def test_the_models_todo_tools_ask_first(store: CalendarStore, tmp_path: Path) -> None:
    history = HistoryStore(tmp_path / "hearth.db")
    backend = ScriptedBackend([tool_call_output("Add.", "add_todo", {"title": "Pay rent",
                                                                      "due": "2026-12-05"}),
                               "Ok.\n</think>\n\nIt was not added."])
    runner = ModelRunner()
    runner.load(backend).result(20)
    assistant = Assistant(runner, history, calendar_skills(store, "Europe/Berlin"), Settings())
    events: list[Any] = []
    try:
        handle = assistant.send(None, "remind me to pay rent", on_event=events.append,
                                mode=TurnMode(thinking=True), confirm="deny")
        assert handle.wait(20)
    finally:
        assistant.close()
        runner.close()
        history.close()
    asks = [e.request for e in events if isinstance(e, ConfirmationNeeded)]
    assert [a.description for a in asks] == ["Add the to-do Pay rent due Sat 05 Dec 2026"]
    assert store.todos.all(include_done=True) == []
    tools = {t.name: t for t in calendar_skills(store, "Europe/Berlin")}
    assert tools["add_todo"].changes_things and tools["complete_todo"].changes_things
    assert not tools["list_todos"].changes_things


KILL_WRITER = """
import os, signal, sys
from pathlib import Path
from skills.calendar import CalendarStore
from skills.calendar.todos import Todo
store = CalendarStore(Path(sys.argv[1]))
calls = 0
def tick():
    global calls
    calls += 1
    if calls == 40:
        os.kill(os.getpid(), signal.SIGKILL)
    return 0
for i in range(200):
    store.todos.add(Todo("", f"Todo {i}", notes=f"note {i}"))
    print(i, flush=True)
    if i == 20:
        store._db.conn.set_progress_handler(tick, 5)
"""


def test_a_kill_mid_write_keeps_every_todo_written_before_it(tmp_path: Path) -> None:
    db = tmp_path / "hearth.db"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run([sys.executable, "-c", KILL_WRITER, str(db)], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == -signal.SIGKILL
    written = len(done.stdout.split())
    store = CalendarStore(db)
    try:
        kept = store.todos.all()
        assert written - 1 <= len(kept) <= written + 1
        assert all(t.notes == f"note {t.title[5:]}" for t in kept)
    finally:
        store.close()
