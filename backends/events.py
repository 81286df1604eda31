"""Typed events every engine streams: reasoning, text, tool calls, errors and the final tally."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from backends.errors import FailureKind


@dataclass(frozen=True)
class ReasoningDelta:
    """A piece of the model's thinking (inside <think>...</think>)."""

    text: str


@dataclass(frozen=True)
class TextDelta:
    """A piece of the visible answer."""

    text: str


@dataclass(frozen=True)
class ToolCall:
    """A complete tool call the model asked for."""

    name: str
    arguments: dict[str, Any]
    raw: str = ""


@dataclass(frozen=True)
class StreamError:
    """Something went wrong in the output (e.g. a tool call cut off); the stream goes on or ends.

    kind is set when the error ends the generation (Done("error") follows); a readable output
    problem (a malformed tool call) that the model is told about has kind None."""

    message: str
    kind: FailureKind | None = None


@dataclass(frozen=True)
class Prefill:
    """How far the engine has read a long prompt (before its first token); optional."""

    done: int  # prompt tokens read so far, of
    total: int  # the tokens this request has to read (those not reused from a cache)


@dataclass(frozen=True)
class Paused:
    """Stopped between tokens (just before Done("cancelled")): the tokens generated so far, so
    the same generation can go on later from them (GenerateOptions.resume_tokens).

    Only the model runner sees it: it keeps it for a generation it paused and drops it
    otherwise. The events the engine sends after it (what its parser flushes at the end)
    belong to a finished answer, not to one that goes on."""

    tokens: tuple[int, ...]


@dataclass(frozen=True)
class Done:
    """The last event of every stream."""

    finish_reason: str  # "stop", "length", "cancelled", "tool_calls", "error"
    prompt_tokens: int = 0
    cached_prompt_tokens: int = 0
    completion_tokens: int = 0
    timings: dict[str, float] = field(default_factory=dict)


def speed(started: float, first: float, end: float, tokens: int) -> dict[str, float]:
    """Done.timings' figures every engine gives: time to the first token (`first`, or `end`
    when there was none), decoding time and speed over the `tokens` generated, and the total."""
    decode_s = end - first
    return {"ttft_ms": (first - started) * 1000, "decode_ms": decode_s * 1000,
            "total_ms": (end - started) * 1000,
            # The first token comes out of the prefill; decode speed counts the ones after it.
            "tokens_per_second": (tokens - 1) / decode_s if decode_s > 0 and tokens > 1 else 0.0}


Event = ReasoningDelta | TextDelta | ToolCall | StreamError | Prefill | Paused | Done

E = TypeVar("E")


def merge_deltas(events: Iterable[E]) -> list[E | ReasoningDelta | TextDelta]:
    """Runs of reasoning or text deltas become one delta each; everything keeps its order."""
    out: list[E | ReasoningDelta | TextDelta] = []
    for event in events:
        last = out[-1] if out else None
        if isinstance(event, ReasoningDelta) and isinstance(last, ReasoningDelta):
            out[-1] = ReasoningDelta(last.text + event.text)
        elif isinstance(event, TextDelta) and isinstance(last, TextDelta):
            out[-1] = TextDelta(last.text + event.text)
        else:
            out.append(event)
    return out
