"""Budgets through the real Assistant on the real llama.cpp and MLX engines (tiny models):
reasoning closed at its budget, a conversation that outgrows the window summarized."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from app.core.assistant import Assistant, TurnMode
from app.core.assistant.context_budget import SUMMARY_INTRO
from app.core.events import ContextCompacted, OutputCut, TurnDone, TurnFailed
from app.core.history import HistoryStore
from app.core.runner import ModelRunner
from app.core.settings import Settings
from backends.base import Backend, GenerateOptions
from backends.events import Done, Event, ReasoningDelta, TextDelta
from tests.core.test_assistant_loop import Events
from tests.support.tiny_model import TinyModel

CONTEXT = 2048
WAIT = 600.0  # a safety net only: real engines on a busy machine may take minutes


def _llama(model: TinyModel) -> Backend:
    pytest.importorskip("llama_cpp")
    from backends.llama_cpp import LlamaCppBackend

    return LlamaCppBackend(str(model.gguf_path), context_length=CONTEXT)


def _mlx(model: TinyModel) -> Backend:
    pytest.importorskip("mlx_lm")
    from backends.mlx_backend import MlxBackend

    return MlxBackend(str(model.mlx_dir), context_length=CONTEXT)


@pytest.fixture(scope="module", params=[_llama, _mlx], ids=["llama.cpp", "mlx"])
def engine(request: pytest.FixtureRequest, tiny_model: TinyModel) -> Iterator[ModelRunner]:
    runner = ModelRunner()
    runner.load(request.param(tiny_model)).result(120)
    yield runner
    runner.close()


def _stream(runner: ModelRunner, options: GenerateOptions) -> list[Event]:
    events: list[Event] = []
    messages = [{"role": "system", "content": "You are Hearth."},
                {"role": "user", "content": "Hello"}]
    runner.submit(messages, options, events.append).wait(WAIT)
    return events


def test_the_engine_ends_reasoning_at_the_budget(engine: ModelRunner) -> None:
    events = _stream(engine, GenerateOptions(max_tokens=64, thinking_budget=5, seed=3,
                                             temperature=0.0))
    done = events[-1]
    assert isinstance(done, Done) and done.finish_reason == "thinking_budget"
    assert done.completion_tokens == 5
    assert not any(isinstance(e, TextDelta) for e in events)


def test_a_closed_reasoning_prefix_makes_the_model_answer(engine: ModelRunner) -> None:
    prefix = "I will greet.\n</think>\n\n"
    backend = engine.backend
    assert backend is not None
    options = GenerateOptions(max_tokens=8, assistant_prefix=prefix, seed=4)
    prompt = engine.call(lambda: backend.render_prompt(
        [{"role": "user", "content": "Hello"}], options)).result(WAIT)
    assert prompt.endswith("<think>\n" + prefix)
    events = _stream(engine, options)
    assert not any(isinstance(e, ReasoningDelta) for e in events)
    assert isinstance(events[-1], Done) and events[-1].completion_tokens > 0


def test_assistant_closes_reasoning_at_the_budget_and_answers(
        engine: ModelRunner, history: HistoryStore) -> None:
    assistant = Assistant(engine, history, [], Settings(thinking_budget_chat=6, max_tokens=24))
    events = Events()
    handle = assistant.send(None, "Hello", on_event=events,
                            mode=TurnMode(thinking=True, seed=5, temperature=0.0))
    assert handle.wait(WAIT)
    assert not events.of(TurnFailed)
    (cut,) = events.of(OutputCut)
    assert (cut.part, cut.reason, cut.tokens) == ("reasoning", "budget", 6)
    stored = [m for m in history.messages(handle.conversation_id) if m.role == "assistant"][-1]
    assert stored.notice == "thinking_cut" and stored.reasoning
    assert stored.status == "complete"


def test_a_conversation_bigger_than_the_window_is_summarized_and_answered(
        engine: ModelRunner, history: HistoryStore) -> None:
    conv = str(history.create_conversation("long").id)
    for n in range(40):
        history.add_message(conv, "user", f"Question {n}: tell me about the river number {n}.")
        history.add_message(conv, "assistant", f"River {n} is long and wide. " * 6,
                            reasoning="Think about rivers. " * 4)
    prompts: list[Any] = []
    assistant = Assistant(engine, history, [], Settings(max_tokens=32))
    events = Events()
    handle = assistant.send(conv, "And the last one?", on_event=events,
                            mode=TurnMode(thinking=False, seed=6),
                            on_prompt=lambda messages, options: prompts.append(messages))
    assert handle.wait(WAIT)
    assert events.of(TurnDone) and not events.of(TurnFailed)
    (compacted,) = events.of(ContextCompacted)
    assert compacted.tokens_after < compacted.tokens_before
    assert prompts[0][1]["content"].startswith(SUMMARY_INTRO)
    done = events.of(TurnDone)[0]
    assert done.usage["prompt_tokens"] + 1 < CONTEXT
    stored = history.messages(conv)
    assert sum(1 for m in stored if m.summary_of) == 1
    assert sum(1 for m in stored if m.role == "user") == 41  # every original message stays
