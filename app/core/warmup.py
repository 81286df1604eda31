"""Launch warm-up: the shared prompt prefix prepared on the model thread, below real turns."""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass

from app.core.runner import ModelRunner, Priority
from backends.base import GenerateOptions, LocalEngine, Message

log = logging.getLogger(__name__)

PrefixRequest = tuple[list[Message], GenerateOptions]


@dataclass(frozen=True)
class PrefixStatus:
    """What the status bar says: "Preparing the assistant... 45%" or ready."""

    ready: bool
    done: int = 0  # prefix tokens in the engine so far
    total: int = 0

    @property
    def percent(self) -> int:
        if self.ready:
            return 100
        return min(100, 100 * self.done // self.total) if self.total else 0


OnStatus = Callable[[PrefixStatus], None]


class PrefixWarmup:
    """Brings the prefix into the loaded engine (restored from disk or computed) as a WARMUP
    job: any turn that arrives goes first. The job polls the runner between 512-token chunks
    and steps aside at once; the turn continues from the part already computed, and the
    warm-up queues itself again behind it (by then there is usually nothing left to do).
    Stop and quit are never delayed: a close asks the running job to stop, too."""

    def __init__(self, runner: ModelRunner, request: Callable[[], PrefixRequest],
                 on_status: OnStatus) -> None:
        self.runner = runner
        self.request = request  # builds the system message and tools (may start MCP servers)
        self.on_status = on_status

    def start(self) -> Future[bool] | None:
        """Queue the warm-up; call off the GUI thread (building the prefix may wait for tool
        servers). None when the engine keeps no prefix (a remote server, the scripted one)."""
        backend = self.runner.backend
        if not isinstance(backend, LocalEngine):
            self._emit(PrefixStatus(ready=True))
            return None
        messages, options = self.request()
        return self._queue(backend, messages, options)

    def _queue(self, backend: LocalEngine, messages: list[Message],
               options: GenerateOptions) -> Future[bool]:
        return self.runner.call(lambda: self._run(backend, messages, options),
                                priority=Priority.WARMUP)

    def _run(self, backend: LocalEngine, messages: list[Message],
             options: GenerateOptions) -> bool:
        current: object = self.runner.backend
        if current is not backend:  # another model was loaded meanwhile
            return False
        self._emit(PrefixStatus(ready=False))
        try:
            complete = backend.prepare_prefix(messages, options, self.runner.preempt_requested,
                                              self._progress)
        except Exception as exc:  # noqa: BLE001 - a failed warm-up only costs the first turn time
            log.warning("Could not prepare the prompt prefix: %s", exc)
            complete = True  # nothing more to try; the turn computes what it needs itself
        self._emit(PrefixStatus(ready=True))  # done, or handed to the turn that came in
        if not complete:
            self._queue(backend, messages, options)  # finish later, behind the turn
        return complete

    def _progress(self, done: int, total: int) -> None:
        self._emit(PrefixStatus(ready=False, done=done, total=total))

    def _emit(self, status: PrefixStatus) -> None:
        try:
            self.on_status(status)
        except Exception:  # a broken listener must not break the model thread
            log.exception("prefix status listener failed")
