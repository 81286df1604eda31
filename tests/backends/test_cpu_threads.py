"""Engine threads: one per physical core unless the user says otherwise; no spinning waits."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from backends.cpu import engine_threads, physical_cores

ROOT = Path(__file__).resolve().parents[2]


def test_threads_follow_the_physical_cores_unless_set() -> None:
    logical = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    assert 1 <= physical_cores() <= (logical or 1)
    assert engine_threads(0) == physical_cores() and engine_threads(3) == 3


@pytest.mark.parametrize(("setting", "expected"), [(0, None), (1, 1)])
def test_llama_cpp_runs_with_those_threads(tiny_model: Any, setting: int,
                                           expected: int | None) -> None:
    pytest.importorskip("llama_cpp")
    from backends.select import create_backend

    backend = create_backend(str(tiny_model.gguf_path), engine="llama", context_length=512,
                             threads=setting)
    backend.load()
    try:
        assert backend.info.extra["threads"] == (expected or physical_cores())
    finally:
        backend.unload()


@pytest.mark.parametrize(("given", "expected"), [(None, "PASSIVE"), ("ACTIVE", "ACTIVE")])
def test_hearth_makes_llama_threads_sleep_while_they_wait(given: str | None,
                                                          expected: str) -> None:
    env = {k: v for k, v in os.environ.items() if k != "OMP_WAIT_POLICY"}
    if given:
        env["OMP_WAIT_POLICY"] = given  # a user's own choice is kept
    code = ("import os, sys; from app.main import main; main(['--version']); "
            "print(os.environ.get('OMP_WAIT_POLICY'))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         env={**env, "PYTHONPATH": str(ROOT)}, cwd=ROOT, check=True, timeout=60)
    assert out.stdout.split()[-1] == expected
