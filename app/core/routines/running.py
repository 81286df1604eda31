"""One routine run: a new saved conversation titled by the routine, answered by the Assistant
behind the person's own chat, within a time budget; any change it asks for is held."""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from app.core.assistant.turn_mode import TurnMode
from app.core.events import AssistantEvent, ConfirmationNeeded, TurnFailed
from app.core.routines.store import Routine, RoutineStore, Run
from app.core.runner import Priority

if TYPE_CHECKING:
    from app.core.assistant import Assistant, TurnHandle
    from app.core.history import HistoryStore

log = logging.getLogger(__name__)
BUDGET = timedelta(minutes=10)  # a run still going after this is stuck: it is stopped
STOP_WAIT_S = 30.0  # a cancelled turn ends between tokens; a bound, not a pause
MISSED = ("This routine was due at {due} but did not run then (Hearth was not running or the "
          "computer was asleep), so it runs now.")
OVER_BUDGET = ("This routine was stopped after {length}: it took longer than its time budget, "
               "so its answer may be unfinished.")


@dataclass
class RunLog:
    """What one turn reported: the changes it held and how it failed, if it did."""

    held: int = 0
    failure: str = ""
    seen: list[AssistantEvent] = field(default_factory=list)


class RoutineRunner:
    """Runs routines through the Assistant (blocking: call it off the GUI thread)."""

    def __init__(self, store: RoutineStore, history: Callable[[], HistoryStore],
                 assistant: Callable[[], Assistant], budget: timedelta = BUDGET,
                 on_started: Callable[[Run], None] = lambda _run: None) -> None:
        self.store = store
        self._history, self._assistant = history, assistant
        self.budget = budget
        self.on_started = on_started
        self.stopped = False
        self._running: TurnHandle | None = None

    def stop(self) -> None:
        """The app is quitting: the run going on now ends (as stopped) and no other starts."""
        self.stopped = True
        handle = self._running
        if handle is not None:
            handle.cancel()

    def run(self, routine: Routine, run: Run, missed: bool) -> Run:
        """Answer `routine` for its claimed `run` and record how it ended."""
        note = MISSED.format(due=_words(run.due, routine)) if missed else ""
        try:
            conversation = self._history().create_conversation(title=routine.title).id
        except Exception as exc:  # noqa: BLE001 - recorded in the run's history, not raised
            return self._end(run, "failed", f"Could not start the conversation: {exc}")
        run = self.store.update_run(run.id, conversation_id=conversation, note=note)
        self.on_started(run)
        text = f"{routine.ask}\n\n({note})" if note else routine.ask
        outcome = RunLog()
        try:
            handle = self._assistant().send(
                conversation, text, mode=TurnMode(priority=Priority.ROUTINE),
                on_event=lambda event: self._seen(run, event, outcome), confirm="hold")
        except ValueError as exc:
            return self._end(run, "failed", str(exc))
        self._running = handle
        try:
            return self._finish(run, handle, note, outcome)
        finally:
            self._running = None

    def _finish(self, run: Run, handle: TurnHandle, note: str, outcome: RunLog) -> Run:
        conversation = run.conversation_id
        if not handle.wait(self.budget.total_seconds()):
            handle.cancel()
            handle.wait(STOP_WAIT_S)
            said = OVER_BUDGET.format(length=_length(self.budget))
            self._say(conversation, said)
            return self._end(run, "timed_out", " ".join(filter(None, [note, said])))
        if outcome.failure:
            return self._end(run, "failed", " ".join(filter(None, [note, outcome.failure])))
        if handle.finish_reason == "cancelled":
            return self._end(run, "interrupted", note)
        if handle.finish_reason == "answer_loop":  # Hearth stopped an answer repeating itself
            return self._end(run, "cut", note)
        return self._end(run, "waiting_approval" if outcome.held else "done", note)

    def _seen(self, run: Run, event: AssistantEvent, outcome: RunLog) -> None:
        """On the turn thread, before the turn goes on: a held change is stored first."""
        if isinstance(event, ConfirmationNeeded):
            request = event.request
            self.store.hold(run.id, run.conversation_id, request.call_id, request.name,
                            request.arguments, request.description, datetime.now(run.due.tzinfo))
            outcome.held += 1
        elif isinstance(event, TurnFailed):
            outcome.failure = event.message

    def _say(self, conversation: str, text: str) -> None:
        try:
            self._history().add_message(conversation, "assistant", text)
        except Exception:
            log.exception("could not note the routine's end in %s", conversation)

    def _end(self, run: Run, status: str, note: str) -> Run:
        finished = datetime.now(run.due.tzinfo).isoformat(timespec="seconds")
        return self.store.update_run(run.id, status=status, note=note, finished=finished)


def _words(due: datetime, routine: Routine) -> str:
    local = due.astimezone(routine.schedule.first.tzinfo)
    return local.strftime("%a %d %b %Y %H:%M") + f" ({routine.schedule.timezone})"


def _length(budget: timedelta) -> str:
    seconds = round(budget.total_seconds())
    if seconds < 120:
        return f"{seconds} seconds"
    return f"{round(seconds / 60)} minutes"
