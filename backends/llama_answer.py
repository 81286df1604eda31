"""One generation's output on llama.cpp: sampled tokens to events, the reasons it ends, its Done.

Shared by the single path (backends/llama_cpp.py) and batches (backends/llama_batch.py), so a
generation sends the same events whichever way its tokens were decoded."""

from __future__ import annotations

import codecs
import random
import time
from typing import Any

from backends.base import GenerateOptions, ShouldStop
from backends.events import Done, Event, speed
from backends.parser import Reading


def sampling_params(options: GenerateOptions) -> dict[str, Any]:
    """llama-cpp-python's sampler settings for `options` (Llama.generate / _init_sampler)."""
    return dict(top_k=options.top_k, top_p=options.top_p, min_p=options.min_p, typical_p=1.0,
                temp=options.effective_temperature(), repeat_penalty=1.0, frequency_penalty=0.0,
                presence_penalty=0.0, tfs_z=1.0, mirostat_mode=0)


def set_seed(llm: Any, options: GenerateOptions) -> None:
    """The seed of the next sampler llm builds: the request's, or a fresh one."""
    llm.set_seed(options.seed if options.seed is not None else random.getrandbits(31))


class TokenText:
    """Turns generated tokens into text one at a time without ever splitting a character.

    Byte-level vocabularies spread one UTF-8 character over several tokens; the incremental
    decoder holds the leading bytes back until the character is complete."""

    def __init__(self, llm: Any) -> None:
        self._llm = llm
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")

    def push(self, token: int) -> str:
        return str(self._decoder.decode(bytes(self._llm.detokenize([token]))))

    def flush(self) -> str:
        return str(self._decoder.decode(b"", final=True))


class Answer:
    """One generation from its prompt on: each sampled token's events, the reason it ends
    after a token, and the events that close it."""

    def __init__(self, llm: Any, prompt: str, tokens: list[int], options: GenerateOptions,
                 started: float, stop_ids: frozenset[int]) -> None:
        """`tokens`: the prompt's, then options.resume_tokens (replayed here, events dropped)."""
        self.options = options
        self.reading = Reading(prompt, options)
        self.decoder = TokenText(llm)
        self.started = started
        self.first: float | None = None
        self.generated: list[int] = []  # the output's tokens, from a paused part on
        # Go on from a paused part: its tokens are fed exactly as when they were generated and
        # their events dropped (the client has them), so the decoder's held bytes, the parser's
        # state (reasoning or answer, held whitespace, a tag half seen) and the counts are
        # those of an answer never paused.
        for token in options.resume_tokens:
            self._feed(token)
        self.n_prompt = len(tokens) - len(options.resume_tokens)  # the output counts as output
        self._n_ctx = int(llm.n_ctx())
        self._stop_ids = stop_ids

    def _feed(self, token: int) -> list[Event]:
        self.generated.append(token)
        return self.reading.feed(self.decoder.push(token))

    def take(self, token: int, should_stop: ShouldStop) -> tuple[list[Event], str]:
        """A sampled token's events, and why the generation ends after it ("": it goes on)."""
        self.first = self.first or time.perf_counter()
        if token in self._stop_ids:
            return [], "stop"
        events = self._feed(token)
        return events, self._end_reason(should_stop)

    def _end_reason(self, should_stop: ShouldStop) -> str:
        if should_stop():
            return "cancelled"
        if len(self.generated) >= self.options.max_tokens:
            return "length"
        if self.n_prompt + len(self.generated) >= self._n_ctx - 1:
            return "length"  # the next token would not fit in the context
        return "thinking_budget" if self.reading.over_budget() else ""

    def end(self, finish: str, cached: int = 0) -> tuple[list[Event], Done]:
        """Paused first when a stop cut output short (the generation may go on from it), then
        what the decoder and the parser still held; and Done."""
        events, finish = self.reading.close(finish, self.generated, self.decoder.flush())
        return events, self._done(finish, min(cached, self.n_prompt))

    def _done(self, finish: str, cached: int) -> Done:
        end = time.perf_counter()
        first = self.first or end
        prefill_s = max(first - self.started, 1e-9)
        timings = {**speed(self.started, first, end, len(self.generated)),
                   "prefill_ms": prefill_s * 1000.0,
                   "prefill_tokens_per_second": (self.n_prompt - cached) / prefill_s}
        return Done(finish, prompt_tokens=self.n_prompt, cached_prompt_tokens=cached,
                    completion_tokens=len(self.generated), timings=timings)
