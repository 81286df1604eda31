"""The person's turn interrupts an API answer being written (real llama.cpp on the tiny model):
the answer pauses at a token, the person's turn runs, and the answer goes on from its tokens,
token for token what it would have been, the client seeing only a pause."""

from __future__ import annotations

import http.client
import json
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.core.runner import ModelRunner, Priority
from app.core.server.service import ApiServer, ServerConfig
from backends.base import Backend, GenerateOptions, Message, ShouldStop
from backends.events import Done, Event, ReasoningDelta, TextDelta
from backends.llama_cpp import LlamaCppBackend

KEY = "hearth-test-key-0123456789"


class Tap:
    """The real engine, calling `hook` after the n-th delta of an API answer's stream (so the
    person's turn arrives mid-answer by the order of events, whatever the machine's speed)."""

    def __init__(self, backend: Backend, hook: Callable[[int], None]) -> None:
        self._backend = backend
        self._hook = hook
        self._deltas = 0

    def stream(self, messages: list[Message], options: GenerateOptions,
               should_stop: ShouldStop) -> Iterator[Event]:
        api = options.cache_key != "person"
        for event in self._backend.stream(messages, options, should_stop):
            yield event
            if api and isinstance(event, (ReasoningDelta, TextDelta)):
                self._deltas += 1
                self._hook(self._deltas)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._backend, name)


def ask(port: int, thinking: bool) -> tuple[int, str, str, list[str]]:
    """One streamed API answer: (status, reasoning, text, error lines)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=600)
    conn.request("POST", "/v1/chat/completions", body=json.dumps({
        "messages": [{"role": "user", "content": "Write a long story about a lighthouse."}],
        "stream": True, "max_tokens": 80, "temperature": 0,
        "reasoning_effort": "high" if thinking else "none"}),
        headers={"Authorization": f"Bearer {KEY}", "Content-Type": "application/json"})
    response = conn.getresponse()
    reasoning: list[str] = []
    text: list[str] = []
    errors: list[str] = []
    for raw in response:
        line = raw.decode().strip()
        if not line.startswith("data: ") or line == "data: [DONE]":
            continue
        chunk = json.loads(line[len("data: "):])
        if "error" in chunk:
            errors.append(line)
            continue
        for choice in chunk.get("choices", []):
            delta = choice.get("delta", {})
            reasoning.append(delta.get("reasoning_content") or "")
            text.append(delta.get("content") or "")
    conn.close()
    return response.status, "".join(reasoning), "".join(text), errors


@pytest.mark.parametrize("thinking", [True, False], ids=["inside reasoning", "inside the answer"])
def test_persons_turn_interrupts_an_api_answer_which_goes_on_unchanged(
        tiny_model: Any, tmp_path: Path, thinking: bool) -> None:
    runner = ModelRunner()
    order: list[str] = []
    armed = threading.Event()
    person_done = threading.Semaphore(0)

    def on_person(event: Event) -> None:
        if isinstance(event, Done):
            order.append(f"person done: {event.finish_reason}")
            person_done.release()

    def hook(deltas: int) -> None:  # on the model thread, between two tokens of the answer
        if not armed.is_set():
            return
        order.append("api delta")
        if deltas - first_delta[0] in interrupt_at:
            order.append("person sends")
            runner.submit([{"role": "user", "content": "hi"}],
                          GenerateOptions(max_tokens=4, enable_thinking=False,
                                          cache_key="person"),
                          on_person, priority=Priority.USER)

    first_delta = [0]
    # The API answer's deltas after which the person sends a message: all but the first and
    # last few, so that pauses land inside words, after whitespace and before tags, and a
    # resumed part is paused again.
    interrupt_at: range = range(0)
    engine = LlamaCppBackend(str(tiny_model.gguf_path), context_length=4096,
                             cache_dir=tmp_path / "kv")
    tap = Tap(engine, hook)
    runner.load(tap).result(120)  # type: ignore[arg-type]
    server = ApiServer(runner, ServerConfig(api_key=lambda: KEY, port=0))
    server.start()
    try:
        reference = ask(server.port, thinking)
        first_delta[0] = tap._deltas
        assert first_delta[0] >= 12, "the reference answer is too short to interrupt"
        interrupt_at = range(3, first_delta[0] - 3)
        armed.set()
        interrupted = ask(server.port, thinking)
        assert all(person_done.acquire(timeout=60) for _ in interrupt_at)
    finally:
        server.stop()
        runner.close()
    status, reasoning, text, errors = interrupted
    assert reference[0] == status == 200 and errors == [] and reference[3] == []
    assert (reasoning, text) == (reference[1], reference[2])  # token for token the same
    # On the model thread: the person's turn ran after part of the answer, before the rest.
    ended = [item for item in order if item.startswith("person done")]
    assert order.count("person sends") == len(ended) == len(interrupt_at), set(ended)
    assert set(ended) <= {"person done: length", "person done: stop"}
    first_done = order.index(ended[0])
    assert order.index("api delta") < order.index("person sends") < first_done
    assert "api delta" in order[first_done:], "the answer did not go on after the person's turn"
    before, record = server.log.records()[-2:]
    # One token may end two deltas (reasoning, then text): its two messages share one pause.
    assert len(interrupt_at) // 2 <= record.gave_way <= len(interrupt_at)
    assert (record.status, record.finish_reason, record.completion_tokens) == (
        200, before.finish_reason, before.completion_tokens)
