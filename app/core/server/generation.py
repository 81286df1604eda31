"""One API request on the model thread: events handed to the server's asyncio loop, stops
applied, cancel on disconnect or shutdown."""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from dataclasses import dataclass, field
from typing import Any

from app.core.runner import ModelRunner, Priority
from backends.base import GenerateOptions, Message
from backends.events import Done, Event, ReasoningDelta, StreamError, TextDelta, ToolCall


class StopFilter:
    """Cuts the visible text at the first stop sequence, holding back a possible partial match."""

    def __init__(self, stops: list[str]) -> None:
        self._stops = stops
        self._held = ""
        self.hit = False

    def push(self, text: str) -> str:
        if not self._stops or self.hit:
            return "" if self.hit else text
        self._held += text
        found = [(self._held.find(s), s) for s in self._stops if s in self._held]
        if found:
            self.hit = True
            cut = min(index for index, _ in found)
            out, self._held = self._held[:cut], ""
            return out
        keep = max((_overlap(self._held, s) for s in self._stops), default=0)
        out = self._held[: len(self._held) - keep]
        self._held = self._held[len(self._held) - keep:]
        return out

    def flush(self) -> str:
        out, self._held = ("" if self.hit else self._held), ""
        return out


def _overlap(text: str, stop: str) -> int:
    """The longest end of `text` that begins `stop` (a stop that may still be arriving)."""
    for size in range(min(len(text), len(stop) - 1), 0, -1):
        if text.endswith(stop[:size]):
            return size
    return 0


@dataclass
class Outcome:
    """Everything one generation produced, for a non-streamed answer and the request log."""

    reasoning: list[str] = field(default_factory=list)
    text: list[str] = field(default_factory=list)
    tool_calls: list[ToolCall] = field(default_factory=list)
    error: StreamError | None = None
    done: Done | None = None


WATCH_S = 0.05  # how often a request still reading its prompt looks for a waiting user turn


class Generation:
    """Submits to the runner at API priority and turns the runner thread's callbacks into
    awaitable events. Stop sequences end it like EOS.

    The person's own turns go first: when one arrives while an API request is still reading
    its prompt (a 10K-token agent prompt takes minutes on a CPU), the API request gives way at
    the next prefill chunk and starts again at the front of the API queue, reusing what it had
    read. Once it answers it runs to its end (a reply cut mid-text could not be continued
    exactly: the engines' parser drops the whitespace at the start of a continuation)."""

    def __init__(self, runner: ModelRunner, messages: list[Message], options: GenerateOptions,
                 stops: list[str]) -> None:
        self._loop = asyncio.get_running_loop()
        self._events = _Handoff(self._loop)
        self._stops = StopFilter(stops)
        self._runner = runner
        self._messages = messages
        self._options = options
        self._answering = False  # the first reasoning, text or tool call has come
        self._lock = threading.Lock()
        self._giving_way = False
        self._cancelled = False
        self.gave_way = 0  # how many times it let a more urgent job go first
        self.shutdown = False  # cancelled because the server is stopping
        self.handle = runner.submit(messages, options, self._on_event, priority=Priority.API)
        self.queue_position = self.handle.position
        self._ended = False
        self._pending: list[Event] = []

    def _on_event(self, event: Event) -> None:  # runner thread
        if isinstance(event, Done):
            total = self._finished(event)
            if total is None:
                return  # continued: the rest comes from the next part
            event = total
        else:
            self._answering = self._answering or isinstance(
                event, (ReasoningDelta, TextDelta, ToolCall))
            self.give_way_if_asked()
        self._forward(event)

    def give_way_if_asked(self) -> None:
        """Let a more urgent job go first if this one is running and still reading its prompt
        (between prefill chunks, and while the engine reads a saved or new system prefix)."""
        handle = self.handle
        if self._answering or not handle.running:
            return
        if self._runner.preempt_requested():
            with self._lock:
                self._giving_way = not self._cancelled
            handle.cancel()

    async def watch(self) -> None:
        """Checks for a waiting user turn while the engine sends no events (a long system
        prompt is read in one go by the prefix cache, which still stops between chunks)."""
        while not self._answering and not self._ended:
            self.give_way_if_asked()
            await asyncio.sleep(WATCH_S)

    def _finished(self, done: Done) -> Done | None:
        with self._lock:
            giving_way, self._giving_way = self._giving_way, False
            if not (giving_way and done.finish_reason == "cancelled" and not self._cancelled
                    and not self._answering):
                return done
            self.gave_way += 1
            self.handle = self._runner.submit(self._messages, self._options, self._on_event,
                                              priority=Priority.API, front=True)
        return None

    def _forward(self, event: Event) -> None:
        if not self._events.put(event):  # the loop is gone (server stopped): nobody listens
            self.cancel()

    def cancel(self, shutdown: bool = False) -> None:
        """Stop for good (client gone, stop sequence, shutdown); never continued after."""
        with self._lock:
            self._cancelled = True
            self.shutdown = self.shutdown or shutdown
            handle = self.handle
        handle.cancel()

    async def next(self) -> Event:
        """The next event, with stop sequences applied; Done comes last, exactly once."""
        while True:
            if self._pending:
                return self._pending.pop(0)
            if self._ended:
                raise StopAsyncIteration
            event = await self._events.get()
            if isinstance(event, TextDelta):
                text = self._stops.push(event.text)
                if self._stops.hit:
                    self.cancel()  # within one token, as for a disconnect
                if text:
                    return event if text is event.text else TextDelta(text)
            elif isinstance(event, Done):
                self._ended = True
                tail = self._stops.flush()
                self._pending = [TextDelta(tail), self._finish(event)] if tail else [
                    self._finish(event)]
            elif not (self._stops.hit and isinstance(event, (ReasoningDelta, ToolCall))):
                return event

    def ready(self) -> bool:
        """Whether next() has an event without waiting."""
        return bool(self._pending) or self._events.ready()

    async def merged(self, event: Event) -> tuple[Event, Event | None]:
        """`event` joined with the deltas of its kind already waiting (a client behind a fast
        model gets fewer, larger chunks; nothing waits for more), and the next other event."""
        if not isinstance(event, (ReasoningDelta, TextDelta)):
            return event, None
        pieces = [event.text]
        while self.ready():
            following = await self.next()
            if type(following) is not type(event):
                return type(event)("".join(pieces)), following
            pieces.append(following.text)
        return (event if len(pieces) == 1 else type(event)("".join(pieces))), None

    def _finish(self, done: Done) -> Done:
        if self._stops.hit and done.finish_reason in ("cancelled", "stop"):
            return Done("stop", done.prompt_tokens, done.cached_prompt_tokens,
                        done.completion_tokens, done.timings)
        return done

    async def collect(self, first: Event | None = None) -> Outcome:
        outcome = Outcome()
        event = first if first is not None else await self.next()
        while True:
            _add(outcome, event)
            if isinstance(event, Done):
                return outcome
            event = await self.next()


class _Handoff:
    """Events from the runner thread to the asyncio loop, waking the loop only when it waits.

    A queue fed by call_soon_threadsafe costs a self-pipe write on the model thread, a loop
    callback and a future per token; here a token that arrives while the loop is still busy
    with the last one is only appended, and is sent with it (deltas already waiting)."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._items: deque[Event] = deque()
        self._lock = threading.Lock()
        self._waiter: asyncio.Future[None] | None = None  # set while get() sleeps

    def put(self, event: Event) -> bool:  # runner thread
        """Hand over one event; False if the loop has closed."""
        with self._lock:
            self._items.append(event)
            waiter, self._waiter = self._waiter, None
        if waiter is None:
            return not self._loop.is_closed()
        try:
            self._loop.call_soon_threadsafe(_wake, waiter)
        except RuntimeError:
            return False
        return True

    def ready(self) -> bool:
        return bool(self._items)

    async def get(self) -> Event:
        while True:
            with self._lock:
                if self._items:
                    return self._items.popleft()
                waiter = self._waiter = self._loop.create_future()
            try:
                await waiter
            finally:
                with self._lock:
                    if self._waiter is waiter:  # cancelled while waiting: nobody else will wake it
                        self._waiter = None


def _wake(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


def _add(outcome: Outcome, event: Event) -> None:
    if isinstance(event, ReasoningDelta):
        outcome.reasoning.append(event.text)
    elif isinstance(event, TextDelta):
        outcome.text.append(event.text)
    elif isinstance(event, ToolCall):
        outcome.tool_calls.append(event)
    elif isinstance(event, StreamError):
        if event.kind is not None:
            outcome.error = event
    elif isinstance(event, Done):
        outcome.done = event  # Prefill (reading progress) has no place in a reply


async def wait_disconnect(receive: Any) -> None:
    """Returns when the client has gone (the ASGI receive channel says http.disconnect)."""
    while True:
        message = await receive()
        if message.get("type") == "http.disconnect":
            return
