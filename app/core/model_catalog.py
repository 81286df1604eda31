"""The published Nanbeige4.2-3B builds Hearth knows (shared/nanbeige/MODEL.md), and where they go."""

from __future__ import annotations

import os
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

DEFAULT_ENDPOINT = "https://huggingface.co"
GGUF_REPO = "bartowski/Nanbeige_Nanbeige4.2-3B-GGUF"


def kv_bytes_per_token(kv_type: str = "f16") -> int:
    """Nanbeige4.2-3B: 22 layers run twice, 8 KV heads of 128 (176 KiB a token at f16)."""
    from backends.kv_size import kv_bytes_per_token as per_token

    return per_token(22, 2, 8, 128, kv_type)


class BuildNote(StrEnum):
    """What a build is good for: a code the window words in its language."""

    BALANCED = "balanced"  # GGUF Q4: good quality, fastest on most computers
    CLOSEST = "closest"  # GGUF Q8: closest to the original, more memory
    MLX_FASTEST = "mlx_fastest"  # MLX 4-bit: the fastest on a Mac
    MLX_QUALITY = "mlx_quality"  # MLX 8-bit: higher quality, more memory


@dataclass(frozen=True)
class Build:
    """One downloadable build: a single GGUF file, or an MLX folder (every file in the repo)."""

    id: str
    title: str
    kind: str  # "gguf" | "mlx"
    repo: str
    filename: str  # the GGUF file; "" for MLX folders
    size: int  # bytes, as published (the exact figure comes from the server before download)
    note: BuildNote
    recommended: bool = False

    def target(self, models_dir: Path) -> Path:
        """Where the finished model lives: the .gguf file, or the MLX folder."""
        folder = models_dir / self.id
        return folder / self.filename if self.kind == "gguf" else folder


BUILDS: tuple[Build, ...] = (
    Build("nanbeige4.2-3b-q4_k_m", "Nanbeige4.2-3B · Q4_K_M", "gguf", GGUF_REPO,
          "Nanbeige_Nanbeige4.2-3B-Q4_K_M.gguf", 2_684_023_968,
          BuildNote.BALANCED, recommended=True),
    Build("nanbeige4.2-3b-q8_0", "Nanbeige4.2-3B · Q8_0", "gguf", GGUF_REPO,
          "Nanbeige_Nanbeige4.2-3B-Q8_0.gguf", 4_434_787_488,
          BuildNote.CLOSEST),
    Build("nanbeige4.2-3b-mlx-4bit", "Nanbeige4.2-3B · MLX 4-bit", "mlx",
          "MercuriusDream/Nanbeige4.2-3B-mlx-4bit", "", 2_350_000_000,
          BuildNote.MLX_FASTEST),
    Build("nanbeige4.2-3b-mlx-8bit", "Nanbeige4.2-3B · MLX 8-bit", "mlx",
          "MercuriusDream/Nanbeige4.2-3B-mlx-8bit", "", 4_450_000_000,
          BuildNote.MLX_QUALITY),
)


def endpoint() -> str:
    """The Hub address; HF_ENDPOINT points it at a mirror (or a local test server)."""
    return os.environ.get("HF_ENDPOINT", "").rstrip("/") or DEFAULT_ENDPOINT


def human_size(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if abs(n) < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit in ("B", "KB") else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} GB"
