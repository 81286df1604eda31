"""One API request on the model thread: events handed to the server's asyncio loop, stops
applied, cancel on disconnect or shutdown."""

from __future__ import annotations

import asyncio
import threading
from collections import deque
from dataclasses import dataclass, field, replace

from starlette.types import Receive

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


PACE_S = 0.005  # after a wake-up the loop looks again this much later (see _Handoff)


class Generation:
    """Submits to the runner at API priority and turns the runner thread's callbacks into
    awaitable events. Stop sequences end it like EOS.

    The person's own turns go first: when one arrives while an API request reads its prompt
    or writes its answer, the request pauses at the next prefill chunk or token and goes on
    afterwards from what it had read and written (the runner's pausable submit); the client
    only sees its stream pause."""

    def __init__(self, runner: ModelRunner, messages: list[Message], options: GenerateOptions,
                 stops: list[str]) -> None:
        self._loop = asyncio.get_running_loop()
        self._events = _Handoff(self._loop)
        self._stops = StopFilter(stops)
        self._lock = threading.Lock()
        self.shutdown = False  # cancelled because the server is stopping
        self.handle = runner.submit(messages, options, self._on_event, priority=Priority.API,
                                    pausable=True)
        self.queue_position = self.handle.position
        self._ended = False

    def _on_event(self, event: Event) -> None:  # runner thread
        if isinstance(event, Done):
            tail = self._stops.flush()
            if tail:
                self._forward(TextDelta(tail))
            event = self._finish(event)
        else:
            if self._stops.hit and isinstance(event, (TextDelta, ReasoningDelta, ToolCall)):
                return  # after a stop sequence nothing more is shown
            if isinstance(event, TextDelta):
                text = self._stops.push(event.text)
                if self._stops.hit:
                    self.cancel()  # here, on the model thread: within one token
                if not text:
                    return
                event = event if text is event.text else TextDelta(text)
        self._forward(event)

    @property
    def batched_with(self) -> int:
        """The most other requests (or routines) its answer was decoded together with."""
        return self.handle.batched_with

    @property
    def gave_way(self) -> int:
        """How many times it paused to let the person's own turn go first."""
        return self.handle.gave_way

    def _forward(self, event: Event) -> None:
        if not self._events.put(event):  # the loop is gone (server stopped): nobody listens
            self.cancel()

    def cancel(self, shutdown: bool = False) -> None:
        """Stop for good (client gone, stop sequence, shutdown); never continued after."""
        with self._lock:
            self.shutdown = self.shutdown or shutdown
        self.handle.cancel()

    async def next(self) -> Event:
        """The next event, stop sequences applied; Done comes last, exactly once."""
        if self._ended:
            raise StopAsyncIteration
        event = await self._events.get()
        self._ended = isinstance(event, Done)
        return event

    def merged(self, event: Event) -> Event:
        """`event` joined with the deltas of its kind already waiting (a client behind a fast
        model gets fewer, larger chunks)."""
        if not isinstance(event, _PACED):
            return event
        pieces = self._events.take_texts(type(event))
        return type(event)(event.text + "".join(pieces)) if pieces else event

    def _finish(self, done: Done) -> Done:
        if self._stops.hit and done.finish_reason in ("cancelled", "stop"):
            return replace(done, finish_reason="stop")
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

    Each wake-up costs both threads (an eventfd write, thread switches, the GIL changing
    hands, then an SSE write): about 100 us of CPU the engine also needs when they share a
    core. So a token that arrives while the loop is busy is only appended, and once woken
    the loop lets the next text deltas gather for PACE_S before it looks again: an engine
    faster than 1 / PACE_S tokens a second has its deltas sent in groups, each at most PACE_S
    late; a slower one (any real model on a CPU) never waits, nor do the first delta, tool
    calls, errors and the end of the answer."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._items: deque[Event] = deque()
        self._lock = threading.Lock()
        self._waiter: asyncio.Future[None] | None = None  # set while get() sleeps
        self._resume_at = 0.0  # loop time before which get() lets deltas gather
        self._pausing = False

    def put(self, event: Event) -> bool:  # runner thread
        """Hand over one event; False if the loop has closed."""
        with self._lock:
            self._items.append(event)
            waiter = self._waiter
            # A pause holds back only deltas: the end of an answer or a tool call goes now.
            if waiter is not None and self._pausing and isinstance(event, _PACED):
                waiter = None
            elif waiter is not None:
                self._waiter = None
        if waiter is None:
            return not self._loop.is_closed()
        try:
            self._loop.call_soon_threadsafe(_wake, waiter)
        except RuntimeError:
            return False
        return True

    def take_texts(self, kind: type[TextDelta] | type[ReasoningDelta]) -> list[str]:
        """The texts of the deltas of `kind` at the head of the queue, taken out at once."""
        texts: list[str] = []
        with self._lock:
            while self._items:
                head = self._items[0]
                if type(head) is not kind or not isinstance(head, _PACED):
                    break
                texts.append(head.text)
                self._items.popleft()
        return texts

    async def get(self) -> Event:
        while True:
            with self._lock:
                if self._items:
                    return self._items.popleft()
                pause = self._resume_at - self._loop.time()
                self._pausing = pause > 0  # just woken: let the next deltas gather
                waiter = self._waiter = self._loop.create_future()
            timer = self._loop.call_later(pause, _wake, waiter) if pause > 0 else None
            try:
                await waiter
            finally:
                if timer is not None:
                    timer.cancel()
                with self._lock:
                    if self._waiter is waiter:  # timer or cancel: nobody else will wake it
                        self._waiter = None
            if self._items:  # still a stream of tokens: keep the pace
                self._resume_at = self._loop.time() + PACE_S


_PACED = (TextDelta, ReasoningDelta)


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


async def wait_disconnect(receive: Receive) -> None:
    """Returns when the client has gone (the ASGI receive channel says http.disconnect)."""
    while True:
        message = await receive()
        if message.get("type") == "http.disconnect":
            return
