"""Fixtures (a pytest plugin, see tests/conftest.py): the scripted engine on a real ModelRunner,
and a real history database; a folder or module may define its own to set them up differently."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

if TYPE_CHECKING:
    from app.core.history import HistoryStore
    from app.core.runner import ModelRunner
    from backends.scripted import ScriptedBackend

LOAD_WAIT = 20  # seconds: a bound only; the scripted engine loads at once


# The imports sit in the fixtures: this plugin loads for every test folder, and most need none
# of these modules (collection stays quick).
@pytest.fixture
def backend() -> ScriptedBackend:
    from backends.scripted import ScriptedBackend

    return ScriptedBackend()


@pytest.fixture
def runner(backend: ScriptedBackend) -> Iterator[ModelRunner]:
    from app.core.runner import ModelRunner

    r = ModelRunner()
    r.load(backend).result(LOAD_WAIT)
    yield r
    r.close()


@pytest.fixture
def history(tmp_path: Path) -> Iterator[HistoryStore]:
    from app.core.history import HistoryStore

    store = HistoryStore(tmp_path / "hearth.db")
    yield store
    store.close()
