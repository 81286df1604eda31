"""Streamed deltas from a fast engine are sent in groups, whole and in order, and what ends
an answer (or a tool call) is never held back by the pause between groups."""

from __future__ import annotations

import asyncio

import pytest

from app.core.runner import ModelRunner
from app.core.server import generation
from app.core.server.generation import Generation
from backends.base import GenerateOptions
from backends.events import Done, Event, TextDelta, ToolCall
from backends.scripted import ScriptedBackend

WORDS = [f"word{i} " for i in range(300)]
GUARD_S = 600  # only against hanging for the hour of the pause; the stream takes milliseconds


@pytest.fixture
def long_pause(monkeypatch: pytest.MonkeyPatch) -> None:
    # A pause only an event that ends the answer can cut short: if the end were held back,
    # the stream would wait an hour (the guard below fails it after ten minutes instead).
    monkeypatch.setattr(generation, "PACE_S", 3600.0)


def test_a_fast_stream_arrives_whole_and_its_end_is_not_held_back(long_pause: None) -> None:
    runner = ModelRunner()
    runner.load(ScriptedBackend([list(WORDS)])).result()
    try:
        chunks = asyncio.run(asyncio.wait_for(_stream(runner), GUARD_S))
    finally:
        runner.close()
    texts = [chunk.text for chunk in chunks if isinstance(chunk, TextDelta)]
    assert "".join(texts) == "".join(WORDS).rstrip()  # the parser drops trailing space
    assert isinstance(chunks[-1], Done) and chunks[-1].finish_reason == "stop"


def test_deltas_wait_for_the_pause_and_a_tool_call_or_the_end_ends_it(long_pause: None) -> None:
    async def scenario() -> None:
        handoff = generation._Handoff(asyncio.get_running_loop())
        first = asyncio.ensure_future(handoff.get())
        await asyncio.sleep(0)  # get() is parked: nothing has come yet
        handoff.put(TextDelta("Hello"))
        assert await first == TextDelta("Hello")  # the first delta is never held back
        following = asyncio.ensure_future(handoff.get())
        await asyncio.sleep(0)  # just woken: get() now pauses before it looks again
        for word in WORDS:
            handoff.put(TextDelta(word))
        await asyncio.sleep(0)
        assert not following.done()  # the deltas gather during the pause
        call = ToolCall(name="list_events", arguments={}, raw="<tool_call>")
        handoff.put(call)
        for _ in range(10):  # a few turns of the loop, no waiting on the clock
            await asyncio.sleep(0)
        assert following.done()  # the tool call ended the pause
        assert following.result() == TextDelta(WORDS[0])
        assert handoff.take_texts(TextDelta) == WORDS[1:]  # the rest in one go
        assert await handoff.get() == call

    asyncio.run(scenario())


async def _stream(runner: ModelRunner) -> list[Event]:
    """Read a generation the way the streaming endpoint does: each event joined with the
    deltas of its kind already waiting."""
    options = GenerateOptions(max_tokens=1000, enable_thinking=False)
    run = Generation(runner, [{"role": "user", "content": "Hi"}], options, [])
    chunks: list[Event] = []
    event = await run.next()
    while True:
        event = run.merged(event)
        chunks.append(event)
        if isinstance(event, Done):
            return chunks
        event = await run.next()
