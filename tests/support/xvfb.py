"""A private X server (Xvfb) for tests that need a real X display."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def xvfb(screen: str) -> Iterator[str]:
    """A fresh Xvfb of `screen` ("800x600x24") on a display it picks itself (-displayfd, so
    parallel runs never collide); yields the DISPLAY value (":N") and stops it afterwards."""
    read, write = os.pipe()
    server = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", screen],
                              pass_fds=(write,), stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as pipe:
        number = pipe.readline().strip()
    try:
        yield f":{number}"
    finally:
        server.terminate()
        server.wait(10)
