"""Prompt-lookup drafts: guess the next tokens from where the last few appeared before.

Much of what an assistant writes is copied from what it read (a quoted passage, a value from a
sheet, a file name, tool arguments taken from the question). When the last n tokens of the
prompt + answer appeared earlier, the tokens that followed them there are a cheap guess at what
comes next; the engine checks all of them in one forward pass and keeps the ones it would have
produced anyway. Engine-agnostic: llama.cpp (backends/llama_speculate.py) and MLX use it.

The drafter backs off when it stops paying: after a draft, if under two thirds of the recently
drafted tokens were kept, it skips twice as many tokens as last time before trying again (up
to MAX_SKIP), so free writing pays almost nothing."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

NGRAMS = (3, 2)  # longest match first: a 3-token echo is a far better sign than a 2-token one
MAX_DRAFT = 10
MAX_SKIP = 64  # tokens decoded plainly after repeated misses before the next draft
MIN_KEPT = 2 / 3  # of recent drafted tokens kept, for drafting to go on without a pause
RATE_DECAY = 0.7  # weight of the earlier drafts in that rate, per draft


@dataclass
class LookupStats:
    """What speculation did in one answer (reported with the answer's timings)."""

    drafts: int = 0  # verify passes that carried a draft
    drafted: int = 0  # draft tokens checked
    accepted: int = 0  # draft tokens the model agreed with (each one a decode step saved)

    @property
    def acceptance(self) -> float:
        return self.accepted / self.drafted if self.drafted else 0.0


class PromptLookup:
    """Drafts from n-grams of the token history; told how each draft fared, it adapts."""

    def __init__(self, tokens: Iterable[int], max_draft: int = MAX_DRAFT,
                 ngrams: Sequence[int] = NGRAMS) -> None:
        self.max_draft = max_draft
        self.ngrams = tuple(sorted(ngrams, reverse=True))
        # The history lives in one numpy buffer and is searched there: building an index of
        # a long prompt in Python would hold the GIL the window's thread needs.
        first = np.asarray(list(tokens), dtype=np.int64)
        self._history = np.empty(max(256, 2 * len(first)), dtype=np.int64)
        self._history[:len(first)] = first
        self._size = len(first)
        self._length = max(2, max_draft // 2)  # the next draft's length
        self._misses = 0  # drafts in a row that gained nothing
        self._skip = 0  # tokens still to go before the next draft
        self._kept = self._drafted = 0.0  # decaying sums over recent drafts
        self.stats = LookupStats()

    def extend(self, tokens: Iterable[int]) -> None:
        for token in tokens:
            if self._size == len(self._history):
                self._history = np.concatenate([self._history, np.empty_like(self._history)])
            self._history[self._size] = token
            self._size += 1

    def propose(self, limit: int) -> list[int]:
        """Up to `limit` tokens likely to come next, or none (no match, or backing off)."""
        if self._skip > 0:
            self._skip -= 1
            return []
        size = min(self._length, limit)
        return self._lookup(size) if size > 0 else []

    def _lookup(self, size: int) -> list[int]:
        """What followed the latest earlier occurrence of the last n tokens, longest n first."""
        history, total = self._history[:self._size], self._size
        for n in self.ngrams:
            if total <= n:
                continue
            tail = history[total - n:]
            # Occurrences starting at 0 .. total-n-1: each has a token after it.
            found = history[:total - n] == tail[0]
            for offset in range(1, n):
                found &= history[offset:total - n + offset] == tail[offset]
            hits = np.flatnonzero(found)
            if hits.size:
                start = int(hits[-1]) + n
                return [int(t) for t in history[start:start + size]]
        return []

    def feedback(self, drafted: int, accepted: int) -> None:
        """How a proposed draft fared: `accepted` of its `drafted` tokens were kept."""
        if drafted <= 0:
            return
        self.stats.drafts += 1
        self.stats.drafted += drafted
        self.stats.accepted += accepted
        # Checking a token costs a good part of a decode step on a CPU: drafting pays only
        # while most drafted tokens are kept (two guesses, one kept, is a loss). The rate is
        # a decaying average over recent drafts, so a pattern of one hit, one miss backs off.
        self._kept = self._kept * RATE_DECAY + accepted
        self._drafted = self._drafted * RATE_DECAY + drafted
        if self._kept < self._drafted * MIN_KEPT:
            self._misses += 1
            self._skip = min(2 ** self._misses, MAX_SKIP)
            self._length = max(2, accepted + 1)
            return
        self._misses = self._skip = 0
        # All kept: reach further next time; part kept: ask for about as many as were kept.
        self._length = (min(self._length * 2, self.max_draft) if accepted == drafted
                        else max(2, accepted + 1))
