"""The endpoints: /health, /v1/models, /v1/chat/completions, /v1/completions, /v1/responses."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import re
import time
from collections.abc import AsyncGenerator, AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from pydantic import JsonValue
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response, StreamingResponse
from starlette.routing import Route

from app.core.runner import ModelRunner
from app.core.server import protocol, shapes
from app.core.server.client_config import model_id
from app.core.server.errors import ApiError, from_failure
from app.core.server.generation import Generation, Outcome, wait_disconnect
from app.core.server.log import RequestLog, RequestRecord
from app.core.server.proposals import PATH as PROPOSALS_PATH
from app.core.server.proposals import ProposalDesk
from app.core.server.response_stream import ResponseStream
from backends.base import BackendInfo, GenerateOptions, Message
from backends.errors import FailureKind
from backends.events import (
    Done,
    Event,
    Prefill,
    ReasoningDelta,
    StreamError,
    TextDelta,
    ToolCall,
)
from skills.base import SkillError
from skills.common.limits import LIMITS, deeper_than

CACHE_PREFIX = "api:"
_SURROGATE = re.compile("[\ud800-\udfff]")  # what UTF-8 cannot encode

T = TypeVar("T")


class ClientGone(Exception):
    """The client disconnected before its answer began."""


@dataclass
class ServerState:
    """What the routes share: the runner, the model's state, live generations, the log."""

    runner: ModelRunner
    log: RequestLog
    default_max_tokens: Callable[[], int]
    loading: Callable[[], bool] = lambda: False
    proposals: ProposalDesk | None = None  # inside the app only: someone is there to approve
    live: set[Generation] = field(default_factory=set)
    closing: bool = False

    def model(self) -> BackendInfo:
        info = self.runner.info
        if info is None:
            if self.loading():
                raise ApiError(503, "Hearth is still loading the model; try again shortly.",
                               type="server_error", code="model_loading",
                               headers={"Retry-After": "2"})
            raise ApiError(503, "No model is loaded in Hearth: choose one in Settings.",
                           type="server_error", code="model_not_loaded",
                           headers={"Retry-After": "10"})
        return info

    def shutdown(self) -> None:
        """Stop every generation: streams end with an error chunk (called on the loop)."""
        self.closing = True
        if self.proposals is not None:
            self.proposals.close()  # their worker threads would hold the process's exit
        for generation in list(self.live):
            generation.cancel(shutdown=True)

    @property
    def api_waiting(self) -> int:
        return len(self.live)


def model_card(info: BackendInfo, default_max_tokens: int) -> dict[str, object]:
    path = Path(info.model_path) if info.model_path else None
    created = int(path.stat().st_mtime) if path is not None and path.exists() else 0
    return {
        "id": model_id(info), "object": "model", "created": created, "owned_by": "hearth",
        "context_length": info.context_length, "max_model_len": info.context_length,
        "max_output_tokens": info.context_length, "default_max_tokens": default_max_tokens,
        "capabilities": {"tools": True, "reasoning": True, "vision": False,
                         "completion_chat": True, "completion_text": info.engine != "remote"},
        "engine": info.engine, "device": info.device, "quantization": info.quantization,
    }


def client_name(request: Request) -> str:
    address = f"{request.client.host}:{request.client.port}" if request.client else "?"
    agent = request.headers.get("user-agent", "")
    return f"{address} {agent}".strip()


def _error_response(error: ApiError) -> JSONResponse:
    return JSONResponse(error.body(), status_code=error.status, headers=error.headers)


async def _body(request: Request) -> dict[str, JsonValue]:
    """The body as a JSON object, its bytes counted as they arrive (a chunked body declares no
    length), its nesting and text checked before any route reads it."""
    limit = LIMITS.body_bytes
    too_big = ApiError(413, f"The request body is over Hearth's {limit // 2**20} MiB limit "
                       "(body_bytes): send a smaller request.", code="request_too_large")
    size = request.headers.get("content-length")
    if size is not None and size.isdigit() and int(size) > limit:
        raise too_big
    data = bytearray()
    try:
        async for chunk in request.stream():
            data += chunk
            if len(data) > limit:
                raise too_big
    except ClientDisconnect:
        raise ClientGone from None
    try:
        raw = protocol.parse_json(bytes(data))
    except RecursionError:
        raw = None
    if raw is None or deeper_than(raw, LIMITS.json_depth):
        raise ApiError(400, f"The request body nests deeper than Hearth's limit of "
                       f"{LIMITS.json_depth} levels (json_depth): flatten it.",
                       code="json_too_deep")
    where = _lone_surrogate(raw)
    if where:
        raise ApiError(400, f"{where} holds a lone UTF-16 surrogate (an escape such as "
                       "\\ud800 without its pair): send valid Unicode text.", param=where)
    return raw


def _lone_surrogate(value: object, where: str = "body") -> str:
    """Where the first string with half a surrogate pair is ("" if none): no engine, log or
    database can encode it."""
    stack: list[tuple[object, str]] = [(value, where)]
    while stack:
        item, name = stack.pop()
        if isinstance(item, str):
            if _SURROGATE.search(item):
                return name
        elif isinstance(item, dict):
            if any(_SURROGATE.search(k) for k in item):
                return name
            stack.extend((v, f"{name}.{k}" if name != "body" else str(k))
                         for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((v, f"{name}[{i}]") for i, v in enumerate(item))
    return ""


def _system_first(raw: dict[str, JsonValue]) -> None:
    """A chat's system (or developer) message anywhere but first is refused: chat templates
    read one system message, at the start, and fail on any other. (The Responses API's input
    is left alone: agents put developer items among it, and its reader places them.)"""
    items = raw.get("messages")
    if not isinstance(items, list):
        return
    for index, item in enumerate(items):
        if index and isinstance(item, dict) and item.get("role") in ("system", "developer"):
            raise ApiError(400, f"messages[{index}] is a {item['role']} message, but only the "
                           "first message may be one: merge it into messages[0].",
                           param=f"messages[{index}]")


def cache_key(messages: list[Message], tools: list[dict[str, object]]) -> str:
    """Requests with the same system prompt and tools share one saved KV state, so an agent's
    next request (or the next server process) prefills only what is new."""
    import hashlib
    import json

    head = messages[0] if messages and messages[0]["role"] == "system" else {}
    text = json.dumps([head.get("content", ""), tools], sort_keys=True, ensure_ascii=False)
    return CACHE_PREFIX + hashlib.sha256(text.encode()).hexdigest()[:24]


class Endpoints:
    """Route handlers bound to one ServerState."""

    def __init__(self, state: ServerState) -> None:
        self.state = state
        self._draining: set[asyncio.Task[None]] = set()

    def app(self) -> Starlette:
        routes = [
            Route("/health", self.health, methods=["GET"]),
            Route("/v1/models", self.models, methods=["GET"]),
            Route("/v1/models/{model_id:path}", self.one_model, methods=["GET"]),
            *(Route(f"/v1/{path}", functools.partial(self._generate, kind=kind),
                    methods=["POST"]) for path, kind in _GENERATIONS.items()),
            Route(PROPOSALS_PATH, self.proposal, methods=["POST"]),
        ]
        return Starlette(routes=routes, exception_handlers={
            HTTPException: _http_error, ApiError: _api_error, Exception: _internal_error})

    # -- plain GETs --------------------------------------------------------------------------
    async def health(self, request: Request) -> Response:
        try:
            info = self.state.model()
        except ApiError as error:
            return JSONResponse({"status": "loading" if error.code == "model_loading"
                                 else "no_model", "message": error.message},
                                status_code=503, headers=error.headers)
        return JSONResponse({"status": "ok", "model": model_id(info),
                             "queue": self.state.runner.pending})

    async def models(self, request: Request) -> Response:
        info = self.state.model()
        return JSONResponse({"object": "list", "data": [
            model_card(info, self.state.default_max_tokens())]})

    async def one_model(self, request: Request) -> Response:
        info = self.state.model()
        wanted = request.path_params["model_id"]
        if wanted not in (model_id(info), "hearth"):
            raise ApiError(404, f"The model {wanted!r} is not loaded; Hearth serves "
                           f"{model_id(info)!r}.", code="model_not_found")
        return JSONResponse(model_card(info, self.state.default_max_tokens()))

    async def proposal(self, request: Request) -> Response:
        """A change another program proposes (hearth mcp serve): the person decides in Hearth."""
        desk = self.state.proposals
        if desk is None:
            raise ApiError(409, "This Hearth server runs headless: nobody is here to approve "
                           "changes.", code="no_approver")
        try:
            raw = await _body(request)
        except ClientGone:
            return Response(status_code=499)
        tool, arguments = raw.get("tool"), raw.get("arguments")
        if not isinstance(tool, str) or not isinstance(arguments, dict):
            raise ApiError(400, "A proposal is {\"tool\": name, \"arguments\": {...}}.")
        try:
            given: dict[str, object] = dict(arguments)
            message = await asyncio.to_thread(desk.propose, tool, given)
        except SkillError as exc:
            return JSONResponse({"approved": False, "message": str(exc)})
        return JSONResponse({"approved": True, "message": message})

    # -- generations -------------------------------------------------------------------------
    async def _generate(self, request: Request, kind: str) -> Response:
        record = _Record(request, shapes.item_id("resp") if kind == "responses"
                         else shapes.new_id("chatcmpl"))
        try:
            info = self.state.model()
            raw = await _body(request)
            _system_first(raw)
            parsed = _PARSERS[kind](raw, self.state.default_max_tokens())
            if self.state.closing:
                raise ApiError(503, "Hearth's server is shutting down.", type="server_error",
                               code="server_shutdown")
            messages = parsed.messages if isinstance(parsed, protocol.ChatRequest) else []
            options = parsed.options
            if messages:
                options.cache_key = cache_key(messages, options.tools)
            record.model = model_id(info)
            record.tools_offered = len(options.tools)
            generation = self._start(messages, options, parsed.stop)
            record.queue_position = generation.queue_position
            headers = {"X-Hearth-Queue-Position": str(generation.queue_position),
                       "X-Request-Id": record.request_id}
            try:
                first = await _until_disconnect(request, generation, generation.next())
            except BaseException:
                self.state.live.discard(generation)
                raise
            if isinstance(first, StreamError) and first.kind is not None:
                self._end(generation, record)
                rest = await generation.collect()
                raise _failure(first, rest.done, info)
            if isinstance(first, Done) and first.finish_reason == "cancelled":
                self._end(generation, record)
                raise ApiError(503, "Hearth's server is shutting down.", type="server_error",
                               code="server_shutdown")
            if parsed.stream:
                record.streaming = True  # the stream logs it when it ends
                body = (self._stream_response(generation, first, record, parsed)
                        if kind == "responses" else
                        self._stream_chat(generation, first, record, parsed))
                stream = self._settled(body, generation, record)
                return StreamingResponse(stream, media_type="text/event-stream", headers={
                    **headers, "Cache-Control": "no-cache"})
            outcome = await _until_disconnect(request, generation, generation.collect(first))
            self._end(generation, record)
            record.finish(outcome.done, outcome.tool_calls, 200)
            if outcome.error is not None:
                raise _failure(outcome.error, outcome.done, info)
            return JSONResponse(_shape(kind, outcome, record, parsed), headers=headers)
        except ClientGone:
            record.status, record.error = 499, "client disconnected"
            return Response(status_code=499)
        except ApiError as error:
            record.status, record.error = error.status, _logged(error)
            return _error_response(error)
        finally:
            if not record.streaming:
                self.state.log.add(record.build())

    def _start(self, messages: list[Message], options: GenerateOptions,
               stops: list[str]) -> Generation:
        generation = Generation(self.state.runner, messages, options, stops)
        self.state.live.add(generation)
        return generation

    def _end(self, generation: Generation, record: _Record | None = None) -> None:
        self.state.live.discard(generation)
        if record is not None:
            record.gave_way = generation.gave_way
            record.batched_with = generation.batched_with

    async def _stream_chat(self, generation: Generation, first: Event, record: _Record,
                           parsed: protocol.Sampling) -> AsyncGenerator[bytes, None]:
        rid, created, model = record.request_id, int(time.time()), record.model
        with_usage = parsed.include_usage
        completion = not isinstance(parsed, protocol.ChatRequest)

        def chunk(delta: dict[str, object] | None, finish: str | None = None,
                  usage: dict[str, object] | None = None) -> bytes:
            if completion:
                return shapes.sse(_completion_chunk(rid, created, model, delta, finish, usage,
                                                    with_usage))
            return shapes.sse(shapes.chat_chunk(rid, model, created, delta, finish, usage,
                                                with_usage))

        deltas = shapes.DeltaChunks(shapes.chat_chunk(rid, model, created, {}, None, None,
                                                      with_usage))
        calls: list[ToolCall] = []
        event: Event = first
        if not completion:
            yield chunk({"role": "assistant", "content": ""})
        while True:
            event = generation.merged(event)
            if isinstance(event, (ReasoningDelta, TextDelta)):
                key = "content" if isinstance(event, TextDelta) else "reasoning_content"
                yield chunk({"text": event.text}) if completion else deltas.chunk(key, event.text)
            elif isinstance(event, ToolCall):
                yield chunk({"text": event.raw} if completion else
                            {"tool_calls": [shapes.tool_call(event, len(calls))]})
                calls.append(event)
            elif isinstance(event, Prefill):  # a comment: clients see the prompt is read
                yield f": prefill {event.done}/{event.total}\n\n".encode()
            elif isinstance(event, StreamError) and event.kind is not None:
                record.error = event.message
                yield shapes.sse(from_failure(event.kind, event.message).body())
            elif isinstance(event, Done):
                record.finish(event, calls, 200)
                if event.finish_reason == "cancelled" and generation.shutdown:
                    record.error = "server shutting down"
                    yield shapes.sse(ApiError(503, "Hearth's server is shutting down; "
                                              "this answer was cut off.", type="server_error",
                                              code="server_shutdown").body())
                elif event.finish_reason != "error":
                    yield chunk({}, shapes.finish_reason(event, len(calls)))
                    if with_usage:
                        yield chunk(None, usage=shapes.usage(event))
                yield shapes.sse("[DONE]")
                return
            event = await generation.next()

    async def _stream_response(self, generation: Generation, first: Event, record: _Record,
                               parsed: protocol.Sampling) -> AsyncGenerator[bytes, None]:
        """/v1/responses with stream: true, as the Responses API's typed events."""
        events = ResponseStream(record.request_id, record.model, parsed.options.tools)
        calls: list[ToolCall] = []
        event: Event = first
        for data in events.start():
            yield data
        while True:
            event = generation.merged(event)
            for data in _response_events(events, event, calls, record, generation):
                yield data
            if isinstance(event, Done):
                return
            event = await generation.next()

    async def _settled(self, body: AsyncGenerator[bytes, None], generation: Generation,
                       record: _Record) -> AsyncIterator[bytes]:
        """A stream's chunks, then its end: a client that left is logged as 499, and the
        generation is always stopped and logged (whole, failed or cut off)."""
        try:
            async with contextlib.aclosing(body) as chunks:
                async for data in chunks:
                    yield data
        except asyncio.CancelledError:
            record.status, record.error = 499, "client disconnected"
            raise
        finally:
            self._settle(generation, record)

    def _settle(self, generation: Generation, record: _Record) -> None:
        """A stream ended (whole, failed or cut off by its client): stop the generation and
        log the request once the engine has really stopped."""
        generation.cancel()  # a client that went away stops its generation at once
        if record.done is None:
            task = asyncio.get_running_loop().create_task(self._drain(generation, record))
            self._draining.add(task)
            task.add_done_callback(self._draining.discard)
        else:
            self._end(generation, record)
            self.state.log.add(record.build())

    async def _drain(self, generation: Generation, record: _Record) -> None:
        try:
            rest = await generation.collect()
            record.done = rest.done
        finally:
            self._end(generation, record)
            self.state.log.add(record.build())


def _response_events(events: ResponseStream, event: Event, calls: list[ToolCall],
                     record: _Record, generation: Generation) -> list[bytes]:
    """The Responses API events for one generation event (noted in the request log too)."""
    if isinstance(event, ReasoningDelta):
        return events.reasoning(event.text)
    if isinstance(event, TextDelta):
        return events.text(event.text)
    if isinstance(event, ToolCall):
        calls.append(event)
        return events.tool_call(event)
    if isinstance(event, Prefill):  # a comment: clients see the prompt is being read
        return [f": prefill {event.done}/{event.total}\n\n".encode()]
    if isinstance(event, StreamError) and event.kind is not None:
        record.error = event.message
        code = from_failure(event.kind, event.message).code or "engine_failed"
        return events.fail(code, event.message)
    if not isinstance(event, Done):
        return []
    record.finish(event, calls, 200)
    if event.finish_reason == "cancelled" and generation.shutdown:
        record.error = "server shutting down"
        return events.fail("server_shutdown", "Hearth's server is shutting down; this answer "
                           "was cut off.", event)
    if event.finish_reason == "error":
        if record.error:  # told already
            return []
        record.error = "The engine failed."
        return events.fail("engine_failed", record.error, event)
    return events.finish(event)


def _completion_chunk(rid: str, created: int, model: str, delta: dict[str, object] | None,
                      finish: str | None, usage: dict[str, object] | None,
                      usage_field: bool) -> dict[str, object]:
    chunk: dict[str, object] = {"id": rid, "object": "text_completion", "created": created,
                             "model": model, "choices": [] if delta is None else [
                                 {"index": 0, "text": delta.get("text", ""), "logprobs": None,
                                  "finish_reason": finish}]}
    if usage_field:
        chunk["usage"] = usage
    return chunk


_GENERATIONS = {"chat/completions": "chat", "completions": "completion", "responses": "responses"}
_PARSERS: dict[str, Callable[[dict[str, JsonValue], int], protocol.Sampling]] = {
    "chat": protocol.parse_chat, "completion": protocol.parse_completion,
    "responses": protocol.parse_responses}


def _shape(kind: str, outcome: Outcome, record: _Record,
           parsed: protocol.Sampling) -> dict[str, object]:
    if kind == "chat":
        return shapes.chat_completion(outcome, record.model, record.request_id)
    if kind == "completion":
        assert isinstance(parsed, protocol.CompletionRequest)
        return shapes.completion(outcome, record.model, record.request_id, parsed.prompt,
                                 parsed.echo)
    return shapes.response_object(outcome, record.model, record.request_id,
                                  parsed.options.tools)


def _logged(error: ApiError) -> str:
    """What the request log keeps of an error: its code and the field it names, never the
    message (it quotes the request's values: a role string, a field name)."""
    return f"{error.code or error.type}" + (f" ({error.param})" if error.param else "")


def _failure(error: StreamError, done: Done | None, info: BackendInfo) -> ApiError:
    if error.kind == FailureKind.CONTEXT_FULL:
        tokens = done.prompt_tokens if done else 0
        return ApiError(400, f"This model's maximum context length is {info.context_length} "
                        f"tokens. However, your messages resulted in {tokens} tokens. Please "
                        "reduce the length of the messages.", code="context_length_exceeded",
                        param="messages", extra={"prompt_tokens": tokens,
                                                 "context_length": info.context_length})
    return from_failure(error.kind, error.message)


async def _until_disconnect(request: Request, generation: Generation,
                            work: Awaitable[T]) -> T:
    """Await `work`; if the client goes first, cancel the generation and raise ClientGone."""
    task = asyncio.ensure_future(work)
    gone = asyncio.ensure_future(wait_disconnect(request.receive))
    try:
        finished, _ = await asyncio.wait({task, gone}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        gone.cancel()
    if task in finished:
        return task.result()
    generation.cancel()
    task.cancel()
    raise ClientGone


async def _api_error(request: Request, exc: Exception) -> Response:
    """A refusal a route raised: the OpenAI error body, its status and headers."""
    assert isinstance(exc, ApiError)
    return _error_response(exc)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    message = {404: f"There is no {request.url.path} endpoint on Hearth's server.",
               405: f"{request.method} is not allowed on {request.url.path}."}.get(
        exc.status_code, str(exc.detail))
    return _error_response(ApiError(exc.status_code, message))


async def _internal_error(request: Request, exc: Exception) -> Response:
    """What nobody foresaw: one JSON line for the client (the guard writes one line to stderr)."""
    return _error_response(ApiError(500, "Hearth's server failed on this request; the "
                                    "failure is noted on its error output.",
                                    type="server_error", code="internal_error"))


class _Record:
    """What the request log keeps of one request, filled in as it goes."""

    def __init__(self, request: Request, request_id: str) -> None:
        self.request_id = request_id
        self.client = client_name(request)
        self.method, self.path = request.method, request.url.path
        self.started = time.perf_counter()
        self.status = 200
        self.model = ""
        self.queue_position = 0
        self.gave_way = 0
        self.batched_with = 0
        self.tools_offered = 0
        self.streaming = False
        self.error = ""
        self.done: Done | None = None
        self.calls: list[str] = []

    def finish(self, done: Done | None, calls: list[ToolCall], status: int) -> None:
        self.done, self.calls, self.status = done, [c.name for c in calls], status

    def build(self) -> RequestRecord:
        done = self.done
        return RequestRecord(
            client=self.client, method=self.method, path=self.path, status=self.status,
            model=self.model, prompt_tokens=done.prompt_tokens if done else 0,
            cached_tokens=done.cached_prompt_tokens if done else 0,
            completion_tokens=done.completion_tokens if done else 0,
            duration_ms=round((time.perf_counter() - self.started) * 1000, 1),
            queue_position=self.queue_position, gave_way=self.gave_way,
            batched_with=self.batched_with, finish_reason=done.finish_reason if done else "",
            tools_offered=self.tools_offered, tool_calls=self.calls, error=self.error)
