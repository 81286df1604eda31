"""How `hearth ask` and `hearth chat` show assistant events: JSON lines or a readable stream."""

from __future__ import annotations

import json
import queue
import sys
import threading
from typing import Any, TextIO

from app.cli.output import emit_json, reader_gone
from app.cli.terminal import control, visible
from app.core.events import (
    AssistantEvent,
    ConfirmationNeeded,
    ConfirmationRequest,
    ContextCompacted,
    OutputCut,
    Queued,
    ReasoningDelta,
    SourcesFound,
    TextDelta,
    ToolFinished,
    ToolStarted,
    TurnDone,
    TurnFailed,
)

CARD_TEXT = 300  # characters of a tool result shown on a card


class Renderer:
    """Called on the turn thread; confirmations that need a person go to `pending`."""

    def __init__(self, json_mode: bool, policy: str, out: TextIO | None = None,
                 err: TextIO | None = None) -> None:
        self.json_mode = json_mode
        self.policy = policy
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.dim = self.err.isatty()
        self.pending: queue.Queue[ConfirmationRequest] = queue.Queue()
        self.failed: TurnFailed | None = None
        self.done: TurnDone | None = None
        self._in_reasoning = False
        self.reader_gone = False  # stdout's pipe was closed by its reader
        self._lock = threading.Lock()

    def __call__(self, event: AssistantEvent) -> None:
        with self._lock:
            if isinstance(event, TurnFailed):
                self.failed = event
            elif isinstance(event, TurnDone):
                self.done = event
            if self.reader_gone:
                return
            try:
                if self.json_mode:
                    self._json(event)
                else:
                    self._text(event)
            except BrokenPipeError:  # `| head` has read enough: the turn stops (waiting.py)
                self.reader_gone = True
                reader_gone()
        if isinstance(event, ConfirmationNeeded) and not event.request.answered:
            self.pending.put(event.request)

    # -- JSON lines -----------------------------------------------------------------------
    def _json(self, event: AssistantEvent) -> None:
        line = json_line(event)
        if line is not None:
            emit_json(line)

    # -- readable -------------------------------------------------------------------------
    def _text(self, event: AssistantEvent) -> None:
        if isinstance(event, ReasoningDelta):
            self._reasoning(event.text)
            return
        self._end_reasoning()
        if isinstance(event, TextDelta):
            self._write(self.out, event.text)
        elif isinstance(event, ToolStarted):
            args = json.dumps(event.arguments, ensure_ascii=False)
            self._write(self.err, f"\n[tool] {event.name} {args}\n")
        elif isinstance(event, ToolFinished):
            mark = "ok" if event.ok else "failed"
            self._write(self.err, f"[tool {mark}] {_short(event.text)}\n")
        elif isinstance(event, ConfirmationNeeded):
            self._confirmation(event.request)
        elif isinstance(event, SourcesFound):
            for source in event.sources:
                where = f", {source.location}" if source.location else ""
                self._write(self.err, f"[{source.citation}] {source.title or source.document}"
                                      f"{where}\n")
        elif isinstance(event, Queued):
            self._write(self.err, f"(waiting for the model: {event.position} ahead)\n")
        elif isinstance(event, TurnFailed):
            self._write(self.err, f"\nhearth: {event.message}\n")
        elif isinstance(event, OutputCut):
            self._write(self.err, f"\n[{cut_notice(event)}]\n")
        elif isinstance(event, ContextCompacted):
            self._write(self.err, f"[{compacted_notice(event)}]\n")
        elif isinstance(event, TurnDone):
            self._write(self.out, "\n")
            if event.finish_reason == "length":
                self._write(self.err, "[the answer reached the token limit and was cut off]\n")

    def _confirmation(self, request: ConfirmationRequest) -> None:
        self._write(self.err, f"[confirm] {change_text(request)}\n")
        if request.answered:
            verdict = "approved (--yes)" if request.approved else (
                "declined: not run interactively (pass --yes to allow)")
            self._write(self.err, f"[confirm] {verdict}\n")

    def _reasoning(self, text: str) -> None:
        if not self._in_reasoning:
            if self.dim:
                control(self.err, "\x1b[2m")
            else:
                self._write(self.err, "[thinking] ")
            self._in_reasoning = True
        self._write(self.err, text)

    def _end_reasoning(self) -> None:
        if self._in_reasoning:
            if self.dim:
                control(self.err, "\x1b[0m")
            self._write(self.err, "\n")
            self._in_reasoning = False

    @staticmethod
    def _write(stream: TextIO, text: str) -> None:
        stream.write(visible(text))  # also when handed a stream that is not a SafeStream
        stream.flush()


def change_text(request: ConfirmationRequest) -> str:
    """The whole change in plain text: the skill's description, then every argument in full."""
    lines = [request.description, f"  tool: {request.name}"]
    lines += [f"  {key}: {json.dumps(value, ensure_ascii=False, default=str)}"
              for key, value in request.arguments.items()]
    return visible("\n".join(lines))


def cut_notice(event: OutputCut) -> str:
    """One line saying how Hearth cut the model short."""
    if event.part == "reasoning":
        why = {"budget": "it reached its budget", "loop": "it went in circles"}.get(
            event.reason, "it ended without an answer")
        return f"Thinking was cut short after {event.tokens} tokens ({why}); answering now"
    if event.part == "tools":
        return "Stopped: the model kept repeating the same tool call"
    return "The answer was stopped because it kept repeating itself"


def compacted_notice(event: ContextCompacted) -> str:
    return (f"Earlier messages summarized to fit the context: {event.summarized} messages, "
            f"{event.tokens_before} -> {event.tokens_after} prompt tokens")


def json_line(event: AssistantEvent) -> dict[str, Any] | None:
    """The `hearth ask --json` shape of one event (None: not shown)."""
    if isinstance(event, ReasoningDelta):
        return {"type": "reasoning", "text": event.text}
    if isinstance(event, TextDelta):
        return {"type": "text", "text": event.text}
    if isinstance(event, ToolStarted):
        return {"type": "tool_call", "name": event.name, "arguments": event.arguments}
    if isinstance(event, ToolFinished):
        return {"type": "tool_result", "name": event.name, "ok": event.ok, "text": event.text}
    if isinstance(event, ConfirmationNeeded):
        request = event.request
        return {"type": "confirm", "name": request.name, "arguments": request.arguments,
                "description": request.description}
    if isinstance(event, SourcesFound):
        return {"type": "sources", "sources": [vars(s) for s in event.sources]}
    if isinstance(event, Queued):
        return {"type": "queued", "position": event.position}
    if isinstance(event, OutputCut):
        return {"type": "cut", "part": event.part, "reason": event.reason,
                "tokens": event.tokens, "message": cut_notice(event)}
    if isinstance(event, ContextCompacted):
        return {"type": "compacted", "summarized": event.summarized,
                "tokens_before": event.tokens_before, "tokens_after": event.tokens_after}
    if isinstance(event, TurnFailed):
        return {"type": "error", "message": event.message, "kind": str(event.kind)}
    if isinstance(event, TurnDone):
        return {"type": "done", "finish_reason": event.finish_reason,
                "usage": {key: event.usage.get(key, 0) for key in
                          ("prompt_tokens", "cached_prompt_tokens", "completion_tokens")},
                "timings": event.timings, "conversation_id": event.conversation_id}
    return None


def _short(text: str) -> str:
    flat = " ".join(text.split())
    return flat if len(flat) <= CARD_TEXT else flat[: CARD_TEXT - 1] + "…"
