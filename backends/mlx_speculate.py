"""Decoding on MLX with prompt-lookup drafts verified in one forward pass.

The MLX twin of backends/llama_speculate.py (the rule is the same): the token just sampled and
a draft (backends/prompt_lookup.py) go through the model as one sequence; every position is
sampled with mlx_lm's own sampler; draft tokens are kept while they equal the sample at their
position, and the cache is trimmed back past the first one that does not. Yields what
mlx_lm's stream_generate yields to the backend (text segment, token, finish reason), so the
backend reads both the same way."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from backends.prompt_lookup import PromptLookup


@dataclass
class Response:
    """One generated token, as mlx_lm's GenerationResponse carries it."""

    text: str
    token: int
    finish_reason: str | None = None


@dataclass
class LookupRun:
    """What the generator needs besides the prompt (mirrors stream_generate's arguments)."""

    engine: Any  # backends.mlx_backend._Engine
    model: Any
    tokenizer: Any
    cache: list[Any]
    sampler: Callable[[Any], Any]
    max_tokens: int
    prefill_step: int
    progress: Callable[[int, int], None]
    kv: dict[str, Any]  # kv_bits, kv_group_size, quantized_kv_start, or empty


def lookup_stream(run: LookupRun, prompt: list[int], drafter: PromptLookup) -> Iterator[Response]:
    """Tokens after `prompt` (the part the cache does not hold yet), drafts verified at once."""
    mx = run.engine.mx
    _prefill(run, prompt)
    pending = [_sample(run, _forward(run, prompt[-1:]))[-1]]
    run.progress(len(prompt), len(prompt))
    detokenizer = run.tokenizer.detokenizer
    detokenizer.reset()
    eos, count = set(run.tokenizer.eos_token_ids), 0
    while True:
        for token in pending:
            count += 1
            if token in eos or count >= run.max_tokens:
                if token not in eos:
                    detokenizer.add_token(token)
                detokenizer.finalize()
                yield Response(detokenizer.last_segment, token,
                               "stop" if token in eos else "length")
                return
            detokenizer.add_token(token)
            drafter.extend((token,))
            yield Response(detokenizer.last_segment, token)
        draft = drafter.propose(run.max_tokens - count - 1)
        began = time.perf_counter()
        picks = _sample(run, _forward(run, [pending[-1], *draft]))  # its tolist() waits for MLX
        drafter.timed(len(draft) + 1, time.perf_counter() - began)
        kept = 0
        while kept < len(draft) and picks[kept] == draft[kept]:
            kept += 1
        drafter.feedback(len(draft), kept)
        if kept < len(draft):  # the cache past the last kept draft token holds wrong guesses
            run.engine.trim_prompt_cache(run.cache, len(draft) - kept)
        pending = [*draft[:kept], picks[kept]]
        mx.clear_cache()


def _prefill(run: LookupRun, prompt: list[int]) -> None:
    """All but the prompt's last token, in steps, reporting progress (as generate_step)."""
    mx, done, total = run.engine.mx, 0, len(prompt)
    run.progress(0, total)
    while total - done > 1:
        step = min(run.prefill_step, total - done - 1)
        run.model(mx.array(prompt[done:done + step])[None], cache=run.cache)
        _quantize(run)
        mx.eval([c.state for c in run.cache])
        done += step
        run.progress(done, total)
        mx.clear_cache()


def _forward(run: LookupRun, tokens: list[int]) -> Any:
    logits = run.model(run.engine.mx.array(tokens, dtype=run.engine.mx.uint32)[None],
                       cache=run.cache)[0]
    _quantize(run)
    return logits


def _sample(run: LookupRun, logits: Any) -> list[int]:
    mx = run.engine.mx
    logprobs = logits - mx.logsumexp(logits, axis=-1, keepdims=True)
    picks = run.sampler(logprobs)
    return [int(t) for t in picks.tolist()]


def _quantize(run: LookupRun) -> None:
    if run.kv:
        run.engine.maybe_quantize(run.cache, run.kv["quantized_kv_start"],
                                  run.kv["kv_group_size"], run.kv["kv_bits"])
