"""MLX prompt caches per conversation: the tokens they hold and how they are saved to disk."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from backends import mlx_state
from backends.kv_cache import ANONYMOUS_KEY, ConversationCaches, StateCodec

DEFAULT_KEY = ANONYMOUS_KEY


@dataclass
class CacheEntry:
    """The KV of one conversation and the exact tokens it holds, one per cached position."""

    tokens: list[int]
    cache: list[Any]  # mlx_lm per-slot caches (44 for Nanbeige: one per loop and layer)

    @property
    def nbytes(self) -> int:
        return sum(int(getattr(c, "nbytes", 0)) for c in self.cache)




def _dump(entry: CacheEntry, path: Path) -> None:
    mlx_state.save(path, entry.cache, {"tokens": json.dumps(entry.tokens)}, sealed=True)


def _load(path: Path) -> CacheEntry:
    cache, meta = mlx_state.load(path, sealed=False)  # files saved before checksums: unchecked
    tokens = json.loads(meta["tokens"])
    if not isinstance(tokens, list) or not cache:
        raise ValueError("not a Hearth MLX prompt cache")
    return CacheEntry([int(t) for t in tokens], cache)


MLX_CODEC: StateCodec[CacheEntry] = StateCodec(
    suffix=".safetensors", size=lambda entry: entry.nbytes, dump=_dump, load=_load)


def conversation_caches(cache_dir: Path | None, fingerprint: str,
                        kv_budget: int) -> ConversationCaches[CacheEntry]:
    """The store for one model + KV type: a folder per fingerprint, so nothing stale is reused.

    Caches kept in memory share the KV budget memory planning reserved for one full context
    (plus slack for MLX's 256-token allocation steps), so idle chats never push the machine
    past the plan; the rest wait on disk."""
    folder = None if cache_dir is None else cache_dir / "mlx" / fingerprint
    return ConversationCaches(MLX_CODEC, folder, memory_bytes=int(kv_budget * 1.1) + 64 * 2**20)
