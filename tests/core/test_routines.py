"""Routines with the clock moved for real (time-machine): a routine fires at its time and once,
a missed run runs once and says when it was due, 07:30 stays 07:30 across DST, a stuck run
ends at its budget, a routine never changes the calendar until the person approves, and the
person's own chat goes first on the model thread."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from dataclasses import asdict
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import time_machine

from app.core.assistant import Assistant
from app.core.history import HistoryStore
from app.core.routines import (
    Approvals,
    RoutineRunner,
    RoutineStore,
    Schedule,
    Scheduler,
    parse_at,
    repetition,
)
from app.core.runner import ModelRunner
from app.core.settings import Settings
from backends.scripted import ScriptedBackend
from skills.calendar import CalendarStore, calendar_skills
from tests.support.model_output import answer_output, tool_call_output

BERLIN = ZoneInfo("Europe/Berlin")
UTC = ZoneInfo("UTC")
WAIT = 20  # hang guard only


class Desk:
    """A real history, calendar, assistant and runner on the scripted engine."""

    def __init__(self, tmp: Path, budget: timedelta = timedelta(minutes=10),
                 delay: float = 0.0) -> None:
        db = tmp / "hearth.db"
        self.history = HistoryStore(db)
        self.calendar = CalendarStore(db)
        self.store = RoutineStore(db)
        self.backend = ScriptedBackend(delay=delay)
        self.runner = ModelRunner()
        self.runner.load(self.backend).result(WAIT)
        self.assistant = Assistant(self.runner, self.history,
                                   calendar_skills(self.calendar, "Europe/Berlin"),
                                   Settings(thinking_default=True))
        runner = RoutineRunner(self.store, lambda: self.history, lambda: self.assistant, budget)
        self.scheduler = Scheduler(self.store, runner)
        self.approvals = Approvals(self.store, self.assistant.skills,
                                   lambda conv, text: self.history.add_message(
                                       conv, "assistant", text))

    def add(self, at: str, every: str | None, ask: str = "What is on today?") -> str:
        now = datetime.now(UTC)
        start = parse_at(at, "Europe/Berlin", now, repeating=bool(every))
        schedule = Schedule(start, "Europe/Berlin", repetition(every, start, "Europe/Berlin"))
        return self.store.add("Morning", ask, schedule, now).id

    def close(self) -> None:
        self.assistant.close()
        self.runner.close()
        for part in (self.store, self.calendar, self.history):
            part.close()


@pytest.fixture
def desk(tmp_path: Path) -> Iterator[Desk]:
    made = Desk(tmp_path)
    yield made
    made.close()


def berlin(*parts: int) -> datetime:
    return datetime(*parts, tzinfo=BERLIN)  # type: ignore[misc]


def test_a_routine_fires_at_its_time_once_in_a_conversation_titled_by_it(desk: Desk) -> None:
    with time_machine.travel(berlin(2026, 12, 2, 7, 0), tick=True) as clock:
        routine = desk.add("07:30", "day")
        clock.move_to(berlin(2026, 12, 2, 7, 29))
        assert desk.scheduler.run_due() == []  # not yet
        assert desk.backend.calls == []
        desk.backend.queue(answer_output("Look.", "You have a dentist at 10:00."))
        clock.move_to(berlin(2026, 12, 2, 7, 30, 5))
        runs = desk.scheduler.run_due()
        assert [(r.routine_id, r.status) for r in runs] == [(routine, "done")]
        assert runs[0].due == berlin(2026, 12, 2, 7, 30)
        assert runs[0].note == ""  # on time: nothing to explain
        assert desk.scheduler.run_due() == []  # a second call at once runs nothing
        conversation = desk.history.get_conversation(runs[0].conversation_id)
        assert conversation is not None and conversation.title == "Morning"
        said = [m.content for m in desk.history.messages(conversation.id)]
        assert said == ["What is on today?", "You have a dentist at 10:00."]
        clock.move_to(berlin(2026, 12, 3, 7, 30, 5))  # the next day it runs again
        desk.backend.queue(answer_output("Look.", "Nothing today."))
        assert [r.due for r in desk.scheduler.run_due()] == [berlin(2026, 12, 3, 7, 30)]


def test_a_missed_run_runs_once_at_the_next_start_and_says_when_it_was_due(
        desk: Desk) -> None:
    with time_machine.travel(berlin(2026, 12, 2, 7, 0), tick=True) as clock:
        desk.add("07:30", "day")
        clock.move_to(berlin(2026, 12, 5, 9, 15))  # off for three days: three times missed
        desk.backend.queue(answer_output("Look.", "Here is your day."))
        runs = desk.scheduler.run_due()
        assert len(runs) == 1 and runs[0].status == "done"
        assert runs[0].due == berlin(2026, 12, 5, 7, 30)  # the latest time, once
        assert "was due at Sat 05 Dec 2026 07:30" in runs[0].note
        question = desk.history.messages(runs[0].conversation_id)[0].content
        assert "was due at Sat 05 Dec 2026 07:30" in question
        assert desk.scheduler.run_due() == []
        assert len(desk.backend.calls) == 1


def test_07_30_stays_07_30_local_across_the_daylight_saving_change(desk: Desk) -> None:
    schedule = Schedule(datetime(2027, 3, 26, 7, 30), "Europe/Berlin", "FREQ=DAILY")
    runs = schedule.upcoming(berlin(2027, 3, 26, 8, 0), 3)
    assert [(t.astimezone(BERLIN).hour, t.astimezone(BERLIN).minute) for t in runs] == [
        (7, 30)] * 3
    assert [t.astimezone(UTC).hour for t in runs] == [6, 5, 5]  # CET, then CEST
    with time_machine.travel(berlin(2027, 3, 28, 1, 0), tick=True) as clock:  # still winter
        desk.add("07:30", "day")
        clock.move_to(datetime(2027, 3, 28, 5, 29, tzinfo=UTC))  # 07:29 summer time
        assert desk.scheduler.run_due() == []
        desk.backend.queue(answer_output("Look.", "Clocks went forward."))
        clock.move_to(datetime(2027, 3, 28, 5, 30, 10, tzinfo=UTC))  # 07:30 summer time
        runs_now = desk.scheduler.run_due()
        assert [r.due.astimezone(BERLIN).strftime("%H:%M") for r in runs_now] == ["07:30"]
        assert runs_now[0].note == ""  # on time, not an hour late or early


def test_a_stuck_run_ends_at_its_budget_and_says_so(tmp_path: Path) -> None:
    slow = Desk(tmp_path, budget=timedelta(seconds=1), delay=0.05)
    try:
        slow.backend.queue(answer_output("Think.", "word " * 5000))  # minutes at this pace
        routine = slow.add("07:30", "day")
        run = slow.scheduler.run_now(routine)
        assert run.status == "timed_out"
        assert "stopped after 1 seconds" in run.note
        last = slow.history.messages(run.conversation_id)[-1]
        assert last.role == "assistant" and "took longer than its time budget" in last.content
    finally:
        slow.close()


def test_an_answer_hearth_stopped_for_repeating_itself_is_not_done(desk: Desk) -> None:
    """The repetition guard cut the answer: the run says so instead of "done"."""
    desk.backend.queue(answer_output("Sure.", "Good morning! " + "Have a nice day. " * 80))
    run = desk.scheduler.run_now(desk.add("07:30", "day"))
    assert run.status == "cut"
    last = desk.history.messages(run.conversation_id)[-1]
    assert last.notice == "answer_loop" and last.content.count("Have a nice day.") == 1


def test_a_routine_asking_for_a_calendar_change_changes_nothing_until_approved(
        desk: Desk) -> None:
    before = [asdict(e) for e in desk.calendar.all_events()]
    desk.backend.queue(
        tool_call_output("Add it.", "add_event", {"title": "Call Anna",
                                                  "start": "2026-12-03T12:00"}),
        answer_output("Held.", "I asked to add 'Call Anna'; it waits for your approval."))
    run = desk.scheduler.run_now(desk.add("07:30", "day", "Put a call with Anna tomorrow"))
    assert run.status == "waiting_approval"
    assert [asdict(e) for e in desk.calendar.all_events()] == before  # nothing changed
    held = desk.approvals.pending(run.conversation_id)
    assert [h.name for h in held] == ["add_event"]
    assert "Call Anna" in held[0].description and "Thu 03 Dec 2026 12:00" in held[0].description
    tool_result = [m for m in desk.history.messages(run.conversation_id) if m.role == "tool"]
    assert "NOT been made" in tool_result[0].content  # the model was told, not refused
    approved = desk.approvals.approve(held[0].id)
    assert approved.status == "approved"
    assert [e.title for e in desk.calendar.all_events()] == ["Call Anna"]
    assert desk.store.run(run.id).status == "done"
    assert desk.history.messages(run.conversation_id)[-1].content.startswith("Approved:")
    with pytest.raises(Exception, match="already approved"):
        desk.approvals.approve(held[0].id)  # a second click never runs it twice
    assert len(desk.calendar.all_events()) == 1


def test_a_denied_change_from_a_routine_is_never_made(desk: Desk) -> None:
    desk.backend.queue(
        tool_call_output("Add it.", "add_event", {"title": "Gym", "start": "2026-12-03T18:00"}),
        answer_output("Held.", "It waits for your approval."))
    run = desk.scheduler.run_now(desk.add("07:30", "day", "Book the gym"))
    held = desk.approvals.pending(run.conversation_id)
    assert desk.approvals.deny(held[0].id).status == "denied"
    assert desk.calendar.all_events() == []
    assert "Nothing was changed" in desk.history.messages(run.conversation_id)[-1].content


def test_the_persons_chat_goes_before_a_routine_on_the_model_thread(desk: Desk) -> None:
    gate = threading.Event()
    blocker = desk.runner.call(lambda: gate.wait(WAIT))  # the model thread is busy
    desk.backend.queue(answer_output("Mine.", "First answer."),
                       answer_output("Mine.", "Second answer."), "A title")
    routine = desk.add("07:30", "day", "ROUTINE QUESTION")
    done: list[Any] = []
    worker = threading.Thread(target=lambda: done.append(desk.scheduler.run_now(routine)))
    worker.start()
    deadline = time.monotonic() + WAIT
    while desk.runner.pending < 2 and time.monotonic() < deadline:
        time.sleep(0.01)  # until the routine's request waits on the model thread
    handle = desk.assistant.send(None, "PERSON QUESTION")
    while desk.runner.pending < 3 and time.monotonic() < deadline:
        time.sleep(0.01)
    gate.set()
    blocker.result(WAIT)
    assert handle.wait(WAIT)
    worker.join(WAIT)
    asked = [next(m["content"] for m in c.messages if m["role"] == "user")
             for c in desk.backend.calls]
    assert asked[0].startswith("PERSON QUESTION")
    assert asked[1].startswith("ROUTINE QUESTION")
    assert done and done[0].status == "done"


def test_routines_and_their_runs_survive_a_restart(tmp_path: Path) -> None:
    first = Desk(tmp_path)
    with time_machine.travel(berlin(2026, 12, 2, 7, 0), tick=True) as clock:
        routine = first.add("07:30", "weekday")
        first.backend.queue(answer_output("Ok.", "Done."))
        clock.move_to(berlin(2026, 12, 2, 7, 31))
        assert len(first.scheduler.run_due()) == 1
        first.close()
        again = Desk(tmp_path)
        try:
            assert [r.id for r in again.store.all()] == [routine]
            assert again.scheduler.run_due() == []  # the restart owes nothing it already ran
            assert [r.status for r in again.store.runs(routine)] == ["done"]
        finally:
            again.close()


def test_times_and_rules_people_type_are_checked() -> None:
    now = berlin(2026, 12, 2, 9, 0)
    assert parse_at("08:00", "Europe/Berlin", now, repeating=False) == datetime(2026, 12, 3, 8)
    assert parse_at("08:00", "Europe/Berlin", now, repeating=True) == datetime(2026, 12, 2, 8)
    with pytest.raises(Exception, match="already passed"):
        parse_at("2026-12-01T08:00", "Europe/Berlin", now, repeating=False)
    with pytest.raises(Exception, match="Could not read"):
        parse_at("tomorrowish", "Europe/Berlin", now, repeating=False)
    with pytest.raises(Exception, match="--every"):
        repetition("FREQ=FORTNIGHTLY", datetime(2026, 12, 2, 8), "Europe/Berlin")
    assert repetition("weekday", datetime(2026, 12, 2, 8), "Europe/Berlin") == \
        "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"


def test_the_model_proposes_a_routine_shown_in_words_with_its_next_three_runs(
        desk: Desk) -> None:
    from app.core.events import ConfirmationNeeded
    from app.core.routines import ProposeRoutine

    tool = ProposeRoutine(lambda: desk.store, "Europe/Berlin")
    desk.assistant = Assistant(desk.runner, desk.history, [tool],
                               Settings(thinking_default=True))
    with time_machine.travel(berlin(2026, 12, 2, 9, 0), tick=True):
        for policy, kept in (("deny", 0), ("approve", 1)):
            desk.backend.queue(tool_call_output("Propose.", "add_routine", {
                "ask": "What is on today?", "at": "07:30", "every": "weekday",
                "title": "Morning"}), answer_output("Ok.", "Done."), "Title")
            events: list[Any] = []
            handle = desk.assistant.send(None, "every weekday at 7:30 tell me my day",
                                         on_event=events.append, confirm=policy)
            assert handle.wait(WAIT)
            (asked,) = [e.request for e in events if isinstance(e, ConfirmationNeeded)]
            assert asked.description == (
                "Add the routine \u201cMorning\u201d: ask \u201cWhat is on today?\u201d every "
                "weekday at 07:30 (Europe/Berlin). Next runs: Thu 03 Dec 2026 07:30, "
                "Fri 04 Dec 2026 07:30, Mon 07 Dec 2026 07:30.")
            assert len(desk.store.all()) == kept  # only a yes adds it
    assert desk.store.all()[0].schedule.rrule == "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"


def test_a_run_killed_mid_answer_is_recorded_as_interrupted_and_not_run_again(
        desk: Desk) -> None:
    with time_machine.travel(berlin(2026, 12, 2, 7, 0), tick=True) as clock:
        routine = desk.add("07:30", "day")
        clock.move_to(berlin(2026, 12, 2, 7, 30, 5))
        # A process claimed this time, then died (SIGKILL) before it could finish the run.
        claimed = desk.store.claim(routine, berlin(2026, 12, 2, 7, 30), datetime.now(UTC))
        assert claimed is not None
        clock.move_to(berlin(2026, 12, 2, 8, 0))
        assert desk.scheduler.run_due() == []  # that time is not run twice
        assert desk.store.run(claimed.id).status == "interrupted"  # its history says so
        assert desk.backend.calls == []
