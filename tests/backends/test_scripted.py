"""The scripted backend replays outputs like a real engine would stream them."""

from __future__ import annotations

import pytest

from backends.base import Backend, GenerateOptions
from backends.errors import NotLoaded, RemoteError
from backends.events import Done, Event, ReasoningDelta, StreamError, TextDelta, ToolCall
from backends.scripted import ScriptedBackend
from tests.backends.test_parser import merged
from tests.support.tiny_model import CHAT_TEMPLATE

CALL = ("<tool_call>\n<function=search>\n<parameter=query>\ncats\n</parameter>\n</function>\n"
        "</tool_call>")
USER = [{"role": "system", "content": "You are Hearth."}, {"role": "user", "content": "Hi"}]


def loaded(*outputs: str | list[str]) -> ScriptedBackend:
    backend = ScriptedBackend(list(outputs))
    backend.load()
    return backend


def run(backend: ScriptedBackend, options: GenerateOptions | None = None,
        should_stop: object = None) -> list[Event]:
    stop = should_stop if callable(should_stop) else (lambda: False)
    return list(backend.stream(USER, options or GenerateOptions(), stop))


def test_it_is_a_backend() -> None:
    backend: Backend = ScriptedBackend()
    assert backend.info.engine == "scripted"
    assert not backend.loaded
    backend.load()
    assert backend.loaded
    backend.unload()
    assert not backend.loaded


def test_replays_reasoning_and_answer_in_order() -> None:
    backend = loaded("I should greet.\n</think>\n\nHello there!", "Second.</think>Bye")
    first = run(backend)
    assert merged(first[:-1]) == [ReasoningDelta("I should greet."), TextDelta("Hello there!")]
    assert len(first) > 3  # streamed piece by piece, not in one go
    second = run(backend)
    assert merged(second[:-1]) == [ReasoningDelta("Second."), TextDelta("Bye")]


def test_done_is_last_with_consistent_counts() -> None:
    events = run(loaded("a b c</think>\n\nanswer here"))
    done = events[-1]
    assert isinstance(done, Done) and done.finish_reason == "stop"
    assert sum(isinstance(e, Done) for e in events) == 1
    assert done.completion_tokens >= 5
    assert done.prompt_tokens == len(ScriptedBackend().render_prompt(USER, GenerateOptions()).split())


def test_second_turn_reports_cached_prompt_prefix() -> None:
    backend = loaded("r</think>one", "r</think>two")
    first = run(backend)[-1]
    history = [*USER, {"role": "assistant", "content": "one"}, {"role": "user", "content": "more"}]
    second = list(backend.stream(history, GenerateOptions(), lambda: False))[-1]
    assert isinstance(first, Done) and isinstance(second, Done)
    assert first.cached_prompt_tokens == 0
    assert 0 < second.cached_prompt_tokens < second.prompt_tokens


def test_tool_call_comes_out_structured_and_finish_says_tool_calls() -> None:
    events = run(loaded("Need search.</think>\n\n" + CALL))
    assert [e for e in events if isinstance(e, ToolCall)] == [
        ToolCall("search", {"query": "cats"}, raw=CALL)]
    done = events[-1]
    assert isinstance(done, Done) and done.finish_reason == "tool_calls"


def test_non_think_prompt_means_output_is_answer() -> None:
    events = run(loaded("Plain answer."), GenerateOptions(enable_thinking=False))
    assert merged(events[:-1]) == [TextDelta("Plain answer.")]


def test_explicit_chunks_are_streamed_as_given() -> None:
    events = run(loaded(["thin", "king</th", "ink>", "ans", "wer"]))
    assert merged(events[:-1]) == [ReasoningDelta("thinking"), TextDelta("answer")]
    assert events[-1].completion_tokens == 5  # type: ignore[union-attr]


def test_im_end_stops_the_output() -> None:
    events = run(loaded("r</think>shown<|im_end|>never shown"))
    assert merged(events[:-1]) == [ReasoningDelta("r"), TextDelta("shown")]


def test_max_tokens_cuts_a_call_into_an_error() -> None:
    events = run(loaded("r</think>" + CALL), GenerateOptions(max_tokens=6))
    assert any(isinstance(e, StreamError) and "cut off" in e.message for e in events)
    assert isinstance(events[-1], Done) and events[-1].finish_reason == "length"


def test_should_stop_cancels_between_tokens() -> None:
    backend = loaded("one two three four five six seven eight</think>end")
    seen: list[Event] = []

    def stop() -> bool:
        return len(seen) >= 2

    for event in backend.stream(USER, GenerateOptions(), stop):
        seen.append(event)
    assert isinstance(seen[-1], Done) and seen[-1].finish_reason == "cancelled"
    assert "eight" not in "".join(e.text for e in seen if isinstance(e, ReasoningDelta))


def test_cancel_inside_a_call_is_not_reported_as_an_error() -> None:
    backend = loaded("r</think>" + CALL)
    seen: list[Event] = []
    for event in backend.stream(USER, GenerateOptions(), lambda: len(seen) >= 1):
        seen.append(event)
    assert not any(isinstance(e, (StreamError, ToolCall)) for e in seen)
    assert seen[-1].finish_reason == "cancelled"  # type: ignore[union-attr]


def test_empty_queue_gives_clear_error_then_done() -> None:
    events = run(loaded())
    assert isinstance(events[0], StreamError) and "no output queued" in events[0].message
    assert isinstance(events[-1], Done) and events[-1].finish_reason == "error"


def test_records_what_the_model_was_sent() -> None:
    backend = loaded("r</think>a")
    messages = [dict(m) for m in USER]
    options = GenerateOptions(tools=[{"type": "function", "function": {"name": "search"}}])
    list(backend.stream(messages, options, lambda: False))
    messages[1]["content"] = "changed later"
    (call,) = backend.calls
    assert call.messages == USER
    assert call.options.tools[0]["function"]["name"] == "search"


def test_queue_adds_more_outputs_and_errors_are_raised_like_an_engine() -> None:
    backend = loaded()
    backend.queue("r</think>late", RemoteError("server went away"))
    assert backend.pending == 2
    assert merged(run(backend)[:-1]) == [ReasoningDelta("r"), TextDelta("late")]
    with pytest.raises(RemoteError, match="went away"):
        run(backend)


def test_stream_before_load_is_refused() -> None:
    with pytest.raises(NotLoaded):
        run(ScriptedBackend(["x"]))


def test_prompt_uses_given_template() -> None:
    backend = ScriptedBackend(template=CHAT_TEMPLATE)
    prompt = backend.render_prompt(USER, GenerateOptions(enable_thinking=False))
    assert prompt.startswith("<|im_start|>system\nYou are Hearth.<|im_end|>\n")
    assert prompt.endswith("<|im_start|>assistant\n<think>\n\n</think>\n\n")


def test_default_prompt_shows_messages_and_generation_prompt() -> None:
    prompt = ScriptedBackend().render_prompt(USER, GenerateOptions())
    assert "<|im_start|>user\nHi<|im_end|>\n" in prompt
    assert prompt.endswith("<|im_start|>assistant\n<think>\n")
