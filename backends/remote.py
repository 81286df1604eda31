"""An engine that streams from an OpenAI-compatible server (llama-server, vLLM, SGLang, Ollama).

Works with servers that return the model's raw text in `delta.content` (Hearth's OutputParser
then finds reasoning and tool calls) and with servers that split them out themselves into
`delta.reasoning_content` / `delta.reasoning` and `delta.tool_calls`. Standard library only.

Cancel is checked between streamed chunks and closes the connection, which tells the server to
stop. Servers that report no usage get a completion count of one token per chunk and a prompt
count of 0 (llama-cpp-python's own server is one).
"""

from __future__ import annotations

import http.client
import json
import socket
import ssl
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from backends.base import BackendInfo, GenerateOptions, Message, ShouldStop
from backends.errors import NotLoaded, RemoteError
from backends.events import Done, Event, StreamError, ToolCall
from backends.parser import OutputParser

_ERROR_SNIPPET = 300
# Fields outside OpenAI's own API: llama-server, vLLM and SGLang accept them; a strict server
# that refuses them by name gets the request again without them.
_EXTRA_FIELDS = ("top_k", "min_p", "chat_template_kwargs")


class _RefusedRequest(RemoteError):
    """The server answered with an HTTP error status."""

    def __init__(self, message: str, status: int, detail: str) -> None:
        super().__init__(message)
        self.status = status
        self.detail = detail

    def names_an_extra_field(self) -> bool:
        return self.status in (400, 422) and any(f in self.detail for f in _EXTRA_FIELDS)


@dataclass(frozen=True)
class _Endpoint:
    """Where the server is; accepts `http://host:port`, with or without a trailing `/v1`."""

    url: str
    secure: bool
    host: str
    port: int | None
    prefix: str

    @classmethod
    def parse(cls, url: str) -> _Endpoint:
        text = url.strip()
        if not text:
            raise RemoteError("No server address was given for the remote engine; expected "
                              "something like http://127.0.0.1:8080")
        parts = urlsplit(text if "://" in text else f"http://{text}")
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise RemoteError(f"'{url}' is not a server address; expected something like "
                              "http://127.0.0.1:8080")
        try:
            port = parts.port
        except ValueError as exc:
            raise RemoteError(f"'{url}' has an invalid port number.") from exc
        prefix = parts.path.rstrip("/").removesuffix("/v1")
        return cls(text, parts.scheme == "https", parts.hostname, port, prefix)

    def connection(self, timeout: float) -> http.client.HTTPConnection:
        if self.secure:
            return http.client.HTTPSConnection(self.host, self.port, timeout=timeout)
        return http.client.HTTPConnection(self.host, self.port, timeout=timeout)

    def path(self, endpoint: str) -> str:
        return f"{self.prefix}/v1/{endpoint}"

    def full_url(self, endpoint: str) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        port = f":{self.port}" if self.port else ""
        return f"{'https' if self.secure else 'http'}://{host}{port}{self.path(endpoint)}"


class RemoteBackend:
    """Streams /v1/chat/completions. load() checks the server answers and picks its model."""

    def __init__(self, url: str, model: str = "", api_key: str = "",
                 timeout: float = 60.0) -> None:
        self._endpoint = _Endpoint.parse(url)
        self._model = model
        self._api_key = api_key
        self._timeout = timeout
        self._loaded = False
        self._extras = True  # send _EXTRA_FIELDS until the server refuses them
        # One info object for the backend's life, so what others write on it (reason) stays.
        self._info = BackendInfo(engine="remote", model_path=self._endpoint.url,
                                 model_name=model, device="remote server")

    @property
    def info(self) -> BackendInfo:
        return self._info

    @property
    def loaded(self) -> bool:
        return self._loaded

    def load(self) -> None:
        """Ask the server for its models: proves it is reachable and names the model to use."""
        conn, response = self._open("GET", self._endpoint.path("models"), None)
        try:
            listing = _json_or_empty(self._read(response))
        finally:
            conn.close()
        models = [m for m in listing.get("data") or [] if isinstance(m, dict)]
        if not self._model and models:
            self._model = str(models[0].get("id", ""))
        chosen = next((m for m in models if m.get("id") == self._model), {})
        self._info.model_name = self._model
        self._info.context_length = _context_length(chosen)
        self._info.extra["served_models"] = [str(m.get("id", "")) for m in models]
        self._loaded = True

    def unload(self) -> None:
        self._loaded = False  # nothing is held between requests

    def render_prompt(self, messages: list[Message], options: GenerateOptions) -> str:
        # The server renders the real prompt from this request; show what Hearth sends it.
        body = json.dumps(self._request(messages, options), indent=2, ensure_ascii=False)
        return f"POST {self._endpoint.full_url('chat/completions')}\n{body}"

    def stream(self, messages: list[Message], options: GenerateOptions,
               should_stop: ShouldStop) -> Iterator[Event]:
        if not self._loaded:
            raise NotLoaded("Not connected to the server yet: call load() first.")
        turn = _Turn(options)
        if should_stop():
            yield turn.done("cancelled")
            return
        conn, response = self._post_chat(messages, options)
        try:
            if "json" in (response.getheader("Content-Type") or "") and not _is_sse(response):
                yield from turn.handle(_json_or_empty(self._read(response)))  # a non-streaming reply
                turn.ended = True
            else:
                yield from self._follow(response, turn, should_stop)
        finally:
            conn.close()  # also what a cancel does: the server notices and stops generating
        yield from turn.finish()
        yield turn.done()

    def _post_chat(self, messages: list[Message], options: GenerateOptions,
                   ) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
        def post() -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
            payload = json.dumps(self._request(messages, options), ensure_ascii=False)
            return self._open("POST", self._endpoint.path("chat/completions"), payload.encode())

        try:
            return post()
        except _RefusedRequest as exc:
            if not (self._extras and exc.names_an_extra_field()):
                raise
            self._extras = False  # remembered: this server wants plain OpenAI requests
            return post()

    def _follow(self, response: http.client.HTTPResponse, turn: _Turn,
                should_stop: ShouldStop) -> Iterator[Event]:
        for data in self._sse_data(response):
            if data == "[DONE]":
                turn.ended = True
                return
            try:
                chunk = json.loads(data)
            except ValueError:
                yield StreamError(f"The server sent data Hearth cannot read: {data[:80]}")
                continue
            yield from turn.handle(chunk if isinstance(chunk, dict) else {})
            if should_stop():
                turn.cancelled = True
                return

    def _sse_data(self, response: http.client.HTTPResponse) -> Iterator[str]:
        """The data of each server-sent event, joined across its `data:` lines."""
        lines: list[str] = []
        while True:
            raw = self._readline(response)
            line = raw.decode("utf-8", errors="replace").rstrip("\r\n")
            if line.startswith("data:"):
                lines.append(line[5:].removeprefix(" "))
            elif not line and lines:  # a blank line ends an event; so does the end of the body
                yield "\n".join(lines)
                lines = []
            if not raw:
                return

    # -- HTTP ---------------------------------------------------------------------------------

    def _request(self, messages: list[Message], options: GenerateOptions) -> dict[str, Any]:
        body: dict[str, Any] = {
            "messages": [_wire_message(m) for m in messages],
            "stream": True,
            "stream_options": {"include_usage": True},
            "max_tokens": options.max_tokens,
            "temperature": options.effective_temperature(),
            "top_p": options.top_p,
        }
        if self._extras:
            body["top_k"] = options.top_k
            body["min_p"] = options.min_p
            body["chat_template_kwargs"] = {"enable_thinking": options.enable_thinking,
                                            "preserve_thinking": options.preserve_thinking,
                                            "tool_call_format": options.tool_call_format}
        if self._model:
            body["model"] = self._model
        if options.tools:
            body["tools"] = options.tools
        if options.seed is not None:
            body["seed"] = options.seed
        return body

    def _headers(self, has_body: bool) -> dict[str, str]:
        headers = {"Accept": "text/event-stream, application/json"}
        if has_body:
            headers["Content-Type"] = "application/json"
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    def _open(self, method: str, path: str,
              body: bytes | None) -> tuple[http.client.HTTPConnection, http.client.HTTPResponse]:
        conn = self._endpoint.connection(self._timeout)
        try:
            conn.request(method, path, body=body, headers=self._headers(body is not None))
            response = conn.getresponse()
            if response.status >= 400:
                detail = _error_text(self._read(response))
                raise _RefusedRequest(f"The server at {self._endpoint.url} answered "
                                      f"{response.status} {response.reason}: {detail}",
                                      response.status, detail)
        except (OSError, http.client.HTTPException) as exc:
            conn.close()
            raise RemoteError(self._describe(exc)) from exc
        except RemoteError:
            conn.close()
            raise
        return conn, response

    def _read(self, response: http.client.HTTPResponse) -> bytes:
        try:
            return response.read()
        except (OSError, http.client.HTTPException) as exc:
            raise RemoteError(self._describe(exc)) from exc

    def _readline(self, response: http.client.HTTPResponse) -> bytes:
        try:
            return response.readline()
        except (OSError, http.client.HTTPException) as exc:
            raise RemoteError(self._describe(exc)) from exc

    def _describe(self, exc: BaseException) -> str:
        """A sentence a person can act on, for each way the network fails."""
        url = self._endpoint.url
        if isinstance(exc, ConnectionRefusedError):
            return f"Cannot connect to {url}: the connection was refused. Is the server running?"
        if isinstance(exc, socket.gaierror):
            return f"Cannot find the server '{self._endpoint.host}': {exc.strerror or exc}."
        if isinstance(exc, TimeoutError):
            return f"The server at {url} did not answer within {self._timeout:g} seconds."
        if isinstance(exc, ssl.SSLError):
            return f"The secure connection to {url} failed: {exc.reason or exc}."
        if isinstance(exc, http.client.HTTPException | ConnectionError):
            return f"The server at {url} closed the connection unexpectedly ({exc!s:.120})."
        return f"Cannot reach {url}: {getattr(exc, 'strerror', None) or exc}."


class _Turn:
    """What one streamed reply has said so far, in either server style."""

    def __init__(self, options: GenerateOptions) -> None:
        self.options = options
        self.started = time.perf_counter()
        self.first = 0.0
        self.pieces = 0  # content/reasoning chunks, the token count when the server gives none
        self.finish_reason = ""
        self.usage: dict[str, Any] = {}
        self.server_timings: dict[str, Any] = {}
        self.ended = False  # [DONE] or a complete non-streaming reply
        self.cancelled = False
        self.saw_call = False
        self.saw_reasoning = False  # the server split the reasoning out itself
        self.server_error = False
        # Reasoning split out by the server still goes through a parser, to trim it the same way.
        self.reasoning = OutputParser(options.tool_call_format, starts_in_reasoning=True)
        self.content: OutputParser | None = None
        self.calls: dict[int, dict[str, str]] = {}

    def handle(self, chunk: dict[str, Any]) -> list[Event]:
        events: list[Event] = []
        if chunk.get("error"):
            self.server_error = True
            events.append(StreamError(f"The server reported an error: {_error_text(chunk)}"))
        if isinstance(chunk.get("usage"), dict):
            self.usage = chunk["usage"]
        if isinstance(chunk.get("timings"), dict):
            self.server_timings = chunk["timings"]  # llama-server's own figures
        choices = chunk.get("choices") or []
        if choices and isinstance(choices[0], dict):
            events += self._choice(choices[0])
        return self._seen(events)

    def _choice(self, choice: dict[str, Any]) -> list[Event]:
        self.finish_reason = str(choice.get("finish_reason") or self.finish_reason)
        delta = choice.get("delta") or choice.get("message") or {}
        reasoning = delta.get("reasoning_content") or delta.get("reasoning")
        content, calls = delta.get("content"), delta.get("tool_calls") or []
        # Each chunk is about one token; an empty content piece is one too (llama.cpp sends ""
        # for part of a character). The count stands in when the server reports no usage.
        self.pieces += isinstance(content, str) or bool(reasoning) or bool(calls)
        events: list[Event] = []
        if isinstance(reasoning, str) and reasoning:
            self.saw_reasoning = True
            events += self.reasoning.feed(reasoning)
        if isinstance(content, str) and content:
            parser, flushed = (self.content, []) if self.content else self._start_content()
            events += flushed + parser.feed(content)
        for call in calls:
            if isinstance(call, dict):
                self._add_call_fragment(call)
        return events

    def _start_content(self) -> tuple[OutputParser, list[Event]]:
        # Reasoning the server split out is over; raw text starts inside <think> in Think mode.
        self.content = OutputParser(
            self.options.tool_call_format, tools=self.options.tools,
            starts_in_reasoning=self.options.enable_thinking and not self.saw_reasoning)
        return self.content, self.reasoning.finish()

    def _add_call_fragment(self, call: dict[str, Any]) -> None:
        index = call.get("index")
        slot = self.calls.setdefault(index if isinstance(index, int) else len(self.calls),
                                     {"name": "", "arguments": ""})
        function = call.get("function") or {}
        if isinstance(function.get("name"), str):
            slot["name"] += function["name"]
        arguments = function.get("arguments")
        if isinstance(arguments, dict):
            slot["arguments"] = json.dumps(arguments, ensure_ascii=False)
        elif isinstance(arguments, str):
            slot["arguments"] += arguments

    def finish(self) -> list[Event]:
        events = self.reasoning.finish()
        if self.content is not None:
            events += self.content.finish()
        if self.cancelled:  # a reply the user stopped: half a call is not an error
            return self._seen([e for e in events if not isinstance(e, StreamError)])
        events += [_structured_call(slot) for _, slot in sorted(self.calls.items())]
        if not self.ended and not self.finish_reason and not self.server_error:
            events.append(StreamError("The server ended the reply before it was complete."))
        return self._seen(events)

    def _seen(self, events: list[Event]) -> list[Event]:
        if events and not self.first:
            self.first = time.perf_counter()
        self.saw_call = self.saw_call or any(isinstance(e, ToolCall) for e in events)
        return events

    def done(self, finish: str = "") -> Done:
        end = time.perf_counter()
        first = self.first or end
        completion = _int(self.usage.get("completion_tokens")) or self.pieces
        timings = {"ttft_ms": (first - self.started) * 1000, "decode_ms": (end - first) * 1000,
                   "total_ms": (end - self.started) * 1000,
                   "tokens_per_second": (completion - 1) / (end - first)
                   if end > first and completion > 1 else 0.0}
        return Done(finish or self._finish_reason(), prompt_tokens=self._prompt_tokens(),
                    cached_prompt_tokens=self._cached_tokens(), completion_tokens=completion,
                    timings=timings)

    def _finish_reason(self) -> str:
        if self.cancelled:
            return "cancelled"
        if self.server_error or not (self.ended or self.finish_reason):
            return "error"
        reason = {"function_call": "tool_calls", "": "stop"}.get(self.finish_reason,
                                                                 self.finish_reason)
        return "tool_calls" if reason == "stop" and self.saw_call else reason

    def _prompt_tokens(self) -> int:
        fallback = _int(self.server_timings.get("prompt_n")) + _int(
            self.server_timings.get("cache_n"))
        return _int(self.usage.get("prompt_tokens")) or fallback

    def _cached_tokens(self) -> int:
        details = self.usage.get("prompt_tokens_details")
        cached = _int(details.get("cached_tokens")) if isinstance(details, dict) else 0
        return cached or _int(self.server_timings.get("cache_n"))


def _structured_call(slot: dict[str, str]) -> Event:
    name, text = slot["name"].strip(), slot["arguments"]
    if not name:
        return StreamError(f"The server sent a tool call without a name (arguments: {text[:80]}).")
    try:
        arguments = json.loads(text) if text.strip() else {}
    except ValueError:
        return StreamError(f"The server sent a call to tool '{name}' whose arguments are not "
                           f"valid JSON: {text[:80]}")
    if not isinstance(arguments, dict):
        return StreamError(f"The server sent a call to tool '{name}' whose arguments are not "
                           f"an object: {text[:80]}")
    return ToolCall(name, arguments, raw=text)


def _wire_message(message: Message) -> Message:
    """A history message as the OpenAI API wants it: tool-call arguments as a JSON string."""
    calls = message.get("tool_calls")
    if not calls:
        return message
    wired = []
    for number, call in enumerate(calls):
        function = dict(call.get("function", call))
        if not isinstance(function.get("arguments"), str):
            function["arguments"] = json.dumps(function.get("arguments") or {}, ensure_ascii=False)
        wired.append({"id": call.get("id") or f"call_{number}", "type": "function",
                      "function": {"name": function.get("name", ""),
                                   "arguments": function["arguments"]}})
    return {**message, "tool_calls": wired}


def _is_sse(response: http.client.HTTPResponse) -> bool:
    return "event-stream" in (response.getheader("Content-Type") or "")


def _json_or_empty(body: bytes) -> dict[str, Any]:
    try:
        value = json.loads(body)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def _error_text(body: bytes | dict[str, Any]) -> str:
    """The server's own error message, from the shapes OpenAI, vLLM, Ollama and others use."""
    data = _json_or_empty(body) if isinstance(body, bytes) else body
    error = data.get("error", data.get("detail", data.get("message")))
    if isinstance(error, dict):
        error = error.get("message") or json.dumps(error, ensure_ascii=False)
    if isinstance(error, list):
        error = json.dumps(error, ensure_ascii=False)
    if error is None and isinstance(body, bytes):
        error = body.decode("utf-8", errors="replace").strip() or "no details given"
    text = " ".join(str(error).split())
    return text if len(text) <= _ERROR_SNIPPET else text[: _ERROR_SNIPPET - 1] + "…"


def _context_length(model: dict[str, Any]) -> int:
    meta = model.get("meta") if isinstance(model.get("meta"), dict) else {}
    for value in (model.get("max_model_len"), model.get("context_length"),
                  (meta or {}).get("n_ctx_train")):
        if _int(value):
            return _int(value)
    return 0


def _int(value: Any) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) else 0
