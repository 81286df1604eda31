"""ModelRunner: one daemon thread owns the backend; requests queue by priority, FIFO within one."""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from enum import IntEnum
from pathlib import Path
from typing import Any, TypeVar

from backends.base import Backend, BackendInfo, BatchEngine, BatchRequest, GenerateOptions, Message
from backends.errors import BackendError, FailureKind, NotLoaded, kind_of
from backends.events import Done, Event, Paused, ReasoningDelta, StreamError, TextDelta, ToolCall

T = TypeVar("T")
OnEvent = Callable[[Event], None]
OnPosition = Callable[[int], None]


class Priority(IntEnum):
    """Who waits for whom on the model thread: lower runs first; equal levels keep FIFO order.

    USER: the person at the keyboard (chat, quick ask, hearth ask); API: other programs using
    Hearth's model; ROUTINE: a scheduled ask running on its own (the person's chat and other
    programs waiting on an answer go first); WARMUP: background work (prefix warm-up) that
    yields to anything else."""

    USER = 0
    API = 1
    ROUTINE = 2
    WARMUP = 3


# Generations at these levels share the model by batched decoding when the engine can: the
# person's own turn runs alone (its first token must not wait for a batch's step).
BATCHED = (Priority.API, Priority.ROUTINE)
# How much faster (tokens per second, all generations together) a larger batch must promise
# than the best smaller one, or than a lone answer at its measured pace with drafts: the
# engine's figures are medians of a busy machine's timings, and a lone answer on the single
# path also keeps its conversation's KV.
PAYS = 1.05


class RequestHandle:
    """One queued or running generation. cancel() is immediate while queued, else between tokens."""

    def __init__(self, on_event: OnEvent, on_position: OnPosition | None) -> None:
        self._on_event = on_event
        self._on_position = on_position
        self._cancel = threading.Event()
        self._started = threading.Event()
        self._finished = threading.Event()
        self._position = 0
        self._runner: ModelRunner | None = None
        self.gave_way = 0  # times it paused for a more urgent job and went on after it
        self.batched_with = 0  # the most other generations decoded together with it

    @property
    def position(self) -> int:
        """How many requests run or wait ahead of this one (0: running or finished)."""
        return self._position

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    @property
    def done(self) -> bool:
        return self._finished.is_set()

    @property
    def running(self) -> bool:
        """On the model thread now (started, not finished)."""
        return self._started.is_set() and not self._finished.is_set()

    def cancel(self) -> None:
        self._cancel.set()
        if self._runner is not None:
            self._runner._drop_if_queued(self)

    def wait(self, timeout: float | None = None) -> bool:
        return self._finished.wait(timeout)

    def _set_position(self, position: int) -> None:
        changed = position != self._position
        self._position = position
        if changed and position > 0 and self._on_position is not None:
            self._on_position(position)

    def _deliver(self, event: Event) -> None:
        if self._finished.is_set():
            return  # exactly one Done, nothing after it
        self._on_event(event)
        if isinstance(event, Done):
            self._finished.set()


@dataclass
class _Job:
    """A unit of work for the runner thread: a generation, a model load or a plain call."""

    handle: RequestHandle | None = None
    messages: list[Message] = field(default_factory=list)
    options: GenerateOptions | None = None
    call: Callable[[], Any] | None = None
    future: Future[Any] | None = None
    priority: Priority = Priority.USER
    loading: bool = False  # a model load (what a request queued behind it waits for)
    pausable: bool = False  # gives way to a more urgent generation between tokens
    paused_on: Backend | None = None  # the engine its resume_tokens belong to


class ModelRunner:
    """Owns the loaded backend on one thread (engines are not thread-safe; MLX state is per thread).

    Every engine call (load, unload, stream, render_prompt) happens on that thread, in order."""

    def __init__(self) -> None:
        self._jobs: deque[_Job] = deque()
        self._cond = threading.Condition()
        self._backend: Backend | None = None
        self._running: _Job | None = None
        self._batch: list[_Job] = []  # the generations decoded together now, if any
        self._info: BackendInfo | None = None
        self._closed = False
        self._forgotten: set[str] = set()  # deleted conversations: their requests never run
        self._thread = threading.Thread(target=self._loop, name="hearth-model-runner", daemon=True)
        self._thread.start()

    # -- public API -------------------------------------------------------------------------
    @property
    def info(self) -> BackendInfo | None:
        """What is loaded now, or None (a snapshot taken on the runner thread at load time,
        so other threads never touch the engine to read it)."""
        return self._info

    @property
    def backend(self) -> Backend | None:
        return self._backend

    def load(self, backend: Backend) -> Future[BackendInfo]:
        """Load `backend` on the runner thread after unloading the previous one."""
        future: Future[BackendInfo] = Future()
        self._enqueue(_Job(call=lambda: self._switch(backend), future=future, loading=True))
        return future

    @property
    def can_answer(self) -> bool:
        """A model is loaded, or a load is on its way: a request queued now gets an answer
        (otherwise it could only fail with "no model")."""
        return self._info is not None or self.loading

    @property
    def loading(self) -> bool:
        """A model load is running or waiting to run: what a request queued now waits for.

        A waiting load counts too: a turn sent just after load() is queued behind it before
        the runner thread has picked it up, and its wait is still the load."""
        with self._cond:
            running = self._running is not None and self._running.loading
            return running or any(job.loading for job in self._jobs)

    def unload(self) -> Future[None]:
        return self.call(self._unload_current)

    def forget(self, cache_key: str) -> Future[None]:
        """Forget a conversation for good (it was deleted). From now on no request for it runs:
        those queued end as cancelled at once and the running one stops between tokens, so none
        saves its KV (in memory or on disk) or an answer again. The future is done when the
        loaded engine has dropped its KV, right after the job running now."""
        with self._cond:
            self._forgotten.add(cache_key)
            queued = [j for j in self._jobs if _key_of(j) == cache_key]
            for job in queued:
                self._jobs.remove(job)
            running = [job for job in (self._running, *self._batch) if job is not None]
        for job in running:
            if job.handle is not None and _key_of(job) == cache_key:
                job.handle._cancel.set()
        for job in queued:
            self._abandon(job, "The conversation was deleted.")
        if queued:
            self._renumber()

        def forget() -> None:
            if self._backend is not None and self._backend.loaded:
                self._backend.forget_conversation(cache_key)

        future: Future[None] = Future()
        self._enqueue(_Job(call=forget, future=future), front=True)
        return future

    def forgotten(self, cache_key: str) -> bool:
        with self._cond:
            return cache_key in self._forgotten

    def call(self, fn: Callable[[], T], *, priority: Priority = Priority.USER) -> Future[T]:
        """Run fn on the runner thread, queued like a request (e.g. backend.render_prompt)."""
        future: Future[T] = Future()
        self._enqueue(_Job(call=fn, future=future, priority=priority))
        return future

    def submit(self, messages: list[Message], options: GenerateOptions, on_event: OnEvent,
               on_position: OnPosition | None = None, *,
               priority: Priority = Priority.USER, front: bool = False,
               pausable: bool = False) -> RequestHandle:
        """Queue a generation; on_event gets backend events on the runner thread, ending in Done.

        It runs after every waiting job of a more urgent priority and of its own (`front`: before
        those of its own), before less urgent ones. on_position(n) is called while the request
        waits behind n others. `pausable`: when a more urgent generation comes (the person's
        turn behind an API answer) this one stops at the next token or prefill chunk, waits at
        the front of its level and goes on where it stopped (an engine that resumes_output
        continues from its tokens; another gives way only before its first output), so
        on_event sees a pause, never an error."""
        handle = RequestHandle(on_event, on_position)
        handle._runner = self
        self._enqueue(_Job(handle=handle, messages=list(messages), options=options,
                           priority=priority, pausable=pausable), front)
        return handle

    def preempt_requested(self) -> bool:
        """True when the running job should stop early: something more urgent waits, or the
        runner is closing. Long background jobs (warm-up) poll this between chunks."""
        with self._cond:
            running = self._running
            if self._closed:
                return True
            if running is None or not self._jobs:
                return False
            return self._jobs[0].priority < running.priority

    @property
    def pending(self) -> int:
        """Requests running or waiting."""
        with self._cond:
            return len(self._jobs) + self._busy()

    def close(self, timeout: float = 10.0) -> None:
        """Cancel everything, unload the model on its thread and join the thread."""
        with self._cond:
            if self._closed:
                return
            self._closed = True
            dropped = list(self._jobs)
            self._jobs.clear()
            for job in (self._running, *self._batch):
                if job is not None and job.handle is not None:
                    job.handle._cancel.set()
            self._cond.notify_all()
        for job in dropped:
            self._abandon(job, "The model runner was closed.")
        self._thread.join(timeout)
        _wait_for_native_exit(self._thread, timeout)

    # -- queue --------------------------------------------------------------------------------
    def _enqueue(self, job: _Job, front: bool = False) -> None:
        with self._cond:
            closed = self._closed
            if not closed:
                index = _insertion_index(self._jobs, job.priority, front)
                self._jobs.insert(index, job)
                ahead = index + self._busy()
                overtook = index < len(self._jobs) - 1
                self._cond.notify_all()
        if closed:
            self._abandon(job, "The model runner was closed.")
            return
        if job.handle is not None:
            job.handle._set_position(ahead)
        if overtook:
            self._renumber()  # it went ahead of less urgent jobs: they now wait longer

    def _busy(self) -> int:
        """Generations running now (several in a batch). Call under the lock."""
        return max(len(self._batch), 1 if self._running is not None else 0)

    def _drop_if_queued(self, handle: RequestHandle) -> None:
        with self._cond:
            job = next((j for j in self._jobs if j.handle is handle), None)
            if job is not None:
                self._jobs.remove(job)
        if job is not None:
            handle._position = 0
            handle._deliver(Done("cancelled"))
            self._renumber()

    def _renumber(self) -> None:
        with self._cond:
            waiting = [j.handle for j in self._jobs if j.handle is not None]
            busy = self._busy()
        for index, handle in enumerate(waiting):
            handle._set_position(index + busy)

    @staticmethod
    def _abandon(job: _Job, message: str) -> None:
        if job.handle is not None:
            job.handle._deliver(Done("cancelled"))
        if job.future is not None and not job.future.done():
            job.future.set_exception(BackendError(message))

    # -- runner thread ------------------------------------------------------------------------
    def _loop(self) -> None:
        while True:
            with self._cond:
                while not self._jobs and not self._closed:
                    self._cond.wait()
                if self._closed:
                    break
                job = self._jobs.popleft()
                self._running = job
            self._renumber()
            try:
                self._run(job)
            finally:
                self._settled()
            self._renumber()
        self._unload_current()

    def _run(self, job: _Job) -> None:
        if job.call is not None and job.future is not None:
            if not job.future.set_running_or_notify_cancel():
                return
            try:
                result = job.call()
            except BaseException as exc:  # noqa: BLE001 - handed to the caller via the future
                self._settled()
                job.future.set_exception(_as_backend_error(exc))
            else:
                self._settled()
                job.future.set_result(result)
        elif job.handle is not None and job.options is not None:
            # Alone on the single path (prompt-lookup drafts, its KV) unless a batch pays.
            engine = self._batch_engine(job) if self._peers_wait() else None
            peers = ([] if engine is None else
                     self._take_batchable(engine, 1, engine.batch_capacity() - 1, lone=True))
            if engine is not None and peers:
                self._generate_batch(job, engine, peers)
            else:
                self._generate(job, job.handle, job.options)

    def _settled(self) -> None:
        """The running job's work is over. A call settles before its future says so: what its
        callbacks queue at once (`hearth serve` says "ready" from the load's; a client then
        asks) waits behind nothing, and the load no longer counts as running."""
        with self._cond:
            self._running = None

    def _generate(self, job: _Job, handle: RequestHandle, options: GenerateOptions) -> None:
        handle._position = 0
        handle._started.set()
        if handle.cancelled or self.forgotten(options.cache_key or ""):
            handle._deliver(Done("cancelled"))
            return
        backend = self._backend
        pause = _Pause(self, job, handle, backend)
        try:
            if backend is None or not backend.loaded:
                raise NotLoaded("No model is loaded. Choose a model in Settings or pass --model.")
            if options.resume_tokens and job.paused_on is not backend:
                raise BackendError("The model was changed while this answer waited for "
                                   "another one: send the request again.")
            for event in backend.stream(job.messages, options, pause.should_stop):
                if not pause.took(event):
                    handle._deliver(event)
        except Exception as exc:  # noqa: BLE001 - any engine failure becomes a readable event
            _fail(handle, exc)
        self._after(job, pause, backend)

    def _after(self, job: _Job, pause: _Pause, backend: Backend | None) -> None:
        """A generation's run ended: queue the rest of one that paused, else make sure its
        caller has its Done (a backend that forgot it must not leave anyone waiting)."""
        assert job.handle is not None and job.options is not None
        if pause.goes_on():
            if not pause.for_peer:  # stepping aside to join a batch is not giving way
                job.handle.gave_way += 1
            job.handle._started.clear()
            job.paused_on = backend
            job.options = pause.rest(job.options)
            self._enqueue(job, front=True)
            return
        job.handle._deliver(Done("cancelled" if job.handle.cancelled else "error"))

    def _urgent_generation_waits(self, priority: Priority, batch: _BatchRun | None = None
                                 ) -> bool:
        """A generation more urgent than `priority` is first in the queue (a model load or a
        plain call never pauses an answer: a load would change the model under it). In a
        batch, one that may join it is no reason to stop when it is taken in instead, or waits
        for a place; one the batch would not gain from is given way to as alone."""
        with self._cond:
            head = self._jobs[0] if self._jobs else None
            if (self._closed or head is None or head.handle is None
                    or head.priority >= priority):
                return False
            if batch is None or not self._joins(head):
                return True
        return not batch.takes_or_holds_head()

    # -- batched decoding -----------------------------------------------------------------------
    def _batch_engine(self, job: _Job) -> BatchEngine | None:
        """The loaded engine, when it can decode `job` in one batch with others."""
        backend = self._backend
        if backend is None or not backend.loaded or not isinstance(backend, BatchEngine):
            return None
        return backend if _batchable(job, backend) and backend.batch_capacity() > 1 else None

    def _joins(self, job: _Job) -> bool:
        """`job` (waiting) may join a batch on the loaded engine. Call under the lock."""
        return self._backend is not None and _batchable(job, self._backend)

    def _peers_wait(self) -> bool:
        """A generation that may join a batch is first in the queue. A lone one decodes on
        the single path (it drafts from the prompt and keeps its conversation's KV)."""
        with self._cond:
            return bool(self._jobs) and not self._closed and self._joins(self._jobs[0])

    def _peer_waits_for(self, job: _Job) -> bool:
        """`job` runs alone and generations it could be batched with wait, so many that the
        batch pays: it steps aside for a moment and goes on in one batch with them."""
        # The queue first: it is empty on nearly every token, the engine's capacity is a call.
        if not self._peers_wait() or (engine := self._batch_engine(job)) is None:
            return False
        places = engine.batch_capacity() - 1
        with self._cond:
            return self._joiners(engine, 1, places, lone=True) > 0

    def _joiners(self, engine: BatchEngine, running: int, places: int, lone: bool = False
                 ) -> int:
        """How many of the generations waiting at the head of the queue that may join (up to
        `places`, stopping at the first that may not: nothing overtakes a job waiting in line)
        to decode beside `running` ones: members of a batch, or (`lone`) one generation on the
        single path, as fast as the engine measured lone answers with their drafts. Call
        under the lock."""
        ready = 0
        while (ready < min(places, len(self._jobs)) and not self._closed
               and self._joins(self._jobs[ready])):
            ready += 1
        return _best_joiners(engine.batch_gain, running, ready,
                             engine.lone_gain() if lone else None)

    def _take_batchable(self, engine: BatchEngine, running: int, places: int,
                        lone: bool = False) -> list[_Job]:
        """The waiting generations that join `running` ones in a batch, from the head of the
        queue: as many of the next `places` as make the batch the fastest (none when it is
        fastest as it is; `lone`: as _joiners)."""
        with self._cond:
            taken = [self._jobs.popleft()
                     for _ in range(self._joiners(engine, running, places, lone))]
        if taken:
            self._renumber()
        return taken

    def _generate_batch(self, job: _Job, engine: BatchEngine, peers: list[_Job]) -> None:
        """Decode `job` and `peers` in one batch; more join between steps as places free,
        while the batch gains from them. Each member pauses, ends and is delivered to exactly
        as it would be alone."""
        batch = _BatchRun(self, self._backend, engine)
        first = batch.add_all([job, *peers])
        try:
            events = engine.stream_batch(first, batch.take_more)
            for request, event in events:
                batch.deliver(request, event)
        except Exception as exc:  # noqa: BLE001 - any engine failure becomes a readable event
            batch.fail(exc)
        batch.close()

    def _switch(self, backend: Backend) -> BackendInfo:
        if self._backend is not backend:
            self._unload_current()
        self._backend = backend
        if not backend.loaded:
            backend.load()
        self._info = backend.info
        return self._info

    def _unload_current(self) -> None:
        backend, self._backend = self._backend, None
        self._info = None
        if backend is not None and backend.loaded:
            try:
                backend.unload()
            except Exception:  # noqa: BLE001 - a failing unload must not kill the runner
                pass


class _Pause:
    """One run of a pausable generation: whether it stopped for a more urgent one, and the
    tokens it had produced (events.Paused), which its next run goes on from."""

    def __init__(self, runner: ModelRunner, job: _Job, handle: RequestHandle,
                 backend: Backend | None, batch: _BatchRun | None = None) -> None:
        self._runner = runner
        self._job = job
        self._handle = handle
        self._batch = batch  # the batch it is decoded in: peers it gains from join it
        self.for_peer = False  # it paused to go on in one batch with a waiting generation
        # A grammar (JSON schema) would start again from its first rule: such output is not
        # continued, it gives way only before it begins.
        self._resumes = bool(getattr(backend, "resumes_output", False)) and (
            job.options is None or job.options.json_schema is None)
        self._asked = False
        self._output = False  # reasoning, text or a tool call was delivered
        self._tokens: tuple[int, ...] | None = None
        self._ended: Done | None = None

    def should_stop(self) -> bool:  # the engine's callback, between tokens and prefill chunks
        if self._handle.cancelled:
            return True
        if not self._job.pausable or (self._output and not self._resumes):
            return False  # output that cannot be continued exactly runs to its end
        if self._runner._urgent_generation_waits(self._job.priority, self._batch):
            self._asked = True
        elif self._batch is None and not self._asked and self._runner._peer_waits_for(self._job):
            self._asked = self.for_peer = True
        return self._asked

    def took(self, event: Event) -> bool:
        """Whether `event` stays here: Paused, and, once paused for good, the end the engine
        wrote for an answer that in fact goes on."""
        if isinstance(event, Paused):
            self._tokens = event.tokens
            return True
        paused = self._asked and not self._handle.cancelled
        if paused and isinstance(event, Done) and event.finish_reason == "cancelled":
            self._ended = event
            return True
        if paused and self._tokens is not None:
            return True  # what the parser flushed at the end: the answer is not over
        self._output = self._output or isinstance(event, (ReasoningDelta, TextDelta, ToolCall))
        return False

    def goes_on(self) -> bool:
        """It stopped for a more urgent generation and is to run again after it."""
        return (self._ended is not None and not self._handle.cancelled
                and not self._runner.forgotten(self._job.options.cache_key or "")
                if self._job.options is not None else False)

    def rest(self, options: GenerateOptions) -> GenerateOptions:
        """The options of the next run: from the tokens produced so far, if any (an answer
        that cannot be continued paused before any output: it starts again)."""
        if self._tokens is None or not self._resumes:
            return options
        return replace(options, resume_tokens=list(self._tokens))


class _BatchRun:
    """The members of one batch on the runner thread: each delivered to through its own
    _Pause and ended as a lone generation would be (queued again when it paused)."""

    def __init__(self, runner: ModelRunner, backend: Backend | None, engine: BatchEngine
                 ) -> None:
        self._runner = runner
        self._backend = backend
        self._engine = engine
        self._members: dict[int, tuple[_Job, _Pause]] = {}  # by id() of the BatchRequest

    def add_all(self, jobs: list[_Job]) -> list[BatchRequest]:
        return [request for job in jobs if (request := self._add(job)) is not None]

    def take_more(self, places: int) -> list[BatchRequest]:
        """The engine's TakeMore: the waiting generations the batch gains from, up to
        `places` (none once no member is left: the next in line starts afresh, alone when
        that is faster)."""
        return self.add_all(self._runner._take_batchable(self._engine, len(self._members),
                                                         places))

    def takes_or_holds_head(self) -> bool:
        """The generation first in line (one that may join) joins at the next step, or waits
        for a place in a full batch."""
        places = self._engine.batch_capacity() - len(self._members)
        if places <= 0:
            return True
        with self._runner._cond:
            return self._runner._joiners(self._engine, len(self._members), places) > 0

    def _add(self, job: _Job) -> BatchRequest | None:
        handle, options = job.handle, job.options
        assert handle is not None and options is not None
        handle._position = 0
        handle._started.set()
        if handle.cancelled or self._runner.forgotten(options.cache_key or ""):
            handle._deliver(Done("cancelled"))
            return None
        pause = _Pause(self._runner, job, handle, self._backend, batch=self)
        request = BatchRequest(job.messages, options, pause.should_stop)
        self._members[id(request)] = (job, pause)
        with self._runner._cond:
            self._runner._batch.append(job)
        for member, _pause in self._members.values():
            assert member.handle is not None
            member.handle.batched_with = max(member.handle.batched_with, len(self._members) - 1)
        return request

    def deliver(self, request: BatchRequest, event: Event) -> None:
        job, pause = self._members[id(request)]
        assert job.handle is not None
        try:
            if not pause.took(event):
                job.handle._deliver(event)
        except Exception as exc:  # noqa: BLE001 - one caller's failing callback ends its own answer only
            job.handle._cancel.set()  # the engine drops it at its next step
            _fail(job.handle, exc)
        if isinstance(event, Done):
            self._end(id(request))

    def fail(self, exc: Exception) -> None:
        """The engine failed: every member still running ends with its error."""
        for job, _pause in self._members.values():
            assert job.handle is not None
            _fail(job.handle, exc)

    def close(self) -> None:
        """The batch is over: members the engine never ended end now."""
        for key in list(self._members):
            self._end(key)

    def _end(self, key: int) -> None:
        job, pause = self._members.pop(key)
        with self._runner._cond:
            self._runner._batch.remove(job)
        self._runner._after(job, pause, self._backend)


def _batchable(job: _Job, backend: Backend) -> bool:
    """A generation that may be decoded in a batch on `backend`: an API request or a
    routine's, not under a JSON schema (its grammar samples alone), and not one that paused
    on another engine (it ends with an error on the single path)."""
    options = job.options
    return (job.handle is not None and options is not None and job.priority in BATCHED
            and options.json_schema is None
            and (not options.resume_tokens or job.paused_on is backend))


def _best_joiners(gain: Callable[[int], float], running: int, ready: int,
                  now: float | None = None) -> int:
    """How many of `ready` generations to add to `running` ones for the most tokens per second
    (gain(n): a step of n generations against one-token decoding alone; `now`: what the
    running ones make as they decode, when not gain(running), as a lone answer's drafts), the
    fewest of equals (PAYS); none when nothing runs (a batch whose members all ended stops:
    the next starts afresh)."""
    if running <= 0:
        return 0
    best, best_gain = 0, gain(running) if now is None else now
    for more in range(1, ready + 1):
        if gain(running + more) > best_gain * PAYS:
            best, best_gain = more, gain(running + more)
    return best


def _fail(handle: RequestHandle, exc: Exception) -> None:
    error = _as_backend_error(exc)
    handle._deliver(StreamError(str(error), kind=error.kind))
    handle._deliver(Done("error"))


def _key_of(job: _Job) -> str | None:
    """The conversation a generation belongs to (its KV cache key), if any."""
    return job.options.cache_key if job.handle is not None and job.options is not None else None


def _insertion_index(jobs: deque[_Job], priority: Priority, front: bool = False) -> int:
    """After the last job at least as urgent as `priority` (FIFO within a level); `front`:
    after the last more urgent one."""
    for index in range(len(jobs) - 1, -1, -1):
        if jobs[index].priority < priority or (jobs[index].priority == priority and not front):
            return index + 1
    return 0


def _as_backend_error(exc: BaseException) -> BackendError:
    if isinstance(exc, BackendError):
        return exc
    text = str(exc) or type(exc).__name__
    error = BackendError(f"The model engine failed: {text}")
    error.kind = kind_of(exc) if isinstance(exc, OSError) else FailureKind.ENGINE_FAILED
    return error


def _wait_for_native_exit(thread: threading.Thread, timeout: float) -> None:
    """join() returns before the OS thread has run its C++ thread-local destructors. MLX keeps
    a per-thread stream there; if the process exits while that teardown is still running, the
    C++ runtime aborts ("terminate called without an active exception"). So wait for the OS
    thread itself to be gone (Linux shows it in /proc; elsewhere there is nothing to poll)."""
    native = thread.native_id
    task = Path(f"/proc/self/task/{native}")
    if native is None or not Path("/proc/self/task").is_dir():
        return
    deadline = time.monotonic() + timeout
    while task.exists() and time.monotonic() < deadline:
        time.sleep(0.005)
