"""Server-sent events from the remote engine and the state of one streamed reply."""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Iterator
from typing import Any

from backends.base import GenerateOptions, ShouldStop
from backends.errors import FailureKind
from backends.events import Done, Event, StreamError, ToolCall, speed
from backends.nanbeige import THINK_CLOSE, THINK_OPEN
from backends.parser import OutputParser
from backends.remote_http import as_int, error_text


def follow(lines: Iterable[str], turn: Turn, should_stop: ShouldStop) -> Iterator[Event]:
    """Feed each streamed chunk to the turn until [DONE], the end of the body or a cancel."""
    for data in sse_data(lines):
        if data == "[DONE]":
            turn.ended = True
            return
        try:
            chunk = json.loads(data)
        except ValueError:
            yield StreamError(f"The server sent data Hearth cannot read: {data[:80]}")
            continue
        yield from turn.handle(chunk if isinstance(chunk, dict) else {})
        if should_stop():
            turn.cancelled = True
            return
        if turn.over_budget():
            turn.budget_spent = True  # closing the connection stops the server
            return


def sse_data(lines: Iterable[str]) -> Iterator[str]:
    """The data of each server-sent event, joined across its `data:` lines.

    Not httpx2's EventSource: it drops an event the body ends without a blank line after
    (as the SSE spec says), and some servers end their last event that way."""
    data: list[str] = []
    for line in lines:
        if line.startswith("data:"):
            data.append(line[5:].removeprefix(" "))
        elif not line and data:  # a blank line ends an event
            yield "\n".join(data)
            data = []
    if data:  # so does the end of the body
        yield "\n".join(data)


class Turn:
    """What one streamed reply has said so far, in either server style."""

    def __init__(self, options: GenerateOptions, starts_in_reasoning: bool | None = None,
                 undecided: bool = False) -> None:
        """starts_in_reasoning: where raw output begins (None: from the options); undecided:
        nobody knows yet, so raw content is held until it shows (see _decide)."""
        self.options = options
        if starts_in_reasoning is None:
            starts_in_reasoning = options.enable_thinking and not options.assistant_prefix
        self.starts_in_reasoning = starts_in_reasoning and not undecided
        self.undecided = undecided
        self.opened_in_reasoning: bool | None = None  # what held content showed, once it did
        self._held = ""
        self._held_pieces = 0
        self.started = time.perf_counter()
        self.first = 0.0
        self.pieces = 0  # content/reasoning chunks, the token count when the server gives none
        self.finish_reason = ""
        self.usage: dict[str, Any] = {}
        self.server_timings: dict[str, Any] = {}
        self.ended = False  # [DONE] or a complete non-streaming reply
        self.cancelled = False
        self.saw_call = False
        self.saw_reasoning = False  # the server split the reasoning out itself
        self.server_error = False
        self.received = False  # any chunk (or a whole reply) came from the server
        self.reasoning_pieces = 0  # chunks inside the reasoning: its token count, near enough
        self.budget_spent = False
        # Reasoning split out by the server still goes through a parser, to trim it the same way.
        self.reasoning = OutputParser(options.tool_call_format, starts_in_reasoning=True)
        self.content: OutputParser | None = None
        self.calls: dict[int, dict[str, str]] = {}

    def handle(self, chunk: dict[str, Any]) -> list[Event]:
        self.received = True
        events: list[Event] = []
        if chunk.get("error"):
            self.server_error = True
            events.append(StreamError(f"The server reported an error: {error_text(chunk)}",
                                      kind=FailureKind.SERVER_REFUSED))
        if isinstance(chunk.get("usage"), dict):
            self.usage = chunk["usage"]
        if isinstance(chunk.get("timings"), dict):
            self.server_timings = chunk["timings"]  # llama-server's own figures
        choices = chunk.get("choices") or []
        if choices and isinstance(choices[0], dict):
            events += self._choice(choices[0])
        return self._seen(events)

    def _choice(self, choice: dict[str, Any]) -> list[Event]:
        self.finish_reason = str(choice.get("finish_reason") or self.finish_reason)
        delta = choice.get("delta") or choice.get("message") or {}
        reasoning = delta.get("reasoning_content") or delta.get("reasoning")
        content, calls = delta.get("content"), delta.get("tool_calls") or []
        if isinstance(choice.get("text"), str):  # /v1/completions: the raw output
            # The closing chunk carries the finish reason and no token.
            content = choice["text"] if choice["text"] or not choice.get("finish_reason") else None
        # Each chunk is about one token; an empty content piece is one too (llama.cpp sends ""
        # for part of a character). The count stands in when the server reports no usage.
        self.pieces += isinstance(content, str) or bool(reasoning) or bool(calls)
        events: list[Event] = []
        if self.undecided and self.content is None and bool(content):
            self._held_pieces += 1  # reasoning or answer: counted once it shows which
        else:
            self.reasoning_pieces += bool(reasoning) or (bool(content) and
                                                         self._content_reasons())
        if isinstance(reasoning, str) and reasoning:
            self.saw_reasoning = True
            events += self.reasoning.feed(reasoning)
        if isinstance(content, str) and content:
            events += self._content(content)
        for call in calls:
            if isinstance(call, dict):
                self._add_call_fragment(call)
        return events

    def _content(self, text: str) -> list[Event]:
        if self.undecided and self.content is None:
            self._held += text
            inside = self._decide(ended=False)
            if inside is None:
                return []
            text = self._settle(inside)
        parser, flushed = (self.content, []) if self.content else self._start_content()
        return flushed + parser.feed(text)

    def _decide(self, ended: bool) -> bool | None:
        """Did held raw content begin inside the reasoning? A `</think>` closing it says yes; a
        `<think>` the model opens itself, reasoning the server split out, or the end of a reply
        with neither says no (a server that sends the answer as plain content: issue 26).
        None: not yet known."""
        stripped = self._held.lstrip()
        if stripped.startswith(THINK_OPEN) or self.saw_reasoning:
            return False
        if THINK_CLOSE in self._held:
            return True
        return False if ended else None

    def _settle(self, inside: bool) -> str:
        """Decide where held content began; returns it, to be parsed from there."""
        self.undecided, self.opened_in_reasoning = False, inside
        self.starts_in_reasoning = inside
        if inside:
            self.reasoning_pieces += self._held_pieces
        held, self._held = self._held, ""
        return held

    def _content_reasons(self) -> bool:
        """Is raw content (before this chunk) still inside the reasoning?"""
        if self.content is not None:
            return self.content.in_reasoning
        return self.starts_in_reasoning and not self.saw_reasoning

    def _start_content(self) -> tuple[OutputParser, list[Event]]:
        # Reasoning the server split out is over; raw text starts inside <think> in Think mode.
        self.content = OutputParser(
            self.options.tool_call_format, tools=self.options.tools,
            starts_in_reasoning=self.starts_in_reasoning and not self.saw_reasoning)
        return self.content, self.reasoning.finish()

    def _add_call_fragment(self, call: dict[str, Any]) -> None:
        index = call.get("index")
        slot = self.calls.setdefault(index if isinstance(index, int) else len(self.calls),
                                     {"name": "", "arguments": ""})
        function = call.get("function") or {}
        if isinstance(function.get("name"), str):
            slot["name"] += function["name"]
        arguments = function.get("arguments")
        if isinstance(arguments, dict):
            slot["arguments"] = json.dumps(arguments, ensure_ascii=False)
        elif isinstance(arguments, str):
            slot["arguments"] += arguments

    def finish(self) -> list[Event]:
        events = self.reasoning.finish()
        if self._held:
            events += self._content(self._settle(bool(self._decide(ended=True))))
        if self.content is not None:
            events += self.content.finish()
        if self.cancelled or self.budget_spent:  # stopped on purpose: half a call is no error
            return self._seen([e for e in events if not isinstance(e, StreamError)])
        events += [_structured_call(slot) for _, slot in sorted(self.calls.items())]
        if not (self.ended or self.finish_reason or self.server_error or self.budget_spent):
            events.append(StreamError("The server ended the reply before it was complete.",
                                      kind=FailureKind.SERVER_UNREACHABLE))
        return self._seen(events)

    def over_budget(self) -> bool:
        """Still reasoning and the thinking budget is spent."""
        budget = self.options.thinking_budget
        still = self.content.in_reasoning if self.content is not None else (
            self.saw_reasoning or self.starts_in_reasoning)
        return budget is not None and still and self.reasoning_pieces >= budget

    def _seen(self, events: list[Event]) -> list[Event]:
        if events and not self.first:
            self.first = time.perf_counter()
        self.saw_call = self.saw_call or any(isinstance(e, ToolCall) for e in events)
        return events

    def done(self, finish: str = "") -> Done:
        end = time.perf_counter()
        first = self.first or end
        completion = as_int(self.usage.get("completion_tokens")) or self.pieces
        return Done(finish or self._finish_reason(), prompt_tokens=self._prompt_tokens(),
                    cached_prompt_tokens=self._cached_tokens(), completion_tokens=completion,
                    timings=speed(self.started, first, end, completion))

    def _finish_reason(self) -> str:
        if self.cancelled:
            return "cancelled"
        if self.budget_spent:
            return "thinking_budget"
        if self.server_error or not (self.ended or self.finish_reason):
            return "error"
        reason = {"function_call": "tool_calls", "": "stop"}.get(self.finish_reason,
                                                                 self.finish_reason)
        return "tool_calls" if reason == "stop" and self.saw_call else reason

    def _prompt_tokens(self) -> int:
        fallback = as_int(self.server_timings.get("prompt_n")) + as_int(
            self.server_timings.get("cache_n"))
        return as_int(self.usage.get("prompt_tokens")) or fallback

    def _cached_tokens(self) -> int:
        details = self.usage.get("prompt_tokens_details")
        cached = as_int(details.get("cached_tokens")) if isinstance(details, dict) else 0
        return cached or as_int(self.server_timings.get("cache_n"))


def _structured_call(slot: dict[str, str]) -> Event:
    name, text = slot["name"].strip(), slot["arguments"]
    if not name:
        return StreamError(f"The server sent a tool call without a name (arguments: {text[:80]}).")
    try:
        arguments = json.loads(text) if text.strip() else {}
    except ValueError:
        return StreamError(f"The server sent a call to tool '{name}' whose arguments are not "
                           f"valid JSON: {text[:80]}")
    if not isinstance(arguments, dict):
        return StreamError(f"The server sent a call to tool '{name}' whose arguments are not "
                           f"an object: {text[:80]}")
    return ToolCall(name, arguments, raw=text)
