"""A disk that is really full: a small tmpfs (root only) and a file that takes its last byte."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def fill(path: Path) -> None:
    """Write until the disk refuses a single byte more."""
    fd = os.open(path, os.O_WRONLY | os.O_CREAT)
    try:
        for size in (1 << 20, 4096, 1):
            try:
                while True:
                    os.write(fd, b"\0" * size)
            except OSError:
                continue
    finally:
        os.close(fd)


@contextmanager
def small_tmpfs(mount: Path, megabytes: int) -> Iterator[Path]:
    """`mount` as a tmpfs of that size for the block; the test is skipped where that needs a
    root this process is not."""
    mount.mkdir()
    if os.geteuid() != 0 or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", f"size={megabytes}m", "tmpfs", str(mount)],
            capture_output=True).returncode:
        pytest.skip("mounting a small tmpfs needs root")
    try:
        yield mount
    finally:
        subprocess.run(["umount", "-l", str(mount)], check=False)
