"""The shared prompt prefix on MLX: its prompt cache saved checksummed, restored or computed."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from backends import mlx_state
from backends.base import OnProgress, ShouldStop
from backends.mlx_cache import CacheEntry
from backends.prefix_cache import (
    DEFAULT_LIMIT_BYTES,
    PrefixCodec,
    PrefixFileError,
    PrefixKey,
    PrefixOutcome,
    PrefixStore,
    common_prefix,
)

# Makes a fresh per-slot cache list; prefills tokens into a cache (quantizing as the turn does).
NewCache = Callable[[], list[Any]]
Prefill = Callable[[list[Any], list[int]], None]


def _dump(entry: CacheEntry, meta: dict[str, str], tokens: Sequence[int], path: Path) -> None:
    mlx_state.save(path, entry.cache, {**meta, "tokens": json.dumps(list(tokens))}, sealed=True)


def _load(path: Path) -> tuple[CacheEntry, dict[str, str], list[int]]:
    cache, meta = mlx_state.load(path, sealed=True)  # checked before it goes near the model
    tokens = [int(t) for t in json.loads(meta.get("tokens", "[]"))]
    offsets = {int(getattr(c, "offset", -1)) for c in cache}
    if not cache or offsets != {len(tokens)}:
        raise PrefixFileError("its cache does not hold the tokens it lists")
    return CacheEntry(tokens, cache), meta, tokens


MLX_PREFIX_CODEC: PrefixCodec[CacheEntry] = PrefixCodec(
    suffix=".mlxpx.safetensors", dump=_dump, load=_load)


class MlxPrefix:
    """The prefix states of one loaded MLX model (folder + KV type = `fingerprint`)."""

    def __init__(self, cache_dir: Path | None, fingerprint: str,
                 limit_bytes: int = DEFAULT_LIMIT_BYTES, step: int = 512) -> None:
        root = None if cache_dir is None else Path(cache_dir) / "prefix-mlx"
        self.store: PrefixStore[CacheEntry] = PrefixStore(MLX_PREFIX_CODEC, root, limit_bytes)
        self.fingerprint = fingerprint
        self.step = step

    def ensure(self, entry: CacheEntry, key: PrefixKey, new_cache: NewCache, prefill: Prefill,
               trim: Callable[[list[Any], int], None], should_stop: ShouldStop,
               on_progress: OnProgress | None = None) -> tuple[CacheEntry, PrefixOutcome]:
        """An entry that begins with the prefix: `entry` when it does, else the saved state,
        else `entry` with the rest of the prefix computed (in steps, stopping when asked)."""
        tokens = list(key.tokens)
        held = min(common_prefix(entry.tokens, tokens), _offset(entry.cache))
        if held >= len(tokens):
            return entry, PrefixOutcome(ready=True)
        saved = self.store.load(key)
        if saved is not None:
            if on_progress is not None:
                on_progress(len(tokens), len(tokens))
            return saved, PrefixOutcome(ready=True, restored=True)
        if not entry.cache:
            entry = CacheEntry([], new_cache())
        trim(entry.cache, _offset(entry.cache) - held)
        entry.tokens = tokens[:held]
        outcome = PrefixOutcome()
        for start in range(held, len(tokens), self.step):
            if should_stop():
                return entry, outcome  # what is computed stays for the next turn
            chunk = tokens[start:start + self.step]
            prefill(entry.cache, chunk)
            entry.tokens = tokens[:start + len(chunk)]
            outcome.computed += len(chunk)
            if on_progress is not None:
                on_progress(start + len(chunk), len(tokens))
        outcome.ready = True
        self.store.save(key, entry)
        return entry, outcome


def _offset(cache: list[Any]) -> int:
    return int(getattr(cache[0], "offset", 0)) if cache else 0
