"""What a looped KV cache costs per token, and the model shape those figures come from."""

from __future__ import annotations

from dataclasses import dataclass

KIB = 1024
MIB = 1024 * KIB
GIB = 1024 * MIB

# Storage cost of one cached K or V element, in sixteenths of a byte (so q8_0's 8.5 bits are exact).
# q8_0 / q4_0 are llama.cpp's block formats (32 values + one f16 scale); MLX's 8- and 4-bit KV
# with group size 64 and an f16 scale and bias costs the same 8.5 / 4.5 bits.
_KV_SIXTEENTHS = {"f32": 64, "f16": 32, "bf16": 32, "q8_0": 17, "q5_1": 12, "q5_0": 11,
                  "q4_1": 10, "q4_0": 9}
KV_TYPES = tuple(_KV_SIXTEENTHS)


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
