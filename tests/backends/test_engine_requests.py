"""What an API client asks of each engine: a JSON schema (response_format) is passed on by the
remote engine and refused by name on MLX; earlier reasoning reaches every kind of server."""

from __future__ import annotations

from typing import Any

import pytest

from backends.base import GenerateOptions
from backends.errors import FailureKind
from backends.events import Done, StreamError
from tests.backends.test_remote import FakeServer, chunk, connect, run, server, sse, usage

__all__ = ["server"]

SCHEMA = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}


def test_remote_engine_sends_the_schema_as_response_format(server: FakeServer) -> None:
    server.replies.append(sse(chunk('{"n": 3}'), chunk(finish="stop"), usage(5, 3)))
    events = run(connect(server), GenerateOptions(json_schema=SCHEMA, enable_thinking=False))
    assert "".join(getattr(e, "text", "") for e in events) == '{"n": 3}'
    sent = server.last_body()
    assert server.requests[-1]["path"].endswith("/v1/chat/completions")
    assert sent["response_format"] == {"type": "json_schema", "json_schema": {
        "name": "answer", "schema": SCHEMA, "strict": True}}


def test_mlx_refuses_a_schema_with_a_reason(tiny_model: Any) -> None:
    pytest.importorskip("mlx_lm")
    from backends.mlx_backend import MlxBackend

    backend = MlxBackend(str(tiny_model.mlx_dir))
    backend.load()
    try:
        events = list(backend.stream([{"role": "user", "content": "hi"}],
                                     GenerateOptions(json_schema=SCHEMA), lambda: False))
    finally:
        backend.unload()
    error = events[0]
    assert isinstance(error, StreamError) and error.kind == FailureKind.BAD_INPUT
    assert "not supported on the MLX engine" in error.message
    assert isinstance(events[-1], Done) and events[-1].finish_reason == "error"


def test_earlier_reasoning_goes_under_the_names_vllm_and_sglang_read(server: FakeServer) -> None:
    """vLLM reads a past turn's reasoning as `reasoning`, SGLang as `reasoning_content`: both
    are sent, so the reasoning of earlier tool steps is not dropped by either."""
    server.replies.append(sse(chunk("ok"), chunk(finish="stop"), usage(5, 1)))
    history = [{"role": "user", "content": "Weather?"},
               {"role": "assistant", "content": "", "reasoning_content": "Ask the tool.",
                "tool_calls": [{"id": "c1", "type": "function", "function": {
                    "name": "weather", "arguments": {"city": "Paris"}}}]},
               {"role": "tool", "tool_call_id": "c1", "content": "sunny"}]
    list(connect(server).stream(history, GenerateOptions(), lambda: False))
    sent = server.last_body()["messages"][1]
    assert sent["reasoning"] == sent["reasoning_content"] == "Ask the tool."
    assert sent["tool_calls"][0]["function"]["arguments"] == '{"city": "Paris"}'


def test_remote_prompt_longer_than_the_advertised_context_is_refused(server: FakeServer
                                                                     ) -> None:
    """The server says 8,192 tokens: a prompt past that is a context error here, before any
    request (servers differ in what they do with one); one that fits goes."""
    backend = connect(server)
    long = [{"role": "user", "content": "word " * 12_000}]
    events = list(backend.stream(long, GenerateOptions(), lambda: False))
    error = events[0]
    assert isinstance(error, StreamError) and error.kind == FailureKind.CONTEXT_FULL
    assert "8,192-token context" in error.message
    assert isinstance(events[-1], Done) and events[-1].prompt_tokens > 8192
    assert not any(r["path"].endswith("/chat/completions") for r in server.requests)
    server.replies.append(sse(chunk("ok"), chunk(finish="stop"), usage(5, 1)))
    assert "".join(getattr(e, "text", "") for e in run(backend)) == "ok"
