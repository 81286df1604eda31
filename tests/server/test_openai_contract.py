"""The official `openai` SDK against a real `hearth serve` process (scripted engine emitting
Nanbeige's raw output, so reasoning and XML tool calls go through Hearth's own parser)."""

from __future__ import annotations

import http.client
import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openai
import pytest

from tests.server.served import Served
from tests.support.scripted_cli import script_file

ANSWER = "The user greets me.\n</think>\n\nHello from Hearth."
TOOL_CALL = ("I need the time there.\n</think>\n\n<tool_call>\n<function=get_time>\n"
             "<parameter=timezone>\nAsia/Tokyo\n</parameter>\n</function>\n</tool_call>")
AFTER_TOOL = "The tool said 21:04.\n</think>\n\nIt is 21:04 in Tokyo."
TIME_TOOL = {"type": "function", "function": {
    "name": "get_time", "description": "The current time in a time zone.",
    "parameters": {"type": "object", "properties": {"timezone": {"type": "string"}},
                   "required": ["timezone"]}}}
LONG = " ".join(f"word{i}" for i in range(400))


@pytest.fixture
def serve(tmp_path: Path) -> Iterator[Any]:
    started: list[Served] = []

    def start(*outputs: str, args: tuple[str, ...] = (), **settings: Any) -> Served:
        served = Served(tmp_path / f"home{len(started)}", "--engine", "scripted", "--script",
                        script_file(tmp_path, *outputs), *args, settings=settings)
        started.append(served)
        served.wait_for("ready")
        return served

    yield start
    for served in started:
        served.stop()


def client(served: Served, key: str | None = None) -> openai.OpenAI:
    return openai.OpenAI(base_url=served.url, api_key=key or served.key, max_retries=0)


def raw(served: Served, method: str, path: str, body: bytes | None = None,
        headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection(served.host, served.port, timeout=60)
    try:
        conn.request(method, path, body=body, headers={
            "Authorization": f"Bearer {served.key}", "Content-Type": "application/json",
            **(headers or {})})
        response = conn.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        conn.close()


def test_models_list_reports_context_output_and_capabilities(serve: Any) -> None:
    served = serve()
    models = client(served).models.list().data
    assert [m.id for m in models] == ["scripted"]
    card = models[0].model_extra or {}
    assert card["context_length"] == 32768 and card["max_output_tokens"] == 32768
    assert card["capabilities"]["tools"] is True and card["capabilities"]["reasoning"] is True


def test_chat_separates_reasoning_and_reports_usage(serve: Any) -> None:
    served = serve(ANSWER, ANSWER)
    sdk = client(served)
    reply = sdk.chat.completions.create(model="scripted", messages=[
        {"role": "system", "content": "You are terse."}, {"role": "user", "content": "hi"}])
    message = reply.choices[0].message
    assert message.content == "Hello from Hearth." and "<think>" not in message.content
    assert (message.model_extra or {})["reasoning_content"] == "The user greets me."
    assert reply.choices[0].finish_reason == "stop"
    assert reply.usage is not None and reply.usage.prompt_tokens > 0
    assert reply.usage.total_tokens == reply.usage.prompt_tokens + reply.usage.completion_tokens
    again = sdk.chat.completions.create(model="scripted", messages=[
        {"role": "system", "content": "You are terse."}, {"role": "user", "content": "hi"}])
    assert again.usage is not None and again.usage.prompt_tokens_details is not None
    assert again.usage.prompt_tokens_details.cached_tokens > 0  # the same prefix, kept


def test_streaming_with_include_usage(serve: Any) -> None:
    served = serve(ANSWER)
    chunks = list(client(served).chat.completions.create(
        model="scripted", messages=[{"role": "user", "content": "hi"}], stream=True,
        stream_options={"include_usage": True}))
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    reasoning = "".join((c.choices[0].delta.model_extra or {}).get("reasoning_content", "")
                        for c in chunks if c.choices)
    assert text == "Hello from Hearth." and reasoning == "The user greets me."
    assert [c.choices[0].finish_reason for c in chunks if c.choices][-1] == "stop"
    assert chunks[-1].choices == [] and chunks[-1].usage is not None
    assert chunks[-1].usage.completion_tokens > 0


def test_tool_call_round_trip_comes_back_structured(serve: Any) -> None:
    served = serve(TOOL_CALL, AFTER_TOOL)
    sdk = client(served)
    messages: list[Any] = [{"role": "user", "content": "What time is it in Tokyo?"}]
    first = sdk.chat.completions.create(model="scripted", messages=messages, tools=[TIME_TOOL])
    choice = first.choices[0]
    assert choice.finish_reason == "tool_calls"
    assert "<tool_call>" not in (choice.message.content or "")
    calls = choice.message.tool_calls or []
    assert len(calls) == 1 and calls[0].function.name == "get_time"
    assert json.loads(calls[0].function.arguments) == {"timezone": "Asia/Tokyo"}
    # The OpenAI convention: the assistant turn comes back with arguments as a JSON string.
    messages += [choice.message.model_dump(exclude_none=True),
                 {"role": "tool", "tool_call_id": calls[0].id, "content": "21:04"}]
    second = sdk.chat.completions.create(model="scripted", messages=messages, tools=[TIME_TOOL])
    assert second.choices[0].message.content == "It is 21:04 in Tokyo."
    line = served.wait_for("request")
    assert line["tool_calls"] == ["get_time"] and line["tools_offered"] == 1
    assert "Tokyo" not in json.dumps(line)  # the log keeps no message bodies


def test_streamed_tool_call_is_structured(serve: Any) -> None:
    served = serve(TOOL_CALL)
    chunks = list(client(served).chat.completions.create(
        model="scripted", messages=[{"role": "user", "content": "time?"}], tools=[TIME_TOOL],
        stream=True))
    deltas = [c.choices[0].delta for c in chunks if c.choices]
    calls = [call for d in deltas for call in (d.tool_calls or [])]
    assert len(calls) == 1 and calls[0].function is not None
    assert calls[0].function.name == "get_time" and calls[0].index == 0
    assert json.loads(calls[0].function.arguments or "") == {"timezone": "Asia/Tokyo"}
    assert "".join(d.content or "" for d in deltas) == ""
    assert chunks[-1].choices[0].finish_reason == "tool_calls"


def test_stop_and_max_tokens_are_honoured(serve: Any) -> None:
    served = serve(ANSWER, ANSWER)
    sdk = client(served)
    stopped = sdk.chat.completions.create(model="x", messages=[{"role": "user", "content": "hi"}],
                                          stop=["from"])
    assert stopped.choices[0].message.content == "Hello "
    assert stopped.choices[0].finish_reason == "stop"
    short = sdk.chat.completions.create(model="x", messages=[{"role": "user", "content": "hi"}],
                                        max_completion_tokens=3)
    assert short.choices[0].finish_reason == "length"
    assert short.usage is not None and short.usage.completion_tokens == 3


def test_wrong_or_missing_key_is_401(serve: Any) -> None:
    served = serve()
    with pytest.raises(openai.AuthenticationError) as caught:
        client(served, key="not-the-key").models.list()
    assert caught.value.status_code == 401
    status, headers, _ = raw(served, "GET", "/v1/models", headers={"Authorization": ""})
    assert status == 401 and headers["www-authenticate"] == "Bearer"


def test_bad_json_unknown_fields_and_wrong_types_are_one_line_400s(serve: Any) -> None:
    served = serve()
    cases = {
        b'{"messages": [': "not valid JSON",
        b'{"messages": [{"role": "user", "content": "hi"}], "temprature": 1}': "'temprature'",
        b'{"messages": "hi"}': "'messages' must be an array",
        b'{"messages": [{"role": "user", "content": "hi"}], "max_tokens": "9"}': "'max_tokens'",
    }
    for body, reason in cases.items():
        status, _, answer = raw(served, "POST", "/v1/chat/completions", body)
        error = json.loads(answer)["error"]
        assert status == 400 and reason in error["message"], (body, error)
        assert "\n" not in error["message"]
    with pytest.raises(openai.BadRequestError):
        client(served).chat.completions.create(model="x", messages=[
            {"role": "user", "content": "hi"}], n=2)


def test_host_header_of_another_name_is_refused(serve: Any) -> None:
    served = serve()
    status, _, body = raw(served, "GET", "/v1/models", headers={"Host": "attacker.example:80"})
    assert status == 403 and json.loads(body)["error"]["code"] == "host_not_allowed"
    status, _, _ = raw(served, "GET", "/v1/models", headers={"Host": f"localhost:{served.port}"})
    assert status == 200


def test_cors_closed_by_default_and_preflight_answered_before_auth(serve: Any) -> None:
    served = serve(server_cors_origins=["http://localhost:5173"])
    preflight = {"Origin": "http://localhost:5173", "Authorization": "",
                 "Access-Control-Request-Method": "POST",
                 "Access-Control-Request-Headers": "authorization, content-type"}
    status, headers, _ = raw(served, "OPTIONS", "/v1/chat/completions", headers=preflight)
    assert status == 204
    assert headers["access-control-allow-origin"] == "http://localhost:5173"
    assert "Authorization" in headers["access-control-allow-headers"]
    status, headers, _ = raw(served, "OPTIONS", "/v1/chat/completions",
                             headers={**preflight, "Origin": "https://evil.example"})
    assert status == 403 and "access-control-allow-origin" not in headers
    status, _, _ = raw(served, "GET", "/v1/models", headers={"Origin": "https://evil.example"})
    assert status == 403
    status, headers, _ = raw(served, "GET", "/v1/models",
                             headers={"Origin": "http://localhost:5173"})
    assert status == 200 and headers["access-control-allow-origin"] == "http://localhost:5173"


def test_completions_and_responses(serve: Any) -> None:
    served = serve("Once upon a time", ANSWER)
    sdk = client(served)
    done = sdk.completions.create(model="x", prompt="<|im_start|>user\nTell a story<|im_end|>\n")
    assert done.choices[0].text == "Once upon a time" and done.object == "text_completion"
    reply = sdk.responses.create(model="x", input="hi", instructions="Be brief.")
    assert reply.output_text == "Hello from Hearth." and reply.status == "completed"
    assert reply.usage is not None and reply.usage.input_tokens > 0


def test_disconnect_cancels_the_generation(serve: Any) -> None:
    served = serve(" ".join(["tick"] * 3000) + "\n</think>\n\ndone",
                   args=("--script-delay", "0.02"))
    body = json.dumps({"messages": [{"role": "user", "content": "go"}], "stream": True})
    sock = socket.create_connection((served.host, served.port))
    sock.sendall((f"POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  f"Authorization: Bearer {served.key}\r\nContent-Type: application/json\r\n"
                  f"Content-Length: {len(body)}\r\n\r\n{body}").encode())
    received = b""
    while received.count(b"reasoning_content") < 3:
        received += sock.recv(4096)
    sock.close()
    line = served.wait_for("request")
    assert line["status"] == 499 and line["finish_reason"] == "cancelled"
    assert line["completion_tokens"] < 3000


def test_queue_position_header(serve: Any) -> None:
    served = serve(ANSWER)
    status, headers, _ = raw(served, "POST", "/v1/chat/completions",
                             json.dumps({"messages": [{"role": "user", "content": "hi"}]}).encode())
    assert status == 200 and headers["x-hearth-queue-position"] == "0"


def test_sigterm_ends_streams_with_an_error_chunk_and_exits_cleanly(serve: Any) -> None:
    served = serve(" ".join(["tick"] * 3000), args=("--script-delay", "0.02"))
    conn = http.client.HTTPConnection(served.host, served.port, timeout=60)
    conn.request("POST", "/v1/chat/completions", body=json.dumps(
        {"messages": [{"role": "user", "content": "go"}], "stream": True}),
        headers={"Authorization": f"Bearer {served.key}", "Content-Type": "application/json"})
    response = conn.getresponse()
    assert response.status == 200
    response.readline()  # the first chunk: generation is running
    code = served.stop()
    rest = response.read().decode()
    conn.close()
    assert '"code": "server_shutdown"' in rest and rest.rstrip().endswith("data: [DONE]")
    assert code == 0


def test_key_is_created_once_and_kept_owner_only(serve: Any, tmp_path: Path) -> None:
    served = serve()
    settings_file = tmp_path / "home0" / "data" / "settings.json"
    assert json.loads(settings_file.read_text())["server_api_key"] == served.key
    assert settings_file.stat().st_mode & 0o777 == 0o600
    assert served.key.startswith("hearth-") and len(served.key) > 40


def test_real_llama_cpp_model_chat_stream_prefix_reuse_and_overflow(
        tmp_path: Path, tiny_model: Any) -> None:
    """The tiny GGUF on real llama.cpp: answers, streams, reuses a client's system prompt, and
    refuses a prompt longer than the loaded context (never truncating it)."""
    served = Served(tmp_path / "home", "--model", str(tiny_model.gguf_path),
                    settings={"context_length": 2048})
    try:
        ready = served.wait_for("ready")
        assert ready["context_length"] == 2048 and ready["engine"] == "llama"
        sdk = client(served)
        system = {"role": "system", "content": "You are an agent. " + LONG}
        first = sdk.chat.completions.create(model=ready["model"], max_tokens=8, seed=1,
                                            messages=[system, {"role": "user", "content": "a"}])
        assert first.usage is not None and first.usage.completion_tokens > 0
        second = sdk.chat.completions.create(model=ready["model"], max_tokens=8, stream=True,
                                             stream_options={"include_usage": True}, messages=[
                                                 system, {"role": "user", "content": "b"}])
        usage = list(second)[-1].usage
        assert usage is not None and usage.prompt_tokens_details is not None
        # Only the new turn is prefilled: the system prompt's KV was kept.
        assert usage.prompt_tokens_details.cached_tokens > first.usage.prompt_tokens // 2
        sampled = [sdk.chat.completions.create(
            model=ready["model"], max_tokens=12, seed=5, temperature=1.0, top_p=0.9,
            reasoning_effort="none", messages=[{"role": "user", "content": "pick"}]
        ).choices[0].message.content for _ in range(3)]
        # The same seed samples the same answer (the 2nd and 3rd start from the same cache
        # state; a fresh prefill may differ from a reused one in the last float bits).
        assert sampled[1] == sampled[2]
        with pytest.raises(openai.BadRequestError) as caught:
            client(served).chat.completions.create(model=ready["model"], messages=[
                {"role": "user", "content": LONG * 4}], stream=True)
        error = caught.value.body
        assert isinstance(error, dict) and error["code"] == "context_length_exceeded"
        assert error["context_length"] == 2048 and error["prompt_tokens"] > 2048
        assert "2048" in error["message"]
    finally:
        served.stop()
