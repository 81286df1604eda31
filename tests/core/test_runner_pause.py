"""A pausable generation (an API answer) and what may or may not pause it: the person's turn
pauses it mid-answer on both local engines (real llama.cpp and MLX on the tiny model) and it
goes on token for token the same; a cancel while it waits ends it; a model load, a JSON-schema
answer and an engine that cannot resume are never cut mid-answer."""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.core.runner import ModelRunner, Priority, RequestHandle
from backends.base import Backend, GenerateOptions
from backends.events import (
    Done,
    Event,
    Prefill,
    ReasoningDelta,
    StreamError,
    TextDelta,
    ToolCall,
    merge_deltas,
)
from backends.llama_cpp import LlamaCppBackend
from tests.core.test_runner import GatedBackend

WAIT = 120  # hang guard only
PROMPT = [{"role": "user", "content": "Describe, at great length, a day in Lyon."}]


@pytest.fixture(scope="module")
def llama(tiny_model: Any, tmp_path_factory: pytest.TempPathFactory) -> ModelRunner:  # type: ignore[misc]
    runner = ModelRunner()
    runner.load(LlamaCppBackend(str(tiny_model.gguf_path), context_length=4096,
                                cache_dir=tmp_path_factory.mktemp("kv"))).result(WAIT)
    yield runner
    runner.close()


class Api:
    """An API answer on the runner; `at_delta(n, fn)` runs fn on the model thread after its
    n-th delta; `log` is the order of events on that thread."""

    def __init__(self, runner: ModelRunner, log: list[str], options: GenerateOptions,
                 pausable: bool = True, prompt: str = PROMPT[0]["content"]) -> None:
        self.log = log
        self.done: list[Done] = []
        self.finished = threading.Event()
        self.deltas = 0
        self.events: list[Event] = []
        self.hooks: dict[int, Callable[[], None]] = {}
        self.handle: RequestHandle = runner.submit(
            [{"role": "user", "content": prompt}], options, self._on, pausable=pausable,
            priority=Priority.API)

    def _on(self, event: Event) -> None:
        if isinstance(event, Prefill):
            self.log.append("api reads its prompt")
        if isinstance(event, (ReasoningDelta, TextDelta, ToolCall, StreamError)):
            self.events.append(event)
        if isinstance(event, (ReasoningDelta, TextDelta)):
            self.deltas += 1
            self.log.append("api delta")
            hook = self.hooks.get(self.deltas)
            if hook is not None:
                hook()
        if isinstance(event, Done):
            self.log.append(f"api done: {event.finish_reason}")
            self.done.append(event)
            self.finished.set()


def person(runner: ModelRunner, log: list[str], on_first: Callable[[], None] = lambda: None,
           ) -> threading.Event:
    finished = threading.Event()

    def on_event(event: Event) -> None:
        if isinstance(event, (ReasoningDelta, TextDelta)) and "person answers" not in log:
            log.append("person answers")
            on_first()
        if isinstance(event, Done):
            log.append("person done")
            finished.set()

    runner.submit([{"role": "user", "content": "hi"}],
                  GenerateOptions(max_tokens=4, enable_thinking=False, temperature=0,
                                  cache_key="person"), on_event, priority=Priority.USER)
    return finished


def options(**extra: Any) -> GenerateOptions:
    return GenerateOptions(**{"max_tokens": 300, "temperature": 0, "cache_key": "api", **extra})


def test_a_cancel_while_paused_ends_the_answer_and_it_never_goes_on(llama: ModelRunner) -> None:
    log: list[str] = []
    api = Api(llama, log, options())
    turn: list[threading.Event] = []
    api.hooks[5] = lambda: turn.append(person(llama, log, on_first=api.handle.cancel))
    assert api.finished.wait(WAIT) and turn and turn[0].wait(WAIT)
    assert api.done[0].finish_reason == "cancelled" and api.handle.gave_way == 1
    after = log[log.index("person answers"):]
    assert "api done: cancelled" in after and "api delta" not in after


def test_a_model_load_or_other_call_never_pauses_an_answer(llama: ModelRunner) -> None:
    log: list[str] = []
    api = Api(llama, log, options())
    calls: list[Any] = []
    api.hooks[5] = lambda: calls.append(llama.call(lambda: log.append("call ran")))
    assert api.finished.wait(WAIT) and calls[0].result(WAIT) is None
    assert api.handle.gave_way == 0 and log.index("api done: length") < log.index("call ran")


def test_a_json_schema_answer_is_not_cut_once_it_writes(llama: ModelRunner) -> None:
    """A grammar starts again from its first rule: such an answer is never continued."""
    log: list[str] = []
    api = Api(llama, log, options(json_schema={"type": "object"}, enable_thinking=False))
    turn: list[threading.Event] = []
    api.hooks[2] = lambda: turn.append(person(llama, log))
    assert api.finished.wait(WAIT) and turn and turn[0].wait(WAIT)
    ended = next(i for i, entry in enumerate(log) if entry.startswith("api done"))
    assert api.handle.gave_way == 0 and ended < log.index("person done")


def test_an_engine_that_cannot_resume_is_not_cut_once_it_writes() -> None:
    runner = ModelRunner()
    gated = GatedBackend(["one ", "two ", "three"])
    try:
        runner.load(gated).result(WAIT)  # type: ignore[arg-type]
        log: list[str] = []
        api = Api(runner, log, GenerateOptions())
        turn: list[threading.Event] = []
        api.hooks[1] = lambda: turn.append(person(runner, log))
        assert api.finished.wait(WAIT) and turn and turn[0].wait(WAIT)
    finally:
        runner.close()
    assert api.handle.gave_way == 0 and api.deltas == 3
    assert log.index("api done: stop") < log.index("person done")


def test_the_person_pauses_an_answer_that_then_goes_on(llama: ModelRunner) -> None:
    log: list[str] = []
    api = Api(llama, log, options())
    api.hooks[5] = lambda: person(llama, log)
    assert api.finished.wait(WAIT)
    assert api.handle.gave_way == 1 and api.done[0].finish_reason == "length"
    assert api.done[0].completion_tokens == 300  # counted over both parts
    first = log.index("person done")
    assert log.count("api delta") > 5 and "api delta" in log[first:]


def test_going_on_reads_only_what_the_persons_turn_displaced(llama: ModelRunner) -> None:
    """The answer's KV waits in the engine's per-conversation cache: going on 600 tokens into
    it reads no prompt again (a re-read of that many tokens would report its progress)."""
    log: list[str] = []
    api = Api(llama, log, options(max_tokens=700))
    turn: list[threading.Event] = []
    api.hooks[600] = lambda: turn.append(person(llama, log))
    assert api.finished.wait(WAIT) and turn and turn[0].wait(WAIT)
    assert api.handle.gave_way == 1 and api.done[0].completion_tokens == 700
    assert "api reads its prompt" not in log[log.index("person done"):]
    assert api.done[0].cached_prompt_tokens == api.done[0].prompt_tokens


def engine(name: str, tiny_model: Any, folder: Path) -> Backend:
    if name == "llama.cpp":
        return LlamaCppBackend(str(tiny_model.gguf_path), context_length=4096, cache_dir=folder)
    pytest.importorskip("mlx_lm")
    from backends.mlx_backend import MlxBackend

    return MlxBackend(str(tiny_model.mlx_dir), cache_dir=folder)


@pytest.mark.parametrize("thinking", [True, False], ids=["inside reasoning", "inside the answer"])
@pytest.mark.parametrize("name", ["llama.cpp", "mlx"])
def test_an_answer_paused_at_every_delta_goes_on_token_for_token_the_same(
        tiny_model: Any, tmp_path: Path, name: str, thinking: bool) -> None:
    runner = ModelRunner()
    try:
        runner.load(engine(name, tiny_model, tmp_path / "kv")).result(WAIT)
        log: list[str] = []
        # Prompts the tiny random model answers at length, without an early end of turn.
        prompt = PROMPT[0]["content"] if thinking else "Explain quantum physics."
        reference = Api(runner, log, options(enable_thinking=thinking, max_tokens=120),
                        prompt=prompt)
        assert reference.finished.wait(WAIT) and reference.deltas >= 12, "too short to pause"
        log.clear()
        paused = Api(runner, log, options(enable_thinking=thinking, max_tokens=120),
                     prompt=prompt)
        turns: list[threading.Event] = []
        for n in range(2, reference.deltas - 2):  # inside words, after spaces, before tags
            paused.hooks[n] = lambda: turns.append(person(runner, log))
        assert paused.finished.wait(WAIT) and all(turn.wait(WAIT) for turn in turns)
    finally:
        runner.close()
    assert merge_deltas(paused.events) == merge_deltas(reference.events)
    kinds = {type(e) for e in reference.events}
    assert kinds == ({ReasoningDelta} if thinking else {TextDelta})
    done, expected = paused.done[0], reference.done[0]
    assert (done.finish_reason, done.completion_tokens) == (
        expected.finish_reason, expected.completion_tokens)
    # Each pause let the person's turn run there: it ended before the answer went on.
    assert paused.handle.gave_way >= len(turns) // 2 and len(turns) >= 8
    assert log.index("person done") < len(log) - 1 - log[::-1].index("api delta")
