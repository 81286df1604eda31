"""MLX prompt caches on disk: mlx_lm's safetensors, checksummed per chunk, read at disk speed.

mlx_lm reads a prompt cache lazily, tensor by tensor, once the arrays are used; on a cold page
cache that alone cost 1.2-1.7x a plain read of the file, and checking the arrays it read added
a pass. Here the file is first mapped with the kernel reading all of it in large requests
(backends/state_read.py, as for llama.cpp), its chunks are checked against the CRC-32s it was
sealed with over the page cache's own pages, and only then does MLX read it, out of the page
cache, into its arrays (mlx_lm restores the cache classes, quantized KV included)."""

from __future__ import annotations

import json
import os
import struct
from pathlib import Path
from typing import Any

from backends.state_read import CHUNK, StateReadError, chunk_crcs, map_file, verify

# mlx_lm stores the caller's metadata under "0.<name>" (beside the classes and scalars).
CRCS_KEY = "0.crc32s"  # a JSON list: one CRC-32 per state_read.CHUNK bytes of tensor data
OLD_CRC_KEY = "0.crc32"  # one CRC-32 of all the tensor data (prefixes saved before chunks)


def save(path: Path, cache: list[Any], metadata: dict[str, str], sealed: bool) -> None:
    """Write `cache` to `path` as mlx_lm's prompt-cache safetensors (with chunk checksums when
    `sealed`); raises OSError when the disk refuses it."""
    from mlx_lm.models.cache import save_prompt_cache

    # MLX picks the format from the name and appends ".safetensors" to names without it.
    staged = path.with_name(path.name + ".safetensors")
    try:
        try:
            save_prompt_cache(str(staged), cache, metadata)
        except (RuntimeError, ValueError) as exc:  # MLX reports write failures as RuntimeError
            raise OSError(f"could not write {staged.name}: {exc}") from exc
        if sealed:
            _seal(staged)
        os.replace(staged, path)
    finally:
        staged.unlink(missing_ok=True)


def _seal(path: Path) -> None:
    """Add the chunk checksums of the tensor data to the header (so damage is detected).

    Tensor offsets count from the end of the header, so a rewritten header keeps them valid."""
    blob = memoryview(path.read_bytes())
    header, start = parse_header(blob)
    header.setdefault("__metadata__", {})[CRCS_KEY] = json.dumps(chunk_crcs(blob[start:]))
    text = json.dumps(header, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 8)  # the format allows space padding; keeps data aligned
    with path.open("wb") as handle:
        handle.write(struct.pack("<Q", len(text)) + text)
        handle.write(blob[start:])
        handle.flush()
        os.fsync(handle.fileno())


def parse_header(view: memoryview) -> tuple[dict[str, Any], int]:
    """The safetensors header and where the tensor data starts, the size checked against it
    (a truncated file never reaches MLX's reader)."""
    if len(view) < 8:
        raise StateReadError("the file is truncated")
    (length,) = struct.unpack_from("<Q", view)
    start = 8 + length
    if start > len(view):
        raise StateReadError("the file is truncated")
    try:
        header = json.loads(bytes(view[8:start]))
        ends = [int(v["data_offsets"][1]) for k, v in header.items() if k != "__metadata__"]
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        raise StateReadError("it is not a safetensors file") from exc
    if start + max(ends, default=0) != len(view):
        raise StateReadError("the file is truncated")
    return header, start


def load(path: Path, sealed: bool) -> tuple[list[Any], dict[str, str]]:
    """The prompt cache saved at `path` and its metadata, every array read and checked.

    `sealed`: the file must carry chunk checksums (a prefix; one saved with a single checksum
    by an older Hearth is refused, so it is recomputed once). Otherwise a file without them is
    read unchecked, as conversation caches are saved."""
    import mlx.core as mx
    from mlx_lm.models.cache import load_prompt_cache

    before = os.stat(path)
    _check(map_file(path), sealed)  # the mapping goes when the view does: before MLX reads
    cache, metadata = load_prompt_cache(str(path), return_metadata=True)  # type: ignore[no-untyped-call]
    mx.eval([c.state for c in cache])  # MLX reads now, out of the page cache just filled
    after = os.stat(path)
    # Files are renamed into place, never rewritten: the same inode is the same bytes checked.
    if (after.st_dev, after.st_ino) != (before.st_dev, before.st_ino):
        raise StateReadError("the file was replaced while it was read")
    return list(cache), dict(metadata)


def _check(view: memoryview, sealed: bool) -> None:
    header, start = parse_header(view)
    meta = header.get("__metadata__") or {}
    if CRCS_KEY in meta:
        verify(view[start:], [int(crc) for crc in json.loads(meta[CRCS_KEY])], CHUNK)
    elif sealed:
        raise StateReadError("it was saved by an older Hearth (one checksum for the whole file)"
                             if OLD_CRC_KEY in meta else "it carries no checksums")
