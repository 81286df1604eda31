"""Helpers shared by the file-search tests."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path


def write(path: Path, text: str = "", mtime: float | None = None) -> Path:
    """Create a file (and its folders); optionally set its modification time."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    if mtime is not None:
        os.utime(path, (mtime, mtime))
    return path


def wait_until(condition: Callable[[], bool], timeout: float = 5.0) -> bool:
    """Poll until `condition` holds (watcher tests); False if it never does in time."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.02)
    return condition()
