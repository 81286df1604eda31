"""Batched decoding on llama.cpp: several requests in one forward pass answer as they would alone."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from backends.base import BatchRequest, GenerateOptions
from backends.errors import FailureKind
from backends.events import (
    Done,
    Event,
    Paused,
    Prefill,
    ReasoningDelta,
    StreamError,
    TextDelta,
    merge_deltas,
)
from tests.support.tiny_model import TinyModel

pytest.importorskip("llama_cpp")

import llama_cpp

from backends.llama_batch import CAPACITY
from backends.llama_cpp import LlamaCppBackend
from backends.pass_costs import TRUST, PassCosts
from backends.prompt_lookup import ClassEvidence

SYSTEM = {"role": "system", "content": "You are Hearth, a helpful assistant."}
PROMPTS = [
    "Hi",
    "What is the weather in Paris today, and should I take an umbrella to the museum?",
    "Summarise this report for me. " + "Sales rose in the north and fell in the south. " * 20,
    "List three rivers.",
]


def never() -> bool:
    return False


def ask(text: str) -> list[dict[str, Any]]:
    return [SYSTEM, {"role": "user", "content": text}]


def request(text: str, should_stop: Callable[[], bool] = never, **options: Any) -> BatchRequest:
    return BatchRequest(ask(text), GenerateOptions(**{"max_tokens": 24, "temperature": 0.0,
                                                      **options}), should_stop)


def alone(backend: LlamaCppBackend, req: BatchRequest) -> list[Event]:
    return list(backend.stream(req.messages, req.options, req.should_stop))


def batched(backend: LlamaCppBackend, first: list[BatchRequest],
            later: list[BatchRequest] | None = None, join_at: int = 3
            ) -> dict[int, list[Event]]:
    """Each request's events from one batch; `later` joins at the join_at-th take_more."""
    calls: list[int] = []
    waiting = list(later or [])

    def take_more(places: int) -> list[BatchRequest]:
        calls.append(places)
        if len(calls) < join_at or not waiting:
            return []
        return [waiting.pop(0) for _ in range(min(places, len(waiting)))]

    events: dict[int, list[Event]] = {id(r): [] for r in [*first, *(later or [])]}
    for req, event in backend.stream_batch(first, take_more):
        events[id(req)].append(event)
    assert not waiting
    return events


def seen(events: list[Event]) -> list[Event]:
    """What the client reads: the output (runs of deltas merged), no progress or timings."""
    return merge_deltas(e for e in events if not isinstance(e, Done | Prefill))


def outcome(events: list[Event]) -> tuple[str, int, int]:
    done = events[-1]
    assert isinstance(done, Done) and sum(isinstance(e, Done) for e in events) == 1
    return done.finish_reason, done.prompt_tokens, done.completion_tokens


def text_of(events: list[Event]) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta | ReasoningDelta))


@pytest.fixture(scope="module")
def backend(tiny_model: TinyModel, tmp_path_factory: pytest.TempPathFactory
            ) -> Iterator[LlamaCppBackend]:
    b = LlamaCppBackend(str(tiny_model.gguf_path), context_length=1024,
                        cache_dir=tmp_path_factory.mktemp("states"))
    b.load()
    yield b
    b.unload()


@pytest.fixture()
def decodes(monkeypatch: pytest.MonkeyPatch) -> list[set[int]]:
    """The sequences each llama_decode call carried (the real call, watched)."""
    real = llama_cpp.llama_decode
    seen_seqs: list[set[int]] = []

    def watched(ctx: Any, batch: Any) -> int:
        seen_seqs.append({batch.seq_id[i][0] for i in range(batch.n_tokens)})
        return int(real(ctx, batch))

    monkeypatch.setattr(llama_cpp, "llama_decode", watched)
    return seen_seqs


def test_capacity_is_the_batch_size_once_loaded(tiny_model: TinyModel) -> None:
    b = LlamaCppBackend(str(tiny_model.gguf_path), context_length=256)
    assert b.batch_capacity() == 1
    b.load()
    assert b.batch_capacity() == CAPACITY == 4
    assert llama_cpp.llama_n_ctx(b._llm.ctx) == 256  # sequence 0 still has the whole context
    b.unload()


def test_batched_answers_equal_answers_alone(backend: LlamaCppBackend,
                                            decodes: list[set[int]]) -> None:
    requests = [request(PROMPTS[0], max_tokens=30), request(PROMPTS[1]),
                request(PROMPTS[2], temperature=0.8, seed=11)]
    late = request(PROMPTS[3], enable_thinking=False)
    solo = {id(r): alone(backend, r) for r in [*requests, late]}
    decodes.clear()
    got = batched(backend, requests, [late])
    for req in [*requests, late]:
        assert seen(got[id(req)]) == seen(solo[id(req)])
        assert outcome(got[id(req)]) == outcome(solo[id(req)])
    assert max(len(seqs) for seqs in decodes) == 4  # all four in one forward pass
    assert {0} not in decodes  # the live conversation's sequence is left alone
    # The long prompt says how far it has read, as alone, and the answer follows it.
    progress = [e for e in got[id(requests[2])] if isinstance(e, Prefill)]
    assert progress[0].done == 0 and progress[-1].done == progress[-1].total > 512


COPYING = [  # answers the tiny model partly copies from their prompts: drafts kept and refused
    "Copy this: the quick brown fox jumps over the lazy dog. the quick brown fox jumps over "
    "the lazy dog.",
    "def main():\n    return [x * 2 for x in range(10)]  # comment\n" * 3,
    "Sheet:\nregion,quarter,revenue\nNorth,Q1,12500\nSouth,Q2,9800\nThe same rows as a "
    "Markdown table:\n| region | quarter | revenue |\n|---|---|---|\n| North |",
    "hello",
]


def test_members_verify_drafts_and_answer_as_plain_decoding_does(tiny_model: TinyModel
                                                                 ) -> None:
    """Each member drafts from its own prompt in the shared pass; what it keeps and what it
    refuses leave its answer token for token plain decoding's, greedy or sampled."""
    plain = LlamaCppBackend(str(tiny_model.gguf_path), context_length=1024, speculate=False)
    fast = LlamaCppBackend(str(tiny_model.gguf_path), context_length=1024)
    # Rows priced as free: whether a member drafts does not hang on the machine's speed.
    fast.pass_costs = PassCosts({1: 1.0, 16: 1.0}, learn=False)
    plain.load()
    fast.load()
    requests = [request(COPYING[0], max_tokens=64), request(COPYING[1], max_tokens=64),
                request(COPYING[2], max_tokens=48, temperature=0.8, seed=5),
                request(COPYING[3], max_tokens=40)]
    got = batched(fast, requests)
    kept = drafted = 0.0
    for req in requests:
        assert seen(got[id(req)]) == seen(alone(plain, req))
        assert outcome(got[id(req)]) == outcome(alone(plain, req))
        done = got[id(req)][-1]
        assert isinstance(done, Done)
        kept += done.timings["accepted_draft_tokens"]
        drafted += done.timings["drafted_tokens"]
    assert 0 < kept < drafted  # drafts saved passes, and refused ones left the KV
    # The next batch's members start from how these members' drafts fared, not the priors.
    assert fast.batch_evidence.start() != ClassEvidence().start()
    # The runner weighs a batch with what its drafts made of its steps; without drafts, 1.
    assert fast.batch_pace.gain > 1.0 and fast.batch_gain(4) > fast.pass_costs.batch_gain(4)
    batched(plain, requests)
    assert plain.batch_pace.gain == 1.0
    plain.unload()
    fast.unload()


def test_a_stopped_request_pauses_and_goes_on_as_if_never_stopped(
        backend: LlamaCppBackend) -> None:
    flags = {"stop": False}
    stopped = request(PROMPTS[1], lambda: flags["stop"], max_tokens=30)
    others = [request(PROMPTS[0]), request(PROMPTS[3])]
    never_started = request("Never mind.", lambda: True)
    solo = {id(r): alone(backend, r) for r in [stopped, *others]}
    events: dict[int, list[Event]] = {id(r): [] for r in [stopped, *others, never_started]}
    for req, event in backend.stream_batch([stopped, *others, never_started], lambda n: []):
        events[id(req)].append(event)
        if req is stopped and len(events[id(req)]) == 5:
            flags["stop"] = True
    for req in others:
        assert seen(events[id(req)]) == seen(solo[id(req)])
    assert [type(e) for e in events[id(never_started)]] == [Done]
    assert outcome(events[id(never_started)])[0] == "cancelled"
    first_part = events[id(stopped)]
    pause = next(e for e in first_part if isinstance(e, Paused))
    assert outcome(first_part)[0] == "cancelled" and 0 < len(pause.tokens) < 30
    # Go on from the paused tokens, in another batch: the rest completes the same answer.
    rest = replace(stopped, should_stop=never,
                   options=replace(stopped.options, resume_tokens=list(pause.tokens)))
    resumed = batched(backend, [request(PROMPTS[2]), rest])[id(rest)]
    before = first_part[:first_part.index(pause)]
    assert seen(before + resumed) == seen(solo[id(stopped)])
    assert outcome(resumed) == outcome(solo[id(stopped)])


AGENT = {"role": "system", "content": "You are a file agent. Tools: read, write, list. " * 6}


def agent_request(*texts: str) -> BatchRequest:
    messages = [AGENT] + [{"role": "user" if i % 2 == 0 else "assistant", "content": text}
                          for i, text in enumerate(texts)]
    return BatchRequest(messages, GenerateOptions(max_tokens=24, temperature=0.0), never)


def test_requests_with_one_system_prompt_share_its_cells(backend: LlamaCppBackend) -> None:
    from backends.prefix_cache import common_prefix

    first, second = agent_request("List the files."), agent_request("Read notes.txt.")
    solo = alone(backend, second)
    alone(backend, request("Something else."))  # the live conversation shares "You are "
    got = batched(backend, [first], [second], join_at=4)  # once the first has read its prompt
    shared = common_prefix(*(backend.encode_prompt(r.messages, r.options).tokens
                             for r in (first, second)))
    assert got[id(first)][-1].cached_prompt_tokens < 20
    assert got[id(second)][-1].cached_prompt_tokens == shared > 150
    assert seen(got[id(second)]) == seen(solo)


def test_a_request_goes_on_from_the_live_conversation(backend: LlamaCppBackend) -> None:
    from backends.llama_prefix import matching_tokens

    follow_up = agent_request("Read notes.txt.", "It says: buy milk.", "And todo.txt?")
    solo = alone(backend, follow_up)
    alone(backend, agent_request("Read notes.txt."))  # the agent's previous turn, alone
    live = matching_tokens(backend._llm, backend.encode_prompt(
        follow_up.messages, follow_up.options).tokens)
    got = batched(backend, [follow_up, request(PROMPTS[0])])[id(follow_up)]
    assert got[-1].cached_prompt_tokens == live > 200
    assert seen(got) == seen(solo)


def test_limits_end_each_request_on_its_own(backend: LlamaCppBackend) -> None:
    short = request(PROMPTS[1], max_tokens=3)
    too_long = request("word " * 1100)
    normal = request(PROMPTS[0])
    got = batched(backend, [short, too_long, normal])
    assert outcome(got[id(short)])[::2] == ("length", 3)
    error, done = got[id(too_long)]
    assert isinstance(error, StreamError) and error.kind is FailureKind.CONTEXT_FULL
    assert "more than the model's 1,024-token context" in error.message
    assert isinstance(done, Done) and done.finish_reason == "error"
    assert seen(got[id(normal)]) == seen(alone(backend, normal))


def test_a_request_that_does_not_fit_yet_waits_for_the_others(
        backend: LlamaCppBackend) -> None:
    small = [request(PROMPTS[0]), request(PROMPTS[3])]
    # Its prompt and max_tokens (941 cells of 1,024) fit only once the others have ended.
    big = request("Summarise: " + "The river runs to the sea. " * 48, max_tokens=64)
    order: list[tuple[int, Event]] = []
    for req, event in backend.stream_batch([*small, big], lambda n: []):
        order.append((id(req), event))
    first_of_big = next(i for i, (key, _) in enumerate(order) if key == id(big))
    last_done_of_small = max(i for i, (key, e) in enumerate(order)
                             if key != id(big) and isinstance(e, Done))
    assert first_of_big > last_done_of_small
    big_events = [e for key, e in order if key == id(big)]
    assert seen(big_events) == seen(alone(backend, big))


CHAT = [SYSTEM, {"role": "user", "content": "Plan my week in Paris: museums, food. " * 8}]
CHAT_NEXT = [*CHAT, {"role": "assistant", "content": "Monday: the Louvre."},
             {"role": "user", "content": "And Tuesday?"}]


def chat_turn(backend: LlamaCppBackend, messages: list[dict[str, Any]]) -> tuple[str, Done]:
    events = list(backend.stream(messages, GenerateOptions(max_tokens=8, temperature=0.0,
                                                           cache_key="person"), never))
    assert isinstance(events[-1], Done)
    return text_of(events), events[-1]


def test_the_persons_chat_goes_on_after_a_batch(tiny_model: TinyModel, tmp_path: Path) -> None:
    plain = LlamaCppBackend(str(tiny_model.gguf_path), context_length=1024)
    plain.load()
    chat_turn(plain, CHAT)
    expected, expected_done = chat_turn(plain, CHAT_NEXT)
    plain.unload()
    b = LlamaCppBackend(str(tiny_model.gguf_path), context_length=1024, cache_dir=tmp_path)
    b.load()
    chat_turn(b, CHAT)
    batched(b, [request(PROMPTS[0]), request(PROMPTS[3])])
    text, done = chat_turn(b, CHAT_NEXT)  # its KV stayed live beside the batch
    assert (text, done.cached_prompt_tokens) == (expected, expected_done.cached_prompt_tokens)
    # A request that needs the cells the chat holds: the chat is parked, and comes back.
    flags = {"started": False}
    greedy = request(PROMPTS[1], lambda: flags["started"], max_tokens=1024 - done.prompt_tokens)
    for _ in b.stream_batch([greedy], lambda n: []):
        flags["started"] = True  # stop it once it has begun: its reservation did the work
    assert b._llm.n_tokens == 0
    text, again = chat_turn(b, CHAT_NEXT)
    assert text == expected and again.cached_prompt_tokens == done.prompt_tokens - 1
    b.unload()
    # The saved prompt prefix restores into a new context of several sequences.
    reopened = LlamaCppBackend(str(tiny_model.gguf_path), context_length=1024,
                               cache_dir=tmp_path)
    reopened.load()
    first = list(reopened.stream(ask("Hello"), GenerateOptions(max_tokens=2), never))[-1]
    assert isinstance(first, Done) and first.cached_prompt_tokens > 0
    reopened.unload()


def test_a_failed_forward_pass_ends_every_request_with_an_error(
        backend: LlamaCppBackend, monkeypatch: pytest.MonkeyPatch) -> None:
    real, calls = llama_cpp.llama_decode, []

    def failing_third(ctx: Any, batch: Any) -> int:  # the engine's own "aborted" status
        calls.append(batch.n_tokens)
        return 2 if len(calls) == 3 else int(real(ctx, batch))

    monkeypatch.setattr(llama_cpp, "llama_decode", failing_third)
    requests = [request(PROMPTS[0]), request(PROMPTS[1]), request(PROMPTS[3])]
    got = batched(backend, requests)
    for req in requests:
        errors = [e for e in got[id(req)] if isinstance(e, StreamError)]
        assert [e.kind for e in errors] == [FailureKind.ENGINE_FAILED]
        assert "llama_decode returned 2" in errors[0].message
        assert outcome(got[id(req)])[0] == "error"
    monkeypatch.setattr(llama_cpp, "llama_decode", real)
    assert seen(batched(backend, [requests[0]])[id(requests[0])]) == seen(
        alone(backend, requests[0]))


def test_decoding_steps_are_timed_into_the_engines_pass_costs(backend: LlamaCppBackend,
                                                              decodes: list[set[int]]) -> None:
    """What the runner weighs before it batches: the engine's own step timings, by the number
    of sequences a step carries (steps that read a prompt are not decoding steps)."""
    learning, before = PassCosts(), backend.pass_costs
    backend.pass_costs = learning
    try:
        decodes.clear()
        batched(backend, [request(PROMPTS[1]), request(PROMPTS[3])])
    finally:
        backend.pass_costs = before
    steps = [len(seqs) for seqs in decodes]
    assert steps.count(2) > TRUST  # the first of a size builds its graph: not counted
    assert (learning.measured(2) or 0) > 0
    assert learning.measured(CAPACITY) is None  # never run: still the prior
