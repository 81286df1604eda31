"""The one engine vocabulary: the ids settings, `--engine` and BackendInfo.engine use, and the
names people see."""

from __future__ import annotations

from enum import StrEnum


class Engine(StrEnum):
    LLAMA = "llama"  # llama.cpp through llama-cpp-python (GGUF files)
    MLX = "mlx"  # Apple's MLX through mlx-lm (MLX model folders)
    REMOTE = "remote"  # an OpenAI-compatible server
    SCRIPTED = "scripted"  # replays queued outputs: tests only, never offered to people


AUTO = "auto"  # choose from the model's format and the machine (backends/select.py)
CHOICES: tuple[str, ...] = (AUTO, Engine.LLAMA, Engine.MLX, Engine.REMOTE)
"""What Settings and `--engine` offer."""

_NAMES = {Engine.LLAMA: "llama.cpp", Engine.MLX: "MLX", Engine.REMOTE: "remote server",
          Engine.SCRIPTED: "scripted"}


def display_name(engine: str) -> str:
    """How an engine id is written for people ("llama" -> "llama.cpp")."""
    try:
        return _NAMES[Engine(engine)]
    except ValueError:
        return engine
