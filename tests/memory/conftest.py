"""Memory fixtures: a real memory store in a real hearth.db, the scripted engine's assistant (the
scripted `runner` is tests/support/scripted_runner.py's)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.core.assistant import Assistant
from app.core.history import HistoryStore
from app.core.memory import MemoryStore
from app.core.memory.prompt import PersonalContext
from app.core.runner import ModelRunner
from app.core.settings import Settings
from skills.base import Skill
from skills.builtin import builtin_skills


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "hearth.db"


@pytest.fixture
def history(db: Path) -> Iterator[HistoryStore]:
    store = HistoryStore(db)
    yield store
    store.close()


@pytest.fixture
def memory(db: Path, history: HistoryStore) -> Iterator[MemoryStore]:
    store = MemoryStore(db)
    yield store
    store.close()


@pytest.fixture
def settings() -> Settings:
    return Settings()


@pytest.fixture
def make_assistant(runner: ModelRunner, history: HistoryStore, memory: MemoryStore,
                   settings: Settings) -> Iterator[Any]:
    made: list[Assistant] = []

    def make(extra: list[Skill] | None = None) -> Assistant:
        assistant = Assistant(runner, history, [*builtin_skills(), *(extra or [])], settings,
                              personal=PersonalContext(lambda: memory, settings))
        made.append(assistant)
        return assistant

    yield make
    for assistant in made:
        assistant.close()
