"""Before the first token: a turn says when it waits for a model load, and llama.cpp reports how
far it has read a long prompt (real engine, tiny model); the answer is the same either way."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from app.core.assistant import Assistant, TurnMode
from app.core.events import Progress
from app.core.history import HistoryStore
from app.core.runner import ModelRunner
from app.core.settings import Settings
from backends.base import GenerateOptions
from backends.events import Done, Prefill, ReasoningDelta, TextDelta
from backends.scripted import ScriptedBackend
from tests.core.test_assistant_loop import Events
from tests.support.model_output import GREETING

WAIT = 30


class SlowLoad(ScriptedBackend):
    """Loads only when the test says so (a big model loading, without guessing at time)."""

    def __init__(self) -> None:
        super().__init__([GREETING])
        self.gate = threading.Event()

    def load(self) -> None:
        assert self.gate.wait(WAIT)
        super().load()


def test_a_turn_behind_a_model_load_says_the_model_is_loading(tmp_path: Path) -> None:
    runner = ModelRunner()
    history = HistoryStore(tmp_path / "hearth.db")
    backend = SlowLoad()
    try:
        loaded = runner.load(backend)
        seen = threading.Event()
        events = Events(on={Progress: lambda _e: seen.set()})
        handle = Assistant(runner, history, [], Settings()).send(
            None, "hi", mode=TurnMode(thinking=True), on_event=events)
        assert seen.wait(WAIT) and not loaded.done()  # said while the load still runs
        assert events.of(Progress)[0].stage == "loading"
        backend.gate.set()
        loaded.result(WAIT)
        assert handle.wait(WAIT) and handle.finish_reason == "stop"
    finally:
        backend.gate.set()
        runner.close()
        history.close()


def _run(backend: Any, prompt: list[dict[str, Any]]) -> list[Any]:
    options = GenerateOptions(max_tokens=8, temperature=0.0, seed=7, cache_key="c")
    return list(backend.stream(prompt, options, lambda: False))


def _said(events: list[Any]) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta | ReasoningDelta))


def test_llama_cpp_reports_reading_a_long_prompt(tiny_model: Any,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    pytest.importorskip("llama_cpp")
    from backends.llama_cpp import PREFILL_CHUNK, LlamaCppBackend

    backend = LlamaCppBackend(str(tiny_model.gguf_path), context_length=4096)
    backend.load()
    try:
        long = [{"role": "user", "content": "Tell me about gardens and rivers. " * 120}]
        events = _run(backend, long)
        steps = [e for e in events if isinstance(e, Prefill)]
        done = events[-1]
        assert isinstance(done, Done) and done.finish_reason in ("stop", "length")
        assert len(steps) >= 3 and steps[0].done == 0
        assert [s.done for s in steps] == sorted(s.done for s in steps)
        assert steps[-1].done == steps[-1].total == done.prompt_tokens - 1
        text = _said(events)
        assert text  # something to compare below
        assert done.prompt_tokens >= 2 * PREFILL_CHUNK
        again = _run(backend, long)  # all of it reused from the cache: nothing to report
        assert not [e for e in again if isinstance(e, Prefill)]
        backend.unload()
        backend.load()  # the same prompt from scratch, read in one piece: the same answer
        monkeypatch.setattr("backends.llama_cpp.PREFILL_CHUNK", 10**6)
        whole = _run(backend, long)
        assert not [e for e in whole if isinstance(e, Prefill)]
        assert _said(whole) == text
    finally:
        backend.unload()
