"""Shared test setup: every test gets its own HEARTH_HOME; Qt runs offscreen; tiny models."""

from __future__ import annotations

import gc
import os
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest

# Fixtures more than one folder uses: the scripted engine on a real runner, a real history.
pytest_plugins = ["tests.support.scripted_runner"]

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
# As the app does (backends/cpu.py): llama.cpp threads sleep instead of spinning while they
# wait, which keeps a busy CI box from slowing every real-engine test down severalfold.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

CACHE = Path(__file__).parent / ".cache"


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Iterator[None]:
    """No cyclic garbage collection while the test modules are imported, and what they imported
    frozen afterwards (as the app does once its window is up, app/ui/shell/desktop.py). Each full
    collection walks every object imported so far, and the imports trigger one per quarter of
    growth: a quarter of the collection's time went there. Frozen, the modules are not walked
    again by the collections the tests run either (the UI tests collect after each test)."""
    gc.disable()
    try:
        return (yield)
    finally:
        gc.freeze()
        gc.enable()


# The longest test files, longest first. tests/run.sh spreads whole files over the cores
# (pytest-xdist, --dist loadfile) and hands them out in collection order
# (--no-loadscope-reorder): started last, the PyInstaller build alone (minutes on a fresh
# clone) would leave one core idle while the other finished it. After these, files with more
# tests first (xdist's own order, which would put these two-test files near the end).
LONGEST_FIRST = (
    "packaging/test_bundle.py",
    "core/test_faults.py",
    "calendar/test_corpus.py",
    "cli/test_prefix.py",
    "backends/test_speculative_sampling.py",
    "calendar/test_hostile.py",
    "packaging/test_smoke_network.py",
    "server/test_client_config.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    here = Path(__file__).parent
    per_file = Counter(item.path for item in items)

    def rank(item: pytest.Item) -> tuple[int, int]:
        path = item.path.relative_to(here).as_posix() if item.path.is_relative_to(here) else ""
        listed = LONGEST_FIRST.index(path) if path in LONGEST_FIRST else len(LONGEST_FIRST)
        return listed, -per_file[item.path]

    items.sort(key=rank)  # stable: a file's tests stay together and in their order


@pytest.fixture
def far_east() -> Iterator[None]:
    """This computer's clock at UTC+14, where the UTC date is a day behind until 14:00: a time
    stored in UTC and shown without converting it shows the wrong day."""
    import time

    before = os.environ.get("TZ")
    os.environ["TZ"] = "Pacific/Kiritimati"
    time.tzset()
    yield
    if before is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = before
    time.tzset()


@pytest.fixture(autouse=True)
def hearth_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Point every location Hearth writes to at a fresh folder."""
    home = tmp_path / "hearth-home"
    monkeypatch.setenv("HEARTH_HOME", str(home))
    return home


@pytest.fixture(scope="session")
def tiny_model():  # type: ignore[no-untyped-def]
    """A tiny random-weight Nanbeige model as GGUF and MLX folder (built once, then cached)."""
    from tests.support.tiny_model import build_tiny_model

    return build_tiny_model(CACHE / "tiny-model")


# An engine a module's tests all need: `pytestmark = pytest.mark.usefixtures("needs_llama_cpp")`
# skips them where it is not installed. A fixture, not pytest.importorskip at module level, so
# that the import (a second or more for mlx-lm) is paid by the tests that run, not by collection.
@pytest.fixture(scope="session")
def needs_llama_cpp() -> None:
    pytest.importorskip("llama_cpp")


@pytest.fixture(scope="session")
def needs_mlx_lm() -> None:
    pytest.importorskip("mlx_lm")
