"""TurnHandle: the caller's grip on a running turn (cancel, wait, its answer's id)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from app.core.events import MessageId


@dataclass
class TurnHandle:
    """The caller's grip on a running turn. cancel() works from any thread, at any moment."""

    conversation_id: str
    assistant_message_id: MessageId | None = None
    finish_reason: str | None = None
    _cancel: threading.Event = field(default_factory=threading.Event, repr=False)
    _done: threading.Event = field(default_factory=threading.Event, repr=False)
    _on_cancel: list[Callable[[], None]] = field(default_factory=list, repr=False)

    def cancel(self) -> None:
        self._cancel.set()
        for hook in list(self._on_cancel):
            hook()

    @property
    def stop_flag(self) -> threading.Event:
        """Set once cancel() is called: what waits and loops of this turn watch."""
        return self._cancel

    @contextmanager
    def cancelling(self, hook: Callable[[], None]) -> Iterator[None]:
        """Call `hook` on cancel() while inside the block (at once if already cancelled)."""
        self._on_cancel.append(hook)
        try:
            if self.cancelled:
                hook()
            yield
        finally:
            self._on_cancel.remove(hook)

    def finish(self) -> None:
        """The turn (title included) is over: wake every wait()."""
        self._done.set()

    @property
    def cancelled(self) -> bool:
        return self._cancel.is_set()

    @property
    def done(self) -> bool:
        return self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """True once the turn (title included) has finished."""
        return self._done.wait(timeout)
