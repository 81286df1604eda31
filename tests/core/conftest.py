"""Core test fixtures: the scripted engine on a real ModelRunner, and a real history database."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from app.core.history import HistoryStore
from app.core.runner import ModelRunner
from backends.scripted import ScriptedBackend

LOAD_WAIT = 20  # seconds: a bound only; the scripted engine loads at once


@pytest.fixture
def backend() -> ScriptedBackend:
    return ScriptedBackend()


@pytest.fixture
def runner(backend: ScriptedBackend) -> Iterator[ModelRunner]:
    r = ModelRunner()
    r.load(backend).result(LOAD_WAIT)
    yield r
    r.close()


@pytest.fixture
def history(tmp_path: Path) -> Iterator[HistoryStore]:
    store = HistoryStore(tmp_path / "hearth.db")
    yield store
    store.close()
