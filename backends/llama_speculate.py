"""Decoding on llama.cpp with prompt-lookup drafts verified in one forward pass.

Each step feeds the token just sampled plus a draft (backends/prompt_lookup.py) as one batch
with logits for every position, then samples position by position with the same sampler chain
llama-cpp-python's generate() builds. A draft token is kept only while it equals what the
sampler picks at its position; the first one that differs is replaced by the sampled token and
the rest of the draft leaves the KV. At temperature 0 that is plain greedy decoding, token for
token; above 0 each kept token is a sample from the model's own distribution given the kept
ones before it, so the distribution is exactly the plain one (a draft is a point guess: keeping
it when the sample equals it is the rejection rule for a deterministic proposal)."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import numpy as np

from backends.llama_prefix import reusable_prefix
from backends.prompt_lookup import PromptLookup


def speculative_tokens(llm: Any, tokens: list[int], sampler: Any, drafter: PromptLookup,
                       greedy: bool = False) -> Iterator[int]:
    """Tokens after the prompt `tokens`, like Llama.generate(reset=True) with `sampler`.

    greedy (temperature 0): every row's pick is its argmax, taken at once over the logits
    (what the greedy sampler picks, the first of equal maxima, without a sampler call a row).

    The KV, llm.input_ids and llm.n_tokens always agree: what a caller that stops early leaves
    behind is a valid context for the next turn's longest-prefix reuse."""
    reuse = reusable_prefix(llm, tokens)
    llm.n_tokens = reuse
    llm.eval(tokens[reuse:])  # logits for the prompt's last token only
    token = int(sampler.sample(llm._ctx, -1))
    room = min(llm.n_ctx(), llm.n_batch)
    while True:
        drafter.extend((token,))
        yield token
        free = llm.n_ctx() - 1 - llm.n_tokens - 1  # the pending token takes one position
        draft = drafter.propose(min(room - 1, free))
        batch = [token, *draft]
        start = llm.n_tokens
        began = time.perf_counter()
        decode_all(llm, batch, start)
        picks = _argmax_rows(llm, len(batch)) if greedy else None
        drafter.timed(len(batch), time.perf_counter() - began)
        kept = 0
        for index in range(len(batch)):
            token = picks[index] if picks is not None else int(sampler.sample(llm._ctx, index))
            if index < len(draft) and token == draft[index]:
                kept += 1
                drafter.extend((token,))
                yield token
                continue
            break
        drafter.feedback(len(draft), kept)
        if kept < len(draft):  # the KV past the last kept draft token is a wrong guess
            llm.n_tokens = start + kept + 1
            llm._ctx.kv_cache_seq_rm(-1, llm.n_tokens, -1)


def _argmax_rows(llm: Any, rows: int) -> list[int]:
    import llama_cpp

    logits = np.ctypeslib.as_array(llama_cpp.llama_get_logits(llm.ctx),
                                   shape=(rows, llm.n_vocab()))
    return [int(t) for t in logits.argmax(axis=1)]


def decode_all(llm: Any, batch: list[int], start: int) -> None:
    """Evaluate `batch` at positions start.. with logits for every position."""
    llm._ctx.kv_cache_seq_rm(-1, start, -1)
    llm._batch.set_batch(batch=batch, n_past=start, logits_all=True)
    llm._ctx.decode(llm._batch)
    llm.input_ids[start:start + len(batch)] = batch
    llm.n_tokens = start + len(batch)
