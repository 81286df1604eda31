"""One model step: submit to the runner, relay deltas, save the growing answer every 250 ms,
and stop the model when its reasoning or answer loops."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace

from app.core.assistant.budget import RepetitionGuard
from app.core.assistant.handle import TurnHandle
from app.core.assistant.transcript import HistoryLike
from app.core.events import AssistantEvent, Progress, Queued, ReasoningDelta, TextDelta
from app.core.runner import ModelRunner, Priority
from backends import events as be
from backends.base import GenerateOptions, Message
from backends.errors import FailureKind

SAVE_EVERY_S = 0.25  # a crash loses at most this much of a streaming answer


@dataclass
class StepResult:
    """What the model produced in one step."""

    content: str = ""
    reasoning: str = ""
    calls: list[be.ToolCall] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    failure: FailureKind | None = None  # the kind of the error that ended the step, if any
    done: be.Done = field(default_factory=lambda: be.Done("error"))
    cut: str = ""  # "reasoning_loop" / "answer_loop": Hearth stopped the model (not the user)
    notice: str = ""  # stored with the message: thinking_cut | answer_loop | tool_loop

    @property
    def reasoning_cut(self) -> bool:
        """The reasoning was stopped (budget spent or a loop): it should be closed and answered."""
        return self.cut == "reasoning_loop" or self.done.finish_reason == "thinking_budget"

    @property
    def unanswered(self) -> bool:
        """The model reasoned, then stopped (or ran out of tokens) without a word of answer."""
        return (bool(self.reasoning) and not self.content.strip() and not self.calls
                and not self.errors and self.done.finish_reason in ("stop", "length"))


_Item = be.Event | Queued | Progress


def stream_step(runner: ModelRunner, history: HistoryLike, message_id: str,
                messages: list[Message], options: GenerateOptions,
                emit: Callable[[AssistantEvent], None], handle: TurnHandle,
                reasoning_so_far: str = "", priority: Priority = Priority.USER) -> StepResult:
    """Run one generation through the runner; events are emitted on the calling (turn) thread.

    reasoning_so_far: a continuation (options.assistant_prefix) keeps the earlier reasoning."""
    inbox: queue.Queue[_Item] = queue.Queue()
    watch = _LoopWatch(reasoning_so_far)

    def on_event(event: be.Event) -> None:
        watch.see(event)  # on the runner thread: a loop is stopped before the next token
        inbox.put(event)

    def on_position(ahead: int) -> None:  # behind a model load, the wait is the load
        inbox.put(Progress("loading") if runner.loading else Queued(ahead))

    # A routine's answer pauses for the person's turn and goes on after it, as an API one does.
    request = runner.submit(messages, options, on_event, on_position=on_position,
                            priority=priority, pausable=priority is not Priority.USER)
    watch.attach(request.cancel)
    with handle.cancelling(request.cancel):
        return _consume(inbox, history, message_id, emit, watch)


class _LoopWatch:
    """Watches the engine's deltas for a reasoning or answer loop and stops the request."""

    def __init__(self, reasoning_so_far: str) -> None:
        self.text, self.reasoning = RepetitionGuard(), RepetitionGuard()
        self.reasoning.feed(reasoning_so_far)
        self.cut = ""
        self._stop: Callable[[], None] | None = None
        self._lock = threading.Lock()

    def attach(self, stop: Callable[[], None]) -> None:
        with self._lock:
            self._stop = stop
            found = bool(self.cut)
        if found:  # the loop showed before submit() returned
            stop()

    def see(self, event: be.Event) -> None:
        if isinstance(event, be.ReasoningDelta) and self.reasoning.feed(event.text):
            self._found("reasoning_loop")
        elif isinstance(event, be.TextDelta) and self.text.feed(event.text):
            self._found("answer_loop")

    def _found(self, cut: str) -> None:
        with self._lock:
            if self.cut:
                return
            self.cut = cut
            stop = self._stop
        if stop is not None:
            stop()  # Done("cancelled") follows; the turn closes the reasoning or ends


def _consume(inbox: queue.Queue[_Item], history: HistoryLike, message_id: str,
             emit: Callable[[AssistantEvent], None], watch: _LoopWatch) -> StepResult:
    result = StepResult()
    text, reasoning = watch.text, watch.reasoning
    saved_at = time.monotonic()
    while True:
        item = inbox.get()
        if isinstance(item, Queued | Progress):
            emit(item)
        elif isinstance(item, be.Prefill):
            emit(Progress("reading", item.done, item.total))
        elif isinstance(item, be.ReasoningDelta):
            emit(ReasoningDelta(item.text))
        elif isinstance(item, be.TextDelta):
            emit(TextDelta(item.text))
        elif isinstance(item, be.ToolCall):
            result.calls.append(item)
        elif isinstance(item, be.StreamError):
            result.errors.append(item.message)
            if item.kind is not None:
                result.failure = item.kind
        elif isinstance(item, be.Done):
            result.done = item
            break
        if time.monotonic() - saved_at >= SAVE_EVERY_S:
            history.update_message(message_id, content=text.text, reasoning=reasoning.text)
            saved_at = time.monotonic()
    # A loop is kept once, not as many times as the model wrote it before it was stopped.
    result.cut = watch.cut
    result.content = text.kept()
    result.reasoning = reasoning.kept()
    if result.cut and result.done.finish_reason == "cancelled":
        result.done = replace(result.done, finish_reason=result.cut)
    return result
