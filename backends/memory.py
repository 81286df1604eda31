"""Memory planning: what the looped KV cache costs, what is free, and which context fits."""

from __future__ import annotations

import ctypes
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from backends.errors import InsufficientMemory, ModelCorrupt, ModelNotFound

KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB

# Storage cost of one cached K or V element, in sixteenths of a byte (so q8_0's 8.5 bits are exact).
# q8_0 / q4_0 are llama.cpp's block formats (32 values + one f16 scale); MLX's 8- and 4-bit KV
# with group size 64 and an f16 scale and bias costs the same 8.5 / 4.5 bits.
_KV_SIXTEENTHS = {"f32": 64, "f16": 32, "bf16": 32, "q8_0": 17, "q5_1": 12, "q5_0": 11,
                  "q4_1": 10, "q4_0": 9}
KV_TYPES = tuple(_KV_SIXTEENTHS)

DEFAULT_MIN_CONTEXT = 2048
DEFAULT_MAX_CONTEXT = 32768
CONTEXT_STEP = 256  # chosen contexts are multiples of this (llama.cpp and MLX both allocate in steps)
HEADROOM_FRACTION = 0.15  # of free memory, left for the OS, the app and compute buffers
MIN_HEADROOM = 512 * MIB


def kv_bytes_per_token(n_layers_physical: int, num_loops: int, n_kv_heads: int, head_dim: int,
                       kv_type: str = "f16") -> int:
    """Bytes of KV cache one token takes: K and V for every (loop, layer) slot.

    A looped model keeps a separate cache slot per pass, so loops multiply the cost
    (Nanbeige4.2-3B: 22 layers x 2 loops = 44 slots -> 176 KiB per token at f16)."""
    if kv_type not in _KV_SIXTEENTHS:
        raise ValueError(f"Unknown KV cache type {kv_type!r}: choose one of {', '.join(KV_TYPES)}")
    if min(n_layers_physical, num_loops, n_kv_heads, head_dim) < 1:
        raise ValueError("Layer, loop, head and head-size counts must all be at least 1")
    elements = 2 * n_kv_heads * head_dim * n_layers_physical * num_loops
    return elements * _KV_SIXTEENTHS[kv_type] // 16


@dataclass(frozen=True)
class ModelShape:
    """The figures memory planning needs, read from a model file without loading an engine."""

    architecture: str
    n_layers: int  # physical layers
    num_loops: int
    n_kv_heads: int
    head_dim: int
    weights_bytes: int
    max_context: int = 0  # 0: the file does not say

    def kv_bytes_per_token(self, kv_type: str = "f16") -> int:
        return kv_bytes_per_token(self.n_layers, self.num_loops, self.n_kv_heads,
                                  self.head_dim, kv_type)


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
    # takes well under a second instead of the gguf package's ~15 s. Imported here: it imports us.
    from backends.llama_gguf import inspect_gguf
    from backends.llama_gguf import model_shape as gguf_model_shape

    return gguf_model_shape(inspect_gguf(path), path.stat().st_size)


@dataclass(frozen=True)
class ContextPlan:
    """The context length chosen for this machine and whether the model fits at all."""

    context_length: int
    kv_bytes: int
    fits: bool
    verdict: str  # "fits" | "tight" | "won't fit"
    message: str


def plan_context(model_bytes: int, free_bytes: int | None, kv_bytes_per_token: int,
                 requested: int = 0, minimum: int = DEFAULT_MIN_CONTEXT,
                 maximum: int = DEFAULT_MAX_CONTEXT) -> ContextPlan:
    """Choose a context length from free memory, leaving headroom for everything else.

    requested > 0 is honoured as is (and judged); 0 means the largest context in
    [minimum, maximum] that fits. free_bytes None means unknown: trust the request."""
    if kv_bytes_per_token <= 0 or model_bytes < 0:
        raise ValueError("model size and KV cost per token must be positive")
    if free_bytes is None:
        context = requested or min(max(minimum, 8192), maximum)
        return ContextPlan(context, context * kv_bytes_per_token, True, "fits",
                           f"Free memory is unknown here; using a {context:,}-token context.")
    headroom = max(MIN_HEADROOM, int(free_bytes * HEADROOM_FRACTION))
    if requested <= 0:
        spare = free_bytes - headroom - model_bytes
        best = min(maximum, spare // kv_bytes_per_token) // CONTEXT_STEP * CONTEXT_STEP
        requested = max(best, min(minimum, maximum))
    return _judge(model_bytes, free_bytes, kv_bytes_per_token, requested, headroom)


def _judge(model_bytes: int, free_bytes: int, per_token: int, context: int,
           headroom: int) -> ContextPlan:
    kv = context * per_token
    need = model_bytes + kv
    sizes = f"{_gib(model_bytes)} of weights + {_gib(kv)} of KV cache for {context:,} tokens"
    if need + headroom <= free_bytes:
        return ContextPlan(context, kv, True, "fits", f"Fits: {sizes}; {_gib(free_bytes)} free.")
    if need <= free_bytes:
        return ContextPlan(context, kv, True, "tight",
                           f"Tight: {sizes} leaves under {_gib(headroom)} of the "
                           f"{_gib(free_bytes)} free; other apps may slow down.")
    return ContextPlan(context, kv, False, "won't fit",
                       f"Won't fit: needs {_gib(need)} ({sizes}) but only {_gib(free_bytes)} "
                       f"is free. Close other apps, pick a smaller build, or use q8_0 KV.")


def _gib(n: int) -> str:
    return f"{n / GIB:.1f} GiB" if n >= GIB else f"{n / MIB:.0f} MiB"


def plan_for_model(model_path: str | Path, kv_type: str = "f16", requested: int = 0,
                   free_bytes: int | None = -1) -> tuple[ModelShape, ContextPlan]:
    """Shape and context plan for a model file (what every backend calls before loading).

    free_bytes: -1 measures free memory now; None means unknown (the request is trusted).
    Contexts are capped at the model's own maximum and at DEFAULT_MAX_CONTEXT."""
    shape = model_shape(model_path)
    free = free_memory_bytes() if free_bytes == -1 else free_bytes
    limit = shape.max_context or DEFAULT_MAX_CONTEXT
    plan = plan_context(shape.weights_bytes, free, shape.kv_bytes_per_token(kv_type),
                        requested=requested, minimum=min(DEFAULT_MIN_CONTEXT, limit),
                        maximum=min(DEFAULT_MAX_CONTEXT, limit))
    return shape, plan


def require_fit(plan: ContextPlan) -> None:
    """Raise InsufficientMemory (before any loading) when the plan does not fit."""
    if not plan.fits:
        raise InsufficientMemory(plan.message)


def free_memory_bytes() -> int | None:
    """Memory a new process can use without swapping, or None when the OS will not say."""
    try:
        if sys.platform.startswith("linux"):
            return _linux_free()
        if sys.platform == "darwin":
            return _macos_free()
        if sys.platform == "win32":
            return _windows_free()
    except (OSError, ValueError, subprocess.SubprocessError):
        pass  # fall through to the portable estimate
    return _sysconf_free()


def _linux_free(meminfo: Path = Path("/proc/meminfo"),
                cgroup: Path = Path("/sys/fs/cgroup")) -> int | None:
    fields = {}
    for line in meminfo.read_text().splitlines():
        name, _, rest = line.partition(":")
        parts = rest.split()
        if parts and parts[0].isdigit():
            fields[name] = int(parts[0]) * KIB
    available = fields.get("MemAvailable")
    if available is None:  # kernels before 3.14
        available = sum(fields.get(k, 0) for k in ("MemFree", "Buffers", "Cached")) or None
    limit = _cgroup_room(cgroup)
    if available is None:
        return limit
    return available if limit is None else min(available, limit)


def _cgroup_room(root: Path) -> int | None:
    # In a container the cgroup limit, not the host's RAM, decides when the OOM killer comes.
    try:
        limit = (root / "memory.max").read_text().strip()
        used = int((root / "memory.current").read_text().strip())
    except (OSError, ValueError):
        return None
    return None if limit == "max" or not limit.isdigit() else max(int(limit) - used, 0)


def _macos_free() -> int | None:
    out = subprocess.run(["vm_stat"], capture_output=True, text=True, timeout=5, check=True)
    lines = out.stdout.splitlines()
    page = int(lines[0].split("page size of")[1].split()[0]) if "page size of" in lines[0] else 4096
    pages = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if value.strip().rstrip(".").isdigit():
            pages[name.strip()] = int(value.strip().rstrip("."))
    # Inactive and purgeable pages are given back on demand, as Activity Monitor counts them.
    keys = ("Pages free", "Pages inactive", "Pages speculative", "Pages purgeable")
    return sum(pages.get(k, 0) for k in keys) * page or None


class _MemoryStatusEx(ctypes.Structure):
    _fields_ = [("dwLength", ctypes.c_ulong), ("dwMemoryLoad", ctypes.c_ulong),
                ("ullTotalPhys", ctypes.c_ulonglong), ("ullAvailPhys", ctypes.c_ulonglong),
                ("ullTotalPageFile", ctypes.c_ulonglong), ("ullAvailPageFile", ctypes.c_ulonglong),
                ("ullTotalVirtual", ctypes.c_ulonglong), ("ullAvailVirtual", ctypes.c_ulonglong),
                ("ullAvailExtendedVirtual", ctypes.c_ulonglong)]


def _windows_free() -> int | None:
    status = _MemoryStatusEx()
    status.dwLength = ctypes.sizeof(_MemoryStatusEx)
    if not ctypes.windll.kernel32.GlobalMemoryStatusEx(ctypes.byref(status)):  # type: ignore[attr-defined]
        return None
    return int(status.ullAvailPhys)


def _sysconf_free() -> int | None:
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (AttributeError, OSError, ValueError):
        return None
