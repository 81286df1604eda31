"""Background operations: run slow work off the GUI thread, then call back on the GUI thread.

Anki-style: `ops.run(fn, on_success, on_failure)`. Every history, index, calendar or download
call goes through here so the event loop never waits on the disk, the model or the network."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import shiboken6
from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal, Slot

from skills.common.in_flight import InFlight

# How long quitting waits for what the person changed to be saved, when the machine is so busy
# that it takes longer than the 5 s quitting waits for the rest: past it, only a stalled disk.
WRITES_WAIT_S = 120.0


class _Relay(QObject):
    """Lives on the GUI thread; the worker emits, Qt queues the call back to the GUI thread."""

    finished = Signal(object, object)  # (result, error)


class _Job(QRunnable):
    def __init__(self, fn: Callable[[], Any], relay: _Relay,
                 writes: InFlight | None = None) -> None:
        super().__init__()
        self._fn = fn
        self._relay = relay
        self._writes = writes
        self.setAutoDelete(True)

    def run(self) -> None:
        try:
            result = self._fn()
        except Exception as exc:  # noqa: BLE001 - every failure must reach a readable message
            self._tell(None, exc)
        else:
            self._tell(result, None)
        finally:
            if self._writes is not None:
                self._writes.end()

    def _tell(self, result: object, error: Exception | None) -> None:
        # The app quits after waiting 5 s for jobs: one that ends later (a loaded machine) may
        # find its relay freed with the rest of Python's objects. Nobody is left to tell then,
        # and a traceback at exit would only alarm.
        with contextlib.suppress(RuntimeError):  # freed between the check and the emit
            if shiboken6.isValid(self._relay):
                self._relay.finished.emit(result, error)


class Ops(QObject):
    """A small pool for background work with success and failure callbacks on the GUI thread."""

    failed = Signal(str, str)  # (title, message): unhandled failures end in a dialog

    def __init__(self, parent: QObject | None = None, max_threads: int = 4) -> None:
        super().__init__(parent)
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(max_threads)
        self._relays: set[_Relay] = set()
        self._writes = InFlight()

    def run(
        self,
        fn: Callable[[], Any],
        on_success: Callable[[Any], None] | None = None,
        on_failure: Callable[[Exception], None] | None = None,
        title: str = "",
        writes: bool = False,
    ) -> None:
        """Run fn on a worker; exactly one of the callbacks runs later on the GUI thread.

        `writes`: fn keeps something the person made or changed (a setting, a rename, a memory,
        a to-do): shutdown waits for it however long the jobs before it take (wait_for_writes)."""
        if not shiboken6.isValid(self._pool):
            return  # the app is going away (a window still gets events): nothing starts now
        relay = _Relay()
        self._relays.add(relay)

        @Slot(object, object)
        def done(result: object, error: Exception | None) -> None:
            self._relays.discard(relay)
            relay.deleteLater()
            if not _alive(on_success) or not _alive(on_failure):
                return  # the window that asked is gone: nobody to tell
            if error is None:
                if on_success is not None:
                    on_success(result)
            elif on_failure is not None:
                on_failure(error)
            else:
                self.failed.emit(title or self.tr("Something went wrong"), str(error) or
                                 type(error).__name__)

        relay.finished.connect(done)
        if writes:
            self._writes.begin()
        self._pool.start(_Job(fn, relay, self._writes if writes else None))

    @property
    def busy(self) -> bool:
        return bool(self._relays)

    def wait(self, msecs: int = 5000) -> bool:
        """Wait for running jobs (shutdown and tests only; never while the app is interactive)."""
        return self._pool.waitForDone(msecs)

    def wait_for_writes(self, seconds: float = WRITES_WAIT_S) -> bool:
        """Wait until every job run with `writes` has ended, the jobs queued before it running
        first (shutdown: the stores close after this). False if `seconds` went by first."""
        return self._writes.idle(seconds)


def _alive(callback: Callable[..., Any] | None) -> bool:
    """False when the callback is a method of a Qt object that has been deleted since."""
    owner = getattr(callback, "__self__", None)
    return not isinstance(owner, QObject) or shiboken6.isValid(owner)
