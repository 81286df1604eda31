"""`hearth ask` in separate processes: the second starts from the prefix the first saved, and the
prefix is byte-identical on another day (real llama.cpp and MLX on the tiny models)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.main import Hearth
from tests.support.scripted_cli import write_settings
from tests.support.tiny_model import FEW_SKILLS, TinyModel

ROOT = Path(__file__).resolve().parents[2]
SHIFTED = """
import sys, time_machine
from datetime import datetime
from app.main import main
with time_machine.travel(datetime.fromisoformat(sys.argv[1]), tick=True):
    sys.exit(main(sys.argv[2:]))
"""


def hearth_ask(home: Path, *argv: str, day: str = "") -> list[dict[str, Any]]:
    """One `hearth ask --json` in its own process (optionally with the clock moved to `day`)."""
    env = {**os.environ, "HEARTH_HOME": str(home), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-c", SHIFTED, day] if day else [sys.executable, "-m", "app.main"]
    done = subprocess.run([*command, "ask", *argv, "--json", "--no-think", "--max-tokens", "3"],
                          capture_output=True, text=True, env=env, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def prefix_length(model: Path, engine: str) -> int:
    """The prefix these settings give, measured in this process with the same code."""
    from backends.base import LocalEngine

    hearth = Hearth()
    try:
        backend = hearth.make_backend(model_path=str(model), engine=engine)
        hearth.runner.load(backend).result(300)
        assert isinstance(backend, LocalEngine)
        return hearth.runner.call(
            lambda: backend.prefix_tokens(*hearth.assistant.prefix_request())).result(300)
    finally:
        hearth.close()


@pytest.mark.parametrize("engine", ["llama", "mlx"])
def test_a_second_process_starts_from_the_prefix_the_first_saved(
        engine: str, tiny_model: TinyModel, hearth_home: Path) -> None:
    pytest.importorskip("mlx_lm" if engine == "mlx" else "llama_cpp")
    model = tiny_model.mlx_dir if engine == "mlx" else tiny_model.gguf_path
    write_settings(hearth_home, enabled_skills=FEW_SKILLS)
    args = ("hello", "--model", str(model), "--engine", engine)
    first = hearth_ask(hearth_home, *args)[-1]
    second = hearth_ask(hearth_home, *args)[-1]
    prefix = prefix_length(model, engine)
    assert first["type"] == second["type"] == "done"
    assert first["usage"]["cached_prompt_tokens"] == 0
    assert second["usage"]["cached_prompt_tokens"] >= prefix > 100


def test_the_prefix_is_the_same_on_another_day_and_keeps_its_saved_state(
        tiny_model: TinyModel, hearth_home: Path) -> None:
    pytest.importorskip("llama_cpp")
    pytest.importorskip("time_machine")
    write_settings(hearth_home, enabled_skills=FEW_SKILLS)
    args = ("hello", "--model", str(tiny_model.gguf_path), "--engine", "llama",
            "--print-prompt")
    runs = [hearth_ask(hearth_home, *args, day=day)
            for day in ("2026-03-28T23:50:00+01:00", "2026-03-29T12:00:00+02:00")]
    prompts = [next(line["text"] for line in run if line["type"] == "prompt") for run in runs]
    prefixes = [p[:p.index("<|im_start|>user")] for p in prompts]
    assert prefixes[0] == prefixes[1]  # byte-identical across midnight and a DST change
    assert "[sent Sat 2026-03-28" in prompts[0] and "[sent Sun 2026-03-29" in prompts[1]
    # The next day's first answer restored the state the day before saved.
    assert runs[0][-1]["usage"]["cached_prompt_tokens"] == 0
    assert runs[1][-1]["usage"]["cached_prompt_tokens"] >= prefix_length(
        tiny_model.gguf_path, "llama")
