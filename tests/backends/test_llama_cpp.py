"""LlamaCppBackend on the tiny Nanbeige model: prompts, sampling, streaming, cancel, prefix reuse."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from backends.base import GenerateOptions
from backends.errors import BackendError, NotLoaded, UnsupportedModel
from backends.events import Done, Event, ReasoningDelta, StreamError, TextDelta
from backends.llama_answer import TokenText
from backends.llama_cpp import LlamaCppBackend
from backends.parser import OutputParser
from tests.support.tiny_model import TinyModel

pytestmark = pytest.mark.usefixtures("needs_llama_cpp")

SYSTEM = {"role": "system", "content": "You are Hearth, a helpful assistant."}


def never() -> bool:
    return False


def ask(*texts: str) -> list[dict[str, Any]]:
    """A conversation: system, then alternating user/assistant texts."""
    messages: list[dict[str, Any]] = [SYSTEM]
    for i, text in enumerate(texts):
        messages.append({"role": "user" if i % 2 == 0 else "assistant", "content": text})
    return messages


def run(backend: LlamaCppBackend, messages: list[dict[str, Any]], **options: Any) -> list[Event]:
    return list(backend.stream(messages, GenerateOptions(**options), never))


def text_of(events: list[Event]) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta | ReasoningDelta))


@pytest.fixture(scope="module")
def backend(tiny_model: TinyModel) -> Iterator[LlamaCppBackend]:
    b = LlamaCppBackend(str(tiny_model.gguf_path), context_length=1024)
    b.load()
    yield b
    b.unload()


def test_info_describes_the_loaded_model(backend: LlamaCppBackend) -> None:
    info = backend.info
    assert backend.loaded
    assert (info.engine, info.num_loops, info.context_length) == ("llama", 2, 1024)
    assert info.quantization == "F32" and info.device == "cpu"
    assert info.extra["architecture"] == "nanbeige"


def test_stream_ends_with_exactly_one_done_and_honest_counts(backend: LlamaCppBackend,
                                                             tiny_model: TinyModel) -> None:
    from tokenizers import Tokenizer

    messages = ask("What is the weather in Paris?")
    events = run(backend, messages, max_tokens=12, seed=3)
    done = events[-1]
    assert isinstance(done, Done) and sum(isinstance(e, Done) for e in events) == 1
    # No extra BOS: the prompt is exactly the rendered template's tokens.
    hf = Tokenizer.from_file(str(tiny_model.mlx_dir / "tokenizer.json"))
    assert done.prompt_tokens == len(hf.encode(backend.render_prompt(messages,
                                                                     GenerateOptions())).ids)
    assert 0 < done.completion_tokens <= 12
    assert done.finish_reason in ("stop", "length")
    assert done.timings["ttft_ms"] > 0 and done.timings["tokens_per_second"] >= 0


def test_prompt_is_the_gguf_template_rendered(backend: LlamaCppBackend) -> None:
    prompt = backend.render_prompt(ask("Hi"), GenerateOptions(enable_thinking=False))
    assert prompt == ("<|im_start|>system\nYou are Hearth, a helpful assistant.<|im_end|>\n"
                      "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n<think>\n\n"
                      "</think>\n\n")


def test_greedy_output_is_what_raw_llama_cpp_produces(backend: LlamaCppBackend,
                                                      tiny_model: TinyModel) -> None:
    import llama_cpp

    messages = ask("Tell me about Tokyo.")
    options = GenerateOptions(max_tokens=16, temperature=0.0, enable_thinking=False)
    ours = run(backend, messages, max_tokens=16, temperature=0.0, enable_thinking=False)
    raw = llama_cpp.Llama(str(tiny_model.gguf_path), n_ctx=1024, verbose=False)
    tokens = raw.tokenize(backend.render_prompt(messages, options).encode(), add_bos=False,
                          special=True)
    out: list[int] = []
    for token in raw.generate(tokens, temp=0.0, top_k=1, top_p=1.0, min_p=0.0):
        if token == raw.token_eos() or len(out) == 16:
            break
        out.append(token)
    raw_text = raw.detokenize(out).decode("utf-8", "replace")
    raw.close()
    parser = OutputParser(starts_in_reasoning=False)
    expected = parser.feed(raw_text) + parser.finish()
    assert text_of(ours[:-1]) == text_of(expected)
    assert ours[-1].completion_tokens == len(out)  # type: ignore[union-attr]


def test_same_seed_gives_the_same_answer(backend: LlamaCppBackend) -> None:
    first = run(backend, ask("Pick a word."), max_tokens=10, seed=11)
    run(backend, ask("Something else entirely."), max_tokens=10, seed=5)
    again = run(backend, ask("Pick a word."), max_tokens=10, seed=11)
    assert text_of(first) == text_of(again)


def test_max_tokens_ends_with_length(backend: LlamaCppBackend) -> None:
    done = run(backend, ask("Count to ten."), max_tokens=3, seed=1, temperature=0.0)[-1]
    assert isinstance(done, Done)
    assert (done.finish_reason, done.completion_tokens) == ("length", 3)


def test_cancel_is_honoured_between_tokens(backend: LlamaCppBackend) -> None:
    polls = []

    def stop_after_two() -> bool:
        polls.append(1)
        return len(polls) >= 2

    events = list(backend.stream(ask("Write a long story."),
                                 GenerateOptions(max_tokens=50, temperature=0.0), stop_after_two))
    done = events[-1]
    assert isinstance(done, Done)
    assert (done.finish_reason, done.completion_tokens) == ("cancelled", 2)


def test_second_turn_reuses_the_unchanged_prefix(backend: LlamaCppBackend) -> None:
    history = "Here is a long question about the weather in Paris. " * 8
    first = run(backend, ask(history), max_tokens=4, cache_key=None)[-1]
    second = run(backend, ask(history, "An answer.", "And tomorrow?"), max_tokens=4)[-1]
    assert isinstance(first, Done) and isinstance(second, Done)
    # Before: only the system prompt is shared with whatever ran earlier.
    assert first.cached_prompt_tokens < first.prompt_tokens // 2
    # The whole first prompt but its last tokens ("<think>\n" merges with the history's "\n").
    assert first.prompt_tokens - 3 <= second.cached_prompt_tokens < second.prompt_tokens


def test_prompt_longer_than_the_context_is_a_clear_error(tiny_model: TinyModel) -> None:
    small = LlamaCppBackend(str(tiny_model.gguf_path), context_length=256)
    small.load()
    events = run(small, ask("word " * 400))
    assert isinstance(events[0], StreamError) and "context" in events[0].message
    assert isinstance(events[-1], Done) and events[-1].finish_reason == "error"
    assert isinstance(run(small, ask("short"), max_tokens=2)[-1], Done)  # still usable
    small.unload()


def test_quantized_kv_cache_runs() -> None:
    from tests.conftest import CACHE
    from tests.support.tiny_model import build_model

    # llama.cpp quantizes KV in blocks of 32 values per head: this tiny model has head size 32.
    model = build_model(CACHE / "tiny-model-hd32", hidden=64, intermediate=128, layers=2,
                        heads=2, kv_heads=1, head_dim=32, vocab=512, seed=3)
    q8 = LlamaCppBackend(str(model.gguf_path), context_length=512, kv_type="q8_0")
    q8.load()
    assert q8.info.kv_type == "q8_0"
    assert run(q8, ask("Hi"), max_tokens=3)[-1].completion_tokens > 0  # type: ignore[union-attr]
    q8.unload()


def test_quantized_kv_on_an_unfit_head_size_is_refused_clearly(tiny_model: TinyModel) -> None:
    with pytest.raises(UnsupportedModel, match="divisible by 32"):
        LlamaCppBackend(str(tiny_model.gguf_path), kv_type="q8_0").load()


def test_unknown_kv_type_is_refused() -> None:
    with pytest.raises(BackendError, match="KV cache type"):
        LlamaCppBackend("model.gguf", kv_type="q3")


def test_stream_before_load_says_so(tiny_model: TinyModel) -> None:
    with pytest.raises(NotLoaded):
        run(LlamaCppBackend(str(tiny_model.gguf_path)), ask("Hi"))


def test_multibyte_characters_are_never_split(backend: LlamaCppBackend) -> None:
    text = "你好，世界 🎉 naïve café"
    llm = backend._llm
    ids = llm.tokenize(text.encode(), add_bos=False, special=False)
    assert len(ids) > len(text.split())  # byte-level: characters span several tokens
    decoder = TokenText(llm)
    pieces = [decoder.push(t) for t in ids] + [decoder.flush()]
    assert "".join(pieces) == text
    assert all("\ufffd" not in piece for piece in pieces)


def test_unload_frees_the_model(tiny_model: TinyModel, tmp_path: Path) -> None:
    b = LlamaCppBackend(str(tiny_model.gguf_path), context_length=256)
    b.load()
    b.unload()
    assert not b.loaded
    b.load()  # and it loads again
    assert run(b, ask("Hi"), max_tokens=1)[-1].completion_tokens <= 1  # type: ignore[union-attr]
    b.unload()


def test_thinking_switch_decides_where_the_output_starts(backend: LlamaCppBackend) -> None:
    def first_delta(events: list[Event]) -> Event:
        return next(e for e in events if isinstance(e, TextDelta | ReasoningDelta))

    thinking = run(backend, ask("Hi there"), max_tokens=6, temperature=0.0)
    plain = run(backend, ask("Hi there"), max_tokens=6, temperature=0.0, enable_thinking=False)
    # Thinking on: the prompt ends inside <think>, so the output begins as reasoning.
    assert isinstance(first_delta(thinking), ReasoningDelta)
    assert isinstance(first_delta(plain), TextDelta)


def test_generation_stops_at_the_end_tokens_and_never_shows_them(
        backend: LlamaCppBackend) -> None:
    finishes = []
    for seed in range(30):  # random weights: some of these runs sample <|im_end|> early
        events = run(backend, ask("Say something."), max_tokens=48, seed=seed, temperature=1.0)
        done = events[-1]
        assert isinstance(done, Done)
        assert "<|im_end|>" not in text_of(events) and "<|endoftext|>" not in text_of(events)
        finishes.append((done.finish_reason, done.completion_tokens))
        if done.finish_reason == "stop":
            break
    reason, produced = finishes[-1]
    assert reason == "stop" and produced < 48, finishes


def test_a_turn_that_computes_its_prefix_reads_each_prompt_token_once(
        tiny_model: TinyModel, tmp_path: Path) -> None:
    """A cold turn (no saved prefix yet) computes the system prompt's prefix and then reads the
    rest of the prompt from where it ends, not from the start again (the first word used to
    wait for the prefix twice)."""
    backend = LlamaCppBackend(str(tiny_model.gguf_path), context_length=8192,
                              cache_dir=tmp_path / "kv")
    backend.load()
    try:
        llm = backend._llm
        read: list[int] = []
        plain_eval = llm.eval
        llm.eval = lambda tokens: (read.append(len(tokens)), plain_eval(tokens))[1]
        system = {"role": "system", "content": "You keep notes for the team. " * 200}
        long_user = {"role": "user", "content": "Summarise the minutes of the meeting. " * 120}
        events = list(backend.stream([system, long_user],
                                     GenerateOptions(max_tokens=2, temperature=0), lambda: False))
    finally:
        backend.unload()
    done = events[-1]
    assert isinstance(done, Done) and done.finish_reason in ("length", "stop")
    assert done.prompt_tokens > 1500 and done.cached_prompt_tokens == 0
    assert sum(read) <= done.prompt_tokens + done.completion_tokens
