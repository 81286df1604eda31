"""Where a short run of tokens occurs in a long token array, searched in numpy (no Python loop
over the array: a prompt of tens of thousands of tokens is searched at every drafted step)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def occurrences(tokens: np.ndarray, pattern: Sequence[int] | np.ndarray) -> np.ndarray:
    """The positions where `pattern` occurs whole in `tokens`, ascending (none for an empty
    pattern): one vectorized comparison per token of the pattern."""
    size, total = len(pattern), len(tokens)
    if not size or total < size:
        return np.empty(0, dtype=np.intp)
    found = tokens[:total - size + 1] == pattern[0]
    for offset in range(1, size):
        found &= tokens[offset:total - size + 1 + offset] == pattern[offset]
    return np.flatnonzero(found)
