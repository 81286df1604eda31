"""Check an MLX model folder before any engine touches it: config, weights, chat template."""

from __future__ import annotations

import hashlib
import json
import struct
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from backends.errors import ModelCorrupt, ModelNotFound, UnsupportedModel
from backends.model_shape import read_mlx_config

_MAX_HEADER = 100 * 1024 * 1024  # safetensors caps its JSON header at 100 MB


@dataclass(frozen=True)
class MlxFolder:
    """What load() needs to know about a model folder, read without importing MLX."""

    path: Path
    config: dict[str, Any]
    chat_template: str
    bos_token: str
    eos_token: str
    weight_files: tuple[Path, ...]

    @property
    def model_type(self) -> str:
        return str(self.config.get("model_type", ""))

    @property
    def quantization(self) -> str:
        quant = self.config.get("quantization")
        if isinstance(quant, dict) and quant.get("bits"):
            return f"{quant['bits']}-bit"
        return str(self.config.get("torch_dtype") or self.config.get("dtype") or "")

    def kv_storage(self, kv_type: str) -> str:
        """The KV type memory is planned with: MLX keeps unquantized K/V in the model's dtype."""
        dtype = str(self.config.get("torch_dtype") or self.config.get("dtype") or "")
        return "f32" if kv_type == "f16" and dtype == "float32" else kv_type

    def fingerprint(self, kv_type: str, engine_version: str = "") -> str:
        """Changes whenever the weights, config, KV type or engine version change (invalidates
        disk caches: another MLX may lay out its saved caches differently)."""
        digest = hashlib.sha256(json.dumps(self.config, sort_keys=True).encode())
        for file in self.weight_files:
            stat = file.stat()
            digest.update(f"{file.name}:{stat.st_size}:{stat.st_mtime_ns}".encode())
        digest.update(kv_type.encode())
        digest.update(engine_version.encode())
        return digest.hexdigest()[:32]


def inspect_folder(model_path: str) -> MlxFolder:
    """Validate the folder; raises ModelNotFound / ModelCorrupt / UnsupportedModel."""
    path = Path(model_path).expanduser()
    if not path.exists():
        raise ModelNotFound(f"No MLX model at {path}")
    if not path.is_dir():
        hint = " (a GGUF file: choose the llama.cpp engine)" if path.suffix == ".gguf" else ""
        raise UnsupportedModel(f"{path.name} is not an MLX model folder{hint}")
    config = read_mlx_config(path)
    if not isinstance(config.get("model_type"), str):
        raise ModelCorrupt(f"{path / 'config.json'} does not say which model_type it is")
    weights = tuple(sorted(path.glob("model*.safetensors")))
    if not weights:
        raise ModelCorrupt(f"{path} has no weights (model*.safetensors): the download is "
                           "incomplete")
    for file in weights:
        if not file.is_file():  # a FIFO or a device would block the first read for ever
            raise ModelCorrupt(f"{file} is not a regular file (a pipe or a device)")
        check_safetensors(file)
    template, bos, eos = read_chat_template(path)
    return MlxFolder(path, config, template, bos, eos, weights)


def check_safetensors(file: Path) -> None:
    """Catch a truncated or garbled weights file from its header, before MLX maps it."""
    try:
        with file.open("rb") as handle:
            raw_len = handle.read(8)
            (header_len,) = struct.unpack("<Q", raw_len)
            if header_len > _MAX_HEADER:
                raise ValueError("header length is implausible")
            header = json.loads(handle.read(header_len))
        end = max((int(t["data_offsets"][1]) for k, t in header.items() if k != "__metadata__"),
                  default=0)
    except (OSError, struct.error, ValueError, KeyError, TypeError, IndexError) as exc:
        raise ModelCorrupt(f"{file.name} is not a readable safetensors file ({exc})") from exc
    expected = 8 + header_len + end
    if file.stat().st_size < expected:
        raise ModelCorrupt(f"{file.name} is truncated: {file.stat().st_size:,} of "
                           f"{expected:,} bytes; download it again")


def read_chat_template(path: Path) -> tuple[str, str, str]:
    """The chat template and BOS/EOS strings from tokenizer_config.json (or chat_template.jinja)."""
    config: dict[str, Any] = {}
    config_file = path / "tokenizer_config.json"
    if config_file.is_file():
        try:
            loaded = json.loads(config_file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError) as exc:
            raise ModelCorrupt(f"{config_file} is damaged: {exc}") from exc
        config = loaded if isinstance(loaded, dict) else {}
    template = _pick_template(config.get("chat_template"))
    jinja = path / "chat_template.jinja"
    if not template and jinja.is_file():
        template = jinja.read_text(encoding="utf-8")
    if not template:
        raise UnsupportedModel(f"{path} has no chat template (tokenizer_config.json "
                               "chat_template), so Hearth cannot format a conversation for it")
    return template, _token_text(config.get("bos_token")), _token_text(config.get("eos_token"))


def _pick_template(value: object) -> str:
    # Hugging Face allows a list of named templates; the chat one is called "default".
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        named = {t.get("name"): t.get("template") for t in value if isinstance(t, dict)}
        chosen = named.get("default") or next(iter(named.values()), "")
        return chosen if isinstance(chosen, str) else ""
    return ""


def _token_text(value: object) -> str:
    # Tokens appear as plain strings or as AddedToken dicts with a "content" field.
    if isinstance(value, dict):
        value = value.get("content")
    return value if isinstance(value, str) else ""
