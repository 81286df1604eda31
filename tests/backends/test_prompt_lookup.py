"""Prompt-lookup speculation: the same answers as plain decoding, drafts that back off when wrong."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from backends.base import GenerateOptions
from backends.events import Done, ReasoningDelta, TextDelta
from backends.prompt_lookup import MAX_SKIP, PromptLookup
from tests.support.tiny_model import TinyModel

SYSTEM = {"role": "system", "content": "You are Hearth."}
PROMPTS = [  # text that repeats, text the tiny model's corpus holds, and hardly anything
    "Copy this: the quick brown fox jumps over the lazy dog. the quick brown fox jumps over "
    "the lazy dog.",
    "def main():\n    return [x * 2 for x in range(10)]  # comment\n" * 3,
    "hello",
]


def answer(backend: Any, prompt: str, temperature: float = 0.0, tokens: int = 96,
           seed: int | None = None) -> tuple[str, Done]:
    events = list(backend.stream([SYSTEM, {"role": "user", "content": prompt}],
                                 GenerateOptions(max_tokens=tokens, temperature=temperature,
                                                 seed=seed), lambda: False))
    done = events[-1]
    assert isinstance(done, Done) and done.finish_reason in ("stop", "length")
    return "".join(e.text for e in events if isinstance(e, TextDelta | ReasoningDelta)), done


def llama(tiny_model: TinyModel, speculate: bool, cache_dir: Path | None = None) -> Any:
    pytest.importorskip("llama_cpp")
    from backends.llama_cpp import LlamaCppBackend

    backend = LlamaCppBackend(str(tiny_model.gguf_path), context_length=1024,
                              speculate=speculate, cache_dir=cache_dir)
    backend.load()
    return backend


# -- the drafter ----------------------------------------------------------------------------

def test_a_draft_is_what_followed_the_last_tokens_where_they_appeared_before() -> None:
    drafter = PromptLookup([5, 6, 7, 8, 9, 1, 2, 5, 6], max_draft=4)
    assert drafter.propose(10) == [7, 8]  # starts short: two tokens
    drafter.feedback(2, 2)  # both kept: reach further
    assert drafter.propose(10) == [7, 8, 9, 1]
    assert drafter.propose(1) == [7]  # never more than there is room for
    assert PromptLookup([1, 2, 3, 4]).propose(10) == []  # nothing repeats: no draft


def test_a_draft_that_misses_stops_being_tried_for_longer_and_longer() -> None:
    drafter = PromptLookup([5, 6, 7, 5, 6])
    tried = []
    for step in range(200):
        draft = drafter.propose(10)
        if draft:
            tried.append(step)
            drafter.feedback(len(draft), 0)  # the model never agrees
    # Waits of 2, 4, 8, ... up to MAX_SKIP tokens: a handful of tries in 200 tokens, not 200.
    gaps = [b - a for a, b in zip(tried, tried[1:], strict=False)]
    assert len(tried) <= 8 and gaps == sorted(gaps) and gaps[-1] == MAX_SKIP + 1
    drafter.feedback(2, 1)  # one guess of two kept: still not worth its check
    assert not drafter.propose(10)
    for _ in range(4):  # drafts kept whole again: drafting goes on without pauses
        drafter.feedback(4, 4)
    assert drafter.propose(10)


def test_one_hit_one_miss_backs_off_too() -> None:
    drafter = PromptLookup([5, 6, 7, 5, 6])
    tried = 0
    for _ in range(200):
        draft = drafter.propose(10)
        if draft:
            tried += 1
            drafter.feedback(len(draft), len(draft) if tried % 2 else 0)
    assert tried <= 12


# -- llama.cpp ------------------------------------------------------------------------------

def test_llama_answers_are_token_for_token_those_of_plain_decoding(tiny_model: TinyModel
                                                                   ) -> None:
    plain, fast = llama(tiny_model, False), llama(tiny_model, True)
    kept = 0.0
    for prompt in PROMPTS:
        text, done = answer(plain, prompt)
        same, sped = answer(fast, prompt)
        assert same == text and sped.completion_tokens == done.completion_tokens
        assert "drafted_tokens" not in done.timings
        kept += sped.timings["accepted_draft_tokens"]
        # Drafts were also refused (their KV rolled back) without changing a token.
        assert sped.timings["drafted_tokens"] >= sped.timings["accepted_draft_tokens"]
    assert kept > 0  # the drafts did save forward passes
    plain.unload()
    fast.unload()


def test_after_refused_drafts_the_kept_context_answers_the_next_turn_alike(
        tiny_model: TinyModel, tmp_path: Path) -> None:
    """What a turn leaves in the KV is exactly its tokens: the next turn reuses it and still
    writes what a fresh engine writes."""
    fast = llama(tiny_model, True, tmp_path / "a")
    first, _ = answer(fast, PROMPTS[0])
    follow = f"{PROMPTS[0]}\n{first}\nAgain, please."
    again, done = answer(fast, follow)
    fresh = llama(tiny_model, False, tmp_path / "b")
    expected, _ = answer(fresh, follow)
    assert again == expected and done.cached_prompt_tokens > 0
    fast.unload()
    fresh.unload()


def test_sampling_above_temperature_0_with_drafts_is_repeatable_and_complete(
        tiny_model: TinyModel) -> None:
    fast = llama(tiny_model, True)
    one, done = answer(fast, PROMPTS[0], temperature=0.8, seed=7)
    two, _ = answer(fast, PROMPTS[0], temperature=0.8, seed=7)
    assert one == two and done.completion_tokens > 0
    fast.unload()


# -- MLX ------------------------------------------------------------------------------------

def mlx(tiny_model: TinyModel, speculate: bool) -> Any:
    pytest.importorskip("mlx_lm")
    from backends.mlx_backend import MlxBackend

    backend = MlxBackend(str(tiny_model.mlx_dir), speculate=speculate)
    backend.load()
    return backend


def test_mlx_answers_are_token_for_token_those_of_plain_decoding(tiny_model: TinyModel) -> None:
    plain, fast = mlx(tiny_model, False), mlx(tiny_model, True)
    kept = 0.0
    for prompt in PROMPTS:
        text, done = answer(plain, prompt)
        same, sped = answer(fast, prompt)
        assert same == text and sped.completion_tokens == done.completion_tokens
        assert sped.finish_reason == done.finish_reason
        kept += sped.timings["accepted_draft_tokens"]
        assert sped.timings["drafted_tokens"] > sped.timings["accepted_draft_tokens"]
    assert kept > 0
    # The conversation's cache was trimmed back past refused drafts: the next turn reuses it
    # and still writes what plain decoding writes.
    follow = f"{PROMPTS[0]}\n{text}\nAgain."
    assert answer(fast, follow)[0] == answer(plain, follow)[0]
    plain.unload()
    fast.unload()


def test_mlx_sampling_above_temperature_0_with_drafts_is_repeatable(tiny_model: TinyModel
                                                                    ) -> None:
    fast = mlx(tiny_model, True)
    one, done = answer(fast, PROMPTS[0], temperature=0.8, seed=7)
    two, _ = answer(fast, PROMPTS[0], temperature=0.8, seed=7)
    assert one == two and done.completion_tokens > 0
    fast.unload()
