"""An engine that streams from an OpenAI-compatible server (llama-server, vLLM, SGLang, Ollama).

Works with servers that return the model's raw text in `delta.content` (Hearth's OutputParser
then finds reasoning and tool calls) and with servers that split them out themselves into
`delta.reasoning_content` / `delta.reasoning` and `delta.tool_calls`. Standard library only.

Cancel is checked between streamed chunks and closes the connection, which tells the server to
stop. Servers that report no usage get a completion count of one token per chunk and a prompt
count of 0 (llama-cpp-python's own server is one).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from backends.base import BackendInfo, GenerateOptions, Message, ShouldStop
from backends.chat_format import estimate_tokens
from backends.errors import FailureKind, NotLoaded
from backends.events import Done, Event, StreamError
from backends.remote_http import (
    Connection,
    Endpoint,
    HttpClient,
    RefusedRequest,
    as_int,
    chat_request,
    is_sse,
    json_or_empty,
)
from backends.remote_sse import Turn, follow


class RemoteBackend:
    """Streams /v1/chat/completions. load() checks the server answers and picks its model."""

    def __init__(self, url: str, model: str = "", api_key: str = "",
                 timeout: float = 60.0) -> None:
        self._endpoint = Endpoint.parse(url)
        self._http = HttpClient(self._endpoint, api_key, timeout)
        self._model = model
        self._loaded = False
        self._extras = True  # send the non-OpenAI fields until the server refuses them
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
        conn, response = self._http.open("GET", self._endpoint.path("models"), None)
        try:
            listing = json_or_empty(self._http.read(response))
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

    def forget_conversation(self, cache_key: str) -> None:
        pass  # nothing is kept here; the server holds no state between requests

    def render_prompt(self, messages: list[Message], options: GenerateOptions) -> str:
        # The server renders the real prompt from this request; show what Hearth sends it.
        body = json.dumps(self._request(messages, options), indent=2, ensure_ascii=False)
        return f"POST {self._endpoint.full_url('chat/completions')}\n{body}"

    def count_tokens(self, text: str) -> int:
        return estimate_tokens(text)

    def stream(self, messages: list[Message], options: GenerateOptions,
               should_stop: ShouldStop) -> Iterator[Event]:
        if not self._loaded:
            raise NotLoaded("Not connected to the server yet: call load() first.")
        if options.raw_prompt is not None:
            yield StreamError("The remote engine takes chat messages only, not a raw prompt.",
                              kind=FailureKind.BAD_INPUT)
            yield Done("error")
            return
        turn = Turn(options)
        if should_stop():
            yield turn.done("cancelled")
            return
        conn, response = self._post_chat(messages, options)
        try:
            if "json" in (response.getheader("Content-Type") or "") and not is_sse(response):
                yield from turn.handle(json_or_empty(self._http.read(response)))  # not streamed
                turn.ended = True
            else:
                yield from follow(lambda: self._http.readline(response), turn, should_stop)
        finally:
            conn.close()  # also what a cancel does: the server notices and stops generating
        yield from turn.finish()
        yield turn.done()

    def _post_chat(self, messages: list[Message], options: GenerateOptions) -> Connection:
        def post() -> Connection:
            payload = json.dumps(self._request(messages, options), ensure_ascii=False)
            return self._http.open("POST", self._endpoint.path("chat/completions"),
                                   payload.encode())

        try:
            return post()
        except RefusedRequest as exc:
            if not (self._extras and exc.names_an_extra_field()):
                raise
            self._extras = False  # remembered: this server wants plain OpenAI requests
            return post()

    def _request(self, messages: list[Message], options: GenerateOptions) -> dict[str, Any]:
        return chat_request(messages, options, self._model, self._extras)


def _context_length(model: dict[str, Any]) -> int:
    meta = model.get("meta") if isinstance(model.get("meta"), dict) else {}
    for value in (model.get("max_model_len"), model.get("context_length"),
                  (meta or {}).get("n_ctx_train")):
        if as_int(value):
            return as_int(value)
    return 0
