"""Pinned step costs for tests of the batch policy: what a step of n sequences costs against
one, fixed (no learning from this machine's timings, so no test depends on its speed)."""

from __future__ import annotations

from backends.pass_costs import PassCosts

# llama.cpp on 2 CPU cores (bench/RESULTS.md): 2 sequences gain nothing, 3 lose, 4 gain 1.54x.
CPU_LIKE = {1: 1.0, 2: 2.0, 3: 3.6, 4: 2.6}
# A GPU or Apple Silicon: a step reads the weights once for every row, so 4 cost about one.
GPU_LIKE = {1: 1.0, 2: 1.05, 3: 1.1, 4: 1.15}


def pinned(costs: dict[int, float]) -> PassCosts:
    """Pass costs fixed at `costs` (sizes above the largest are never tried)."""
    return PassCosts(costs, learn=False)
