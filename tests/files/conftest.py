"""Fixtures for the file-search tests: a folder tree to index and an index over it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from skills.files import FileIndex


@pytest.fixture
def root(tmp_path: Path) -> Path:
    folder = tmp_path / "home"
    folder.mkdir()
    return folder.resolve()  # roots are stored resolved (macOS: /var -> /private/var)


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
