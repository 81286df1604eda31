"""ModelRunner: one thread owns the engine, requests queue by priority (FIFO within one),
cancel is immediate."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from typing import Any

import pytest

from app.core.runner import ModelRunner, Priority
from backends.base import BackendInfo, GenerateOptions, Message, ShouldStop
from backends.errors import BackendError, ModelNotFound
from backends.events import Done, Event, StreamError, TextDelta
from backends.scripted import ScriptedBackend

WAIT = 10  # generous upper bound for a busy CI box; tests finish as soon as events arrive


class GatedBackend:
    """Streams words one at a time; each word waits for `step` to be set (no timing guesses)."""

    def __init__(self, words: list[str], fail_on_load: bool = False) -> None:
        self.words = words
        self.fail_on_load = fail_on_load
        self.step = threading.Event()
        self.step.set()
        self.started = threading.Event()
        self.threads: set[str] = set()
        self.prompts: list[str] = []
        self._loaded = False

    @property
    def info(self) -> BackendInfo:
        return BackendInfo(engine="gated", model_name="gated")

    @property
    def loaded(self) -> bool:
        return self._loaded

    def load(self) -> None:
        self.threads.add(threading.current_thread().name)
        if self.fail_on_load:
            raise ModelNotFound("No model file at /nowhere/model.gguf.")
        self._loaded = True

    def unload(self) -> None:
        self.threads.add(threading.current_thread().name)
        self._loaded = False

    def render_prompt(self, messages: list[Message], options: GenerateOptions) -> str:
        self.threads.add(threading.current_thread().name)
        return " | ".join(str(m["content"]) for m in messages)

    def stream(
        self, messages: list[Message], options: GenerateOptions, should_stop: ShouldStop
    ) -> Iterator[Event]:
        self.threads.add(threading.current_thread().name)
        self.prompts.append(str(messages[-1]["content"]))
        self.started.set()
        for word in self.words:
            self.step.wait(WAIT)
            if should_stop():
                yield Done("cancelled")
                return
            yield TextDelta(word)
        yield Done("stop", completion_tokens=len(self.words))


class Recorder:
    """Collects one request's events; `finished` is set on its Done."""

    def __init__(self) -> None:
        self.events: list[Any] = []
        self.positions: list[int] = []
        self.finished = threading.Event()

    def __call__(self, event: Event) -> None:
        self.events.append(event)
        if isinstance(event, Done):
            self.finished.set()

    def text(self) -> str:
        return "".join(e.text for e in self.events if isinstance(e, TextDelta))

    @property
    def done(self) -> Done:
        return next(e for e in self.events if isinstance(e, Done))


@pytest.fixture
def runner() -> Iterator[ModelRunner]:
    r = ModelRunner()
    yield r
    r.close()


def ask(runner: ModelRunner, text: str,
        priority: Priority = Priority.USER) -> tuple[Recorder, Any]:
    rec = Recorder()
    handle = runner.submit(
        [{"role": "user", "content": text}],
        GenerateOptions(),
        rec,
        on_position=rec.positions.append,
        priority=priority,
    )
    return rec, handle


def test_requests_run_in_order_and_never_mix(runner: ModelRunner) -> None:
    backend = GatedBackend(["one ", "two ", "three"])
    runner.load(backend).result(WAIT)
    backend.step.clear()
    first, _ = ask(runner, "long answer")
    assert backend.started.wait(WAIT)
    second, second_handle = ask(runner, "quick question")
    # The quick question waits visibly behind the long answer.
    assert second.positions == [1] and second_handle.position == 1
    backend.step.set()
    assert first.finished.wait(WAIT) and second.finished.wait(WAIT)
    assert first.text() == "one two three" and second.text() == "one two three"
    assert backend.prompts == ["long answer", "quick question"]
    assert second_handle.position == 0


def test_cancel_while_queued_is_immediate(runner: ModelRunner) -> None:
    backend = GatedBackend(["a", "b"])
    runner.load(backend).result(WAIT)
    backend.step.clear()
    first, _ = ask(runner, "first")
    assert backend.started.wait(WAIT)
    second, handle = ask(runner, "second")
    third, _ = ask(runner, "third")
    assert third.positions == [2]
    handle.cancel()
    # Done arrives at once, while the first request still holds the engine.
    assert second.finished.is_set() and second.done.finish_reason == "cancelled"
    assert third.positions == [2, 1]
    backend.step.set()
    assert first.finished.wait(WAIT) and third.finished.wait(WAIT)
    assert backend.prompts == ["first", "third"]


def test_cancel_running_request_stops_between_tokens(runner: ModelRunner) -> None:
    backend = GatedBackend(["a", "b", "c", "d"])
    runner.load(backend).result(WAIT)
    backend.step.clear()
    rec, handle = ask(runner, "go")
    assert backend.started.wait(WAIT)
    handle.cancel()
    backend.step.set()
    assert rec.finished.wait(WAIT)
    assert rec.done.finish_reason == "cancelled"
    assert rec.text() == ""
    # The runner goes on serving.
    after, _ = ask(runner, "again")
    assert after.finished.wait(WAIT) and after.text() == "abcd"


def test_every_engine_call_happens_on_the_runner_thread(runner: ModelRunner) -> None:
    backend = GatedBackend(["x"])
    runner.load(backend).result(WAIT)
    rec, _ = ask(runner, "hi")
    assert rec.finished.wait(WAIT)
    assert (
        runner.call(lambda: backend.render_prompt([{"content": "p"}], GenerateOptions())).result(
            WAIT
        )
        == "p"
    )
    runner.unload().result(WAIT)
    assert backend.threads == {"hearth-model-runner"}
    assert not backend.loaded and runner.info is None


def test_loading_a_new_model_unloads_the_previous(runner: ModelRunner) -> None:
    old, new = GatedBackend(["old"]), GatedBackend(["new"])
    assert runner.load(old).result(WAIT).engine == "gated"
    runner.load(new).result(WAIT)
    assert not old.loaded and new.loaded
    rec, _ = ask(runner, "which?")
    assert rec.finished.wait(WAIT) and rec.text() == "new"


def test_a_request_sent_the_moment_the_model_is_loaded_waits_behind_nothing(
        runner: ModelRunner) -> None:
    """`hearth serve` prints "ready" from the load's done callback and a client asks at once:
    its queue position is 0, not 1 for a load that has finished."""
    gate = threading.Event()
    runner.call(lambda: gate.wait(WAIT))  # the load runs only once its callback is in place
    loaded = runner.load(GatedBackend(["hi"]))
    seen: list[tuple[int, bool]] = []
    asked = threading.Event()

    def on_loaded(_future: object) -> None:  # on the runner thread, as the load ends
        seen.append((ask(runner, "first")[1].position, runner.loading))
        asked.set()

    loaded.add_done_callback(on_loaded)
    gate.set()
    assert asked.wait(WAIT)
    assert seen == [(0, False)]


def test_a_failed_load_comes_back_as_a_readable_error(runner: ModelRunner) -> None:
    future = runner.load(GatedBackend([], fail_on_load=True))
    with pytest.raises(BackendError, match="No model file"):
        future.result(WAIT)
    rec, _ = ask(runner, "anyone?")
    assert rec.finished.wait(WAIT)
    assert rec.done.finish_reason == "error"
    errors = [e.message for e in rec.events if isinstance(e, StreamError)]
    assert errors and "No model is loaded" in errors[0]


def test_an_engine_crash_mid_stream_is_reported_and_the_runner_survives(
    runner: ModelRunner,
) -> None:
    class Crashing(GatedBackend):
        def stream(
            self, messages: list[Message], options: GenerateOptions, should_stop: ShouldStop
        ) -> Iterator[Event]:
            yield TextDelta("partial")
            raise RuntimeError("GPU fell over")

    runner.load(Crashing([])).result(WAIT)
    rec, _ = ask(runner, "boom")
    assert rec.finished.wait(WAIT)
    assert rec.text() == "partial" and rec.done.finish_reason == "error"
    assert any("GPU fell over" in e.message for e in rec.events if isinstance(e, StreamError))
    assert [e for e in rec.events if isinstance(e, Done)] == [rec.done]  # exactly one Done
    runner.load(ScriptedBackend(["fine</think>ok"])).result(WAIT)
    after, _ = ask(runner, "still there?")
    assert after.finished.wait(WAIT) and after.text() == "ok"


def test_close_cancels_queued_work_and_joins_the_thread() -> None:
    runner = ModelRunner()
    backend = GatedBackend(["a", "b"])
    runner.load(backend).result(WAIT)
    backend.step.clear()
    first, _ = ask(runner, "running")
    assert backend.started.wait(WAIT)
    queued, _ = ask(runner, "waiting")
    closer = threading.Thread(target=runner.close)
    closer.start()
    backend.step.set()
    closer.join(WAIT)
    assert not closer.is_alive()
    assert queued.finished.is_set() and queued.done.finish_reason == "cancelled"
    assert first.finished.is_set() and first.done.finish_reason == "cancelled"
    assert not backend.loaded  # unloaded on the runner thread before it ended
    late, _ = ask(runner, "too late")
    assert late.finished.is_set() and late.done.finish_reason == "cancelled"


def test_a_user_turn_goes_ahead_of_waiting_api_and_background_work(runner: ModelRunner) -> None:
    backend = GatedBackend(["w"])
    runner.load(backend).result(WAIT)
    backend.step.clear()
    running, _ = ask(runner, "running")
    assert backend.started.wait(WAIT)
    warm, warm_handle = ask(runner, "warm", Priority.WARMUP)
    api1, _ = ask(runner, "api 1", Priority.API)
    api2, _ = ask(runner, "api 2", Priority.API)
    user, user_handle = ask(runner, "user")
    # The user's turn waits only behind the running one; the others move back a place.
    assert user_handle.position == 1 and warm_handle.position == 4
    assert api2.positions == [2, 3]
    backend.step.set()
    assert warm.finished.wait(WAIT) and api1.finished.wait(WAIT) and user.finished.wait(WAIT)
    assert backend.prompts == ["running", "user", "api 1", "api 2", "warm"]


def test_background_work_sees_a_waiting_turn_and_yields(runner: ModelRunner) -> None:
    """A long background call polls preempt_requested between chunks; a user turn arriving
    meanwhile makes it stop, and runs next."""
    backend = GatedBackend(["answer"])
    runner.load(backend).result(WAIT)
    started, release = threading.Event(), threading.Event()
    polls: list[bool] = []

    def warm_up() -> int:
        started.set()
        chunks = 0
        while chunks < 1000:
            release.wait(WAIT)
            if runner.preempt_requested():
                return chunks
            polls.append(False)
            chunks += 1
            if chunks == 3:
                release.clear()
        return chunks

    result = runner.call(warm_up, priority=Priority.WARMUP)
    assert started.wait(WAIT)
    release.set()
    while len(polls) < 3:
        assert not result.done()
        threading.Event().wait(0.01)
    # An equal-priority job does not preempt; a user turn does.
    later = runner.call(lambda: "later", priority=Priority.WARMUP)
    rec, _ = ask(runner, "now")
    release.set()
    assert result.result(WAIT) == 3
    assert rec.finished.wait(WAIT) and rec.text() == "answer"
    assert later.result(WAIT) == "later"
    assert not runner.preempt_requested()


def test_close_asks_running_background_work_to_stop() -> None:
    runner = ModelRunner()
    started = threading.Event()

    def spin() -> str:
        started.set()
        while not runner.preempt_requested():
            threading.Event().wait(0.005)
        return "stopped"

    result = runner.call(spin, priority=Priority.WARMUP)
    assert started.wait(WAIT)
    runner.close()
    assert result.result(WAIT) == "stopped"
