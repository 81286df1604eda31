"""What a forward pass of k tokens costs against one token, as the engine measures it.

Checking a draft of k tokens takes one forward pass over k + 1 tokens, and on a CPU that pass is
far from free: on 2 cores, llama.cpp's batched kernels work on 2 or 4 columns at a time, so 2-3
tokens cost 1.3-2.3x one token while 4 cost 2.0x, and 16 cost 5.8x on the full-size Nanbeige
Q8_0 with flash attention (bench/bench_verify_cost.py). The price depends on the model's
quantization, the machine and its load, so each engine times its own passes and the drafter
weighs a draft's expected tokens against these figures (backends/prompt_lookup.py).

A batch step that decodes one token of each of k sequences pushes k rows through the same
matmuls as a pass checking k tokens, and costs about the same: the batched engines time their
steps into the same figures, and the model runner batches only where k sequences per step give
more tokens per second than one (batch_gain). A generation alone on the single path verifies
prompt-lookup drafts and so makes more than one token per one-token pass where its answer copies
from its prompt: DraftPace keeps that figure (what a batch must beat, not 1). A batch verifies
drafts too: its own DraftPace scales what its steps gain."""

from __future__ import annotations

import statistics
from collections import deque
from collections.abc import Mapping

# Before a size is measured: time relative to a one-token pass, measured on the full-size
# Nanbeige4.2-3B Q8_0 on 2 cores with flash attention, on the AVX2 build (bench/RESULTS.md,
# "the cost of checking k tokens", session 13; a build for AVX-512 runs 4 rows for 1.6). A size
# missing here costs what the next larger one listed costs: odd sizes measured no cheaper
# (Q8_0's batched kernel works on pairs of tokens, an odd one out costs a pass of its own).
# 3 is listed at its measured cost, dearer than 4: drafts never pick it over 4.
PRIOR = {1: 1.0, 2: 1.3, 3: 2.3, 4: 2.0, 6: 2.85, 8: 3.3, 12: 4.7, 16: 5.8}
# Tokens per plain step before any generation is measured (plain decoding), weighed as this
# many steps; and the weight of what was measured before, for each generation.
PACE_PRIOR_PASSES = 32.0
PACE_DECAY = 0.75
KEEP = 9  # latest timings of a size whose median is its figure (a busy machine's spikes pass)
TRUST = 3  # timings of a size before its figure replaces the prior


class PassCosts:
    """Seconds per forward pass by its number of tokens: measured figures over the prior."""

    def __init__(self, prior: Mapping[int, float] | None = None, learn: bool = True) -> None:
        """prior: relative costs by size (1 must be there); learn: False pins them (tests)."""
        self._prior = dict(PRIOR if prior is None else prior)
        self._learn = learn
        self._seconds: dict[int, deque[float]] = {}
        self._figures: dict[int, float] = {}  # size -> median seconds, once trusted
        self._seen: set[int] = set()

    @property
    def largest(self) -> int:
        """The largest pass size with a figure: larger ones are never tried."""
        return max(self._prior)

    def record(self, size: int, seconds: float) -> None:
        """One pass of `size` tokens took `seconds` (from feeding it to having its picks)."""
        if not self._learn or size > self.largest:
            return
        if size not in self._seen:  # a size's first pass also builds its compute graph
            self._seen.add(size)
            return
        timings = self._seconds.setdefault(size, deque(maxlen=KEEP))
        timings.append(seconds)
        if len(timings) >= TRUST:
            self._figures[size] = statistics.median(timings)

    def measured(self, size: int) -> float | None:
        """The median seconds of a pass of `size` tokens once trusted, None before."""
        return self._figures.get(size)

    def batch_gain(self, size: int) -> float:
        """Tokens per unit of time of a pass carrying one token of each of `size` sequences,
        over a one-token pass: where it is not above 1, batching them does not pay."""
        return size / self.relative(size)

    def relative(self, size: int) -> float:
        """The time of a pass of `size` tokens over the time of a pass of one."""
        measured = self._figures
        one = self._one()
        if one and size in measured:
            return measured[size] / one
        guess = self._listed(size)
        if not one:
            return guess
        # A pass never costs more per token than a smaller one measured: on an engine where
        # passes are cheap (a GPU) the larger sizes then get tried, and measured.
        for smaller, seconds in measured.items():
            if smaller < size:
                guess = min(guess, seconds / one * size / smaller)
        # Nor more than its prior scaled as the next larger size measured beats its own: a GPU
        # that runs 4 rows for ~1.15 tries 2 and 3 (and measures them) instead of keeping the
        # CPU's 2.0 and 3.5, while a CPU that measures 4 at its prior keeps 3 dearer than 4.
        larger = [k for k in measured if k > size]
        if larger:
            nearest = min(larger)
            guess = min(guess, self._listed(size) * measured[nearest] / one
                        / self._listed(nearest))
            guess = max(guess, self._line(size, nearest) / one)
        return max(guess, 1.0)  # more tokens never cost less than one

    def _line(self, size: int, larger: int) -> float:
        """Seconds on the line between the measured sizes around `size` (0 with none below).
        Off the kernels' multiples a pass costs at least its share of that line: on a CPU
        whose kernel takes rows 4 at a time, 5 and 6 rows cost 1.6-1.7 of 4 where 8 cost
        1.6 (bench/RESULTS.md, session 12), while the prior's shape alone (the next size listed,
        scaled as the next measured one) priced them as low as 1.15 of 4: a batch's drafts that
        make those sizes were sent on that price until each was measured."""
        measured = self._figures
        smaller = [k for k in measured if k < size]
        if not smaller:
            return 0.0
        below = max(smaller)
        share = (size - below) / (larger - below)
        return measured[below] + (measured[larger] - measured[below]) * share

    def _one(self) -> float | None:
        """Seconds of a one-token pass: measured, else inferred from the smallest size measured
        at its prior's price. An engine that has only run batches (API requests since launch,
        no chat) then still prices its other sizes by what they measured against that one,
        rather than by the prior alone for as long as no lone answer runs."""
        if not self._figures:
            return None
        smallest = min(self._figures)
        return self._figures[smallest] / self._listed(smallest)

    def _listed(self, size: int) -> float:
        """The prior's price of `size`: its own, else the next larger size listed."""
        listed = [k for k in self._prior if k >= size]
        return self._prior[min(listed)] if listed else self._prior[self.largest]


class DraftPace:
    """Tokens per plain decoding step that generations verifying drafts have made lately, both
    figures decaying generation by generation, so a long answer weighs more than a short one
    and a stretch that copies nothing brings the figure back towards 1. Alone (the single
    path): an answer's tokens over what its passes cost in one-token passes. In a batch: its
    members' tokens over what its steps would have made without drafts (a step of n members
    makes n tokens; one that also checks drafts costs PassCosts.relative(rows) / relative(n)
    such steps)."""

    def __init__(self, prior: float = 1.0, learn: bool = True) -> None:
        """prior: the figure before any answer; learn: False pins it there (tests)."""
        self._tokens = prior * PACE_PRIOR_PASSES
        self._passes = PACE_PRIOR_PASSES
        self._learn = learn

    def record(self, tokens: int, passes: float) -> None:
        """A generation (an answer alone, a batch) made `tokens` where plain decoding would
        have made `passes` in the same time."""
        if not self._learn or passes <= 0:
            return
        self._tokens = self._tokens * PACE_DECAY + tokens
        self._passes = self._passes * PACE_DECAY + passes

    @property
    def gain(self) -> float:
        """Tokens per one-token pass (1.0: no better than plain decoding)."""
        return self._tokens / self._passes
