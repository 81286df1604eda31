"""Calendar fixtures: a fresh store in a temp hearth.db."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from skills.calendar import CalendarStore


@pytest.fixture
def store(tmp_path: Path) -> Iterator[CalendarStore]:
    s = CalendarStore(tmp_path / "hearth.db")
    yield s
    s.close()
