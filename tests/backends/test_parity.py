"""Engine parity: llama.cpp and MLX run the same looped model the same way (issue 2)."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from tests.support.tiny_model import TinyModel

PROMPTS = [
    "<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\n<think>\n",
    "<|im_start|>system\nYou are Hearth.<|im_end|>\n<|im_start|>user\nWhat is the weather in "
    "Paris and Tokyo today? 今天天气很好。<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n",
]


@pytest.fixture(scope="module")
def engines(tiny_model: TinyModel) -> tuple[Any, Any]:
    llama_cpp = pytest.importorskip("llama_cpp")
    mlx_lm = pytest.importorskip("mlx_lm")
    llm = llama_cpp.Llama(str(tiny_model.gguf_path), n_ctx=256, logits_all=True, verbose=False)
    model, _ = mlx_lm.load(str(tiny_model.mlx_dir))
    yield llm, model
    llm.close()


def _llama_logits(llm: Any, ids: list[int]) -> np.ndarray:
    llm.reset()
    llm.eval(ids)
    return np.array(llm.scores[len(ids) - 1], dtype=np.float64)


def _mlx_logits(model: Any, ids: list[int]) -> np.ndarray:
    import mlx.core as mx

    out = model(mx.array([ids]))
    return np.array(out[0, -1].astype(mx.float32), dtype=np.float64)


@pytest.mark.parametrize("prompt", PROMPTS, ids=["short", "long"])
def test_next_token_logits_agree(engines: tuple[Any, Any], prompt: str) -> None:
    llm, model = engines
    ids = llm.tokenize(prompt.encode(), add_bos=False, special=True)
    a, b = _llama_logits(llm, ids), _mlx_logits(model, ids)
    cosine = float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))
    assert cosine >= 0.999
    assert int(a.argmax()) == int(b.argmax())


def test_logits_depend_on_position_so_rope_layout_is_checked(engines: tuple[Any, Any]) -> None:
    # With q/k permuted wrongly only position 0 would still agree; the same tokens in a different
    # order must give different logits in both engines, and the engines must still agree.
    llm, model = engines
    ids = llm.tokenize(b"alpha beta gamma delta", add_bos=False, special=True)
    swapped = ids[1:] + ids[:1]
    a1, a2 = _llama_logits(llm, ids), _llama_logits(llm, swapped)
    assert not np.allclose(a1, a2, atol=1e-3)
    b2 = _mlx_logits(model, swapped)
    assert float(a2 @ b2 / (np.linalg.norm(a2) * np.linalg.norm(b2))) >= 0.999
