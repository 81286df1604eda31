"""Batched decoding through the runner on the real llama.cpp and MLX engines (tiny model): an API
answer running alone steps aside when a second request comes and both go on in one batch; the
person's turn pauses the batch and goes first; every answer is, at temperature 0, the one it
would have been alone. The engines' step costs are pinned (GPU-like unless a test says CPU-like),
and so is a lone answer's pace with its drafts (1.0 unless a test says they pay), so what is
batched depends neither on this machine's speed nor on what the tiny model's drafts keep."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from app.core.runner import ModelRunner, Priority, RequestHandle
from backends.base import Backend, GenerateOptions
from backends.events import Done, Event, ReasoningDelta, TextDelta
from backends.llama_cpp import LlamaCppBackend
from backends.mlx_backend import MlxBackend
from tests.support.step_costs import CPU_LIKE, GPU_LIKE, pinned, pinned_pace

WAIT = 300  # hang guard only
# The first writes many deltas on both engines' tiny model (hooks run at its first one).
PROMPTS = ["List the rivers of France, slowly.", "Describe, at great length, a day in Lyon.",
           "Write a long letter to a friend about trains."]


@pytest.fixture(scope="module", params=["llama.cpp", "mlx"])
def llama(request: pytest.FixtureRequest, tiny_model: Any,
          tmp_path_factory: pytest.TempPathFactory) -> ModelRunner:  # type: ignore[misc]
    """The runner on each local engine (the fixture keeps its first engine's name)."""
    runner = ModelRunner()
    kv = tmp_path_factory.mktemp("kv")
    backend: Backend = (
        LlamaCppBackend(str(tiny_model.gguf_path), context_length=4096, cache_dir=kv)
        if request.param == "llama.cpp" else
        MlxBackend(str(tiny_model.mlx_dir), context_length=4096, cache_dir=kv))
    backend.pass_costs = pinned(GPU_LIKE)  # any batch pays
    backend.lone_pace = pinned_pace(1.0)  # ... over a lone answer whose drafts gain nothing
    backend.batch_pace = pinned_pace(1.0)  # (nor a batch's: the costs alone decide)
    runner.load(backend).result(WAIT)
    yield runner
    runner.close()


class Answer:
    """One generation's deltas; `hooks[n]` runs on the model thread after its n-th delta."""

    def __init__(self, runner: ModelRunner, log: list[str], name: str, prompt: str,
                 priority: Priority = Priority.API, max_tokens: int = 60,
                 hooks: dict[int, Callable[[], None]] | None = None) -> None:
        self.name, self.log = name, log
        self.text: list[str] = []
        self.finished = threading.Event()
        self.done: Done | None = None
        self.hooks = hooks or {}
        options = GenerateOptions(max_tokens=max_tokens, temperature=0,
                                  enable_thinking=False, cache_key=name)
        self.handle: RequestHandle = runner.submit(
            [{"role": "user", "content": prompt}], options, self._on, priority=priority,
            pausable=priority is not Priority.USER)

    def _on(self, event: Event) -> None:
        if isinstance(event, (TextDelta, ReasoningDelta)):
            self.text.append(event.text)
            if len(self.text) == 1:
                self.log.append(f"{self.name} writes")
            hook = self.hooks.get(len(self.text))
            if hook is not None:
                hook()
        if isinstance(event, Done):
            self.done = event
            self.log.append(f"{self.name} done")
            self.finished.set()

    def result(self) -> tuple[str, int]:
        assert self.finished.wait(WAIT) and self.done is not None
        return "".join(self.text), self.done.completion_tokens


def alone(runner: ModelRunner, prompt: str, name: str = "solo") -> tuple[str, int]:
    return Answer(runner, [], name, prompt).result()


@contextmanager
def step_costs(runner: ModelRunner, costs: dict[int, float], lone: float = 1.0
               ) -> Iterator[None]:
    """The loaded engine's step costs pinned at `costs` and a lone answer's pace at `lone`
    for a while (GPU-like and 1.0 after)."""
    backend: Any = runner.backend
    backend.pass_costs, backend.lone_pace = pinned(costs), pinned_pace(lone)
    try:
        yield
    finally:
        backend.pass_costs, backend.lone_pace = pinned(GPU_LIKE), pinned_pace(1.0)
        backend.batch_pace = pinned_pace(1.0)


def test_a_second_request_joins_a_running_answer_in_one_batch(llama: ModelRunner) -> None:
    solo = [alone(llama, p) for p in PROMPTS[:2]]
    log: list[str] = []
    later: list[Answer] = []
    first = Answer(llama, log, "first", PROMPTS[0],
                   hooks={1: lambda: later.append(Answer(llama, log, "second", PROMPTS[1]))})
    assert [first.result(), later[0].result()] == solo
    # The second wrote before the first ended: they were decoded together, not one after
    # the other (stepping aside to join is not giving way to the person).
    assert log.index("second writes") < log.index("first done")
    assert first.handle.gave_way == 0
    assert first.handle.batched_with == 1


@pytest.mark.parametrize(("costs", "lone"), [(CPU_LIKE, 1.0), (GPU_LIKE, 2.0)])
def test_a_running_answer_goes_on_alone_when_a_batch_of_two_would_not_be_faster(
        llama: ModelRunner, costs: dict[int, float], lone: float) -> None:
    """CPU-like costs: a step of 2 sequences costs 2 steps of one; GPU-like ones: 1.05, a
    1.9x gain, but the lone answer's drafts make it 2 tokens a pass. Either way the running
    answer keeps the single path and the second waits for it."""
    solo = [alone(llama, p) for p in PROMPTS[:2]]
    log: list[str] = []
    later: list[Answer] = []
    with step_costs(llama, costs, lone):
        first = Answer(llama, log, "first", PROMPTS[0],
                       hooks={1: lambda: later.append(Answer(llama, log, "second", PROMPTS[1]))})
        assert [first.result(), later[0].result()] == solo
    assert log.index("first done") < log.index("second writes")
    assert first.handle.batched_with == later[0].handle.batched_with == 0


def test_the_persons_turn_pauses_a_batch_and_each_answer_goes_on_the_same(
        llama: ModelRunner) -> None:
    solo = [alone(llama, p) for p in PROMPTS]
    person_solo = Answer(llama, [], "person", "hi", priority=Priority.USER, max_tokens=4).result()
    log: list[str] = []
    gate = threading.Event()
    llama.call(lambda: gate.wait(WAIT))  # the three queue up, then start as one batch
    persons: list[Answer] = []
    def person() -> None:  # on the model thread, once the batch has begun to write
        persons.append(Answer(llama, log, "person", "hi", priority=Priority.USER, max_tokens=4))

    answers = [Answer(llama, log, f"api{n}", prompt, hooks={1: person} if n == 0 else None)
               for n, prompt in enumerate(PROMPTS)]
    gate.set()
    assert [a.result() for a in answers] == solo
    assert persons[0].result() == person_solo
    assert log.index("person done") < min(log.index(f"api{n} done") for n in range(3))
    assert all(a.handle.gave_way == 1 for a in answers)


def test_a_batch_member_gives_way_to_a_more_urgent_request_the_batch_would_not_take(
        llama: ModelRunner) -> None:
    """CPU-like costs: 4 routines start as one batch (4 pay); once it is down to 2, an API
    request comes, and 3 in a batch would be slower than 2. The routines give way to it as
    they would alone: it runs first, on its own, and each routine goes on the same after it."""
    solo = alone(llama, PROMPTS[0])
    api_solo = alone(llama, PROMPTS[2])
    log: list[str] = []
    gate = threading.Event()
    asked: list[Answer] = []
    with step_costs(llama, CPU_LIKE):
        llama.call(lambda: gate.wait(WAIT))  # the four queue up, then start as one batch
        short = [Answer(llama, log, f"short{n}", prompt, priority=Priority.ROUTINE,
                        max_tokens=3) for n, prompt in enumerate(PROMPTS[1:])]
        hook = {10: lambda: asked.append(Answer(llama, log, "api", PROMPTS[2]))}
        long = [Answer(llama, log, f"long{n}", PROMPTS[0], priority=Priority.ROUTINE,
                       hooks=hook if n == 0 else None) for n in range(2)]
        gate.set()
        assert [a.result() for a in long] == [solo, solo]
        assert asked[0].result() == api_solo
        for answer in short:
            answer.result()
    assert all(a.handle.batched_with == 3 for a in [*short, *long])
    assert max(log.index("short0 done"), log.index("short1 done")) < log.index("api writes")
    assert log.index("api done") < min(log.index("long0 done"), log.index("long1 done"))
    assert [a.handle.gave_way for a in long] == [1, 1]
    assert asked[0].handle.batched_with == 0
