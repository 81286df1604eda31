"""Batched decoding on the MLX engine (backends/mlx_batch.py), on the tiny random Nanbeige model:
each request of a batch gets what the single path would have sent it alone."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from backends.base import BatchEngine, BatchRequest, GenerateOptions, Message
from backends.errors import FailureKind
from backends.events import (
    Done,
    Event,
    Paused,
    ReasoningDelta,
    StreamError,
    TextDelta,
    merge_deltas,
)
from backends.mlx_backend import MlxBackend
from backends.mlx_batch import CAPACITY
from backends.pass_costs import PassCosts
from tests.conftest import CACHE

pytest.importorskip("mlx_lm")

SYSTEM: Message = {"role": "system", "content": "You are Hearth, a helpful assistant."}
LONG = "Summarise: " + "the weather in the city of Paris is good today. " * 60  # > 512 tokens


def ask(text: str) -> list[Message]:
    return [SYSTEM, {"role": "user", "content": text}]


def greedy(**options: Any) -> GenerateOptions:
    return GenerateOptions(**{"temperature": 0.0, "max_tokens": 40, **options})


class Req:
    """A request and what it received, with a stop rule (after so many deltas)."""

    def __init__(self, messages: list[Message], options: GenerateOptions, stop_after: int = 0
                 ) -> None:
        self.events: list[Event] = []
        self.stop_after = stop_after
        self.request = BatchRequest(messages, options, self.should_stop)

    def should_stop(self) -> bool:
        deltas = sum(isinstance(e, (TextDelta, ReasoningDelta)) for e in self.events)
        return 0 < self.stop_after <= deltas

    @property
    def done(self) -> Done:
        assert sum(isinstance(e, Done) for e in self.events) == 1
        done = self.events[-1]
        assert isinstance(done, Done)
        return done


def batch(backend: MlxBackend, first: list[Req], later: list[Req] | None = None,
          join_at: int = 3) -> list[tuple[Req, Event]]:
    """Run stream_batch; `later` joins through take_more at its join_at-th call. Returns
    every (request, event) in the order the batch sent them."""
    by_request = {id(r.request): r for r in [*first, *(later or [])]}
    calls = 0

    def take_more(places: int) -> list[BatchRequest]:
        nonlocal calls
        calls += 1
        if calls == join_at and later:
            assert places >= len(later)
            return [r.request for r in later]
        return []

    order = []
    for request, event in backend.stream_batch([r.request for r in first], take_more):
        req = by_request[id(request)]
        req.events.append(event)
        order.append((req, event))
    return order


def solo(backend: MlxBackend, messages: list[Message], options: GenerateOptions
         ) -> list[Event]:
    return list(backend.stream(messages, options, lambda: False))


def same_answer(got: list[Event], expected: list[Event]) -> None:
    """Token for token the same events (deltas, tool calls, errors) and the same end."""
    assert [e for e in got if not isinstance(e, Done)] == \
        [e for e in expected if not isinstance(e, Done)]
    done, alone = got[-1], expected[-1]
    assert isinstance(done, Done) and isinstance(alone, Done)
    assert (done.finish_reason, done.prompt_tokens, done.completion_tokens) == (
        alone.finish_reason, alone.prompt_tokens, alone.completion_tokens)


def first_index(order: list[tuple[Req, Event]], req: Req, kind: type[Any] = object) -> int:
    return next(i for i, (r, e) in enumerate(order) if r is req and isinstance(e, kind))


@pytest.fixture(scope="module")
def backend(tiny_model, tmp_path_factory: pytest.TempPathFactory) -> Iterator[MlxBackend]:  # type: ignore[no-untyped-def]
    loaded = MlxBackend(str(tiny_model.mlx_dir), cache_dir=tmp_path_factory.mktemp("kv"))
    loaded.load()
    yield loaded
    loaded.unload()


def test_the_mlx_engine_batches_when_loaded(backend: MlxBackend, tiny_model) -> None:  # type: ignore[no-untyped-def]
    assert isinstance(backend, BatchEngine) and backend.batch_capacity() == CAPACITY > 1
    assert MlxBackend(str(tiny_model.mlx_dir)).batch_capacity() == 1  # not loaded
    from tests.support.tiny_model import build_model

    hd32 = build_model(CACHE / "tiny-model-hd32", hidden=64, intermediate=128, layers=2,
                       heads=2, kv_heads=1, head_dim=32, vocab=512, seed=3)  # quantizable KV
    quantized = MlxBackend(str(hd32.mlx_dir), kv_type="q8_0")
    quantized.load()
    # mlx_lm's batch cache holds f16 KV only: a q8_0 answer batched would differ from alone.
    assert quantized.batch_capacity() == 1
    quantized.unload()


def test_batched_answers_are_the_answers_given_one_at_a_time(backend: MlxBackend) -> None:
    # Prompts of very different lengths (the batch left-pads the short ones; the long one is
    # read in several 512-token chunks), thinking on and off, a thinking budget, and one
    # request that joins while the others are decoding.
    requests = [Req(ask("Hi"), greedy()),
                Req(ask(LONG), greedy()),
                Req(ask("What is 2+2?"), greedy(enable_thinking=False)),
                Req(ask("Plan a trip to the mountains."), greedy(thinking_budget=6))]
    alone = [solo(backend, r.request.messages, r.request.options) for r in requests]
    order = batch(backend, requests[:3], later=requests[3:], join_at=4)
    for req, expected in zip(requests, alone, strict=True):
        same_answer(req.events, expected)
    assert requests[3].done.finish_reason == "thinking_budget"
    assert {r.done.finish_reason for r in requests[:3]} == {"length"}
    # They were decoded together: each had written before any ended, the late one included.
    first_done = min(first_index(order, r, Done) for r in requests)
    assert all(first_index(order, r) < first_done for r in requests)


def test_a_request_stopped_mid_batch_pauses_and_goes_on_as_if_never_stopped(
        backend: MlxBackend) -> None:
    story = ask("Tell me a story about a lighthouse.")
    requests = [Req(ask("Hi"), greedy()), Req(story, greedy(), stop_after=7),
                Req(ask("Name three rivers."), greedy(max_tokens=5))]
    alone = [solo(backend, r.request.messages, r.request.options) for r in requests]
    batch(backend, requests)
    same_answer(requests[0].events, alone[0])
    same_answer(requests[2].events, alone[2])
    assert (requests[2].done.finish_reason, requests[2].done.completion_tokens) == ("length", 5)
    stopped = requests[1].events
    paused = stopped[-2]
    assert isinstance(paused, Paused) and requests[1].done.finish_reason == "cancelled"
    # Stopped after its 7th delta (a token may add no text yet); what it wrote is kept.
    assert requests[1].done.completion_tokens == len(paused.tokens) >= 7
    # Goes on in another batch, beside another request, from the tokens it had written.
    resumed = Req(story, greedy(resume_tokens=list(paused.tokens)))
    other = Req(ask("Hi"), greedy())
    batch(backend, [other, resumed])
    same_answer(other.events, alone[0])
    whole = [e for e in stopped[:-2] + resumed.events if not isinstance(e, Done)]
    assert merge_deltas(whole) == merge_deltas(e for e in alone[1] if not isinstance(e, Done))
    assert resumed.done.completion_tokens == alone[1][-1].completion_tokens  # type: ignore[union-attr]


def test_seeded_sampling_in_a_batch_is_the_seeded_answer_alone(backend: MlxBackend) -> None:
    seeded = GenerateOptions(temperature=0.8, seed=7, max_tokens=30)
    backend.speculate = False  # drafts verified at once draw differently; plain decoding here
    try:
        alone = solo(backend, ask("Hi"), seeded)
    finally:
        backend.speculate = True
    requests = [Req(ask("Write a poem."), replace(seeded, seed=None)),
                Req(ask("Hi"), seeded), Req(ask("Count to ten."), greedy())]
    batch(backend, requests)
    same_answer(requests[1].events, alone)


def test_requests_wait_for_kv_room_and_one_that_can_never_fit_fails_alone(tiny_model,  # type: ignore[no-untyped-def]
                                                                        tmp_path: Path) -> None:
    small = MlxBackend(str(tiny_model.mlx_dir), context_length=512, cache_dir=tmp_path)
    small.load()
    try:
        # Each reserves its prompt (about 55 tokens) and 180 more: two fit the 512-token plan,
        # not three.
        requests = [Req(ask(q), greedy(max_tokens=180)) for q in ("Hi", "Hello", "Hey")]
        too_long = Req(ask("word " * 600), greedy())
        alone = [solo(small, r.request.messages, r.request.options) for r in requests]
        order = batch(small, [*requests, too_long])
    finally:
        small.unload()
    for req, expected in zip(requests, alone, strict=True):
        same_answer(req.events, expected)
    error = too_long.events[0]
    assert isinstance(error, StreamError) and error.kind == FailureKind.CONTEXT_FULL
    assert too_long.done.finish_reason == "error" and len(too_long.events) == 2
    first_end = min(first_index(order, r, Done) for r in requests[:2])
    assert first_index(order, requests[1]) < first_end  # the first two ran together
    assert first_index(order, requests[2]) > first_end  # the third waited for room


def test_the_person_s_chat_cache_is_parked_for_a_batch_and_read_back(tiny_model,  # type: ignore[no-untyped-def]
                                                                    tmp_path: Path) -> None:
    small = MlxBackend(str(tiny_model.mlx_dir), context_length=512, cache_dir=tmp_path)
    small.load()
    try:
        chat = ask("Hello there")
        first = solo(small, chat, greedy(cache_key="chat"))
        reply = "".join(e.text for e in first if isinstance(e, TextDelta))
        following = [*chat, {"role": "assistant", "content": reply},
                     {"role": "user", "content": "And then?"}]
        # Two requests that need the whole KV budget: the chat's cache goes to disk.
        requests = [Req(ask(q), greedy(max_tokens=180)) for q in ("Hi", "Hello")]
        batch(small, requests)
        store = small._store
        assert store is not None and store.bytes_in_memory() == 0
        parked = store.path_for("chat")
        assert parked is not None and parked.exists()  # on disk, not lost
        after = solo(small, following, greedy(cache_key="chat"))
        fresh = solo(small, ask("Something new"), greedy())
    finally:
        small.unload()
    done = after[-1]
    assert isinstance(done, Done) and done.finish_reason == "length"
    # The chat's next turn reads its cache back instead of the whole conversation again.
    assert done.cached_prompt_tokens >= first[-1].prompt_tokens  # type: ignore[union-attr]
    # A new conversation on the single path still starts from the saved system prefix.
    assert fresh[-1].cached_prompt_tokens > 0  # type: ignore[union-attr]


def test_after_a_batch_the_single_path_gives_its_same_answers(backend: MlxBackend) -> None:
    messages = ask("Describe a sunrise.")
    before = solo(backend, messages, greedy())
    batch(backend, [Req(ask("Hi"), greedy()), Req(messages, greedy())])
    same_answer(solo(backend, messages, greedy()), before)


class FailingModel:
    """The real tiny model, failing as MLX can (out of memory) at its n-th forward pass over
    several sequences at once (a batch's decode step)."""

    def __init__(self, inner: Any, fail_at: int) -> None:
        self.inner, self.fail_at, self.calls = inner, fail_at, 0

    def __call__(self, inputs: Any, cache: Any = None) -> Any:
        self.calls += inputs.shape[0] > 1
        if self.calls == self.fail_at:
            raise RuntimeError("[metal::malloc] Resource limit exceeded")
        return self.inner(inputs, cache=cache)

    def make_cache(self) -> list[Any]:
        return list(self.inner.make_cache())

    @property
    def layers(self) -> Any:
        return self.inner.layers


def test_an_engine_failure_mid_batch_ends_every_request_with_an_error(backend: MlxBackend
                                                                      ) -> None:
    requests = [Req(ask(q), greedy()) for q in ("Hi", "Hello", "Hey")]
    real = backend._model
    backend._model = FailingModel(real, fail_at=8)
    try:
        batch(backend, requests)
    finally:
        backend._model = real
    for req in requests:
        assert sum(isinstance(e, (TextDelta, ReasoningDelta)) for e in req.events) > 0
        error = req.events[-2]
        assert isinstance(error, StreamError) and error.kind == FailureKind.ENGINE_FAILED
        assert "Resource limit exceeded" in error.message
        assert req.done.finish_reason == "error"
    assert solo(backend, ask("Hi"), greedy(max_tokens=3))[-1].finish_reason == "length"  # type: ignore[union-attr]


def test_decoding_steps_are_timed_into_the_engines_pass_costs(backend: MlxBackend) -> None:
    """What the runner weighs before it batches: the engine's own step timings, by the number
    of sequences a step carries."""
    learning, before = PassCosts(), backend.pass_costs
    backend.pass_costs = learning
    try:
        requests = [Req(ask("Hi"), greedy()), Req(ask("What is 2+2?"), greedy())]
        batch(backend, requests)
    finally:
        backend.pass_costs = before
    assert {r.done.finish_reason for r in requests} == {"length"}  # 40 steps of both
    assert (learning.measured(2) or 0) > 0
    assert learning.measured(CAPACITY) is None  # never run: still the prior
