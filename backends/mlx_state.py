"""MLX prompt caches on disk: mlx_lm's safetensors, checksummed per chunk, read at disk speed.

mlx_lm reads a prompt cache lazily, tensor by tensor, once the arrays are used; on a cold page
cache that alone cost 1.2-1.7x a plain read of the file, and checking the arrays it read added
a pass. Here the file is first mapped with the kernel reading all of it in large requests
(backends/state_read.py, as for llama.cpp), its chunks are checked against the CRC-32s it was
sealed with over the page cache's own pages, and only then does MLX read it, out of the page
cache, into its arrays (mlx_lm restores the cache classes, quantized KV included). The chunk
checksum is a lane sum (below), not zlib's CRC-32: the check is the one pass a restore makes
beyond a plain read, and CRC-32 made it 2-3x as costly."""

from __future__ import annotations

import json
import os
import struct
import zlib
from pathlib import Path
from typing import Any

from backends.state_read import CHUNK, StateReadError, chunk_crcs, map_file, verify

# mlx_lm stores the caller's metadata under "0.<name>" (beside the classes and scalars).
SUMS_KEY = "0.lanesums"  # a JSON list: one lane_sum() per state_read.CHUNK bytes of tensor data
CRCS_KEY = "0.crc32s"  # the same with CRC-32s (files saved before lane sums: still checked)
OLD_CRC_KEY = "0.crc32"  # one CRC-32 of all the tensor data (prefixes saved before chunks)
LANES = 512  # 64-bit words per row: 4 KiB rows, which numpy adds at memory speed


def lane_sum(view: memoryview) -> int:
    """A chunk's checksum at a third of zlib's CRC-32 cost: its 64-bit words summed in LANES
    lanes (word i into lane i % LANES, modulo 2**64), then one CRC-32 of the lane sums and of
    the bytes after the last whole row.

    Damage to a single word (a flipped bit or byte) always changes its lane's sum; like any
    other damage, it then goes unseen only if the CRC-32 of the sums collides (1 in 2**32, the
    odds of a CRC-32 of the chunk itself against damage of more than 32 bits)."""
    import numpy as np

    whole = len(view) // (8 * LANES) * (8 * LANES)
    rows = np.frombuffer(view[:whole], dtype="<u8").reshape(-1, LANES)
    sums = np.add.reduce(rows, axis=0, dtype=np.uint64).astype("<u8")
    return zlib.crc32(view[whole:], zlib.crc32(sums.tobytes()))


def save(path: Path, cache: list[Any], metadata: dict[str, str], sealed: bool) -> None:
    """Write `cache` to `path` as mlx_lm's prompt-cache safetensors (with chunk lane sums when
    `sealed`); raises OSError when the disk refuses it."""
    from mlx_lm.models.cache import save_prompt_cache

    # MLX picks the format from the name and appends ".safetensors" to names without it.
    staged = path.with_name(path.name + ".safetensors")
    width = _crcs_width(cache) if sealed else 0
    if sealed:  # room for the checksums in the header, filled in once the data is written
        metadata = {**metadata, SUMS_KEY.removeprefix("0."): " " * width}
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
    """Characters enough for the checksum list (32-bit numbers) of what save_prompt_cache
    writes of `cache`."""
    import mlx.core as mx
    from mlx.utils import tree_flatten

    size = 0
    for value in dict(tree_flatten([c.state for c in cache])).values():
        # mlx_lm writes a number as a one-value array, a string as one int32 per character.
        size += value.nbytes if isinstance(value, mx.array) else 8 + 4 * len(str(value))
    chunks = -(-size // CHUNK)
    return 2 + 11 * chunks  # "[" + up to 10 digits and a comma each + "]"


def _seal(path: Path, width: int) -> None:
    """Write the chunk lane sums of the tensor data into the room left for them in the header.

    The data was just written, so the checksums are computed over the page cache; only the
    header's few bytes are written again (no fsync: a file torn by a crash fails its check)."""
    view = map_file(path)
    _, start = parse_header(view)
    crcs = json.dumps(chunk_crcs(view[start:], CHUNK, lane_sum), separators=(",", ":")).encode()
    room = b'"' + SUMS_KEY.encode() + b'":"' + b" " * width + b'"'
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
    read unchecked (conversation caches were saved so before). Files sealed with chunk CRC-32s
    (before lane sums) are still read, checked by their CRC-32s."""
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
    if SUMS_KEY in meta:
        verify(view[start:], _numbers(meta[SUMS_KEY]), CHUNK, lane_sum)
    elif CRCS_KEY in meta:  # sealed by the Hearth before lane sums
        verify(view[start:], _numbers(meta[CRCS_KEY]), CHUNK)
    elif sealed:
        raise StateReadError("it was saved by an older Hearth (one checksum for the whole file)"
                             if OLD_CRC_KEY in meta else "it carries no checksums")


def _numbers(listed: str) -> list[int]:
    try:
        return [int(number) for number in json.loads(listed)]
    except (ValueError, TypeError) as exc:
        raise StateReadError("its checksum list is damaged") from exc
