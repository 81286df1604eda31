"""HTTP for the remote engine: the server address, request bodies, and network failures as RemoteError."""

from __future__ import annotations

import http.client
import json
import socket
import ssl
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from backends.base import GenerateOptions, Message
from backends.errors import RemoteError, RemoteRefused
from backends.nanbeige import STOP_TEXTS

Connection = tuple[http.client.HTTPConnection, http.client.HTTPResponse]
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


class HttpClient:
    """Sends requests to one server; every way the network fails becomes a RemoteError."""

    def __init__(self, endpoint: Endpoint, api_key: str, timeout: float) -> None:
        self.endpoint = endpoint
        self._api_key = api_key
        self._timeout = timeout

    def open(self, method: str, path: str, body: bytes | None) -> Connection:
        conn = self.endpoint.connection(self._timeout)
        try:
            conn.request(method, path, body=body, headers=self._headers(body is not None))
            response = conn.getresponse()
            if response.status >= 400:
                detail = error_text(self.read(response))
                raise RefusedRequest(f"The server at {self.endpoint.url} answered "
                                     f"{response.status} {response.reason}: {detail}",
                                     response.status, detail)
        except (OSError, http.client.HTTPException) as exc:
            conn.close()
            raise RemoteError(self._describe(exc)) from exc
        except RemoteError:
            conn.close()
            raise
        return conn, response

    def read(self, response: http.client.HTTPResponse) -> bytes:
        try:
            return response.read()
        except (OSError, http.client.HTTPException) as exc:
            raise RemoteError(self._describe(exc)) from exc

    def readline(self, response: http.client.HTTPResponse) -> bytes:
        try:
            return response.readline()
        except (OSError, http.client.HTTPException) as exc:
            raise RemoteError(self._describe(exc)) from exc

    def _headers(self, has_body: bool) -> dict[str, str]:
        headers = {"Accept": "text/event-stream, application/json"}
        if has_body:
            headers["Content-Type"] = "application/json"
        if self._api_key:
            headers["Authorization"] = f"Bearer {self._api_key}"
        return headers

    def _describe(self, exc: BaseException) -> str:
        """A sentence a person can act on, for each way the network fails."""
        url = self.endpoint.url
        if isinstance(exc, ConnectionRefusedError):
            return f"Cannot connect to {url}: the connection was refused. Is the server running?"
        if isinstance(exc, socket.gaierror):
            return f"Cannot find the server '{self.endpoint.host}': {exc.strerror or exc}."
        if isinstance(exc, TimeoutError):
            return f"The server at {url} did not answer within {self._timeout:g} seconds."
        if isinstance(exc, ssl.SSLError):
            return f"The secure connection to {url} failed: {exc.reason or exc}."
        if isinstance(exc, http.client.HTTPException | ConnectionError):
            return f"The server at {url} closed the connection unexpectedly ({exc!s:.120})."
        return f"Cannot reach {url}: {getattr(exc, 'strerror', None) or exc}."


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


def is_sse(response: http.client.HTTPResponse) -> bool:
    return "event-stream" in (response.getheader("Content-Type") or "")


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
