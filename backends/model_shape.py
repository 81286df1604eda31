"""A model's shape (layers, loops, heads, weights) read from a GGUF header or an MLX folder."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from backends.errors import ModelCorrupt, ModelNotFound
from backends.kv_size import ModelShape
from backends.llama_gguf import inspect_gguf
from backends.llama_gguf import model_shape as gguf_model_shape


def model_shape(model_path: str | Path) -> ModelShape:
    """Read the shape of a GGUF file (header only) or an MLX model folder (config.json)."""
    path = Path(model_path).expanduser()
    if not path.exists():
        raise ModelNotFound(f"No model at {path}")
    if path.is_dir():
        return _mlx_shape(path)
    return _gguf_shape(path)


def _mlx_shape(folder: Path) -> ModelShape:
    config = read_mlx_config(folder)
    try:
        heads = int(config["num_attention_heads"])
        head_dim = int(config.get("head_dim") or int(config["hidden_size"]) // heads)
        loops = _mlx_loops(config)
        weights = sum(f.stat().st_size for f in folder.glob("*.safetensors"))
        return ModelShape(
            architecture=str(config.get("model_type", "")),
            n_layers=int(config["num_hidden_layers"]),
            num_loops=loops,
            n_kv_heads=int(config.get("num_key_value_heads") or heads),
            head_dim=head_dim,
            weights_bytes=weights,
            max_context=int(config.get("max_position_embeddings") or 0),
        )
    except (KeyError, TypeError, ValueError, ZeroDivisionError) as exc:
        raise ModelCorrupt(f"{folder / 'config.json'} lacks a usable {exc} entry") from exc


def _mlx_loops(config: dict[str, Any]) -> int:
    # mlx_lm's nanbeige runs one extra pass per loop-loss weight when a checkpoint stores them.
    weights = config.get("loop_loss_weights")
    if isinstance(weights, list) and weights:
        return len(weights) + 1
    return int(config.get("num_loops") or 1)


def read_mlx_config(folder: Path) -> dict[str, Any]:
    """config.json of an MLX model folder, or a ModelCorrupt saying what is wrong with it."""
    config_file = folder / "config.json"
    if not config_file.is_file():
        raise ModelCorrupt(f"{folder} is not a complete MLX model folder: config.json is missing")
    try:
        config = json.loads(config_file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ModelCorrupt(f"{config_file} is damaged and cannot be read: {exc}") from exc
    if not isinstance(config, dict):
        raise ModelCorrupt(f"{config_file} is damaged: it does not hold a JSON object")
    return config


def _gguf_shape(path: Path) -> ModelShape:
    # The engine's own header reader: it skips the tokenizer arrays, so a 262k-token vocabulary
    # takes well under a second instead of the gguf package's ~15 s.
    return gguf_model_shape(inspect_gguf(path), path.stat().st_size)
