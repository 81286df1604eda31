"""HTTP for the remote engine: the server address, request bodies, failures as RemoteError."""

from __future__ import annotations

import json
import socket
import ssl
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

import httpx2

from backends import https
from backends.base import GenerateOptions, Message
from backends.errors import RemoteError, RemoteRefused
from backends.nanbeige import STOP_TEXTS

_ERROR_SNIPPET = 300
# Fields outside OpenAI's own API: llama-server, vLLM and SGLang accept them; a strict server
# that refuses them by name gets the request again without them.
_EXTRA_FIELDS = ("top_k", "min_p", "chat_template_kwargs", "continue_final_message",
                 "add_generation_prompt")


class RefusedRequest(RemoteRefused):
    """The server answered with an HTTP error status."""

    def __init__(self, message: str, status: int, detail: str) -> None:
        super().__init__(message)
        self.status = status
        self.detail = detail

    def names_an_extra_field(self) -> bool:
        return self.status in (400, 422) and any(f in self.detail for f in _EXTRA_FIELDS)


@dataclass(frozen=True)
class Endpoint:
    """Where the server is; accepts `http://host:port`, with or without a trailing `/v1`."""

    url: str
    secure: bool
    host: str
    port: int | None
    prefix: str

    @classmethod
    def parse(cls, url: str) -> Endpoint:
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

    def path(self, endpoint: str) -> str:
        return f"{self.prefix}/v1/{endpoint}"

    def origin(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        port = f":{self.port}" if self.port else ""
        return f"{'https' if self.secure else 'http'}://{host}{port}"

    def full_url(self, endpoint: str) -> str:
        return self.origin() + self.path(endpoint)


class HttpClient:
    """Sends requests to one server over httpx2 and the OS trust store; every way the network
    fails becomes a RemoteError."""

    def __init__(self, endpoint: Endpoint, api_key: str, timeout: float) -> None:
        self.endpoint = endpoint
        self._timeout = timeout
        headers = {"Accept": "text/event-stream, application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        # A fresh connection per request, as servers expect of a plain client: llama-cpp-python's
        # server ends an empty error stream and then drops the connection, so a kept-alive one
        # resets the next request (its retry without streaming).
        try:
            self._client = https.client(timeout, headers, secure=endpoint.secure,
                                        keepalive=False)
        except https.TrustStoreUnreadable as exc:
            raise RemoteError(f"Cannot connect securely to {endpoint.url}: {exc}.") from exc

    def open(self, method: str, path: str, body: bytes | None) -> httpx2.Response:
        """The response, its body still unread: the caller closes it (a cancel does)."""
        headers = {"Content-Type": "application/json"} if body is not None else {}
        request = self._client.build_request(method, self.endpoint.origin() + path,
                                             content=body, headers=headers)
        try:
            response = self._client.send(request, stream=True)
        except httpx2.HTTPError as exc:
            raise RemoteError(self._describe(exc)) from exc
        if response.status_code >= 400:
            detail = error_text(self.read(response))
            raise RefusedRequest(f"The server at {self.endpoint.url} answered "
                                 f"{response.status_code} {response.reason_phrase}: {detail}",
                                 response.status_code, detail)
        return response

    def get_json(self, path: str, body: bytes | None = None) -> dict[str, Any]:
        """GET (or POST `body` to) `path` and read its JSON object ({} for anything else)."""
        return json_or_empty(self.read(self.open("GET" if body is None else "POST", path, body)))

    def read(self, response: httpx2.Response) -> bytes:
        """The whole body; the connection goes back to the pool."""
        try:
            return response.read()
        except httpx2.HTTPError as exc:
            raise RemoteError(self._describe(exc)) from exc
        finally:
            response.close()

    def lines(self, response: httpx2.Response) -> Iterator[str]:
        """The body line by line as it arrives (CR, LF or CRLF ends a line)."""
        try:
            yield from response.iter_lines()
        except httpx2.HTTPError as exc:
            raise RemoteError(self._describe(exc)) from exc

    def close(self) -> None:
        self._client.close()

    def _describe(self, exc: BaseException) -> str:
        """A sentence a person can act on, for each way the network fails."""
        url = self.endpoint.url
        cause = https.root_cause(exc)
        if isinstance(cause, ConnectionRefusedError):
            return f"Cannot connect to {url}: the connection was refused. Is the server running?"
        if isinstance(cause, socket.gaierror):
            return f"Cannot find the server '{self.endpoint.host}': {cause.strerror or cause}."
        if isinstance(exc, httpx2.TimeoutException) or isinstance(cause, TimeoutError):
            return f"The server at {url} did not answer within {self._timeout:g} seconds."
        if isinstance(cause, ssl.SSLError):
            return f"The secure connection to {url} failed: {cause.reason or cause}."
        if isinstance(exc, httpx2.RemoteProtocolError | httpx2.ReadError) or isinstance(
                cause, ConnectionError):
            return f"The server at {url} closed the connection unexpectedly ({cause!s:.120})."
        return f"Cannot reach {url}: {getattr(cause, 'strerror', None) or cause}."


def chat_request(messages: list[Message], options: GenerateOptions, model: str,
                 extras: bool) -> dict[str, Any]:
    """The /v1/chat/completions body; `extras` adds the fields beyond OpenAI's own API."""
    wired = [_wire_message(m, extras) for m in messages]
    if options.assistant_prefix:  # the reply so far: the server continues it
        wired.append({"role": "assistant", "content": options.assistant_prefix})
    body: dict[str, Any] = {
        "messages": wired,
        "stream": True,
        "stream_options": {"include_usage": True},
        "max_tokens": options.max_tokens,
        "temperature": options.effective_temperature(),
        "top_p": options.top_p,
    }
    if extras:
        body["top_k"] = options.top_k
        body["min_p"] = options.min_p
        body["chat_template_kwargs"] = {"enable_thinking": options.enable_thinking,
                                        "preserve_thinking": options.preserve_thinking,
                                        "tool_call_format": options.tool_call_format}
        if options.assistant_prefix:  # vLLM's and SGLang's names; llama-server prefills anyway
            body["continue_final_message"] = True
            body["add_generation_prompt"] = False
    if model:
        body["model"] = model
    if options.tools:
        body["tools"] = options.tools
    if options.seed is not None:
        body["seed"] = options.seed
    if options.json_schema is not None:
        body["response_format"] = {"type": "json_schema", "json_schema": {
            "name": "answer", "schema": options.json_schema, "strict": True}}
    return body


def completion_request(prompt: str, options: GenerateOptions, model: str) -> dict[str, Any]:
    """The /v1/completions body for a prompt Hearth rendered with the model's template."""
    body: dict[str, Any] = {
        "prompt": prompt, "stream": True, "max_tokens": options.max_tokens,
        "temperature": options.effective_temperature(), "top_p": options.top_p,
        "top_k": options.top_k, "min_p": options.min_p, "repeat_penalty": 1.0,
        "stop": list(STOP_TEXTS),
    }
    if model:
        body["model"] = model
    if options.seed is not None:
        body["seed"] = options.seed
    return body


def _wire_message(message: Message, extras: bool = False) -> Message:
    """A history message as the OpenAI API wants it: tool-call arguments as a JSON string,
    and (with extras) earlier reasoning under both names servers read it by: vLLM's
    `reasoning`, SGLang's and llama-server's `reasoning_content`."""
    reasoning = message.get("reasoning_content")
    if extras and isinstance(reasoning, str) and "reasoning" not in message:
        message = {**message, "reasoning": reasoning}
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


def is_sse(response: httpx2.Response) -> bool:
    return "event-stream" in response.headers.get("Content-Type", "")


def json_or_empty(body: bytes) -> dict[str, Any]:
    try:
        value = json.loads(body)
    except ValueError:
        return {}
    return value if isinstance(value, dict) else {}


def error_text(body: bytes | dict[str, Any]) -> str:
    """The server's own error message, from the shapes OpenAI, vLLM, Ollama and others use."""
    data = json_or_empty(body) if isinstance(body, bytes) else body
    error = data.get("error", data.get("detail", data.get("message")))
    if isinstance(error, dict):
        error = error.get("message") or json.dumps(error, ensure_ascii=False)
    if isinstance(error, list):
        error = json.dumps(error, ensure_ascii=False)
    if error is None and isinstance(body, bytes):
        error = body.decode("utf-8", errors="replace").strip() or "no details given"
    text = " ".join(str(error).split())
    return text if len(text) <= _ERROR_SNIPPET else text[: _ERROR_SNIPPET - 1] + "…"


def as_int(value: Any) -> int:
    """An integer field from the server's JSON, or 0 for anything else (bools included)."""
    return value if isinstance(value, int) and not isinstance(value, bool) else 0
