"""A fake engine that replays queued raw model outputs, for deterministic tests of the loop above."""

from __future__ import annotations

import copy
import re
import time
from collections import deque
from collections.abc import Iterator
from typing import NamedTuple

from backends.base import BackendInfo, BatchRequest, GenerateOptions, Message, ShouldStop, TakeMore
from backends.chat_format import ChatTemplate
from backends.errors import BackendError, NotLoaded
from backends.events import Done, Event, StreamError, speed
from backends.nanbeige import STOP_TEXTS
from backends.parser import Reading
from backends.pass_costs import PassCosts

# ChatML with the Nanbeige generation prompt, enough for tests to see what the "model" was sent.
MINIMAL_TEMPLATE = (
    "{%- for m in messages -%}"
    "{{- '<|im_start|>' ~ m.role ~ '\\n' ~ (m.content if m.content is string else '') -}}"
    "{%- for c in m.tool_calls or [] -%}{{- '\\n<tool_call>' ~ (c | tojson) ~ '</tool_call>' -}}"
    "{%- endfor -%}"
    "{{- '<|im_end|>\\n' -}}"
    "{%- endfor -%}"
    "{%- if add_generation_prompt -%}{{- '<|im_start|>assistant\\n<think>\\n' -}}"
    "{%- if enable_thinking is false -%}{{- '\\n</think>\\n\\n' -}}{%- endif -%}"
    "{%- endif -%}"
)

# Nanbeige's added tokens are single tokens; words and whitespace runs stand in for the rest.
_TOKEN_RE = re.compile(r"<\|im_end\|>|<\|endoftext\|>|</?think>|</?tool_call>|\s+|[^\s<]+|<")

Script = str | list[str] | BackendError


class ScriptedCall(NamedTuple):
    """What one stream() call was given (deep copies, safe from later changes)."""

    messages: list[Message]
    options: GenerateOptions


class ScriptedBackend:
    """Replays outputs in order, one per stream() call, through the real OutputParser.

    An output is raw model text as it would follow the generation prompt (so it starts inside
    the reasoning when thinking is on), or a list of chunks to stream exactly as given, or a
    BackendError to raise as the engine would. `<|im_end|>` ends an output early, like EOS."""

    def __init__(self, outputs: list[Script] | None = None, template: str | None = None,
                 delay: float = 0.0, batch: int = 1, pass_costs: PassCosts | None = None,
                 lone_gain: float = 1.0) -> None:
        """batch: generations stream_batch() decodes together (1: none); pass_costs: what a
        step of n of them costs, which batch_gain() reports (default: every step costs one
        step, so batching always pays; tests pin others with PassCosts(prior, learn=False));
        lone_gain: tokens per one-token pass of a generation alone (its drafts), reported."""
        self._queue: deque[Script] = deque(outputs or [])
        self._template = ChatTemplate(template or MINIMAL_TEMPLATE)
        self._delay = delay  # seconds between chunks, for demos of streaming; tests leave it 0
        self._batch = batch
        self.pass_costs = pass_costs or PassCosts({1: 1.0}, learn=False)
        self._lone_gain = lone_gain
        self.batches: list[int] = []  # how many generations each stream_batch() step carried
        self._loaded = False
        # One info object for the backend's life, so what others write on it (reason) stays.
        self._info = BackendInfo(engine="scripted", model_name="scripted", context_length=32768,
                                 reason="scripted outputs (tests)")
        self._last_tokens: list[str] = []  # the previous prompt + output, for fake cache hits
        self.calls: list[ScriptedCall] = []

    def queue(self, *outputs: Script) -> None:
        """Add outputs for the next generations."""
        self._queue.extend(outputs)

    @property
    def pending(self) -> int:
        """How many queued outputs are still to be replayed."""
        return len(self._queue)

    @property
    def info(self) -> BackendInfo:
        return self._info

    @property
    def loaded(self) -> bool:
        return self._loaded

    def load(self) -> None:
        self._loaded = True

    def unload(self) -> None:
        self._loaded = False
        # One info object for the backend's life, so what others write on it (reason) stays.
        self._info = BackendInfo(engine="scripted", model_name="scripted", context_length=32768,
                                 reason="scripted outputs (tests)")
        self._last_tokens = []

    def render_prompt(self, messages: list[Message], options: GenerateOptions) -> str:
        return self._template.render(messages, options)

    def count_tokens(self, text: str) -> int:
        return len(_TOKEN_RE.findall(text))

    def forget_conversation(self, cache_key: str) -> None:
        pass  # scripted outputs keep no per-conversation state

    def stream(self, messages: list[Message], options: GenerateOptions,
               should_stop: ShouldStop) -> Iterator[Event]:
        if not self._loaded:
            raise NotLoaded("No model is loaded: call load() first.")
        self.calls.append(ScriptedCall(copy.deepcopy(messages), copy.deepcopy(options)))
        prompt = self.render_prompt(messages, options)
        if not self._queue:
            yield StreamError("The scripted backend has no output queued for this turn.")
            yield Done("error", prompt_tokens=len(prompt.split()))
            return
        script = self._queue.popleft()
        if isinstance(script, BackendError):
            raise script
        yield from self._replay(prompt, script, options, should_stop)

    def batch_capacity(self) -> int:
        return self._batch if self._loaded else 1

    def batch_gain(self, size: int) -> float:
        return self.pass_costs.batch_gain(size)

    def lone_gain(self) -> float:
        return self._lone_gain

    def stream_batch(self, first: list[BatchRequest], take_more: TakeMore
                     ) -> Iterator[tuple[BatchRequest, Event]]:
        """Replays each request's output as stream() would, one chunk of each per step, taking
        more requests between steps (a request's output is taken from the queue when it joins)."""
        running = [(request, self._member(request)) for request in first]
        while True:
            joined = take_more(self._batch - len(running)) if len(running) < self._batch else []
            running += [(request, self._member(request)) for request in joined]
            if not running:
                return
            self.batches.append(len(running))
            for item in list(running):
                event = next(item[1])
                yield item[0], event
                if isinstance(event, Done):
                    running.remove(item)

    def _member(self, request: BatchRequest) -> Iterator[Event]:
        try:
            yield from self.stream(request.messages, request.options, request.should_stop)
        except BackendError as exc:  # this request's scripted failure, not the batch's
            yield StreamError(str(exc), kind=exc.kind)
            yield Done("error")

    def _replay(self, prompt: str, script: str | list[str], options: GenerateOptions,
                should_stop: ShouldStop) -> Iterator[Event]:
        started = time.perf_counter()
        reading = Reading(prompt, options)
        chunks = _TOKEN_RE.findall(script) if isinstance(script, str) else list(script)
        finish, first = "stop", 0.0
        sent: list[str] = []
        for chunk in chunks:
            if should_stop():
                finish = "cancelled"
                break
            if chunk in STOP_TEXTS:
                break
            if len(sent) >= options.max_tokens:
                finish = "length"
                break
            if self._delay:
                time.sleep(self._delay)
            first = first or time.perf_counter()
            sent.append(chunk)
            yield from reading.feed(chunk)
            if reading.over_budget():
                finish = "thinking_budget"
                break
        events, finish = reading.close(finish)
        yield from events
        yield self._done(prompt, sent, finish, started, first)

    def _done(self, prompt: str, sent: list[str], finish: str, started: float,
              first: float) -> Done:
        tokens = prompt.split()
        cached = 0
        for ours, before in zip(tokens, self._last_tokens, strict=False):
            if ours != before:
                break
            cached += 1
        self._last_tokens = tokens + "".join(sent).split()
        end = time.perf_counter()
        first = first or end
        return Done(finish, prompt_tokens=len(tokens), cached_prompt_tokens=cached,
                    completion_tokens=len(sent), timings=speed(started, first, end, len(sent)))
