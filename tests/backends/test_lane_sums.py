"""Lane sums from pieces in any order agree with the sums of the whole chunks."""

from __future__ import annotations

import random

import pytest

from backends.lane_sums import ROW, LaneSums, lane_sum
from backends.state_read import chunk_crcs


@pytest.mark.parametrize("total", [0, 5, ROW, 3 * ROW + 1, 5 * ROW + 4093])
def test_pieces_read_in_any_order_and_at_any_offset_sum_as_the_whole(total: int) -> None:
    rng = random.Random(total)
    data = rng.randbytes(total)
    cuts = sorted({0, total, *(rng.randrange(total + 1) for _ in range(12))})
    pieces = list(zip(cuts, cuts[1:], strict=False))
    rng.shuffle(pieces)  # as MLX reads a file's tensors: in no set order, at odd offsets
    sums = LaneSums(total, 2 * ROW)
    for start, end in pieces:
        sums.add(start, memoryview(data)[start:end])
    assert sums.digests() == chunk_crcs(data, 2 * ROW, lane_sum)


def test_a_piece_missing_or_read_twice_is_refused() -> None:
    data = memoryview(bytes(range(256)) * 64)
    for pieces in ([(0, 100)], [(0, 100), (50, 16384)], [(0, 16384), (0, 100)]):
        sums = LaneSums(len(data), 2 * ROW)
        for start, end in pieces:
            sums.add(start, data[start:end])
        with pytest.raises(ValueError, match="cover"):
            sums.digests()
