"""Parse files in a reused child process with limits on time and memory per file.

A hostile or broken file can make a parser spin, allocate without end or crash the
interpreter; in a child process that costs one restart, never the app."""

from __future__ import annotations

import contextlib
import importlib
import multiprocessing
import os
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from skills.documents.skips import Skip, SkipWhy, skip

DEFAULT_TARGET = "skills.documents.chunking:parse_and_chunk"
# Starting the worker (a new interpreter importing the parsers) is not part of any file's time
# limit: a busy machine may take long to start it. This bounds only a worker that never starts.
STARTUP_S = 300.0
CLOSED = Skip(SkipWhy.CLOSED)  # what a parse cut short by close() returns


@dataclass(frozen=True)
class Limits:
    """Per-file limits. Size is checked before parsing; time and memory while parsing."""

    max_bytes: int = 200_000_000  # decimal, as file managers show sizes
    seconds: float = 60.0  # plus one second per MB, so big honest files get their time
    memory_bytes: int = 2 * 1024 * 1024 * 1024  # address space of the worker process


@dataclass
class Outcome:
    """What parsing one file gave: a value, or why it failed (a code)."""

    value: Any = None
    error: Skip | None = None

    @property
    def ok(self) -> bool:
        return self.error is None


def _resolve(target: str) -> Callable[[str], Any]:
    module, _, name = target.partition(":")
    fn: Callable[[str], Any] = getattr(importlib.import_module(module), name)
    return fn


def _serve(conn: Connection, target: str, memory_bytes: int) -> None:
    """The worker's loop: receive a path, send back ("ok", value) or ("error", Skip)."""
    import signal

    # Ctrl+C in a terminal reaches the whole process group: the parent decides when this
    # worker stops, so a file being parsed is never recorded as crashed on the way out.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux") and memory_bytes > 0:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
    import logging

    logging.getLogger("pypdf").setLevel(logging.ERROR)  # damaged files are reported, not logged
    fn = _resolve(target)
    conn.send(("ready", None))  # each file's time limit starts from here
    while True:
        try:
            path = conn.recv()
        except (EOFError, OSError):
            return
        if path is None:
            return
        try:
            reply: tuple[str, Any] = ("ok", fn(path))
        except MemoryError:
            reply = ("error", Skip(SkipWhy.OUT_OF_MEMORY))
        except Exception as exc:  # noqa: BLE001 - the reason goes back to the index as a code
            reply = ("error", _skip_of(exc))
        try:
            conn.send(reply)
        except Exception as exc:  # noqa: BLE001 - e.g. a result that cannot be pickled
            conn.send(("error", skip(SkipWhy.NOT_RETURNED, exc)))


def _skip_of(exc: Exception) -> Skip:
    found = getattr(exc, "skip", None)  # a ParseError's code (other targets raise their own)
    return found if isinstance(found, Skip) else skip(SkipWhy.OTHER, str(exc) or type(exc).__name__)


class ParserPool:
    """One reused worker process (started on first use, restarted after a crash or timeout).

    Calls are serialised by a lock: the app parses one file at a time off the UI thread,
    and a single warm worker keeps indexing from being dominated by process start."""

    def __init__(self, limits: Limits | None = None, target: str = DEFAULT_TARGET) -> None:
        self.limits = limits or Limits()
        self.target = target
        self._ctx = multiprocessing.get_context("spawn")  # fork would copy threads and sqlite
        self._lock = threading.Lock()
        self._process: Any = None
        self._conn: Connection | None = None
        self._closed = False

    def parse(self, path: str, seconds: float | None = None) -> Outcome:
        timeout = self.limits.seconds if seconds is None else seconds
        with self._lock:
            if self._closed:
                return Outcome(error=CLOSED)
            try:
                conn = self._ensure()
            except OSError:
                return Outcome(error=CLOSED if self._closed else skip(SkipWhy.NOT_STARTED))
            try:
                conn.send(path)
                if not conn.poll(timeout):
                    self._kill()
                    return Outcome(error=skip(SkipWhy.TIMEOUT, f"{timeout:g}"))
                status, value = conn.recv()
            except (EOFError, OSError, BrokenPipeError):
                if self._closed:  # close() stopped the worker under this parse
                    self._kill()
                    return Outcome(error=CLOSED)
                code = None
                if self._process is not None:
                    self._process.join(timeout=5)  # the pipe closes a moment before exit
                    code = self._process.exitcode
                self._kill()
                return Outcome(error=_crash_reason(code))
            if status == "ok":
                return Outcome(value=value)
            return Outcome(error=value if isinstance(value, Skip) else skip(SkipWhy.OTHER, value))

    def _ensure(self) -> Connection:
        if self._process is not None and self._process.is_alive() and self._conn is not None:
            return self._conn
        self._kill()
        parent, child = self._ctx.Pipe()
        process = self._ctx.Process(
            target=_serve,
            args=(child, self.target, self.limits.memory_bytes),
            name="hearth-doc-parser",
            daemon=True,
        )
        with _unimportable_main_hidden():
            process.start()
        child.close()
        self._process, self._conn = process, parent
        try:
            ready = parent.poll(STARTUP_S) and parent.recv() == ("ready", None)
        except (EOFError, OSError):
            ready = False
        if not ready:
            self._kill()
            raise OSError(Skip(SkipWhy.NOT_STARTED).words)
        return parent

    def _kill(self) -> None:
        if self._conn is not None:
            self._conn.close()
        if self._process is not None:
            if self._process.is_alive():
                self._process.kill()
            self._process.join(timeout=5)
        self._process, self._conn = None, None

    def close(self) -> None:
        """Stop the worker. A parse in flight ends at once (with CLOSED) instead of running
        to its time limit: quitting, or Ctrl+C on `hearth docs watch`, never waits on it."""
        self._closed = True
        if not self._lock.acquire(blocking=False):
            process = self._process
            if process is not None and process.is_alive():
                process.kill()  # the waiting parse reads end-of-file and returns
            self._lock.acquire()
        try:
            if self._conn is not None and self._process is not None and self._process.is_alive():
                try:
                    self._conn.send(None)
                    self._process.join(timeout=2)
                except (OSError, BrokenPipeError):
                    pass
            self._kill()
        finally:
            self._lock.release()


@contextlib.contextmanager
def _unimportable_main_hidden() -> Iterator[None]:
    """spawn re-runs the parent's main script in the child; when that "script" is not a file
    (code piped to python, an embedded interpreter) the child would die before parsing."""
    main = sys.modules.get("__main__")
    path = getattr(main, "__file__", None)
    if main is None or path is None or os.path.isfile(path):
        yield
        return
    del main.__file__
    try:
        yield
    finally:
        main.__file__ = path


def _crash_reason(code: int | None) -> Skip:
    if code is not None and code < 0:
        return skip(SkipWhy.CRASHED, -code)
    return Skip(SkipWhy.STOPPED)
