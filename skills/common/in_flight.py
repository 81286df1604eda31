"""A count of pieces of work in progress that a closing owner waits to reach none."""

from __future__ import annotations

import threading


class InFlight:
    """Work begun and not yet ended, counted across threads (as a context manager, or begun on
    one thread and ended on another), with a wait for none."""

    def __init__(self) -> None:
        self._count = 0
        self._changed = threading.Condition()

    def begin(self) -> None:
        with self._changed:
            self._count += 1

    def end(self) -> None:
        with self._changed:
            self._count -= 1
            self._changed.notify_all()

    def __enter__(self) -> None:
        self.begin()

    def __exit__(self, *exc: object) -> None:
        self.end()

    def idle(self, timeout: float) -> bool:
        """Wait until none is in progress; False if `timeout` seconds went by first."""
        with self._changed:
            return self._changed.wait_for(lambda: self._count == 0, timeout)
