"""MLX prompt caches on disk: restored as saved (quantized KV too), a flipped byte found."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from backends import mlx_state
from backends.state_read import StateReadError

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
