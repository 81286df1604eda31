"""Memory planning: which context length fits the free memory, or why the model will not fit.

The parts it plans from: backends/kv_size.py (KV bytes per token), backends/model_shape.py (a
model's layers and loops), backends/free_memory.py (what is free)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from backends import free_memory
from backends.errors import InsufficientMemory
from backends.kv_size import GIB, MIB, ModelShape
from backends.model_shape import model_shape

DEFAULT_MIN_CONTEXT = 2048
DEFAULT_MAX_CONTEXT = 32768
CONTEXT_STEP = 256  # chosen contexts are multiples of this (llama.cpp and MLX both allocate in steps)
HEADROOM_FRACTION = 0.15  # of free memory, left for the OS, the app and compute buffers
MIN_HEADROOM = 512 * MIB


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
    return shape, plan_for_shape(shape, kv_type, requested, free_bytes)


def plan_for_shape(shape: ModelShape, kv_type: str = "f16", requested: int = 0,
                   free_bytes: int | None = -1) -> ContextPlan:
    """plan_for_model for a shape already read."""
    free = free_memory.free_memory_bytes() if free_bytes == -1 else free_bytes
    limit = shape.max_context or DEFAULT_MAX_CONTEXT
    return plan_context(shape.weights_bytes, free, shape.kv_bytes_per_token(kv_type),
                        requested=requested, minimum=min(DEFAULT_MIN_CONTEXT, limit),
                        maximum=min(DEFAULT_MAX_CONTEXT, limit))


def require_fit(plan: ContextPlan) -> None:
    """Raise InsufficientMemory (before any loading) when the plan does not fit."""
    if not plan.fits:
        raise InsufficientMemory(plan.message)
