"""Waiting for a turn on the main thread, where Ctrl+C lands, and asking for confirmations."""

from __future__ import annotations

import sys

from app.cli.ask.render import Renderer
from app.cli.terminal import visible
from app.core.assistant import TurnHandle
from app.core.events import ConfirmationRequest

POLL_S = 0.1


def wait_for_turn(handle: TurnHandle, renderer: Renderer) -> bool:
    """Wait on the main thread (so Ctrl+C lands here); ask pending confirmations. False: cancelled."""
    try:
        while not handle.wait(POLL_S):
            if renderer.reader_gone:  # nobody reads the answer any more
                handle.cancel()
            while not renderer.pending.empty():
                _ask_person(renderer.pending.get(), renderer)
    except KeyboardInterrupt:
        handle.cancel()
        handle.wait(30)
        return False
    return handle.finish_reason != "cancelled"


def _ask_person(request: ConfirmationRequest, renderer: Renderer) -> None:
    renderer.err.write(visible(f"Allow this? {request.description} [y/N] "))
    renderer.err.flush()
    line = sys.stdin.readline()
    if line.strip().lower() in ("y", "yes"):
        request.approve()
    else:
        request.deny()
