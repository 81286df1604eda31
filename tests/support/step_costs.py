"""Pinned step costs for tests of the batch policy: what a step of n sequences costs against
one, and how fast a lone answer decodes with its drafts, fixed (no learning from this
machine's timings or the tiny model's answers, so no test depends on either)."""

from __future__ import annotations

from backends.pass_costs import DraftPace, PassCosts

# llama.cpp on 2 CPU cores without flash attention (bench/RESULTS.md, before session 12): 2
# sequences gain nothing, 3 lose, 4 gain 1.54x (a dear CPU; with it 4 gain 2.0-2.5x).
CPU_LIKE = {1: 1.0, 2: 2.0, 3: 3.6, 4: 2.6}
# A GPU or Apple Silicon: a step reads the weights once for every row, so 4 cost about one.
GPU_LIKE = {1: 1.0, 2: 1.05, 3: 1.1, 4: 1.15}
# A lone answer whose prompt-lookup drafts make 1.6 tokens per one-token pass (gemma3-270m
# writing articles on its prompt's words, bench/RESULTS.md): more than a CPU's batch of 4.
DRAFTS_PAY = 1.6


def pinned(costs: dict[int, float]) -> PassCosts:
    """Pass costs fixed at `costs` (sizes above the largest are never tried)."""
    return PassCosts(costs, learn=False)


def pinned_pace(gain: float = 1.0) -> DraftPace:
    """A lone answer's pace fixed at `gain` tokens per one-token pass (1.0: no drafts kept)."""
    return DraftPace(gain, learn=False)
