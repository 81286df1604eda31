"""The remote engine against a small fake OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import json
import socket
import threading
from collections import deque
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from backends.base import GenerateOptions
from backends.errors import FailureKind, NotLoaded, RemoteError
from backends.events import Done, Event, ReasoningDelta, StreamError, TextDelta, ToolCall
from backends.remote import RemoteBackend
from tests.backends.test_parser import merged
from tests.support.ports import free_port

WAIT = 10.0  # seconds: the longest any test waits for the other side
USER = [{"role": "system", "content": "You are Hearth."}, {"role": "user", "content": "Hi"}]
Reply = Callable[["Handler"], None]


class Handler(BaseHTTPRequestHandler):
    server: FakeServer

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        self.server.requests.append({"path": self.path, "headers": dict(self.headers)})
        if self.path.endswith("/v1/models"):
            send_json(self, 200, self.server.models)
        else:
            send_json(self, 404, {"error": {"message": f"no route {self.path}"}})

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length", "0"))
        body = json.loads(self.rfile.read(length))
        self.server.requests.append({"path": self.path, "headers": dict(self.headers),
                                     "body": body})
        if not self.path.endswith("/v1/chat/completions"):
            send_json(self, 404, {"error": {"message": f"no route {self.path}"}})
        elif not self.server.replies:
            send_json(self, 500, {"error": {"message": "fake server has no reply queued"}})
        else:
            self.server.replies.popleft()(self)


class FakeServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), Handler)
        self.replies: deque[Reply] = deque()
        self.requests: list[dict[str, Any]] = []
        self.models: dict[str, Any] = {"object": "list", "data": [
            {"id": "nanbeige-4.2", "max_model_len": 8192}, {"id": "other"}]}
        self.disconnected = threading.Event()
        self.release = threading.Event()  # lets a deliberately stuck handler finish

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def last_body(self) -> dict[str, Any]:
        body: dict[str, Any] = self.requests[-1]["body"]
        return body


@pytest.fixture
def server() -> Iterator[FakeServer]:
    fake = FakeServer()
    thread = threading.Thread(target=fake.serve_forever, kwargs={"poll_interval": 0.05},
                              daemon=True)
    thread.start()
    yield fake
    fake.release.set()
    fake.shutdown()
    fake.server_close()
    thread.join(WAIT)


def send_json(handler: BaseHTTPRequestHandler, status: int, data: Any) -> None:
    payload = data if isinstance(data, bytes) else json.dumps(data).encode()
    handler.send_response(status)
    handler.send_header("Content-Type", "application/json")
    handler.send_header("Content-Length", str(len(payload)))
    handler.end_headers()
    handler.wfile.write(payload)


def start_sse(handler: BaseHTTPRequestHandler) -> None:
    handler.send_response(200)
    handler.send_header("Content-Type", "text/event-stream")
    handler.send_header("Connection", "close")
    handler.end_headers()


def write_event(handler: BaseHTTPRequestHandler, data: Any) -> None:
    text = data if isinstance(data, str) else json.dumps(data)
    handler.wfile.write(f"data: {text}\n\n".encode())
    handler.wfile.flush()


def sse(*chunks: Any, done: bool = True) -> Reply:
    def reply(handler: Handler) -> None:
        start_sse(handler)
        for chunk in chunks:
            write_event(handler, chunk)
        if done:
            write_event(handler, "[DONE]")
    return reply


def chunk(content: str | None = None, finish: str | None = None, **delta: Any) -> dict[str, Any]:
    if content is not None:
        delta["content"] = content
    return {"object": "chat.completion.chunk",
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}


def usage(prompt: int, completion: int, cached: int | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"prompt_tokens": prompt, "completion_tokens": completion}
    if cached is not None:
        data["prompt_tokens_details"] = {"cached_tokens": cached}
    return {"object": "chat.completion.chunk", "choices": [], "usage": data}


def connect(server: FakeServer, **kwargs: Any) -> RemoteBackend:
    backend = RemoteBackend(server.url, **kwargs)
    backend.load()
    return backend


def run(backend: RemoteBackend, options: GenerateOptions | None = None,
        should_stop: Callable[[], bool] = lambda: False) -> list[Event]:
    return list(backend.stream(USER, options or GenerateOptions(), should_stop))


RAW_CALL = ("<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n"
            "</function>\n</tool_call>")


# -- connecting ------------------------------------------------------------------------------

def test_load_picks_the_first_served_model(server: FakeServer) -> None:
    backend = connect(server)
    assert backend.loaded
    assert backend.info.engine == "remote"
    assert backend.info.model_name == "nanbeige-4.2"
    assert backend.info.context_length == 8192
    assert server.requests[0]["path"] == "/v1/models"
    # then the probe for what kind of server this is (none of them answers here)
    assert backend.server.name == "openai-compatible"


@pytest.mark.parametrize("suffix", ["", "/", "/v1", "/v1/"])
def test_url_with_or_without_v1(server: FakeServer, suffix: str) -> None:
    server.replies.append(sse(chunk("ok", finish="stop")))
    backend = RemoteBackend(server.url + suffix)
    backend.load()
    run(backend, GenerateOptions(enable_thinking=False))
    assert server.requests[0]["path"] == "/v1/models"
    assert [r["path"] for r in server.requests if "body" in r] == ["/v1/chat/completions"]


def test_url_prefix_path_is_kept(server: FakeServer) -> None:
    RemoteBackend(server.url + "/proxy/v1").load()
    assert server.requests[0]["path"] == "/proxy/v1/models"
    assert all(r["path"].startswith("/proxy/") for r in server.requests)


def test_given_model_name_is_kept_and_sent(server: FakeServer) -> None:
    server.replies.append(sse(chunk("ok", finish="stop")))
    backend = connect(server, model="other")
    run(backend)
    assert backend.info.model_name == "other"
    assert server.last_body()["model"] == "other"


@pytest.mark.parametrize("url", ["", "ftp://example.com", "http://", "http://host:99999"])
def test_bad_url_is_a_clear_error(url: str) -> None:
    with pytest.raises(RemoteError, match="server address|port"):
        RemoteBackend(url).load()


def test_connection_refused_says_so() -> None:
    port = free_port()  # nothing listens there
    with pytest.raises(RemoteError, match="refused. Is the server running") as caught:
        RemoteBackend(f"http://127.0.0.1:{port}").load()
    assert caught.value.kind == FailureKind.SERVER_UNREACHABLE


def test_unknown_host_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_such_host(*args: Any, **kwargs: Any) -> Any:
        raise socket.gaierror(socket.EAI_NONAME, "Name or service not known")

    monkeypatch.setattr(socket, "getaddrinfo", no_such_host)
    with pytest.raises(RemoteError, match="Cannot find the server 'llm.example'"):
        RemoteBackend("http://llm.example:8000").load()


def test_server_that_never_answers_times_out(server: FakeServer) -> None:
    def stuck(handler: Handler) -> None:
        server.release.wait(WAIT)

    backend = connect(server, timeout=0.3)
    server.replies.append(stuck)
    with pytest.raises(RemoteError, match=r"did not answer within 0.3 seconds"):
        run(backend)


@pytest.mark.parametrize(("status", "body", "expected"), [
    (400, {"error": {"message": "context length exceeded", "type": "invalid_request"}},
     "400 Bad Request: context length exceeded"),
    (404, {"detail": "model 'x' not found"}, "404 Not Found: model 'x' not found"),
    (500, b"upstream crashed", "500 Internal Server Error: upstream crashed"),
    (401, b"", "401 Unauthorized: no details given"),
])
def test_http_errors_carry_the_servers_message(server: FakeServer, status: int, body: Any,
                                               expected: str) -> None:
    backend = connect(server)
    server.replies.append(lambda handler: send_json(handler, status, body))
    with pytest.raises(RemoteError, match=expected) as caught:
        run(backend)
    assert caught.value.kind == FailureKind.SERVER_REFUSED  # it answered: the address is right


def test_stream_before_load_is_refused(server: FakeServer) -> None:
    with pytest.raises(NotLoaded):
        run(RemoteBackend(server.url))


# -- raw text mode (the server returns the model's own text) ----------------------------------

def test_raw_text_goes_through_the_parser(server: FakeServer) -> None:
    pieces = ["The user", " wants weather.\n</th", "ink>\n\nLet me", " check.\n\n",
              RAW_CALL[:20], RAW_CALL[20:]]
    server.replies.append(sse(*[chunk(p) for p in pieces], chunk(finish="stop"),
                              usage(50, 20, cached=32)))
    events = run(connect(server), GenerateOptions(tools=[{"type": "function", "function": {
        "name": "get_weather"}}]))
    assert merged(events[:-1]) == [
        ReasoningDelta("The user wants weather."), TextDelta("Let me check."),
        ToolCall("get_weather", {"city": "Paris"}, raw=RAW_CALL)]
    done = events[-1]
    assert isinstance(done, Done)
    assert (done.finish_reason, done.prompt_tokens, done.cached_prompt_tokens,
            done.completion_tokens) == ("tool_calls", 50, 32, 20)


def test_raw_text_without_thinking_is_all_answer(server: FakeServer) -> None:
    server.replies.append(sse(chunk("Paris is"), chunk(" the capital."), chunk(finish="stop")))
    events = run(connect(server), GenerateOptions(enable_thinking=False))
    assert merged(events[:-1]) == [TextDelta("Paris is the capital.")]
    assert events[-1].finish_reason == "stop"  # type: ignore[union-attr]
    assert events[-1].completion_tokens == 2  # type: ignore[union-attr]  # counted: no usage sent


def test_plain_content_with_thinking_on_is_the_answer(server: FakeServer) -> None:
    """A server that never splits reasoning out and whose model never opens `<think>` sends
    the answer as plain content: it is the answer, not reasoning (issue 26)."""
    plain = sse(chunk("Paris is"), chunk(" the capital."), chunk(finish="stop"))
    server.replies.extend([plain, plain])
    backend = connect(server)
    for _ in range(2):  # learned after the first reply, it streams as answer from the start
        events = run(backend, GenerateOptions(enable_thinking=True))
        assert merged(events[:-1]) == [TextDelta("Paris is the capital.")]
        assert events[-1].finish_reason == "stop"  # type: ignore[union-attr]


def test_what_a_server_sends_first_decides_where_its_content_begins(server: FakeServer) -> None:
    """Raw content that closes a `</think>` it never opened began in the reasoning (a template
    that opens it in the prompt); one the model opens itself begins in the answer."""
    server.replies.extend([sse(chunk("r"), chunk("</think>a"), chunk(finish="stop")),
                           sse(chunk("<think>q</think>"), chunk("b"), chunk(finish="stop"))])
    assert merged(run(connect(server))[:-1]) == [ReasoningDelta("r"), TextDelta("a")]
    assert merged(run(connect(server))[:-1]) == [ReasoningDelta("q"), TextDelta("b")]


def test_a_splitting_server_that_sent_no_reasoning_sent_the_answer(server: FakeServer) -> None:
    server.replies.extend([sse(chunk(reasoning_content="plan"), chunk("A1"), chunk(finish="stop")),
                           sse(chunk("A2"), chunk(finish="stop"))])
    backend = connect(server)
    assert merged(run(backend)[:-1]) == [ReasoningDelta("plan"), TextDelta("A1")]
    assert merged(run(backend)[:-1]) == [TextDelta("A2")]


def test_raw_call_cut_off_by_length_is_an_error_event(server: FakeServer) -> None:
    server.replies.append(sse(chunk("r</think>" + RAW_CALL[:40]), chunk(finish="length")))
    events = run(connect(server))
    assert any(isinstance(e, StreamError) and "cut off" in e.message for e in events)
    assert events[-1].finish_reason == "length"  # type: ignore[union-attr]


# -- structured mode (the server splits reasoning and tool calls itself) ----------------------

def test_structured_reasoning_and_tool_calls(server: FakeServer) -> None:
    call_start = {"index": 0, "id": "c1", "type": "function",
                  "function": {"name": "get_weather", "arguments": ""}}
    server.replies.append(sse(
        chunk(reasoning_content="\nI need"), chunk(reasoning_content=" the weather.\n"),
        chunk("Checking."),
        chunk(tool_calls=[call_start]),
        chunk(tool_calls=[{"index": 0, "function": {"arguments": '{"city": "Pa'}}]),
        chunk(tool_calls=[{"index": 0, "function": {"arguments": 'ris", "days": 2}'}}]),
        chunk(tool_calls=[{"index": 1, "function": {"name": "get_time", "arguments": "{}"}}]),
        chunk(finish="tool_calls"), usage(70, 30, cached=64)))
    events = run(connect(server))
    assert merged(events[:-1]) == [
        ReasoningDelta("I need the weather."), TextDelta("Checking."),
        ToolCall("get_weather", {"city": "Paris", "days": 2}, raw='{"city": "Paris", "days": 2}'),
        ToolCall("get_time", {}, raw="{}")]
    done = events[-1]
    assert isinstance(done, Done)
    assert (done.finish_reason, done.prompt_tokens, done.cached_prompt_tokens) == (
        "tool_calls", 70, 64)


def test_reasoning_field_variant_and_answer_not_taken_for_reasoning(server: FakeServer) -> None:
    server.replies.append(sse(chunk(reasoning="Short plan."), chunk("Answer."),
                              chunk(finish="stop")))
    events = run(connect(server))
    assert merged(events[:-1]) == [ReasoningDelta("Short plan."), TextDelta("Answer.")]


def test_structured_reasoning_with_raw_tool_call_in_content(server: FakeServer) -> None:
    server.replies.append(sse(chunk(reasoning_content="plan"), chunk("\n\n" + RAW_CALL),
                              chunk(finish="stop")))
    events = run(connect(server))
    assert merged(events[:-1]) == [ReasoningDelta("plan"),
                                   ToolCall("get_weather", {"city": "Paris"}, raw=RAW_CALL)]
    assert events[-1].finish_reason == "tool_calls"  # type: ignore[union-attr]


def test_unparsable_structured_arguments_are_an_error_event(server: FakeServer) -> None:
    server.replies.append(sse(
        chunk(tool_calls=[{"index": 0, "function": {"name": "f", "arguments": '{"a": '}}]),
        chunk(finish="tool_calls")))
    events = run(connect(server))
    errors = [e.message for e in events if isinstance(e, StreamError)]
    assert len(errors) == 1 and "'f'" in errors[0] and "not valid JSON" in errors[0]
    assert not any(isinstance(e, ToolCall) for e in events)


def test_non_streaming_reply_is_understood(server: FakeServer) -> None:
    reply = {"choices": [{"index": 0, "finish_reason": "stop", "message": {
        "role": "assistant", "reasoning_content": "think", "content": "Whole answer."}}],
        "usage": {"prompt_tokens": 9, "completion_tokens": 4}}
    server.replies.append(lambda handler: send_json(handler, 200, reply))
    events = run(connect(server))
    assert merged(events[:-1]) == [ReasoningDelta("think"), TextDelta("Whole answer.")]
    assert events[-1] == Done("stop", 9, 0, 4, events[-1].timings)  # type: ignore[union-attr]


# -- failures during the stream -----------------------------------------------------------------

def test_error_event_in_stream(server: FakeServer) -> None:
    server.replies.append(sse(chunk("r</think>par"), {"error": {"message": "out of memory"}},
                              done=False))
    events = run(connect(server))
    assert StreamError("The server reported an error: out of memory",
                       kind=FailureKind.SERVER_REFUSED) in events
    assert events[-1].finish_reason == "error"  # type: ignore[union-attr]


def test_stream_that_stops_early_is_reported(server: FakeServer) -> None:
    server.replies.append(sse(chunk("r</think>half an ans"), done=False))
    events = run(connect(server))
    assert TextDelta("half an ans") in events
    assert any(isinstance(e, StreamError) and "before it was complete" in e.message
               and e.kind == FailureKind.SERVER_UNREACHABLE for e in events)
    assert events[-1].finish_reason == "error"  # type: ignore[union-attr]


def test_garbage_line_is_reported_and_stream_goes_on(server: FakeServer) -> None:
    server.replies.append(sse("not json", chunk("r</think>fine"), chunk(finish="stop")))
    events = run(connect(server))
    assert any(isinstance(e, StreamError) and "not json" in e.message for e in events)
    assert TextDelta("fine") in events and events[-1].finish_reason == "stop"  # type: ignore[union-attr]


def test_sse_framing_comments_multiline_data_and_no_final_blank_line(server: FakeServer) -> None:
    first = json.dumps(chunk("r</think>Hel")).replace(", ", ",\ndata: ", 1)
    last = json.dumps(chunk("lo", finish="stop"))

    def reply(handler: Handler) -> None:
        start_sse(handler)
        handler.wfile.write(f": keep-alive\r\n\r\nevent: message\ndata: {first}\n\n"
                            f"data: {last}".encode())

    server.replies.append(reply)
    events = run(connect(server))
    assert merged(events[:-1]) == [ReasoningDelta("r"), TextDelta("Hello")]
    assert events[-1].finish_reason == "stop"  # type: ignore[union-attr]


def test_cancel_mid_stream_closes_the_connection(server: FakeServer) -> None:
    def slow(handler: Handler) -> None:
        start_sse(handler)
        write_event(handler, chunk("first thought</think>Hello"))
        handler.connection.settimeout(WAIT)
        try:  # the client sends nothing more: reading returns b"" only once it hangs up
            if handler.connection.recv(1) == b"":
                server.disconnected.set()
        except OSError:
            server.disconnected.set()
        server.release.wait(WAIT)

    backend = connect(server)
    server.replies.append(slow)
    seen: list[Event] = []
    for event in backend.stream(USER, GenerateOptions(), lambda: bool(seen)):
        seen.append(event)
    assert isinstance(seen[-1], Done) and seen[-1].finish_reason == "cancelled"
    assert server.disconnected.wait(WAIT)
    assert not any(isinstance(e, StreamError) for e in seen)


def test_cancel_before_start_sends_nothing(server: FakeServer) -> None:
    backend = connect(server)
    events = run(backend, should_stop=lambda: True)
    assert events == [Done("cancelled", timings=events[0].timings)]  # type: ignore[union-attr]
    assert not [r for r in server.requests if "body" in r]  # load's GETs only, no request


# -- what is sent ------------------------------------------------------------------------------

def test_request_carries_sampling_thinking_switches_and_tools(server: FakeServer) -> None:
    tools = [{"type": "function", "function": {"name": "get_weather", "parameters": {}}}]
    history: list[dict[str, Any]] = [*USER, {"role": "assistant", "content": "", "tool_calls": [
        {"type": "function", "function": {"name": "get_weather", "arguments": {"city": "Oslo"}}}]},
        {"role": "tool", "content": "sunny"}]
    server.replies.append(sse(chunk("ok", finish="stop")))
    backend = connect(server, api_key="sk-secret")
    options = GenerateOptions(enable_thinking=False, preserve_thinking=True, tools=tools,
                              max_tokens=77, seed=5)
    list(backend.stream(history, options, lambda: False))
    body = server.last_body()
    assert body["stream"] is True and body["max_tokens"] == 77 and body["seed"] == 5
    assert (body["temperature"], body["top_p"], body["top_k"], body["min_p"]) == (
        1.0, 0.95, 20, 0.0)
    assert body["chat_template_kwargs"]["enable_thinking"] is False
    assert body["chat_template_kwargs"]["preserve_thinking"] is True
    assert body["tools"] == tools
    sent_call = body["messages"][2]["tool_calls"][0]
    assert json.loads(sent_call["function"]["arguments"]) == {"city": "Oslo"}
    assert sent_call["id"] and history[2]["tool_calls"][0]["function"]["arguments"] == {
        "city": "Oslo"}  # the caller's history is left as it was
    assert server.requests[-1]["headers"]["Authorization"] == "Bearer sk-secret"


def test_strict_server_refusing_extra_fields_gets_a_plain_request(server: FakeServer) -> None:
    def strict(handler: Handler) -> None:
        if "top_k" in server.last_body():
            server.replies.appendleft(strict)  # this reply stays for the retry
            send_json(handler, 400, {"error": {
                "message": "Unrecognized request argument supplied: top_k"}})
        else:
            sse(chunk("ok", finish="stop"))(handler)

    backend = connect(server)
    server.replies.extend([strict, sse(chunk("again", finish="stop"))])
    events = run(backend, GenerateOptions(enable_thinking=False))
    assert TextDelta("ok") in events
    bodies = [r["body"] for r in server.requests if "body" in r]
    assert "top_k" in bodies[0] and "chat_template_kwargs" in bodies[0]
    assert not {"top_k", "min_p", "chat_template_kwargs"} & set(bodies[1])
    run(backend, GenerateOptions(enable_thinking=False))
    posted = [r for r in server.requests if "body" in r]
    assert "top_k" not in server.last_body() and len(posted) == 3  # no second refusal


def test_other_bad_requests_are_not_retried(server: FakeServer) -> None:
    backend = connect(server)
    server.replies.append(lambda handler: send_json(handler, 400, {"error": {
        "message": "messages must not be empty"}}))
    with pytest.raises(RemoteError, match="messages must not be empty"):
        run(backend)
    assert len([r for r in server.requests if "body" in r]) == 1  # one refused request


def test_render_prompt_shows_the_request_but_not_the_key(server: FakeServer) -> None:
    backend = connect(server, api_key="sk-secret")
    text = backend.render_prompt(USER, GenerateOptions())
    assert text.startswith(f"POST {server.url}/v1/chat/completions\n")
    assert '"content": "Hi"' in text
    assert "enable_thinking" in text and "sk-secret" not in text


def test_address_without_scheme_means_http(server: FakeServer) -> None:
    backend = RemoteBackend(server.url.removeprefix("http://"))
    backend.load()
    assert backend.info.model_name == "nanbeige-4.2"
