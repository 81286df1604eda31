"""The shared prompt prefix on llama.cpp: restore it from disk, or compute it and save it."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from backends.base import OnProgress, ShouldStop
from backends.llama_state import SeqState, restore_sequence, save_sequence, seq_prefix_codec
from backends.prefix_cache import (
    DEFAULT_LIMIT_BYTES,
    PrefixKey,
    PrefixOutcome,
    PrefixStore,
    common_prefix,
)


class LlamaPrefix:
    """The prefix states of one loaded model (file + context + KV type = `fingerprint`)."""

    def __init__(self, cache_dir: Path | None, fingerprint: str,
                 limit_bytes: int = DEFAULT_LIMIT_BYTES, batch: int = 512) -> None:
        root = None if cache_dir is None else Path(cache_dir) / "prefix-llama"
        self.store: PrefixStore[SeqState] = PrefixStore(seq_prefix_codec(), root, limit_bytes)
        self.fingerprint = fingerprint
        self.batch = batch

    def ensure(self, llm: object, key: PrefixKey, should_stop: ShouldStop,
               on_progress: OnProgress | None = None) -> PrefixOutcome:
        """Make the live context begin with the prefix: keep what matches, else restore the
        saved state, else evaluate the rest in batches (stopping early when asked) and save."""
        tokens = list(key.tokens)
        held = matching_tokens(llm, tokens)
        if held >= len(tokens):
            return PrefixOutcome(ready=True)
        state = self.store.load(key)
        if state is not None and restore_sequence(llm, state):
            if on_progress is not None:
                on_progress(len(tokens), len(tokens))
            return PrefixOutcome(ready=True, restored=True)
        if state is not None:  # llama.cpp refused it; restore_sequence emptied the context
            held = 0
        return self._compute(llm, key, held, should_stop, on_progress)

    def _compute(self, llm: Any, key: PrefixKey, held: int, should_stop: ShouldStop,
                 on_progress: OnProgress | None) -> PrefixOutcome:
        tokens = list(key.tokens)
        llm.n_tokens = held  # eval() drops the KV past this point before it appends
        outcome = PrefixOutcome()
        for start in range(held, len(tokens), self.batch):
            if should_stop():
                return outcome  # the part computed so far stays in the context for the next turn
            chunk = tokens[start:start + self.batch]
            llm.eval(chunk)
            outcome.computed += len(chunk)
            if on_progress is not None:
                on_progress(start + len(chunk), len(tokens))
        outcome.ready = True
        self.store.save(key, save_sequence(llm))
        return outcome


def reusable_prefix(llm: Any, tokens: list[int]) -> int:
    """Prompt tokens whose KV llama-cpp-python's generate() reuses (its own rule): the longest
    common prefix, less the prompt's last token when everything matched (its logits are needed)."""
    return min(matching_tokens(llm, tokens), len(tokens) - 1)


def matching_tokens(llm: Any, tokens: list[int]) -> int:
    """How many leading `tokens` the live context already holds (its KV is reusable)."""
    return common_prefix(llm.input_ids[: llm.n_tokens].tolist(), tokens)

