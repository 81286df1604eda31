"""Above temperature 0, decoding with drafts samples from the very distribution plain decoding does.

A draft token is kept only when the token sampled at its position equals it, so every emitted
token is a sample of the model given the tokens before it, whatever was drafted. On each engine
(llama.cpp, MLX) the tests draw many three-token answers with and without drafts (the likeliest
continuation seen, so drafts are kept in part and refused in part), each arm with its own seeds,
and compare the two frequency tables with a chi-square bound far out in the tail: seeded, so a
run gives the same figures every time, and the bound sits 8 standard deviations above the
statistic's mean, which a rule that kept drafts it should refuse lands far past (checked)."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from backends.prompt_lookup import LookupStats
from tests.support.tiny_model import TinyModel

SAMPLES = 1200
SAMPLING: dict[str, Any] = dict(top_k=3, top_p=1.0, min_p=0.0, typical_p=1.0, temp=1.0,
                                repeat_penalty=1.0, frequency_penalty=0.0, presence_penalty=0.0,
                                tfs_z=1.0, mirostat_mode=0)


class GuessOnce:
    """A drafter that guesses once, after the first token (the engine's test double;
    `guesses` maps a first token to the two it guesses after it)."""

    def __init__(self, guesses: dict[int, list[int]]) -> None:
        self.guesses = guesses
        self.stats = LookupStats()
        self.first: int | None = None

    def extend(self, tokens: Iterable[int]) -> None:
        for token in tokens:
            self.first = token if self.first is None else self.first

    def propose(self, limit: int) -> list[int]:
        guess = self.guesses.pop(self.first, []) if self.first is not None else []
        return guess[:limit]

    def feedback(self, drafted: int, accepted: int) -> None:
        self.stats.drafted += drafted
        self.stats.accepted += accepted

    def timed(self, size: int, seconds: float) -> None:
        pass


def chi_square(a: Counter[tuple[int, ...]], b: Counter[tuple[int, ...]]) -> tuple[float, int]:
    """Two equal-sized samples' homogeneity statistic and its degrees of freedom (sparse
    cells pooled into one)."""
    stat, cells, pooled_a, pooled_b = 0.0, 0, 0, 0
    for key in set(a) | set(b):
        if a[key] + b[key] >= 10:
            stat += (a[key] - b[key]) ** 2 / (a[key] + b[key])
            cells += 1
        else:
            pooled_a, pooled_b = pooled_a + a[key], pooled_b + b[key]
    if pooled_a + pooled_b:
        stat += (pooled_a - pooled_b) ** 2 / (pooled_a + pooled_b)
        cells += 1
    return stat, cells - 1


def far_tail(freedom: int) -> float:
    return freedom + 8 * math.sqrt(2 * freedom)


Sample = Callable[[int, "GuessOnce | None"], tuple[int, ...]]  # seed, drafter -> 3 tokens


def assert_same_distribution(sample: Sample, samples: int = SAMPLES) -> None:
    """Plain samples and samples with drafts, each arm with its own seeds, compared."""
    reference = Counter(sample(seed, None) for seed in range(samples))
    guesses: dict[int, list[int]] = {}  # after each first token, the likeliest two seen
    for (first, *rest), _ in reference.most_common():
        guesses.setdefault(first, rest)
    stats, with_drafts = LookupStats(), Counter[tuple[int, ...]]()
    for seed in range(samples, 2 * samples):  # seeds of its own: two independent samples
        drafts = GuessOnce(dict(guesses))
        with_drafts[sample(seed, drafts)] += 1
        stats.drafted += drafts.stats.drafted
        stats.accepted += drafts.stats.accepted
    # Both paths were taken many times: drafts kept (the third token then comes from the
    # draft's row) and refused.
    assert 0.1 < stats.acceptance < 0.9
    stat, freedom = chi_square(reference, with_drafts)
    assert freedom >= 5 and stat < far_tail(freedom)
    # The bound has power: a rule that kept every draft token it was shown lands far past it.
    kept_blindly = Counter((t[0], *guesses[t[0]]) for t in reference.elements())
    assert chi_square(reference, kept_blindly)[0] > 5 * far_tail(freedom)


def test_llama_tokens_sampled_with_drafts_follow_the_plain_distribution(
        tiny_model: TinyModel) -> None:
    llama_cpp = pytest.importorskip("llama_cpp")
    from backends.llama_speculate import speculative_tokens

    llm = llama_cpp.Llama(str(tiny_model.gguf_path), n_ctx=256, n_batch=64, n_threads=1,
                          verbose=False, seed=1)
    prompt = llm.tokenize(b"The quick brown fox jumps over the lazy dog.")

    def sample(seed: int, drafter: GuessOnce | None) -> tuple[int, ...]:
        llm.set_seed(seed)
        tokens = (llm.generate(prompt, reset=True, **SAMPLING) if drafter is None else
                  speculative_tokens(llm, prompt, llm._init_sampler(**SAMPLING), drafter))
        return tuple(next(tokens) for _ in range(3))

    assert_same_distribution(sample)


def test_mlx_tokens_sampled_with_drafts_follow_the_plain_distribution(
        tiny_model: TinyModel) -> None:
    pytest.importorskip("mlx_lm")
    from mlx_lm.generate import generate_step

    from backends.mlx_backend import MlxBackend
    from backends.mlx_speculate import LookupRun, lookup_stream

    backend = MlxBackend(str(tiny_model.mlx_dir))
    backend.load()
    engine, model = backend._engine, backend._model
    prompt = backend._tokenizer.encode("The quick brown fox jumps over the lazy dog.")
    sampler = engine.make_sampler(temp=SAMPLING["temp"], top_k=SAMPLING["top_k"])

    def sample(seed: int, drafter: GuessOnce | None) -> tuple[int, ...]:
        engine.mx.random.seed(seed)
        cache = engine.make_prompt_cache(model)
        if drafter is None:  # mlx_lm's own decoding, one token a pass
            steps = generate_step(engine.mx.array(prompt), model, max_tokens=3, sampler=sampler,
                                  prompt_cache=cache)
            return tuple(int(token) for token, _ in steps)
        run = LookupRun(engine, model, backend._tokenizer, cache, sampler, 3, 512,
                        lambda done, total: None, {})
        return tuple(r.token for r in lookup_stream(run, prompt, drafter))

    # mlx_lm's decoding costs ~25 ms a sample here. Seeded, 300 an arm give (measured): drafts
    # kept 46%, statistic 3.8 against a bound of 45.8 (10 degrees of freedom), and a rule keeping
    # drafts blindly 7.1 times past the bound (600 an arm: 13.9 times, for twice the time).
    assert_same_distribution(sample, SAMPLES // 4)
    backend.unload()
