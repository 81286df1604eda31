"""The MLX engine on the tiny random-weight Nanbeige model (mlx-lm's CPU build on Linux)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from backends.base import GenerateOptions, Message
from backends.events import Done, Event, ReasoningDelta, StreamError, TextDelta, ToolCall
from backends.mlx_backend import MlxBackend
from tests.support.tiny_model import TINY_CONTEXT

pytestmark = pytest.mark.usefixtures("needs_mlx_lm")

SYSTEM: Message = {"role": "system", "content": "You are Hearth, a helpful assistant."}
WEATHER_TOOL = {"type": "function", "function": {
    "name": "get_weather", "description": "Weather for a city",
    "parameters": {"type": "object", "properties": {"city": {"type": "string"}},
                   "required": ["city"]}}}


def chat(*turns: str) -> list[Message]:
    """System + alternating user/assistant messages."""
    roles = ("user", "assistant")
    return [SYSTEM, *({"role": roles[i % 2], "content": t} for i, t in enumerate(turns))]


def run(backend: MlxBackend, messages: list[Message], stop_after: int = 0,
        **options: Any) -> tuple[list[Event], Done]:
    """Stream to the end; with stop_after > 0 cancel once that many deltas arrived."""
    events: list[Event] = []

    def should_stop() -> bool:
        deltas = sum(isinstance(e, (TextDelta, ReasoningDelta)) for e in events)
        return 0 < stop_after <= deltas

    for event in backend.stream(messages, GenerateOptions(**options), should_stop):
        events.append(event)
    done = events[-1]
    assert isinstance(done, Done)
    assert sum(isinstance(e, Done) for e in events) == 1
    return events, done


def text_of(events: list[Event], kind: type[TextDelta] | type[ReasoningDelta]) -> str:
    return "".join(e.text for e in events if isinstance(e, kind))


class ForcedModel:
    """The real tiny model (so the cache fills for real) with the next tokens forced.

    Random weights say nothing meaningful; forcing lets a test make the model "write" a tool
    call or a long answer, so the backend's parsing, stopping and cancelling can be checked."""

    def __init__(self, inner: Any, forced: list[int]) -> None:
        self.inner, self.forced, self.start = inner, forced, -1

    def __call__(self, inputs: Any, cache: Any = None) -> Any:
        import mlx.core as mx

        logits = self.inner(inputs, cache=cache)
        rows = logits.shape[1]  # several when drafts are verified at once (prompt lookup)
        boosts = []
        for row in range(rows):  # row i's logits choose the token at offset - rows + i + 1
            position = cache[0].offset - rows + 1 + row - self.start
            wanted = self.forced[position] if 0 <= position < len(self.forced) else -1
            boosts.append(mx.where(mx.arange(logits.shape[-1]) == wanted, 1e4, 0.0))
        return logits + mx.stack(boosts)[None].astype(logits.dtype)

    def make_cache(self) -> list[Any]:
        return list(self.inner.make_cache())

    @property
    def layers(self) -> Any:
        return self.inner.layers


@contextmanager
def forcing(backend: MlxBackend, messages: list[Message], text: str,
            options: GenerateOptions | None = None) -> Iterator[list[int]]:
    """Make the next generation emit `text` then <|im_end|>; yields the forced token ids."""
    tokenizer = backend._tokenizer
    prompt = backend.render_prompt(messages, options or GenerateOptions())
    forced = [*tokenizer.encode(text, add_special_tokens=False),
              tokenizer.convert_tokens_to_ids("<|im_end|>")]
    real = backend._model
    wrapper = ForcedModel(real, forced)
    wrapper.start = len(tokenizer.encode(prompt, add_special_tokens=False))
    backend._model = wrapper
    try:
        yield forced
    finally:
        backend._model = real


def prefix_tokens(backend: MlxBackend, messages: list[Message]) -> int:
    """The system prefix every conversation shares (restored from its saved state)."""
    key = backend._key(messages, GenerateOptions(), None)
    return len(key.tokens) if key is not None else 0


@pytest.fixture(scope="module")
def backend(tiny_model, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MlxBackend]:  # type: ignore[no-untyped-def]
    loaded = MlxBackend(str(tiny_model.mlx_dir), cache_dir=tmp_path_factory.mktemp("kv"))
    loaded.load()
    yield loaded
    loaded.unload()


def test_load_reports_what_runs(backend: MlxBackend) -> None:
    info = backend.info
    assert backend.loaded
    assert (info.engine, info.num_loops, info.device) == ("mlx", 2, "cpu")
    assert info.context_length == TINY_CONTEXT  # memory allows more; the model's own limit caps it
    assert info.extra["memory_verdict"] == "fits"


def test_thinking_on_streams_reasoning_first(backend: MlxBackend) -> None:
    events, done = run(backend, chat("What is the weather in Paris?"), max_tokens=12, seed=1)
    deltas = [e for e in events if isinstance(e, (TextDelta, ReasoningDelta))]
    assert deltas and isinstance(deltas[0], ReasoningDelta)
    assert done.finish_reason == "length" and done.completion_tokens == 12
    assert done.prompt_tokens > 10 and done.cached_prompt_tokens == 0
    assert done.timings["ttft_ms"] > 0 and done.timings["tokens_per_second"] > 0


def test_thinking_off_streams_only_answer_text(backend: MlxBackend) -> None:
    events, _ = run(backend, chat("Hello there"), max_tokens=12, seed=2, enable_thinking=False,
                    cache_key="no-think")
    assert text_of(events, TextDelta)
    assert not any(isinstance(e, ReasoningDelta) for e in events)


def test_forced_answer_splits_reasoning_and_text(backend: MlxBackend) -> None:
    messages = chat("Plan my day")
    with forcing(backend, messages, "Look at the calendar.</think>\n\nYou have a meeting."):
        events, done = run(backend, messages, cache_key="forced-answer")
    assert text_of(events, ReasoningDelta).strip() == "Look at the calendar."
    assert text_of(events, TextDelta).strip() == "You have a meeting."
    assert done.finish_reason == "stop"


def test_tool_call_arrives_as_structured_event(backend: MlxBackend) -> None:
    messages = chat("Weather in Paris?")
    call = ("I should call the tool.</think>\n\n<tool_call>\n<function=get_weather>\n"
            "<parameter=city>\nParis\n</parameter>\n</function>\n</tool_call>")
    options = GenerateOptions(tools=[WEATHER_TOOL])
    with forcing(backend, messages, call, options):
        events, done = run(backend, messages, tools=[WEATHER_TOOL], cache_key="tools")
    calls = [e for e in events if isinstance(e, ToolCall)]
    assert [(c.name, c.arguments) for c in calls] == [("get_weather", {"city": "Paris"})]
    assert done.finish_reason == "tool_calls"
    assert "<tool_call>" not in text_of(events, TextDelta)


def test_tools_are_rendered_into_the_prompt(backend: MlxBackend) -> None:
    prompt = backend.render_prompt(chat("hi"), GenerateOptions(tools=[WEATHER_TOOL]))
    assert '"name": "get_weather"' in prompt and prompt.endswith("<think>\n")


def test_cancel_stops_between_tokens(backend: MlxBackend) -> None:
    messages = chat("Tell me a long story")
    story = " ".join(["the weather in the city of Paris is good today"] * 6)
    with forcing(backend, messages, story):
        events, done = run(backend, messages, stop_after=3, cache_key="cancel")
    assert done.finish_reason == "cancelled"
    assert sum(isinstance(e, ReasoningDelta) for e in events) == 3
    assert done.completion_tokens == 3  # each forced word is one token: stopped right away


def test_cancel_before_start_generates_nothing(backend: MlxBackend) -> None:
    events = list(backend.stream(chat("hi"), GenerateOptions(), lambda: True))
    assert len(events) == 1 and isinstance(events[0], Done)
    assert events[0].finish_reason == "cancelled" and events[0].completion_tokens == 0


def test_second_turn_reuses_the_shared_prefix(backend: MlxBackend) -> None:
    first = chat("What is the weather in Paris?")
    answer = "It is sunny.</think>\n\nSunny."
    with forcing(backend, first, answer) as forced:
        _, done1 = run(backend, first, cache_key="reuse")
    second = chat("What is the weather in Paris?", "Sunny.", "And in London?")
    tokenizer = backend._tokenizer
    p1 = tokenizer.encode(backend.render_prompt(first, GenerateOptions()),
                          add_special_tokens=False)
    p2 = tokenizer.encode(backend.render_prompt(second, GenerateOptions()),
                          add_special_tokens=False)
    held = p1 + forced
    expected = next((i for i, (a, b) in enumerate(zip(held, p2, strict=False)) if a != b),
                    min(len(held), len(p2)))
    _, done2 = run(backend, second, max_tokens=4, cache_key="reuse")
    # A new conversation starts from the saved system prefix (earlier tests saved it).
    assert done1.cached_prompt_tokens in (0, prefix_tokens(backend, first))
    assert done2.cached_prompt_tokens == expected >= len(p1)
    assert done2.prompt_tokens == len(p2)


def test_reused_cache_gives_the_same_answer_as_a_fresh_one(backend: MlxBackend,
                                                          tiny_model) -> None:  # type: ignore[no-untyped-def]
    greedy = {"temperature": 0.0, "max_tokens": 16}
    run(backend, chat("Name a city"), cache_key="same", **greedy)
    follow = chat("Name a city", "Paris", "Another one?")
    warm_events, warm = run(backend, follow, cache_key="same", **greedy)
    cold_events, cold = run(backend, follow, cache_key="same-fresh", **greedy)
    assert warm.cached_prompt_tokens > cold.cached_prompt_tokens
    assert cold.cached_prompt_tokens == prefix_tokens(backend, follow)
    assert text_of(warm_events, ReasoningDelta) == text_of(cold_events, ReasoningDelta)


def test_conversations_keep_their_own_caches(backend: MlxBackend) -> None:
    a1, b1 = chat("Topic A: calendar"), chat("Topic B: documents and files")
    run(backend, a1, max_tokens=3, cache_key="A")
    run(backend, b1, max_tokens=3, cache_key="B")
    _, a2 = run(backend, chat("Topic A: calendar", "ok", "more"), max_tokens=3, cache_key="A")
    _, b2 = run(backend, chat("Topic B: documents and files", "ok", "more"), max_tokens=3,
                cache_key="B")
    prompt_a = backend._tokenizer.encode(backend.render_prompt(a1, GenerateOptions()),
                                         add_special_tokens=False)
    assert a2.cached_prompt_tokens >= len(prompt_a)
    assert b2.cached_prompt_tokens > a2.cached_prompt_tokens - 5  # B kept its own, longer prefix


def test_cache_survives_unload_and_a_new_process(tiny_model, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    first = MlxBackend(str(tiny_model.mlx_dir), cache_dir=tmp_path)
    first.load()
    greedy = {"temperature": 0.0, "max_tokens": 8, "cache_key": "chat-42"}
    run(first, chat("Remember Tokyo"), **greedy)
    first.unload()
    assert list(tmp_path.rglob("*.safetensors"))
    reopened = MlxBackend(str(tiny_model.mlx_dir), cache_dir=tmp_path)
    reopened.load()
    follow = chat("Remember Tokyo", "Yes", "Which city?")
    warm_events, warm = run(reopened, follow, **greedy)
    cold_events, cold = run(reopened, follow, **{**greedy, "cache_key": "other"})
    shared = prefix_tokens(reopened, follow)
    reopened.unload()
    assert warm.cached_prompt_tokens > shared + 5 and cold.cached_prompt_tokens == shared
    assert text_of(warm_events, ReasoningDelta) == text_of(cold_events, ReasoningDelta)


@pytest.mark.parametrize("damage", ["garbage", "one flipped bit"])
def test_damaged_cache_file_is_rebuilt_not_fatal(tiny_model, tmp_path: Path, damage: str) -> None:  # type: ignore[no-untyped-def]
    first = MlxBackend(str(tiny_model.mlx_dir), cache_dir=tmp_path)
    first.load()
    run(first, chat("hello"), max_tokens=2, cache_key="x")
    first.unload()
    for file in tmp_path.rglob("*.safetensors"):
        blob = bytearray(file.read_bytes())
        blob[-100] ^= 0x01  # a value in the last tensor: the file still reads, wrongly
        file.write_bytes(b"garbage" if damage == "garbage" else bytes(blob))
    again = MlxBackend(str(tiny_model.mlx_dir), cache_dir=tmp_path)
    again.load()
    _, done = run(again, chat("hello", "hi", "more"), max_tokens=2, cache_key="x")
    again.unload()
    assert done.finish_reason == "length" and done.cached_prompt_tokens == 0


STRING_ARGUMENTS = {"role": "assistant", "content": "", "tool_calls": [
    {"type": "function", "function": {"name": "f", "arguments": '{"a": 1}'}}]}


@pytest.mark.parametrize(("messages", "words"), [
    ([{"role": "user", "content": "hi"}, SYSTEM], "System message"),
    ([SYSTEM, {"role": "user", "content": "hi"}, STRING_ARGUMENTS], "mapping"),
])
def test_messages_the_template_refuses_are_an_error_event(backend: MlxBackend,
                                                         messages: list[Message],
                                                         words: str) -> None:
    events, done = run(backend, messages)
    assert isinstance(events[0], StreamError) and words in events[0].message
    assert done.finish_reason == "error"
    _, after = run(backend, chat("still there?"), max_tokens=2)
    assert after.finish_reason == "length"  # the backend keeps working


def test_prompt_longer_than_context_is_refused(tiny_model) -> None:  # type: ignore[no-untyped-def]
    small = MlxBackend(str(tiny_model.mlx_dir), context_length=2048)
    small.load()
    events, done = run(small, chat("word " * 3000), max_tokens=4)
    small.unload()
    assert isinstance(events[0], StreamError) and "context" in events[0].message
    assert done.finish_reason == "error"


def test_cancel_during_a_long_prefill_keeps_what_was_read(backend: MlxBackend) -> None:
    messages = chat("Summarise: " + "the weather in the city of Paris is good today. " * 60)
    calls: list[int] = []

    def stop_at_first_chunk() -> bool:
        calls.append(1)
        # Polled before starting, as prefill begins, then after each 512-token chunk.
        return len(calls) >= 3

    events = list(backend.stream(messages, GenerateOptions(cache_key="long"),
                                 stop_at_first_chunk))
    assert len(events) == 1 and isinstance(events[0], Done)
    cancelled = events[0]
    assert cancelled.finish_reason == "cancelled" and cancelled.completion_tokens == 0
    assert cancelled.prompt_tokens > 1024  # several prefill chunks were due
    # The next try resumes from the chunk that was read instead of starting over.
    _, again = run(backend, messages, max_tokens=2, cache_key="long")
    assert 0 < again.cached_prompt_tokens < cancelled.prompt_tokens
    # The saved system prefix, then whole 512-token chunks read after it.
    assert (again.cached_prompt_tokens - prefix_tokens(backend, messages)) % 512 == 0
