"""Fixtures for the file-search tests: a folder tree to index and an index over it."""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from skills.files import FileIndex


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


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder


@pytest.fixture
def make_index(tmp_path: Path) -> Iterator[Callable[..., FileIndex]]:
    """Build FileIndex objects on one index.db; all are closed at the end."""
    made: list[FileIndex] = []

    def build(*roots: Path, ignore: list[str] | None = None) -> FileIndex:
        index = FileIndex(tmp_path / "cache" / "index.db", roots=[str(r) for r in roots],
                          ignore_patterns=ignore or [])
        made.append(index)
        return index

    yield build
    for index in made:
        index.close()
