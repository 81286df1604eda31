"""The runner decodes waiting API and routine generations in one batch on an engine that can
(the scripted engine here; the real engines in tests/backends): each gets its own answer and
exactly one Done, more join between steps, and the person's turn, a JSON-schema request, a
cancel or one member's failure change nothing for the others."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from app.core.runner import ModelRunner, Priority
from backends.base import GenerateOptions
from backends.errors import BackendError
from backends.events import Done, StreamError
from backends.scripted import ScriptedBackend
from tests.core.test_runner import Recorder

WAIT = 10  # hang guard only


@pytest.fixture
def runner() -> Iterator[ModelRunner]:
    r = ModelRunner()
    yield r
    r.close()


def load(runner: ModelRunner, *outputs: Any, batch: int = 4) -> ScriptedBackend:
    backend = ScriptedBackend(list(outputs), batch=batch)
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
