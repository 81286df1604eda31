"""Waits in the CLI's main thread that Ctrl+C can always end.

Linux may hand a process's SIGINT to any of its threads (the model's, a folder watcher's).
Python runs its handler only in the main thread, and a main thread asleep in an untimed wait
never wakes to run it: the command would ignore Ctrl+C. Timed waits return to the interpreter,
which then raises KeyboardInterrupt."""

from __future__ import annotations

import threading
from concurrent.futures import Future, TimeoutError
from typing import TypeVar

T = TypeVar("T")
STEP_S = 0.5  # how late a Ctrl+C delivered to another thread may be seen


def result_of(future: Future[T]) -> T:
    """future.result(), in steps a Ctrl+C can end."""
    while True:
        try:
            return future.result(timeout=STEP_S)
        except TimeoutError:
            continue


def until_interrupted() -> None:
    """Idle until Ctrl+C (KeyboardInterrupt)."""
    idle = threading.Event()
    while not idle.wait(STEP_S):
        pass
