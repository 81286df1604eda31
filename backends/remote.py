"""An engine that streams from an OpenAI-compatible server (llama-server, vLLM, SGLang, Ollama).

Works with servers that return the model's raw text in `delta.content` (Hearth's OutputParser
then finds reasoning and tool calls) and with servers that split them out themselves into
`delta.reasoning_content` / `delta.reasoning` and `delta.tool_calls`. HTTP goes through httpx2
over the OS trust store (backends/https.py), one kept-alive connection pool per backend.

load() probes what the server is (backends/remote_probe.py). A server that ignores
`chat_template_kwargs` but takes raw prompts (llama-cpp-python's) gets the prompt rendered with
the model's own template on /v1/completions, so Think / Non-Think and tool history behave as on
the local engines; the template comes from the local model, the server, or the served file.
Either way content goes out with its control-token look-alikes broken (remote_content.py).

Cancel is checked between streamed chunks and closes the connection, which tells the server to
stop. Servers that report no usage get a completion count of one token per chunk and a prompt
count of 0 (llama-cpp-python's own server is one).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx2
from jinja2 import TemplateError

from backends.base import BackendInfo, GenerateOptions, Message, ShouldStop
from backends.chat_format import ChatTemplate, estimate_tokens
from backends.errors import FailureKind, NotLoaded, RemoteError, UnsupportedModel
from backends.events import Done, Event, StreamError
from backends.nanbeige import opens_reasoning
from backends.remote_content import ControlPattern
from backends.remote_http import (
    Endpoint,
    HttpClient,
    RefusedRequest,
    as_int,
    chat_request,
    completion_request,
    is_sse,
    json_or_empty,
)
from backends.remote_probe import GENERIC, LLAMA_CPP_PYTHON, ServerKind, probe, served_template
from backends.remote_sse import Turn, follow


class RemoteBackend:
    """Streams /v1/chat/completions. load() checks the server answers and picks its model."""

    def __init__(self, url: str, model: str = "", api_key: str = "",
                 timeout: float = 60.0, chat_template: str = "", context_length: int = 0) -> None:
        """chat_template: the model's own template, when Hearth has the model locally too;
        context_length: the server's window, for servers that do not report it."""
        self._endpoint = Endpoint.parse(url)
        self._http = HttpClient(self._endpoint, api_key, timeout)
        self._model = model
        self._loaded = False
        self._known_template = chat_template
        self._context_length = context_length
        self._server = ServerKind(GENERIC)
        self._template: ChatTemplate | None = None  # set: Hearth renders (raw completions)
        self._controls = ControlPattern(chat_template)  # content never becomes control there
        self._extras = True  # send the non-OpenAI fields until the server refuses them
        # What this server's replies showed: it splits reasoning out itself, or its raw
        # content begins inside the reasoning (True) or in the answer (False); None: not seen.
        self._splits_reasoning = False
        self._content_in_reasoning: bool | None = None
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
        listing = self._http.get_json(self._endpoint.path("models"))
        models = [m for m in listing.get("data") or [] if isinstance(m, dict)]
        if not self._model and models:
            self._model = str(models[0].get("id", ""))
        chosen = next((m for m in models if m.get("id") == self._model), {})
        self._server = probe(self._http, self._endpoint, models)
        self._template = self._raw_template(models)
        self._controls = ControlPattern(self._template.source if self._template else
                                        self._known_template or self._server.chat_template)
        self._info.model_name = self._model
        # llama-cpp-python's server never says its context: the user's setting stands in.
        self._info.context_length = (_context_length(chosen) or self._server.context_length
                                     or self._context_length)
        self._info.extra["served_models"] = [str(m.get("id", "")) for m in models]
        self._info.extra["server"] = self._server.name
        self._info.extra["prompt_rendered_by"] = "hearth" if self._template else "server"
        self._loaded = True

    def _raw_template(self, models: list[dict[str, Any]]) -> ChatTemplate | None:
        """The model's template, when this server must be sent a prompt Hearth renders."""
        server = self._server
        if server.template_kwargs or not server.completions:
            return None
        source = (self._known_template or server.chat_template
                  or served_template([m for m in models if m.get("id") == self._model]))
        if not source:
            return None  # chat requests then; Non-Think may not switch off on this server
        try:
            return ChatTemplate(source)
        except UnsupportedModel:
            return None

    @property
    def server(self) -> ServerKind:
        return self._server

    def unload(self) -> None:
        self._loaded = False  # nothing is held between requests but idle connections
        self._http.close()

    def forget_conversation(self, cache_key: str) -> None:
        pass  # nothing is kept here; the server holds no state between requests

    def render_prompt(self, messages: list[Message], options: GenerateOptions) -> str:
        messages, options = self._controls.request(messages, options)
        if self._template is not None:  # the exact prompt this server is sent
            return self._template.render(messages, options)
        # The server renders the real prompt from this request; show what Hearth sends it.
        body = json.dumps(self._request(messages, options), indent=2, ensure_ascii=False)
        return f"POST {self._endpoint.full_url('chat/completions')}\n{body}"

    def count_tokens(self, text: str) -> int:
        """The server's own count where it offers one, else a cautious estimate."""
        if self._server.tokenize:
            try:
                return self._server_count(text)
            except (RemoteError, ValueError):
                pass
        return estimate_tokens(text)

    def _server_count(self, text: str) -> int:
        field = "input" if self._server.name == LLAMA_CPP_PYTHON else "content"
        body = json.dumps({field: text, "model": self._model}, ensure_ascii=False).encode()
        data = self._http.get_json(self._endpoint.prefix + self._server.tokenize, body)
        if isinstance(data.get("count"), int):
            return int(data["count"])
        if isinstance(data.get("tokens"), list):
            return len(data["tokens"])
        raise ValueError("no token count in the answer")

    def stream(self, messages: list[Message], options: GenerateOptions,
               should_stop: ShouldStop) -> Iterator[Event]:
        if not self._loaded:
            raise NotLoaded("Not connected to the server yet: call load() first.")
        if options.raw_prompt is not None:
            yield StreamError("The remote engine takes chat messages only, not a raw prompt.",
                              kind=FailureKind.BAD_INPUT)
            yield Done("error")
            return
        messages, options = self._controls.request(messages, options)
        # A schema goes by response_format, which only the chat endpoint takes everywhere.
        templated = self._template is not None and options.json_schema is None
        prompt = self._template.render(messages, options) if templated and self._template \
            else None
        start = self._content_start(prompt, messages, options)
        turn = Turn(options, starts_in_reasoning=bool(start), undecided=start is None)
        tokens = self._overflow(prompt if prompt is not None else _request_text(messages, options))
        if tokens:
            yield StreamError(f"The conversation is {tokens:,} tokens long, more than the "
                              f"{self._info.context_length:,}-token context the server "
                              "reports: start a new chat or load the model with a longer "
                              "context", kind=FailureKind.CONTEXT_FULL)
            yield Done("error", prompt_tokens=tokens)
            return
        if should_stop():
            yield turn.done("cancelled")
            return
        def post(stream: bool) -> httpx2.Response:
            if prompt is not None:
                return self._post_completion(prompt, options, stream)
            return self._post_chat(messages, options, stream)

        yield from self._read(post(True), turn, should_stop)
        if not (turn.received or turn.cancelled or should_stop()):
            # An empty stream: llama-cpp-python's server drops its error that way. Asked again
            # without streaming it answers with its own words (RefusedRequest), or the reply.
            yield from self._read(post(False), turn, should_stop)
        yield from turn.finish()
        self._learn(turn)
        yield turn.done()

    def _content_start(self, prompt: str | None, messages: list[Message],
                       options: GenerateOptions) -> bool | None:
        """Does the raw content of this reply begin inside the reasoning? None: unknown.

        Only a prompt that leaves `<think>` open starts the model inside it. A server that sends
        plain content with Think on (a model that does not reason, a server that strips it) is
        answering: taken for reasoning, the answer showed twice (issue 26). So content counts as
        reasoning only where the prompt is known to open it, or this server's replies did."""
        if prompt is not None:
            return opens_reasoning(prompt)
        if not options.enable_thinking or options.assistant_prefix:
            return False
        if self._splits_reasoning:
            return False  # its content is the answer; a `<think>` the model writes still opens
        if self._content_in_reasoning is not None:
            return self._content_in_reasoning
        source = self._known_template or self._server.chat_template
        try:
            return opens_reasoning(ChatTemplate(source).render(messages, options)) \
                if source else None
        except (UnsupportedModel, ValueError, TemplateError):
            return None  # a template that cannot render these messages tells nothing

    def _learn(self, turn: Turn) -> None:
        self._splits_reasoning = self._splits_reasoning or turn.saw_reasoning
        if turn.opened_in_reasoning is not None:
            self._content_in_reasoning = turn.opened_in_reasoning

    def _overflow(self, text: str) -> int:
        """The prompt's token count when the server's advertised context cannot hold it (0
        when it fits): refused here, as servers differ in what they do with one (an error, a
        silent cut of its start, a stall)."""
        window = self._info.context_length
        if not window:
            return 0
        tokens = self.count_tokens(text)
        return tokens if tokens >= window else 0

    def _read(self, response: httpx2.Response, turn: Turn, should_stop: ShouldStop
              ) -> Iterator[Event]:
        try:
            if "json" in response.headers.get("Content-Type", "") and not is_sse(response):
                yield from turn.handle(json_or_empty(self._http.read(response)))  # not streamed
                turn.ended = True
            else:
                yield from follow(self._http.lines(response), turn, should_stop)
        finally:
            # An unfinished body closes its connection, which is what a cancel does: the
            # server notices and stops generating. A finished one goes back to the pool.
            response.close()

    def _post_chat(self, messages: list[Message], options: GenerateOptions,
                   stream: bool = True) -> httpx2.Response:
        def post() -> httpx2.Response:
            body = self._request(messages, options)
            if not stream:
                body.update(stream=False)
                body.pop("stream_options", None)
            payload = json.dumps(body, ensure_ascii=False)
            return self._http.open("POST", self._endpoint.path("chat/completions"),
                                   payload.encode())

        try:
            return post()
        except RefusedRequest as exc:
            if not (self._extras and exc.names_an_extra_field()):
                raise
            self._extras = False  # remembered: this server wants plain OpenAI requests
            return post()

    def _post_completion(self, prompt: str, options: GenerateOptions,
                         stream: bool = True) -> httpx2.Response:
        body = completion_request(prompt, options, self._model)
        body["stream"] = stream
        payload = json.dumps(body, ensure_ascii=False)
        return self._http.open("POST", self._endpoint.path("completions"), payload.encode())

    def _request(self, messages: list[Message], options: GenerateOptions) -> dict[str, Any]:
        return chat_request(messages, options, self._model, self._extras)


def _request_text(messages: list[Message], options: GenerateOptions) -> str:
    """What the server's template will render from a chat request, for counting its tokens:
    every message's text, reasoning and calls, and the tools offered."""
    parts = [json.dumps(options.tools, ensure_ascii=False)] if options.tools else []
    for message in messages:
        parts += [str(message.get(key) or "") for key in ("content", "reasoning_content")]
        if message.get("tool_calls"):
            parts.append(json.dumps(message["tool_calls"], ensure_ascii=False, default=str))
    return "\n".join(parts)


def _context_length(model: dict[str, Any]) -> int:
    meta = model.get("meta") if isinstance(model.get("meta"), dict) else {}
    for value in (model.get("max_model_len"), model.get("context_length"),
                  (meta or {}).get("n_ctx_train")):
        if as_int(value):
            return as_int(value)
    return 0
