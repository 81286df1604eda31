"""One MLX generation's book-keeping, shared by the single and the batched path: its tokens,
its text and parser events token by token, how it ended, and its final Done."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any

from backends.base import GenerateOptions, ShouldStop
from backends.errors import FailureKind
from backends.events import Done, Event, Paused, StreamError, ToolCall
from backends.local import one_line
from backends.nanbeige import opens_reasoning
from backends.parser import OutputParser, over_budget

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
    saw_tool_call: bool = False
    reasoning: int = 0  # tokens generated inside the reasoning
    resumed: list[int] = field(default_factory=list)  # a paused part's tokens (in `tokens`)

    def new_token_limit(self, options: GenerateOptions, room: int) -> int:
        """How many tokens this generation may still write (a paused part counts)."""
        return max(1, min(options.max_tokens - len(self.resumed), room))

    def done(self) -> Done:
        end = perf_counter()
        first = self.first_token_at or end
        cached = max(0, self.reused - self.computed)
        new_tokens = len(self.tokens) - cached
        prefill_s, decode_s = first - self.prefill_started, end - first
        stop_token = 1 if self.finish in ("stop", "tool_calls") and self.generated else 0
        timings = {
            "ttft_ms": (first - self.started) * 1000,
            "prefill_ms": prefill_s * 1000,
            "decode_ms": decode_s * 1000,
            "prefill_tokens_per_second": new_tokens / prefill_s if prefill_s > 0 else 0.0,
            # The first token comes out of the prefill; decode speed counts the ones after it.
            "tokens_per_second": (len(self.generated) - 1) / decode_s
            if decode_s > 0 and len(self.generated) > 1 else 0.0,
        }
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


def reader(turn: Turn, options: GenerateOptions, tokenizer: Any) -> tuple[OutputParser, Text]:
    """The parser and detokenizer of a generation, past its paused part when it resumes."""
    parser = OutputParser(options.tool_call_format, starts_in_reasoning=opens_reasoning(
        turn.prompt), tools=options.tools)
    text = Text(tokenizer.detokenizer)
    _resume(turn, parser, text)
    return parser, text


def _resume(turn: Turn, parser: OutputParser, text: Text) -> None:
    """Go on from a paused part: its tokens go through the detokenizer and the parser exactly
    as when they were generated, their events dropped (the client has them), so the parser's
    state (reasoning or answer, held whitespace, a tag half seen) and counts are those of an
    answer never paused."""
    for token in turn.resumed:
        turn.reasoning += parser.in_reasoning
        for event in parser.feed(text.add(token)):
            turn.saw_tool_call = turn.saw_tool_call or isinstance(event, ToolCall)


def take(turn: Turn, response: Any, parser: OutputParser, text: Text) -> list[Event]:
    """One generated token (a response with .token and .finish_reason): its events."""
    turn.first_token_at = turn.first_token_at or perf_counter()
    turn.generated.append(int(response.token))
    turn.reasoning += parser.in_reasoning
    events = parser.feed(text.of(response))
    turn.saw_tool_call = turn.saw_tool_call or any(isinstance(e, ToolCall) for e in events)
    return events


def ending(turn: Turn, response: Any, parser: OutputParser, should_stop: ShouldStop,
           options: GenerateOptions) -> str | None:
    """Why the generation ends after this token (the engine's reason first, then the
    person's stop, then the thinking budget), or None when it goes on."""
    if response.finish_reason:
        return str(response.finish_reason)
    if should_stop():
        return "cancelled"
    if over_budget(turn.reasoning, options, parser):
        return "thinking_budget"
    return None


def final_events(parser: OutputParser, turn: Turn) -> Iterator[Event]:
    """What follows the last token, before Done: Paused when stopped, the parser's end."""
    if turn.finish == "cancelled" and turn.resumed + turn.generated:
        yield Paused(tuple(turn.resumed + turn.generated))  # before the parser's end
    for event in parser.finish():
        if turn.finish == "cancelled" and isinstance(event, StreamError):
            continue  # a call cut off by the user's own cancel is not an error to report
        turn.saw_tool_call = turn.saw_tool_call or isinstance(event, ToolCall)
        yield event
    if turn.finish == "stop" and turn.saw_tool_call:
        turn.finish = "tool_calls"


def failed(turn: Turn, exc: BaseException) -> list[Event]:
    """The end of a generation MLX failed in: the error, then Done("error")."""
    turn.finish = "error"
    return [StreamError(f"MLX failed while generating: {one_line(exc)}",
                        kind=FailureKind.ENGINE_FAILED), turn.done()]
