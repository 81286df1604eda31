"""One short generation outside a chat turn (titles, summaries), collected into plain text."""

from __future__ import annotations

import threading
import time
from dataclasses import replace

from app.core.runner import ModelRunner
from backends import events as be
from backends.base import GenerateOptions, Message

CLOSE_REASONING = "\n</think>\n\n"  # what the template renders between reasoning and answer


def closing_prefix(reasoning: str) -> str:
    """The reply so far with its reasoning closed, for the model to answer from."""
    return reasoning + CLOSE_REASONING if reasoning else CLOSE_REASONING.lstrip("\n")


def generate_text(runner: ModelRunner, messages: list[Message], options: GenerateOptions,
                  cancel: threading.Event, timeout: float = 60.0) -> str:
    """The answer text ("" on error, cancel or timeout). Reasoning that reaches the options'
    thinking budget is closed by Hearth and the model asked once more to answer."""
    reasoning, text, done = _run(runner, messages, options, cancel, timeout)
    if done is not None and done.finish_reason == "thinking_budget" and not cancel.is_set():
        again = replace(options, thinking_budget=None, assistant_prefix=closing_prefix(reasoning))
        _, text, done = _run(runner, messages, again, cancel, timeout)
    return text if done is not None and done.finish_reason != "error" else ""


def _run(runner: ModelRunner, messages: list[Message], options: GenerateOptions,
         cancel: threading.Event, timeout: float) -> tuple[str, str, be.Done | None]:
    reasoning: list[str] = []
    text: list[str] = []
    finished: list[be.Done] = []
    ended = threading.Event()

    def on_event(event: be.Event) -> None:
        if isinstance(event, be.TextDelta):
            text.append(event.text)
        elif isinstance(event, be.ReasoningDelta):
            reasoning.append(event.text)
        elif isinstance(event, be.Done):
            finished.append(event)
            ended.set()

    request = runner.submit(messages, options, on_event)
    deadline = time.monotonic() + timeout
    while not ended.wait(0.05) and time.monotonic() < deadline:
        if cancel.is_set():
            request.cancel()
    if not ended.is_set():
        request.cancel()
    return "".join(reasoning), "".join(text), finished[0] if finished else None
