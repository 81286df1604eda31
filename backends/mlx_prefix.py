"""The shared prompt prefix on MLX: its prompt cache saved as safetensors, restored or computed."""

from __future__ import annotations

import json
import os
import struct
import zlib
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from backends.base import OnProgress, ShouldStop
from backends.mlx_cache import CacheEntry, common_prefix
from backends.prefix_cache import (
    DEFAULT_LIMIT_BYTES,
    PrefixCodec,
    PrefixFileError,
    PrefixKey,
    PrefixOutcome,
    PrefixStore,
)

CRC_KEY = "0.crc32"
# Makes a fresh per-slot cache list; prefills tokens into a cache (quantizing as the turn does).
NewCache = Callable[[], list[Any]]
Prefill = Callable[[list[Any], list[int]], None]


def _dump(entry: CacheEntry, meta: dict[str, str], tokens: Sequence[int], path: Path) -> None:
    from mlx_lm.models.cache import save_prompt_cache

    # MLX picks the format from the name and appends ".safetensors" to names without it.
    staged = path.with_name(path.name + ".safetensors")
    try:
        save_prompt_cache(str(staged), entry.cache, {**meta, "tokens": json.dumps(list(tokens))})
    except (RuntimeError, ValueError) as exc:  # MLX reports write failures as RuntimeError
        staged.unlink(missing_ok=True)
        raise OSError(f"could not write {staged.name}: {exc}") from exc
    try:
        _seal(staged)
        os.replace(staged, path)
    finally:
        staged.unlink(missing_ok=True)


def _seal(path: Path) -> None:
    """Add a CRC-32 of the tensor bytes to the safetensors metadata (so damage is detected).

    Tensor offsets count from the end of the header, so a rewritten header keeps them valid."""
    blob = path.read_bytes()
    header, data = _split(blob)
    # mlx_lm flattens [user metadata, classes, scalars]: "0.<name>" is ours.
    header.setdefault("__metadata__", {})[CRC_KEY] = str(zlib.crc32(data))
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)  # the format allows space padding; keeps data aligned
    with path.open("wb") as handle:
        handle.write(struct.pack("<Q", len(text)) + text)
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


def _split(blob: bytes) -> tuple[dict[str, Any], bytes]:
    if len(blob) < 8:
        raise PrefixFileError("the file is truncated")
    (length,) = struct.unpack_from("<Q", blob)
    if 8 + length > len(blob):
        raise PrefixFileError("the file is truncated")
    header = json.loads(blob[8:8 + length])
    if not isinstance(header, dict):
        raise PrefixFileError("it is not a safetensors file")
    return header, blob[8 + length:]


def _header(path: Path) -> tuple[dict[str, Any], int]:
    """The safetensors header and where the tensor bytes start, the file size checked
    against it: only the header is read (a truncated file never reaches MLX's reader)."""
    with path.open("rb") as handle:
        head = handle.read(8)
        if len(head) < 8:
            raise PrefixFileError("the file is truncated")
        (length,) = struct.unpack("<Q", head)
        text = handle.read(length)
        size = os.fstat(handle.fileno()).st_size
    if len(text) < length:
        raise PrefixFileError("the file is truncated")
    header, _ = _split(head + text)
    ends = [int(v["data_offsets"][1]) for k, v in header.items() if k != "__metadata__"]
    if 8 + length + max(ends, default=0) != size:
        raise PrefixFileError("the file is truncated")
    return header, 8 + length


def _check(cache: list[Any], header: dict[str, Any], start: int, path: Path) -> None:
    """Raise PrefixFileError unless the tensors MLX read have the CRC-32 the file was sealed
    with. The check runs over the arrays MLX holds, in the file's order, so the file is read
    from disk once (MLX's own read; it used to be read and checked first, then read again),
    and the cache is handed on only when it matches."""
    import mlx.core as mx
    from mlx.utils import tree_flatten

    loaded = dict(tree_flatten([c.state for c in cache]))
    mx.eval([v for v in loaded.values() if isinstance(v, mx.array)])
    tensors = sorted((int(v["data_offsets"][0]), int(v["data_offsets"][1]), k)
                     for k, v in header.items() if k != "__metadata__")
    crc = 0
    with path.open("rb") as handle:
        for begin, end, name in tensors:
            value = loaded.get(name)
            if isinstance(value, mx.array):
                crc = zlib.crc32(memoryview(value), crc)  # type: ignore[arg-type]  # a buffer
            else:  # a scalar MLX gave back as a number (the cache's offset): its few bytes
                handle.seek(start + begin)
                crc = zlib.crc32(handle.read(end - begin), crc)
    if header.get("__metadata__", {}).get(CRC_KEY) != str(crc):
        raise PrefixFileError("the file is damaged (checksum mismatch)")


def _load(path: Path) -> tuple[CacheEntry, dict[str, str], list[int]]:
    from mlx_lm.models.cache import load_prompt_cache

    header, start = _header(path)
    cache, meta = load_prompt_cache(str(path), return_metadata=True)  # type: ignore[no-untyped-call]
    _check(cache, header, start, path)  # before the cache goes anywhere near the model
    tokens = [int(t) for t in json.loads(meta.get("tokens", "[]"))]
    offsets = {int(getattr(c, "offset", -1)) for c in cache}
    if not cache or offsets != {len(tokens)}:
        raise PrefixFileError("its cache does not hold the tokens it lists")
    return CacheEntry(tokens, list(cache)), dict(meta), tokens


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
