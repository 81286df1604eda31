"""Stand-ins for parsers that misbehave, run inside the worker process by the limit tests."""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path


def hang(path: str) -> str:
    if path.endswith("ok"):
        return "fine"
    while True:  # a parser stuck in a loop on a crafted file
        time.sleep(0.1)


def hang_visibly(path: str) -> str:
    """As hang, after leaving a mark beside the file: the test knows the parse is running."""
    Path(path + ".parsing").touch()
    return hang(path)


def allocate(path: str) -> int:
    blocks = [bytearray(256 * 1024 * 1024) for _ in range(64)]  # 16 GiB if nothing stops it
    return len(blocks)


def crash(path: str) -> str:
    if path.endswith("ok"):
        return "fine"
    os.kill(os.getpid(), signal.SIGSEGV)  # as a C extension crashing on bad input would
    return "unreachable"
