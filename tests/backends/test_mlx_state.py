"""MLX prompt caches on disk: restored as saved (quantized KV too), a flipped byte found."""

from __future__ import annotations

import json
import re
import struct
from pathlib import Path
from typing import Any

import pytest

from backends import mlx_state
from backends.state_read import StateReadError, chunk_crcs

pytestmark = pytest.mark.usefixtures("needs_mlx_lm")


def caches(tokens: int = 5) -> list[Any]:
    """One plain and one 8-bit quantized KV slot holding `tokens` positions."""
    import mlx.core as mx
    from mlx_lm.models.cache import KVCache, QuantizedKVCache

    plain, quantized = KVCache(), QuantizedKVCache(group_size=32, bits=8)
    for slot, cache in enumerate((plain, quantized)):
        keys = mx.random.normal((1, 2, tokens, 64), key=mx.random.key(slot))
        cache.update_and_fetch(keys.astype(mx.bfloat16), (keys * 0.5).astype(mx.bfloat16))
    return [plain, quantized]


def arrays(cache: list[Any]) -> list[Any]:
    import mlx.core as mx
    from mlx.utils import tree_flatten

    return [v for _, v in tree_flatten([c.state for c in cache]) if isinstance(v, mx.array)]


@pytest.mark.parametrize("sealed", [True, False])
def test_a_saved_cache_comes_back_as_it_was(tmp_path: Path, sealed: bool) -> None:
    import mlx.core as mx
    from mlx_lm.models.cache import KVCache, QuantizedKVCache

    saved = caches()
    path = tmp_path / "state.safetensors"
    mlx_state.save(path, saved, {"tokens": "[1,2,3,4,5]"}, sealed=sealed)
    restored, meta = mlx_state.load(path, sealed=sealed)
    assert [type(c) for c in restored] == [KVCache, QuantizedKVCache]
    assert [c.offset for c in restored] == [5, 5] and meta["tokens"] == "[1,2,3,4,5]"
    assert (restored[1].group_size, restored[1].bits) == (32, 8)
    for before, after in zip(arrays(saved), arrays(restored), strict=True):
        assert before.dtype == after.dtype and mx.array_equal(before, after).item()
    assert list(tmp_path.iterdir()) == [path]  # nothing staged is left beside it


def test_one_flipped_byte_in_a_sealed_cache_is_found(tmp_path: Path) -> None:
    path = tmp_path / "state.safetensors"
    mlx_state.save(path, caches(), {}, sealed=True)
    blob = bytearray(path.read_bytes())
    blob[-100] ^= 0x01  # one bit of one value of the last slot
    path.write_bytes(bytes(blob))
    with pytest.raises(StateReadError, match="damaged"):
        mlx_state.load(path, sealed=True)
    with pytest.raises(StateReadError, match="damaged"):  # checked whenever it is sealed
        mlx_state.load(path, sealed=False)


def save_as_lane_sums_only(path: Path, cache: list[Any]) -> None:
    """Save as the Hearth before headers were sealed: lane sums of the tensor data only."""
    mlx_state.save(path, cache, {"tokens": "[1,2,3,4,5]"}, sealed=True)
    blob = path.read_bytes()
    header, start = mlx_state.parse_header(memoryview(blob))
    meta = header["__metadata__"]
    meta[mlx_state.SUMS_KEY] = json.dumps(json.loads(meta.pop(mlx_state.SEAL_KEY))[1:])
    text = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(text)) + text + blob[start:])


def damage_header(path: Path, pattern: bytes, new: bytes) -> None:
    """Replace what `pattern` matches (once) in the header with `new`, of the same length,
    the data left as it was."""
    blob = path.read_bytes()
    _, start = mlx_state.parse_header(memoryview(blob))
    head, count = re.subn(pattern, new, blob[:start])
    assert count == 1 and len(head) == start
    path.write_bytes(head + blob[start:])


@pytest.mark.parametrize("sealed", [True, False])
@pytest.mark.parametrize(("pattern", "new"), [
    (rb'"0\.tokens":"\[1,2,3,4,5\]"', b'"0.tokens":"[1,2,3,4,6]"'),  # our metadata
    (rb'("0\.0":\{[^}]*"shape":)\[1,2,256,64\]', rb"\1[1,4,128,64]"),  # mlx_lm's: same bytes
], ids=["token id", "array shape"])
def test_a_changed_header_of_a_sealed_cache_is_found(tmp_path: Path, sealed: bool,
                                                     pattern: bytes, new: bytes) -> None:
    """A digit changed in the header would restore a cache that answers wrongly in silence:
    another token than the model read, or keys of another shape over the same bytes."""
    path = tmp_path / "state.safetensors"
    mlx_state.save(path, caches(), {"tokens": "[1,2,3,4,5]"}, sealed=True)
    damage_header(path, pattern, new)
    with pytest.raises(StateReadError, match="header"):
        mlx_state.load(path, sealed=sealed)


@pytest.mark.parametrize("where", [0, 0.5, 1])  # first word, a middle one, the last byte
def test_one_flipped_byte_anywhere_in_a_larger_cache_is_found(tmp_path: Path,
                                                             where: float) -> None:
    path = tmp_path / "state.safetensors"
    mlx_state.save(path, caches(tokens=300), {}, sealed=True)  # 400 KiB: 100 rows of lanes
    blob = bytearray(path.read_bytes())
    _, start = mlx_state.parse_header(memoryview(blob))
    blob[min(start + int((len(blob) - start) * where), len(blob) - 1)] ^= 0x10
    path.write_bytes(bytes(blob))
    with pytest.raises(StateReadError, match="damaged"):
        mlx_state.load(path, sealed=True)


def save_as_before(path: Path, cache: list[Any]) -> None:
    """Save as the Hearth before lane sums did: one CRC-32 per chunk of the tensor data."""
    mlx_state.save(path, cache, {"tokens": "[1,2,3,4,5]"}, sealed=False)
    blob = path.read_bytes()
    header, start = mlx_state.parse_header(memoryview(blob))
    header["__metadata__"][mlx_state.CRCS_KEY] = json.dumps(chunk_crcs(blob[start:]))
    text = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(text)) + text + blob[start:])


@pytest.mark.parametrize(("older", "sealed"), [
    ("crc32s", True), ("crc32s", False), ("lane sums only", True)])
def test_a_cache_sealed_by_an_older_hearth_is_still_read_and_checked(tmp_path: Path, older: str,
                                                                    sealed: bool) -> None:
    import mlx.core as mx

    saved, path = caches(), tmp_path / "state.safetensors"
    (save_as_before if older == "crc32s" else save_as_lane_sums_only)(path, saved)
    restored, meta = mlx_state.load(path, sealed=sealed)
    assert meta["tokens"] == "[1,2,3,4,5]"
    for before, after in zip(arrays(saved), arrays(restored), strict=True):
        assert mx.array_equal(before, after).item()
    blob = bytearray(path.read_bytes())
    blob[-100] ^= 0x01
    path.write_bytes(bytes(blob))
    with pytest.raises(StateReadError, match="damaged"):
        mlx_state.load(path, sealed=sealed)


def test_a_sealed_cache_is_required_where_asked(tmp_path: Path) -> None:
    path = tmp_path / "state.safetensors"
    mlx_state.save(path, caches(), {}, sealed=False)  # as conversation caches were saved
    assert len(mlx_state.load(path, sealed=False)[0]) == 2
    with pytest.raises(StateReadError, match="no checksums"):
        mlx_state.load(path, sealed=True)


@pytest.mark.parametrize("cut", [4, 200, -1])
def test_a_truncated_cache_never_reaches_mlx(tmp_path: Path, cut: int) -> None:
    path = tmp_path / "state.safetensors"
    mlx_state.save(path, caches(), {}, sealed=True)
    blob = path.read_bytes()
    path.write_bytes(blob[:cut])
    with pytest.raises(StateReadError, match="truncated"):
        mlx_state.load(path, sealed=True)


def other_caches() -> list[Any]:
    """A sliding-window, a recurrent (one state not set yet) and a nested cache, whose states
    hold numbers, None and class names besides arrays."""
    import mlx.core as mx
    from mlx_lm.models.cache import ArraysCache, CacheList, KVCache, RotatingKVCache

    window, recurrent, nested = RotatingKVCache(max_size=16, keep=2), ArraysCache(size=2), \
        CacheList(KVCache(), KVCache())
    keys = mx.random.normal((1, 2, 20, 8), key=mx.random.key(3)).astype(mx.float16)
    window.update_and_fetch(keys, keys)
    recurrent[0] = keys[:, :, :3, :1].astype(mx.float32)  # 12 bytes: odd offsets after it
    for inner in nested.caches:
        inner.update_and_fetch(keys[:, :, :5], keys[:, :, :5])
    return [window, recurrent, nested]


def test_other_cache_kinds_come_back_as_mlx_lm_restores_them(tmp_path: Path) -> None:
    import mlx.core as mx
    from mlx.utils import tree_flatten
    from mlx_lm.models.cache import load_prompt_cache

    path = tmp_path / "state.safetensors"
    mlx_state.save(path, other_caches(), {"tokens": "[1]"}, sealed=True)
    restored, meta = mlx_state.load(path, sealed=True)
    expected = load_prompt_cache(str(path))
    assert [type(c) for c in restored] == [type(c) for c in expected] and meta["tokens"] == "[1]"
    ours, theirs = (tree_flatten([c.state for c in cache])
                    for cache in (restored, expected))
    assert [name for name, _ in ours] == [name for name, _ in theirs]
    for (_, mine), (_, reference) in zip(ours, theirs, strict=True):
        if isinstance(reference, mx.array):
            assert mine.dtype == reference.dtype and mx.array_equal(mine, reference).item()
        else:
            assert mine == reference


@pytest.mark.parametrize("seal", ["lane sums", "crc32s"])
def test_a_cache_of_many_chunks_is_read_and_a_flipped_byte_in_any_is_found(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seal: str) -> None:
    import mlx.core as mx

    monkeypatch.setattr(mlx_state, "CHUNK", 8192)  # 400 KiB: 50 chunks, arrays across them
    saved, path = caches(tokens=300), tmp_path / "state.safetensors"
    if seal == "lane sums":
        mlx_state.save(path, saved, {"tokens": "[1,2,3,4,5]"}, sealed=True)
    else:
        mlx_state.save(path, saved, {"tokens": "[1,2,3,4,5]"}, sealed=False)
        blob = path.read_bytes()
        header, start = mlx_state.parse_header(memoryview(blob))
        header["__metadata__"][mlx_state.CRCS_KEY] = json.dumps(chunk_crcs(blob[start:], 8192))
        text = json.dumps(header).encode()
        path.write_bytes(struct.pack("<Q", len(text)) + text + blob[start:])
    for before, after in zip(arrays(saved), arrays(mlx_state.load(path, sealed=True)[0]),
                             strict=True):
        assert mx.array_equal(before, after).item()
    blob = bytearray(path.read_bytes())
    _, start = mlx_state.parse_header(memoryview(blob))
    for where in (start + 3 * 8192 + 5, len(blob) - 8192 - 3):
        damaged = bytearray(blob)
        damaged[where] ^= 0x04
        path.write_bytes(bytes(damaged))
        with pytest.raises(StateReadError, match="damaged"):
            mlx_state.load(path, sealed=True)


@pytest.mark.parametrize(("seal", "found"), [
    ("header sealed", "header"), ("lane sums", "cover"), ("crc32s", "cover")])
def test_a_header_that_reads_one_array_twice_is_refused(tmp_path: Path, seal: str,
                                                        found: str) -> None:
    """Older files' sums cover each byte of the data once; a sealed header is checked first."""
    saved, path = caches(), tmp_path / "state.safetensors"
    if seal == "header sealed":
        mlx_state.save(path, saved, {}, sealed=True)
    elif seal == "lane sums":
        save_as_lane_sums_only(path, saved)
    else:
        save_as_before(path, saved)
    blob = path.read_bytes()
    header, start = mlx_state.parse_header(memoryview(blob))
    last = max((k for k in header if k != "__metadata__"),
               key=lambda k: header[k]["data_offsets"][1])
    kept, lost = ("0.0", "0.1") if last not in ("0.0", "0.1") else ("1.0.0", "1.1.0")
    header[lost]["data_offsets"] = header[kept]["data_offsets"]  # keys read as values too
    text = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(text)) + text + blob[start:])
    with pytest.raises(StateReadError, match=found):
        mlx_state.load(path, sealed=True)
