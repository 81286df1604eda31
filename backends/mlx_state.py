"""MLX prompt caches on disk: mlx_lm's safetensors, checksummed per chunk, read at disk speed.

MLX reads the file itself (mx.load: a few threads of preads, straight into its arrays, one copy
as in a plain read), but in the file's order, a chunk's worth at a time: left to itself it reads
in its table's order, all over the file, which cost up to twice a plain read on a cold page
cache. A second thread sums each chunk's arrays while MLX reads the next, and the sums are
compared with those the file was sealed with before the cache is handed back, so what is
checked is what MLX holds. The chunk checksum is a lane sum (backends/lane_sums.py), not zlib's
CRC-32: it costs a third. The header (mlx_lm's metadata: each cache's class, offset and
sizes, and ours) is sealed too, with a CRC-32. The cache classes come back as mlx_lm's
load_prompt_cache restores them (quantized KV included)."""

from __future__ import annotations

import json
import os
import queue
import struct
import threading
import zlib
from pathlib import Path
from typing import Any, Protocol

from backends.lane_sums import LaneSums, lane_sum
from backends.state_read import CHUNK, StateReadError, chunk_crcs, compare, map_file

# mlx_lm stores the caller's metadata under "0.<name>" (beside the classes and scalars).
# A JSON list: the CRC-32 of the header bytes (with this list's room blank, as it was when the
# header was written), then one lane_sum() per state_read.CHUNK bytes of tensor data.
SEAL_KEY = "0.sealed"
SUMS_KEY = "0.lanesums"  # the lane sums alone (files saved before the header was sealed)
CRCS_KEY = "0.crc32s"  # the same with CRC-32s (files saved before lane sums: still checked)
OLD_CRC_KEY = "0.crc32"  # one CRC-32 of all the tensor data (prefixes saved before chunks)


def save(path: Path, cache: list[Any], metadata: dict[str, str], sealed: bool) -> None:
    """Write `cache` to `path` as mlx_lm's prompt-cache safetensors (with chunk lane sums when
    `sealed`); raises OSError when the disk refuses it."""
    from mlx_lm.models.cache import save_prompt_cache

    # MLX picks the format from the name and appends ".safetensors" to names without it.
    staged = path.with_name(path.name + ".safetensors")
    width = _crcs_width(cache) if sealed else 0
    if sealed:  # room for the checksums in the header, filled in once the data is written
        metadata = {**metadata, SEAL_KEY.removeprefix("0."): " " * width}
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
    numbers = 1 + -(-size // CHUNK)  # the header's CRC-32 and one sum per chunk
    return 2 + 11 * numbers  # "[" + up to 10 digits and a comma each + "]"


def _seal(path: Path, width: int) -> None:
    """Write the chunk lane sums of the tensor data into the room left for them in the header.

    The data was just written, so the checksums are computed over the page cache; only the
    header's few bytes are written again (no fsync: a file torn by a crash fails its check)."""
    view = map_file(path)
    _, start = parse_header(view)
    head = bytes(view[:start])  # the room still blank: what load() checks, the room blanked
    numbers = [zlib.crc32(head), *chunk_crcs(view[start:], CHUNK, lane_sum)]
    crcs = json.dumps(numbers, separators=(",", ":")).encode()
    del view  # the mapping goes before the file is written to
    at = _room(head)
    if at is None or at[1] - at[0] != width or len(crcs) > width:
        raise OSError(f"could not seal {path.name}: no room for its checksums")
    with path.open("r+b") as handle:
        handle.seek(at[0])
        handle.write(crcs.ljust(width))


def _room(head: bytes) -> tuple[int, int] | None:
    """Where the seal's list lies in the header bytes `head` (from the file's first byte)."""
    key = b'"' + SEAL_KEY.encode() + b'":"'
    at = head.find(key)
    if at < 0:
        return None
    begin = at + len(key)
    end = head.find(b'"', begin)
    return (begin, end) if end >= 0 else None


def _check_head(head: bytes, crc: int) -> None:
    """Raise StateReadError unless the header bytes `head`, the seal's room blanked as it was
    when the header was written, have the CRC-32 `crc`."""
    room = _room(head)
    if room is None:
        raise StateReadError("the file is damaged (its header lost its seal)")
    begin, end = room
    if zlib.crc32(head[:begin] + b" " * (end - begin) + head[end:]) != crc:
        raise StateReadError("the file is damaged (checksum mismatch in its header)")


def parse_header(view: memoryview) -> tuple[dict[str, Any], int]:
    """The safetensors header and where the tensor data starts, the size checked against it
    (a truncated file never reaches MLX's reader)."""
    if len(view) < 8:
        raise StateReadError("the file is truncated")
    (length,) = struct.unpack_from("<Q", view)
    return _header(bytes(view[8:8 + length]), length, len(view))


def _header(text: bytes, length: int, size: int) -> tuple[dict[str, Any], int]:
    """The header read from `text` (`length` bytes promised), checked against the file's
    `size`; and where the tensor data starts."""
    start = 8 + length
    if start > size or len(text) != length:
        raise StateReadError("the file is truncated")
    try:
        header = json.loads(text)
        spans = [(int(v["data_offsets"][0]), int(v["data_offsets"][1]))
                 for k, v in header.items() if k != "__metadata__"]
    except (ValueError, TypeError, KeyError, IndexError, AttributeError) as exc:
        raise StateReadError("it is not a safetensors file") from exc
    if start + max((end for _, end in spans), default=0) != size:
        raise StateReadError("the file is truncated")
    return header, start


def load(path: Path, sealed: bool) -> tuple[list[Any], dict[str, str]]:
    """The prompt cache saved at `path` and its metadata, every array read and checked.

    `sealed`: the file must carry chunk checksums (a prefix; one saved with a single checksum
    by an older Hearth is refused, so it is recomputed once). Otherwise a file without them is
    read unchecked (conversation caches were saved so before). Files sealed with chunk CRC-32s
    (before lane sums) are still read, checked by their CRC-32s."""
    header, head, size = _read_header(path)
    start = len(head)
    meta = header.get("__metadata__") or {}
    digests: Digests | None = None
    if SEAL_KEY in meta:
        crc, *expected = _numbers(meta[SEAL_KEY], least=1)
        _check_head(head, crc)
        digests = LaneSums(size - start, CHUNK)
    elif SUMS_KEY in meta:  # sealed by the Hearth before headers were (its data still checked)
        digests, expected = LaneSums(size - start, CHUNK), _numbers(meta[SUMS_KEY])
    elif CRCS_KEY in meta:  # sealed by the Hearth before lane sums
        digests, expected = _Crc32s(size - start, CHUNK), _numbers(meta[CRCS_KEY])
    elif sealed:
        raise StateReadError("it was saved by an older Hearth (one checksum for the whole file)"
                             if OLD_CRC_KEY in meta else "it carries no checksums")
    arrays, saved = _read_arrays(path, header, digests)
    if digests is not None:
        _compare(digests, expected)
    return _rebuild(arrays, saved)


class Digests(Protocol):
    """Chunk checksums of the tensor data, fed the arrays' bytes where they lie in the file."""

    def add(self, offset: int, data: memoryview) -> None: ...

    def digests(self) -> list[int]: ...


def _read_header(path: Path) -> tuple[dict[str, Any], bytes, int]:
    """The header parsed, the file's bytes up to its tensor data, and the file's size."""
    with path.open("rb") as handle:
        size = os.fstat(handle.fileno()).st_size
        prefix = handle.read(8)
        if len(prefix) < 8:
            raise StateReadError("the file is truncated")
        (length,) = struct.unpack("<Q", prefix)
        text = handle.read(min(length, size))
        header, _ = _header(text, length, size)
    return header, prefix + text, size


def _read_arrays(path: Path, header: dict[str, Any],
                 digests: Digests | None) -> tuple[dict[str, Any], dict[str, str]]:
    """Every array MLX reads from `path` and the metadata saved with them, each array's bytes
    fed to `digests` once it is in memory (what is checked is what is handed back)."""
    import mlx.core as mx

    layout = sorted((int(v["data_offsets"][0]), int(v["data_offsets"][1]), k)
                    for k, v in header.items() if k != "__metadata__")
    try:
        loaded: tuple[dict[str, Any], dict[str, str]] = mx.load(  # type: ignore[assignment]
            str(path), return_metadata=True)
    except (RuntimeError, ValueError) as exc:  # MLX's own errors (a dtype it does not know)
        raise StateReadError(f"MLX could not read it ({exc})") from exc
    arrays, saved = loaded
    if sorted(arrays) != sorted(name for *_, name in layout) or any(
            arrays[name].nbytes != end - begin for begin, end, name in layout):
        raise StateReadError("MLX read other arrays than the header lists")
    try:
        _evaluate(arrays, layout, digests)
    except RuntimeError as exc:  # the file cut short since its header was read
        raise StateReadError(f"MLX could not read it ({exc})") from exc
    return arrays, saved


def _evaluate(arrays: dict[str, Any], layout: list[tuple[int, int, str]],
              digests: Digests | None) -> None:
    """MLX reads the arrays in the file's order, a chunk's worth at a time, and a second thread
    sums each chunk's arrays while MLX reads the next.

    MLX's own reader (a few threads of preads) reads about as quickly as a plain read when it
    reads in the file's order; left to itself it reads in its table's order, all over the file.
    The sums run on a thread of their own (numpy and MLX's wait both let go of the GIL): summed
    between MLX's reads they added about 0.025 s to a 0.22 s restore."""
    import mlx.core as mx

    batches: list[list[tuple[int, str]]] = [[]]
    for begin, _, name in layout:
        if batches[-1] and begin >= batches[-1][0][0] + CHUNK:
            batches.append([])
        batches[-1].append((begin, name))
    if digests is None:
        for batch in batches:
            mx.eval([arrays[name] for _, name in batch])
        return
    summer = _Summer(digests)
    try:
        for batch in batches:
            mx.eval([arrays[name] for _, name in batch])
            # The views are taken here, on MLX's side, once the arrays hold their bytes.
            summer.queue.put([(begin, memoryview(arrays[name]).cast("B")) for begin, name in batch])
    finally:
        summer.finish()


class _Summer(threading.Thread):
    """Feeds the arrays' bytes queued to it to `digests`, beside the thread MLX reads on."""

    def __init__(self, digests: Digests) -> None:
        super().__init__(name="hearth-state-sums", daemon=True)
        self.digests = digests
        self.queue: queue.SimpleQueue[list[tuple[int, memoryview]] | None] = queue.SimpleQueue()
        self.failure: BaseException | None = None
        self.start()

    def run(self) -> None:
        try:
            while (pieces := self.queue.get()) is not None:
                for begin, view in pieces:
                    self.digests.add(begin, view)
        except BaseException as exc:  # noqa: BLE001 - raised again on the reading thread
            self.failure = exc

    def finish(self) -> None:
        """Wait for the sums queued so far; raise what the thread raised."""
        self.queue.put(None)
        self.join()
        if self.failure is not None:
            raise self.failure


def _rebuild(arrays: dict[str, Any], saved: dict[str, str]) -> tuple[list[Any], dict[str, str]]:
    """mlx_lm's cache objects from the arrays and metadata save_prompt_cache wrote: what its
    load_prompt_cache does after its own mx.load (which cannot be handed arrays read already)."""
    from mlx.utils import tree_unflatten
    from mlx_lm.models import cache as mlx_cache

    try:
        metadata, classes, scalars = tree_unflatten(list(saved.items()))
        values: dict[str, Any] = dict(arrays)
        for position, kind in scalars[1:]:
            values[position] = _scalar(values[position], kind)
        states = tree_unflatten(list(values.items()))
        kinds = [getattr(mlx_cache, name) for name in classes]
        cache = [kind.from_state(state) for kind, state in zip(kinds, states, strict=False)]
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise StateReadError(f"it is not an mlx_lm prompt cache ({exc})") from exc
    return cache, dict(metadata)


def _scalar(array: Any, kind: str) -> Any:
    """A value save_prompt_cache stored as an array (as mlx_lm's load_prompt_cache reads it)."""
    if kind == "scalar":
        return array.item()
    if kind == "string":
        return "".join(chr(i) for i in array.tolist())
    if kind == "none":
        return None
    raise ValueError(f"unknown type {kind}")


def _compare(digests: Digests, expected: list[int]) -> None:
    try:
        found = digests.digests()
    except ValueError as exc:
        raise StateReadError(f"its arrays do not cover the file ({exc})") from exc
    compare(found, expected, CHUNK)


class _Crc32s:
    """zlib's CRC-32 of each `chunk` bytes of the tensor data, fed in the file's order (files
    sealed before lane sums)."""

    def __init__(self, total: int, chunk: int) -> None:
        self.total, self.chunk, self.at, self.crc = total, chunk, 0, 0
        self.crcs: list[int] = []
        self.whole = True  # every piece began where the one before ended

    def add(self, offset: int, data: memoryview) -> None:
        self.whole = self.whole and offset == self.at
        while len(data):
            room = self.chunk - self.at % self.chunk
            self.crc = zlib.crc32(data[:room], self.crc)
            self.at += min(room, len(data))
            if self.at % self.chunk == 0:
                self.crcs.append(self.crc)
                self.crc = 0
            data = data[room:]

    def digests(self) -> list[int]:
        if not self.whole or self.at != self.total:
            raise ValueError("the pieces read do not cover the stream once")
        return self.crcs + ([self.crc] if self.at % self.chunk else [])


def _numbers(listed: str, least: int = 0) -> list[int]:
    try:
        numbers = [int(number) for number in json.loads(listed)]
    except (ValueError, TypeError) as exc:
        raise StateReadError("its checksum list is damaged") from exc
    if len(numbers) < least:
        raise StateReadError("its checksum list is damaged")
    return numbers
