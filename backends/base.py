"""The one interface every engine implements, and the options a generation takes."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

if TYPE_CHECKING:
    from backends.events import Event

Message = dict[str, Any]
"""An OpenAI-style chat message: role, content, optional reasoning_content and tool_calls.

In history, `tool_calls[].function.arguments` is a dict (the Nanbeige template needs that)."""


@dataclass
class GenerateOptions:
    """What one generation asks for. Sampling defaults are the model's own (MODEL.md)."""

    enable_thinking: bool = True
    preserve_thinking: bool = False
    tools: list[dict[str, Any]] = field(default_factory=list)  # OpenAI {"type":"function",...}
    tool_call_format: str = "xml"
    max_tokens: int = 2048
    temperature: float | None = None  # None: 0.6, or 1.0 when tools are offered
    top_p: float = 0.95
    top_k: int = 20
    min_p: float = 0.0
    seed: int | None = None
    cache_key: str | None = None  # conversation id, for per-conversation KV caches
    # Reasoning tokens after which the engine ends the generation with finish_reason
    # "thinking_budget" (None: no limit). The core then closes the reasoning itself.
    thinking_budget: int | None = None
    # The reply so far, rendered right after the generation prompt: the model continues it
    # (the core closes cut-short reasoning with it: "<reasoning>\n</think>\n\n").
    assistant_prefix: str = ""
    # The output this same generation had produced when it paused for a more urgent one
    # (events.Paused): the engine reads them after the prompt and goes on from there, its
    # events picking up exactly where they stopped (only engines with resumes_output).
    resume_tokens: list[int] = field(default_factory=list)
    raw_prompt: str | None = None  # a prompt sent as is, no template (/v1/completions)
    # The answer must be JSON valid against this schema (an API client's response_format).
    json_schema: dict[str, Any] | None = None

    def effective_temperature(self) -> float:
        if self.temperature is not None:
            return self.temperature
        return 1.0 if self.tools else 0.6


@dataclass
class BackendInfo:
    """What is loaded, for status bars, settings and `hearth ask --json`."""

    engine: str
    model_path: str = ""
    model_name: str = ""
    context_length: int = 0
    num_loops: int = 1
    quantization: str = ""
    device: str = "cpu"
    kv_type: str = "f16"
    reason: str = ""  # why this engine was chosen
    extra: dict[str, Any] = field(default_factory=dict)


ShouldStop = Callable[[], bool]


class Backend(Protocol):
    """A model engine. Not thread-safe: one ModelRunner thread owns it."""

    @property
    def info(self) -> BackendInfo: ...

    @property
    def loaded(self) -> bool: ...

    def load(self) -> None:
        """Load the model; raises a BackendError subclass with a readable message."""

    def unload(self) -> None:
        """Free the model and its caches."""

    def render_prompt(self, messages: list[Message], options: GenerateOptions) -> str:
        """The exact prompt text the engine would be sent (for --print-prompt);
        options.raw_prompt, when set, is that text already."""

    def count_tokens(self, text: str) -> int:
        """How many tokens `text` is for the loaded model (an estimate where none is known)."""

    def forget_conversation(self, cache_key: str) -> None:
        """Drop everything kept for this conversation (its KV in memory and on disk)."""

    def stream(
        self, messages: list[Message], options: GenerateOptions, should_stop: ShouldStop
    ) -> Iterator[Event]:
        """Generate; yields deltas and tool calls, always ending with exactly one Done.

        should_stop is polled between tokens; when it returns True the stream ends with
        Done(finish_reason="cancelled"). An engine with `resumes_output = True` sends
        events.Paused (the tokens so far) first and goes on from options.resume_tokens."""


OnProgress = Callable[[int, int], None]  # (tokens ready, tokens in all)


@dataclass
class BatchRequest:
    """One generation of a batch: what stream() takes, with a stop callback of its own."""

    messages: list[Message]
    options: GenerateOptions
    should_stop: ShouldStop


TakeMore = Callable[[int], list[BatchRequest]]
"""(places free) -> the waiting requests that join the batch now (none: nothing waits)."""


@runtime_checkable
class BatchEngine(Protocol):
    """What an engine adds that decodes several generations in one forward pass, each with
    its own KV (API requests from several agents at once)."""

    def batch_capacity(self) -> int:
        """How many generations one forward pass can carry (1: this engine does not batch)."""

    def batch_gain(self, size: int) -> float:
        """Tokens per second of a step decoding `size` generations together, over one
        generation decoding alone, as this engine's own timings say (backends/pass_costs.py):
        where it is not above 1, decoding them one after another is as fast or faster."""

    def lone_gain(self) -> float:
        """Tokens per one-token pass that generations decoding alone (stream(): the single
        path, with its prompt-lookup drafts) have made lately, as this engine measured them:
        1.0 where drafts gain nothing or nothing was measured yet. A batch pays only where
        its batch_gain beats this."""

    def stream_batch(self, first: list[BatchRequest], take_more: TakeMore
                     ) -> Iterator[tuple[BatchRequest, Event]]:
        """Decode `first` together, asking take_more(places free) between steps for more.

        Yields (request, event): each request gets exactly the events stream() would have
        sent it alone (at temperature 0 the same tokens), Paused before its
        Done("cancelled") when its should_stop ended it, and exactly one Done. A request
        whose KV does not fit waits inside the batch until others end; one that can never
        fit ends with an error of its own. Returns when no request is left and take_more
        gives none. JSON-schema requests are never passed here."""


@runtime_checkable
class LocalEngine(Protocol):
    """What the local engines (llama.cpp, MLX) add: a saved, warmable prompt prefix."""

    def prepare_prefix(self, messages: list[Message], options: GenerateOptions,
                       should_stop: ShouldStop, on_progress: OnProgress | None = None) -> bool:
        """Bring the prefix (system message + tools) into the engine, from disk or computed;
        True when complete, False when should_stop ended it early (the part done is kept)."""

    def prefix_tokens(self, messages: list[Message], options: GenerateOptions) -> int:
        """Tokens of the rendered prefix of `messages` (system message + tool schemas)."""

    def clear_saved_states(self) -> None:
        """Forget every saved prefix and conversation state, in memory and on disk."""
