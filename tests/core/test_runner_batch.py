"""The runner decodes waiting API and routine generations in one batch on an engine that can
(the scripted engine here; the real engines in tests/backends): each gets its own answer and
exactly one Done, more join between steps, and the person's turn, a JSON-schema request, a
cancel or one member's failure change nothing for the others. It batches only where the
engine's step costs say a batch gives more tokens per second than the requests one after
another, each at the pace a lone answer makes with its drafts (pinned here: CPU_LIKE, GPU_LIKE,
DRAFTS_PAY; most tests run with GPU-like costs and drafts that gain nothing, where any batch
pays)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from app.core.runner import ModelRunner, Priority
from backends.base import GenerateOptions
from backends.errors import BackendError
from backends.events import Done, StreamError
from backends.pass_costs import PassCosts
from backends.scripted import ScriptedBackend
from tests.core.test_runner import Recorder
from tests.support.step_costs import CPU_LIKE, DRAFTS_PAY, GPU_LIKE, pinned

WAIT = 10  # hang guard only


@pytest.fixture
def runner() -> Iterator[ModelRunner]:
    r = ModelRunner()
    yield r
    r.close()


def load(runner: ModelRunner, *outputs: Any, batch: int = 4,
         costs: dict[int, float] | PassCosts = GPU_LIKE, lone: float = 1.0) -> ScriptedBackend:
    """The scripted engine with step costs pinned at `costs` (or these PassCosts) and a lone
    answer's pace with drafts at `lone` tokens per one-token pass."""
    backend = ScriptedBackend(list(outputs), batch=batch, lone_gain=lone,
                              pass_costs=costs if isinstance(costs, PassCosts) else pinned(costs))
    runner.load(backend).result(WAIT)
    return backend


def hold(runner: ModelRunner) -> threading.Event:
    """Keep the model thread busy until the returned event is set, so requests queue up."""
    gate = threading.Event()
    runner.call(lambda: gate.wait(WAIT))
    return gate


class Hooked(Recorder):
    """A recorder that runs `hook` on the model thread once its first text arrived."""

    def __init__(self, hook: Any) -> None:
        super().__init__()
        self._hook = hook

    def __call__(self, event: Any) -> None:
        super().__call__(event)
        if self._hook is not None and getattr(event, "text", ""):
            hook, self._hook = self._hook, None
            hook()


def api(runner: ModelRunner, text: str, priority: Priority = Priority.API,
        rec: Recorder | None = None, **options: Any) -> tuple[Recorder, Any]:
    rec = rec or Recorder()
    handle = runner.submit([{"role": "user", "content": text}],
                           GenerateOptions(enable_thinking=False, **options), rec,
                           priority=priority, pausable=True)
    return rec, handle


def finish(*recs: Recorder) -> None:
    for rec in recs:
        assert rec.finished.wait(WAIT)


def test_waiting_api_requests_are_decoded_together_each_with_its_own_answer(
        runner: ModelRunner) -> None:
    backend = load(runner, "one two three", "four five", "six seven eight nine")
    gate = hold(runner)
    recs = [api(runner, f"q{n}")[0] for n in range(3)]
    gate.set()
    finish(*recs)
    assert [r.text() for r in recs] == ["one two three", "four five", "six seven eight nine"]
    assert [[type(e) for e in r.events].count(Done) for r in recs] == [1, 1, 1]
    assert backend.batches[0] == 3  # all three in the first step


@pytest.mark.parametrize("count", [2, 3])
def test_with_gpu_like_costs_two_or_three_waiting_requests_are_batched(
        runner: ModelRunner, count: int) -> None:
    backend = load(runner, *[f"answer {n}" for n in range(count)], costs=GPU_LIKE)
    gate = hold(runner)
    recs = [api(runner, f"q{n}")[0] for n in range(count)]
    gate.set()
    finish(*recs)
    assert [r.text() for r in recs] == [f"answer {n}" for n in range(count)]
    assert backend.batches[0] == count


def test_with_cpu_like_costs_three_waiting_requests_run_one_after_another(
        runner: ModelRunner) -> None:
    """On 2 CPU cores a step of 3 sequences costs 3.6 steps of one and 2 cost 2: no batch of
    2 or 3 is faster than one answer after another (each keeps the single path)."""
    backend = load(runner, "one two", "three four", "five six", costs=CPU_LIKE)
    gate = hold(runner)
    sent = [api(runner, f"q{n}") for n in range(3)]
    gate.set()
    finish(*(rec for rec, _ in sent))
    assert [rec.text() for rec, _ in sent] == ["one two", "three four", "five six"]
    assert backend.batches == []
    assert [c.messages[-1]["content"] for c in backend.calls] == ["q0", "q1", "q2"]
    assert [handle.batched_with for _, handle in sent] == [0, 0, 0]


@pytest.mark.parametrize(("costs", "lone", "batched"), [
    (CPU_LIKE, 1.0, True), (CPU_LIKE, DRAFTS_PAY, False), (GPU_LIKE, DRAFTS_PAY, True)])
def test_four_waiting_requests_are_batched_only_when_that_beats_a_lone_answers_drafts(
        runner: ModelRunner, costs: dict[int, float], lone: float, batched: bool) -> None:
    """On 2 CPU cores a step of 4 costs 2.6 steps of one: 1.54x, a gain while a lone answer
    decodes one token a pass (its drafts kept nothing), a loss when its drafts make it 1.6
    tokens a pass, so the four go one after another on the single path. On a GPU 4 cost 1.15
    (3.5x): a batch beats such drafts too."""
    backend = load(runner, "a b", "c d", "e f", "g h", costs=costs, lone=lone)
    gate = hold(runner)
    sent = [api(runner, f"q{n}") for n in range(4)]
    gate.set()
    finish(*(rec for rec, _ in sent))
    assert [rec.text() for rec, _ in sent] == ["a b", "c d", "e f", "g h"]
    if batched:
        assert backend.batches[0] == 4
    else:
        assert backend.batches == []
        assert [c.messages[-1]["content"] for c in backend.calls] == ["q0", "q1", "q2", "q3"]
        assert [handle.batched_with for _, handle in sent] == [0, 0, 0, 0]


def measured(**seconds: float) -> PassCosts:
    """Learning pass costs (the CPU prior) that timed passes of these sizes (`s1=`, `s4=`) at
    these seconds, often enough to trust them, and never ran the other sizes."""
    costs = PassCosts()
    for name, value in seconds.items():
        for _ in range(4):  # a size's first pass builds its graph and is not counted
            costs.record(int(name[1:]), value)
    return costs


@pytest.mark.parametrize(("four", "batched"), [(1.15, True), (4.0, False)])
def test_once_a_batch_of_four_was_measured_cheap_two_waiting_requests_are_batched(
        runner: ModelRunner, four: float, batched: bool) -> None:
    """Sizes an engine has not run are priced from the sizes it has. On a GPU, once a step of
    4 measured 1.15 one-token steps, 2 are priced alike and tried in a batch; an engine whose
    step of 4 measured 4 one-token steps (no gain) prices 2 on the line to it, at 2: one
    after another."""
    backend = load(runner, "a b", "c d", costs=measured(s1=0.01, s4=0.01 * four))
    gate = hold(runner)
    recs = [api(runner, f"q{n}")[0] for n in range(2)]
    gate.set()
    finish(*recs)
    assert [r.text() for r in recs] == ["a b", "c d"]
    assert backend.batches[:1] == ([2] if batched else [])


class AtWord(Recorder):
    """A recorder that runs `hook` on the model thread once its answer has `words` words."""

    def __init__(self, words: int, hook: Any) -> None:
        super().__init__()
        self._words, self._hook = words, hook

    def __call__(self, event: Any) -> None:
        super().__call__(event)
        if self._hook is not None and len(self.text().split()) >= self._words:
            hook, self._hook = self._hook, None
            hook()


@pytest.mark.parametrize(("costs", "joins"), [(CPU_LIKE, False), (GPU_LIKE, True)])
def test_a_request_joins_a_running_batch_only_when_the_batch_gets_faster(
        runner: ModelRunner, costs: dict[int, float], joins: bool) -> None:
    """A batch of 4 is down to 2 members when one more request comes. With CPU-like costs 3
    would be slower than 2: it waits for the batch to end (FIFO) and then runs alone; with
    GPU-like costs it joins at once."""
    backend = load(runner, "a", "b", "c d e f g h i j", "k l m n o p q r", "late answer",
                   costs=costs)
    gate = hold(runner)
    late: list[tuple[Recorder, Any]] = []
    recs = [api(runner, f"q{n}")[0] for n in range(2)]
    recs.append(api(runner, "q2", rec=AtWord(4, lambda: late.append(api(runner, "late"))))[0])
    recs.append(api(runner, "q3")[0])
    gate.set()
    finish(*recs)
    finish(late[0][0])
    assert [r.text() for r in recs] == ["a", "b", "c d e f g h i j", "k l m n o p q r"]
    assert late[0][0].text() == "late answer"
    assert backend.batches[0] == 4
    assert (3 in backend.batches) is joins
    assert (late[0][1].batched_with > 0) is joins


def test_a_lone_request_is_decoded_alone(runner: ModelRunner) -> None:
    backend = load(runner, "just me")
    rec, _ = api(runner, "q")
    finish(rec)
    assert rec.text() == "just me"
    assert backend.batches == []


def test_a_batch_takes_no_more_than_the_engine_carries_and_the_rest_join_as_places_free(
        runner: ModelRunner) -> None:
    backend = load(runner, "a", "b c d e", "f", "g h", batch=2)
    gate = hold(runner)
    recs = [api(runner, f"q{n}")[0] for n in range(4)]
    gate.set()
    finish(*recs)
    assert [r.text() for r in recs] == ["a", "b c d e", "f", "g h"]
    assert max(backend.batches) == 2
    assert len(backend.calls) == 4


def test_a_routine_joins_an_api_batch_and_the_persons_turn_never_does(runner: ModelRunner) -> None:
    backend = load(runner, "api answer", "routine answer", "person answer")
    gate = hold(runner)
    api_rec = api(runner, "q")[0]
    routine_rec = api(runner, "routine", priority=Priority.ROUTINE)[0]
    gate.set()
    finish(api_rec, routine_rec)
    person = Recorder()
    runner.submit([{"role": "user", "content": "hi"}], GenerateOptions(enable_thinking=False),
                  person)
    finish(person)
    assert (api_rec.text(), routine_rec.text(), person.text()) == (
        "api answer", "routine answer", "person answer")
    assert set(backend.batches) == {2}  # the two together; the person's turn ran alone


def test_a_json_schema_request_runs_alone_and_nothing_behind_it_overtakes_it(
        runner: ModelRunner) -> None:
    backend = load(runner, '{"a": 1}', "after")
    gate = hold(runner)
    schema_rec = api(runner, "q", json_schema={"type": "object"})[0]
    after_rec = api(runner, "later")[0]
    gate.set()
    finish(schema_rec, after_rec)
    assert [c.messages[-1]["content"] for c in backend.calls] == ["q", "later"]
    assert backend.batches == []  # each ran alone: no two batchable requests waited together


def test_the_persons_turn_waits_behind_members_that_cannot_be_continued(
        runner: ModelRunner) -> None:
    """The scripted engine cannot resume an answer, so members that have written go on to
    their end; the person's turn then runs before anything queued behind the batch."""
    backend = load(runner, "a b c", "d e f", "person", "late")
    gate = hold(runner)
    person = Recorder()
    late: list[Recorder] = []

    def on_first_words() -> None:  # on the model thread: both members have written
        runner.submit([{"role": "user", "content": "hi"}], GenerateOptions(enable_thinking=False),
                      person)
        late.append(api(runner, "late")[0])

    first, second = api(runner, "q1")[0], api(runner, "q2", rec=Hooked(on_first_words))[0]
    gate.set()
    finish(first, second, person, *late)
    order = [c.messages[-1]["content"] for c in backend.calls]
    assert order == ["q1", "q2", "hi", "late"]
    assert (first.text(), second.text(), person.text(), late[0].text()) == (
        "a b c", "d e f", "person", "late")


def test_one_members_failure_or_cancel_leaves_the_others_to_finish(runner: ModelRunner) -> None:
    load(runner, "one two three four", BackendError("scripted engine failure"), "five six")
    gate = hold(runner)
    (ok, _), (failed, _), (cancelled, handle) = api(runner, "a"), api(runner, "b"), api(runner, "c")
    handle.cancel()
    gate.set()
    finish(ok, failed, cancelled)
    assert ok.text() == "one two three four" and ok.done.finish_reason == "stop"
    assert failed.done.finish_reason == "error"
    assert any(isinstance(e, StreamError) and "scripted engine failure" in e.message
               for e in failed.events)
    assert cancelled.done.finish_reason == "cancelled" and cancelled.text() == ""


def test_forgetting_a_conversation_stops_its_member_of_a_batch(runner: ModelRunner) -> None:
    backend = load(runner, "a b c d e f g h", "i j k l m n o p")
    gate = hold(runner)
    forgotten: list[Any] = []
    kept = api(runner, "q1", rec=Hooked(lambda: forgotten.append(runner.forget("gone"))),
               cache_key="kept")[0]
    gone = api(runner, "q2", cache_key="gone")[0]
    gate.set()
    finish(kept, gone)
    assert kept.text() == "a b c d e f g h"
    assert gone.done.finish_reason == "cancelled"
    assert len(gone.text().split()) < 8
    assert backend.batches[0] == 2



def test_a_callers_failing_callback_ends_its_own_answer_only(runner: ModelRunner) -> None:
    load(runner, "one two three", "four five six")

    def broken() -> None:
        raise RuntimeError("the client's handler broke")

    gate = hold(runner)
    failing = api(runner, "a", rec=Hooked(broken))[0]
    fine = api(runner, "b")[0]
    gate.set()
    finish(failing, fine)
    assert fine.text() == "four five six" and fine.done.finish_reason == "stop"
    assert failing.done.finish_reason == "error"
    assert any(isinstance(e, StreamError) and "handler broke" in e.message for e in failing.events)
