"""One MLX generation's book-keeping, shared by the single and the batched path: its tokens,
its text and parser events token by token, how it ended, and its final Done."""

from __future__ import annotations

from dataclasses import dataclass, field
from time import perf_counter
from typing import Any

from backends.base import GenerateOptions, ShouldStop
from backends.errors import FailureKind
from backends.events import Done, Event, StreamError, speed
from backends.local import one_line
from backends.parser import Reading

PREFILL_STEP = 512  # tokens per prefill chunk; cancel is checked between chunks


@dataclass
class Turn:
    """Book-keeping for one generation: tokens, timings and how it ended."""

    prompt: str
    tokens: list[int]
    reused: int
    started: float
    computed: int = 0  # prefix tokens this turn computed before the prompt (not cached)
    generated: list[int] = field(default_factory=list)
    first_token_at: float = 0.0
    prefill_started: float = 0.0
    finish: str = "length"
    resumed: list[int] = field(default_factory=list)  # a paused part's tokens (in `tokens`)

    def new_token_limit(self, options: GenerateOptions, room: int) -> int:
        """How many tokens this generation may still write (a paused part counts)."""
        return max(1, min(options.max_tokens - len(self.resumed), room))

    def done(self) -> Done:
        end = perf_counter()
        first = self.first_token_at or end
        cached = max(0, self.reused - self.computed)
        new_tokens = len(self.tokens) - cached
        prefill_s = first - self.prefill_started
        stop_token = 1 if self.finish in ("stop", "tool_calls") and self.generated else 0
        timings = {**speed(self.started, first, end, len(self.generated)),
                   "prefill_ms": prefill_s * 1000,
                   "prefill_tokens_per_second": new_tokens / prefill_s if prefill_s > 0 else 0.0}
        prompt = len(self.tokens) - len(self.resumed)  # a paused part counts as output
        return Done(self.finish, prompt_tokens=prompt, cached_prompt_tokens=min(cached, prompt),
                    completion_tokens=len(self.resumed) + len(self.generated) - stop_token,
                    timings=timings)


class Text:
    """The output's text from our own copy of mlx_lm's streaming detokenizer, fed the same
    tokens as the one inside stream_generate: after a pause it goes on from the paused part's
    tokens (a character split over two tokens across the pause stays whole)."""

    def __init__(self, detokenizer: Any) -> None:
        self._detokenizer = detokenizer

    def add(self, token: int) -> str:
        self._detokenizer.add_token(token)
        return str(self._detokenizer.last_segment)

    def of(self, response: Any) -> str:
        """The text of one stream_generate response, as stream_generate itself computes it:
        its last response adds its token unless it is the end of turn, then flushes."""
        if response.finish_reason is None:
            return self.add(int(response.token))
        if response.finish_reason != "stop":
            self._detokenizer.add_token(int(response.token))
        self._detokenizer.finalize()
        return str(self._detokenizer.last_segment)


def reader(turn: Turn, options: GenerateOptions, tokenizer: Any) -> tuple[Reading, Text]:
    """The reading and detokenizer of a generation, past its paused part when it resumes: its
    tokens go through both exactly as when they were generated, their events dropped (the
    client has them), so the parser's state (reasoning or answer, held whitespace, a tag half
    seen) and counts are those of an answer never paused."""
    reading, text = Reading(turn.prompt, options), Text(tokenizer.detokenizer)
    for token in turn.resumed:
        reading.feed(text.add(token))
    return reading, text


def take(turn: Turn, response: Any, reading: Reading, text: Text) -> list[Event]:
    """One generated token (a response with .token and .finish_reason): its events."""
    turn.first_token_at = turn.first_token_at or perf_counter()
    turn.generated.append(int(response.token))
    return reading.feed(text.of(response))


def ending(response: Any, reading: Reading, should_stop: ShouldStop) -> str:
    """Why the generation ends after this token (the engine's reason first, then the
    person's stop, then the thinking budget), or "" when it goes on."""
    if response.finish_reason:
        return str(response.finish_reason)
    if should_stop():
        return "cancelled"
    return "thinking_budget" if reading.over_budget() else ""


def final_events(reading: Reading, turn: Turn) -> list[Event]:
    """What follows the last token, before Done: Paused when stopped, the parser's end."""
    events, turn.finish = reading.close(turn.finish, turn.resumed + turn.generated)
    return events


def failed(turn: Turn, exc: BaseException) -> list[Event]:
    """The end of a generation MLX failed in: the error, then Done("error")."""
    turn.finish = "error"
    return [StreamError(f"MLX failed while generating: {one_line(exc)}",
                        kind=FailureKind.ENGINE_FAILED), turn.done()]
