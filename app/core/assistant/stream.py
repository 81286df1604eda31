"""One model step: submit to the runner, relay deltas, save the growing answer every 250 ms."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from app.core.assistant.store import HistoryLike
from app.core.events import AssistantEvent, Queued, ReasoningDelta, TextDelta
from app.core.runner import ModelRunner
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


_Item = be.Event | Queued


def stream_step(runner: ModelRunner, history: HistoryLike, message_id: str,
                messages: list[Message], options: GenerateOptions,
                emit: Callable[[AssistantEvent], None], cancel: threading.Event,
                hooks: list[Callable[[], None]]) -> StepResult:
    """Run one generation through the runner; events are emitted on the calling (turn) thread."""
    inbox: queue.Queue[_Item] = queue.Queue()
    request = runner.submit(messages, options, inbox.put,
                            on_position=lambda n: inbox.put(Queued(n)))
    hooks.append(request.cancel)
    if cancel.is_set():
        request.cancel()
    try:
        return _consume(inbox, history, message_id, emit)
    finally:
        hooks.remove(request.cancel)


def _consume(inbox: queue.Queue[_Item], history: HistoryLike, message_id: str,
             emit: Callable[[AssistantEvent], None]) -> StepResult:
    result = StepResult()
    text: list[str] = []
    reasoning: list[str] = []
    saved_at = time.monotonic()
    while True:
        item = inbox.get()
        if isinstance(item, Queued):
            emit(item)
        elif isinstance(item, be.ReasoningDelta):
            reasoning.append(item.text)
            emit(ReasoningDelta(item.text))
        elif isinstance(item, be.TextDelta):
            text.append(item.text)
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
            history.update_message(message_id, content="".join(text),
                                   reasoning="".join(reasoning))
            saved_at = time.monotonic()
    result.content = "".join(text)
    result.reasoning = "".join(reasoning)
    return result
