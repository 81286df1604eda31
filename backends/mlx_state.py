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
    width = _crcs_width(cache) if sealed else 0
    if sealed:  # room for the checksums in the header, filled in once the data is written
        metadata = {**metadata, CRCS_KEY.removeprefix("0."): " " * width}
    try:
        try:
            save_prompt_cache(str(staged), cache, metadata)
            if sealed:
                _seal(staged, width)
        except (RuntimeError, ValueError) as exc:  # MLX reports write failures as RuntimeError
            raise OSError(f"could not write {staged.name}: {exc}") from exc
        os.replace(staged, path)
    finally:
        staged.unlink(missing_ok=True)


def _crcs_width(cache: list[Any]) -> int:
    """Characters enough for the checksum list of what save_prompt_cache writes of `cache`."""
    import mlx.core as mx
    from mlx.utils import tree_flatten

    size = 0
    for value in dict(tree_flatten([c.state for c in cache])).values():
        # mlx_lm writes a number as a one-value array, a string as one int32 per character.
        size += value.nbytes if isinstance(value, mx.array) else 8 + 4 * len(str(value))
    chunks = -(-size // CHUNK)
    return 2 + 11 * chunks  # "[" + up to 10 digits and a comma each + "]"


def _seal(path: Path, width: int) -> None:
    """Write the chunk checksums of the tensor data into the room left for them in the header.

    The data was just written, so the checksums are computed over the page cache; only the
    header's few bytes are written again (no fsync: a file torn by a crash fails its check)."""
    view = map_file(path)
    _, start = parse_header(view)
    crcs = json.dumps(chunk_crcs(view[start:]), separators=(",", ":")).encode()
    room = b'"' + CRCS_KEY.encode() + b'":"' + b" " * width + b'"'
    at = bytes(view[8:start]).find(room)
    del view  # the mapping goes before the file is written to
    if at < 0 or len(crcs) > width:
        raise OSError(f"could not seal {path.name}: no room for its checksums")
    with path.open("r+b") as handle:
        handle.seek(8 + at + len(room) - width - 1)
        handle.write(crcs.ljust(width))


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
    read unchecked (conversation caches were saved so before)."""
    import mlx.core as mx
    from mlx_lm.models.cache import load_prompt_cache

    before = os.stat(path)
    # The checksums run as the pages arrive (measured 5-10% quicker than all pages first);
    # the mapping goes when the view does, before MLX reads the file out of the page cache.
    _check(map_file(path, wait=False), sealed)
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
