"""MLX with quantized KV (q8_0 / q4_0): runs, keeps the cache across turns, says what it uses."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from backends.base import GenerateOptions, Message
from backends.events import Done, Event, ReasoningDelta
from backends.mlx_backend import MlxBackend
from tests.conftest import CACHE

pytestmark = pytest.mark.usefixtures("needs_mlx_lm")


@pytest.fixture(scope="module")
def model_dir() -> Path:
    """The tiny model with a head size MLX can quantize (groups of 32)."""
    from tests.support.tiny_model import build_model

    built = build_model(CACHE / "tiny-model-hd32", hidden=64, intermediate=128, layers=2,
                        heads=2, kv_heads=1, head_dim=32, vocab=512, seed=3)
    return built.mlx_dir


def chat(*turns: str) -> list[Message]:
    roles = ("user", "assistant")
    return [{"role": "system", "content": "Be brief."},
            *({"role": roles[i % 2], "content": t} for i, t in enumerate(turns))]


def run(backend: MlxBackend, messages: list[Message], key: str) -> tuple[str, Done]:
    events: list[Event] = list(backend.stream(
        messages, GenerateOptions(max_tokens=10, temperature=0.0, cache_key=key),
        lambda: False))
    done = events[-1]
    assert isinstance(done, Done)
    return "".join(e.text for e in events if isinstance(e, ReasoningDelta)), done


@pytest.fixture(scope="module", params=["q8_0", "q4_0"])
def quantized(request: pytest.FixtureRequest, model_dir: Path,
              tmp_path_factory: pytest.TempPathFactory) -> Iterator[MlxBackend]:
    backend = MlxBackend(str(model_dir), kv_type=request.param,
                         cache_dir=tmp_path_factory.mktemp("kv"))
    backend.load()
    yield backend
    backend.unload()


def test_quantized_kv_generates_and_reuses_the_prefix(quantized: MlxBackend) -> None:
    _, first = run(quantized, chat("What day is it?"), "q")
    assert first.finish_reason in ("length", "stop") and first.completion_tokens > 0
    _, second = run(quantized, chat("What day is it?", "Monday.", "And tomorrow?"), "q")
    assert second.cached_prompt_tokens >= first.prompt_tokens


def test_quantized_cache_is_smaller_than_unquantized(quantized: MlxBackend, model_dir: Path) -> None:
    f16 = MlxBackend(str(model_dir))
    f16.load()
    run(f16, chat("Count the files in my documents folder please"), "size")
    run(quantized, chat("Count the files in my documents folder please"), "size")
    full = f16._store.take("size")  # type: ignore[union-attr]
    small = quantized._store.take("size")  # type: ignore[union-attr]
    f16.unload()
    assert full is not None and small is not None
    assert len(full.tokens) == len(small.tokens)
    assert small.nbytes < full.nbytes * 0.6


def test_quantized_cache_reopens_after_unload(model_dir: Path, tmp_path: Path) -> None:
    first = MlxBackend(str(model_dir), kv_type="q8_0", cache_dir=tmp_path)
    first.load()
    _, done = run(first, chat("Book a meeting"), "reopen")
    first.unload()
    again = MlxBackend(str(model_dir), kv_type="q8_0", cache_dir=tmp_path)
    again.load()
    _, follow = run(again, chat("Book a meeting", "For when?", "Tomorrow"), "reopen")
    again.unload()
    assert follow.cached_prompt_tokens >= done.prompt_tokens


def test_changing_kv_type_never_reuses_the_old_cache(model_dir: Path, tmp_path: Path) -> None:
    first = MlxBackend(str(model_dir), kv_type="q8_0", cache_dir=tmp_path)
    first.load()
    run(first, chat("Book a meeting"), "switch")
    first.unload()
    f16 = MlxBackend(str(model_dir), kv_type="f16", cache_dir=tmp_path)
    f16.load()
    _, follow = run(f16, chat("Book a meeting", "For when?", "Tomorrow"), "switch")
    f16.unload()
    assert follow.cached_prompt_tokens == 0
