"""The assistant never changes the calendar without a yes: a scripted model that deletes and
moves events is refused, and the calendar stays exactly as it was."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import asdict
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest

from app.core.assistant import Assistant, TurnMode
from app.core.events import ConfirmationNeeded, ToolFinished
from app.core.history import HistoryStore
from app.core.runner import ModelRunner
from app.core.settings import Settings
from backends.scripted import ScriptedBackend
from skills.calendar import CalendarStore, Event, calendar_skills
from tests.support.model_output import tool_call_output

WAIT = 20
START = datetime(2026, 12, 3, 10, 0, tzinfo=ZoneInfo("UTC"))


def call(name: str, **params: str) -> str:
    return tool_call_output("I'll do it.", name, params)


@pytest.fixture
def setup(tmp_path: Path) -> Iterator[tuple[Assistant, ScriptedBackend, CalendarStore]]:
    calendar = CalendarStore(tmp_path / "hearth.db")
    history = HistoryStore(tmp_path / "hearth.db")
    calendar.add(Event(uid="dentist", title="Dentist", start=START, end=START + timedelta(hours=1)))
    backend = ScriptedBackend()
    runner = ModelRunner()
    runner.load(backend).result(WAIT)
    assistant = Assistant(runner, history, calendar_skills(calendar), Settings())
    yield assistant, backend, calendar
    assistant.close()
    runner.close()
    history.close()
    calendar.close()


def run_turn(assistant: Assistant, events: list[Any], **kwargs: Any) -> None:
    handle = assistant.send(None, "clear my calendar", on_event=events.append,
                            mode=TurnMode(thinking=True), **kwargs)
    assert handle.wait(WAIT)


@pytest.mark.parametrize("how", ["deny policy", "user clicks deny"])
def test_refused_changes_leave_the_calendar_untouched(setup: Any, how: str) -> None:
    assistant, backend, calendar = setup
    before = [asdict(e) for e in calendar.all_events()]
    backend.queue(call("delete_event", uid="dentist"),
                  call("update_event", uid="dentist", start="2026-12-04T10:00"),
                  "Done.\n</think>\n\nI could not change your calendar.")
    events: list[Any] = []
    if how == "deny policy":
        run_turn(assistant, events, confirm="deny")
    else:
        def on_event(event: Any) -> None:
            events.append(event)
            if isinstance(event, ConfirmationNeeded):
                event.request.deny()
        handle = assistant.send(None, "clear my calendar", on_event=on_event,
                                mode=TurnMode(thinking=True), confirm="ask")
        assert handle.wait(WAIT)
    asks = [e.request for e in events if isinstance(e, ConfirmationNeeded)]
    assert [a.name for a in asks] == ["delete_event", "update_event"]
    assert "Dentist" in asks[0].description and "every repetition" not in asks[0].description
    assert "Fri 04 Dec 2026 10:00" in asks[1].description  # the user saw exactly what would change
    assert [asdict(e) for e in calendar.all_events()] == before
    results = [e for e in events if isinstance(e, ToolFinished)]
    assert [r.ok for r in results] == [False, False]
    # The model was told the user said no, so it can answer honestly.
    tool_messages = [m for m in backend.calls[-1][0] if m["role"] == "tool"]
    assert all("declined" in m["content"].lower() for m in tool_messages)


def test_approved_change_is_made(setup: Any) -> None:
    assistant, backend, calendar = setup
    backend.queue(call("update_event", uid="dentist", start="2026-12-04T10:00"),
                  "Moved.\n</think>\n\nYour dentist appointment is now on Friday.")
    events: list[Any] = []
    run_turn(assistant, events, confirm="approve")
    moved = calendar.get("dentist")
    assert moved is not None and moved.start.day == 4
