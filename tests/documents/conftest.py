"""Fixtures for the document tests: one warm parser process shared by the session."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from skills.documents import DocumentIndex
from skills.documents.worker import Limits, Outcome, ParserPool


class CountingPool(ParserPool):
    """A real parser pool that remembers which files it was asked to parse."""

    def __init__(self, limits: Limits | None = None, target: str | None = None) -> None:
        if target is None:
            super().__init__(limits)
        else:
            super().__init__(limits, target)
        self.parsed: list[str] = []

    def parse(self, path: str, seconds: float | None = None) -> Outcome:
        self.parsed.append(path)
        return super().parse(path, seconds)


@pytest.fixture(scope="session")
def shared_pool() -> Iterator[CountingPool]:
    pool = CountingPool(Limits(max_bytes=50 * 1024 * 1024, seconds=20))
    yield pool
    pool.close()


@pytest.fixture
def pool(shared_pool: CountingPool) -> CountingPool:
    shared_pool.parsed.clear()
    return shared_pool


@pytest.fixture
def make_index(tmp_path: Path, pool: CountingPool) -> Iterator[Callable[..., DocumentIndex]]:
    made: list[DocumentIndex] = []

    def make(**kwargs: object) -> DocumentIndex:
        kwargs.setdefault("pool", pool)
        index = DocumentIndex(tmp_path / "index.db", **kwargs)  # type: ignore[arg-type]
        made.append(index)
        return index

    yield make
    for index in made:
        index.close()


def wait_for(condition: Callable[[], object], timeout: float = 15.0) -> None:
    """Poll a condition (the watcher works on its own thread) until true or timeout."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if condition():
            return
        time.sleep(0.05)
    raise AssertionError(f"condition not met within {timeout} s")
