"""Does flash attention change what llama.cpp answers? Perplexity and greedy answers, on and off.

    .venv/bin/python bench/bench_flash_attention.py                  # gemma3-270m, README.md
    .venv/bin/python bench/bench_flash_attention.py --text FILE

Hearth opens llama.cpp with flash attention (backends/llama_cpp.py, FLASH_ATTENTION): faster on
the CPU, but its kernel sums in another order and precision than the plain path, so a near tie
can go the other way. This bench measures what that does on a real model: perplexity over the
second halves of 512-token windows of the text, and the first-token margins of short
questions, with the KV in f16 and in f32, flash attention off and on."""

from __future__ import annotations

import argparse
import math
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
MODEL = ROOT / "tests" / ".cache" / "gemma3-270m" / "gemma-3-270m-q4_k_m.gguf"
SETTINGS = {"f16 KV, plain": ("f16", False), "f16 KV, flash": ("f16", True),
            "f32 KV, plain": ("f32", False), "f32 KV, flash": ("f32", True)}
QUESTIONS = ["Q: What is the capital of Japan?\nA:", "The capital of Japan is",
             "Question: What is the capital of France?\nAnswer:", "Monday, Tuesday, Wednesday,"]
WINDOW = 512


def perplexity(llm: Any, tokens: list[int]) -> tuple[float, int]:
    nll, count = 0.0, 0
    for start in range(0, len(tokens) - WINDOW + 1, WINDOW):
        llm.reset()
        llm.eval(tokens[start:start + WINDOW])
        logits = np.array(llm.scores[:WINDOW], dtype=np.float64)
        logits -= logits.max(1, keepdims=True)
        logp = logits - np.log(np.exp(logits).sum(1, keepdims=True))
        for i in range(WINDOW // 2, WINDOW - 1):  # each token read with >= 256 before it
            nll -= logp[i, tokens[start + i + 1]]
            count += 1
    return math.exp(nll / count), count


def margins(llm: Any, question: str) -> str:
    tokens = llm.tokenize(question.encode())
    llm.reset()
    llm.eval(tokens)
    logits = np.array(llm.scores[len(tokens) - 1])
    top = np.argsort(-logits)[:2]
    words = [llm.detokenize([int(t)]).decode(errors="replace") for t in top]
    return f"{words[0]!r} {logits[top[0]]:.2f} / {words[1]!r} {logits[top[1]]:.2f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--text", default=str(ROOT / "README.md"))
    parser.add_argument("--model", default=str(MODEL))
    args = parser.parse_args()
    from llama_cpp import Llama

    from backends.llama_cpp import KV_GGML_TYPES

    text = Path(args.text).read_text(encoding="utf-8")
    for name, (kv, flash) in SETTINGS.items():
        ggml_type = KV_GGML_TYPES[kv]
        llm = Llama(args.model, n_ctx=WINDOW, n_threads=2, n_threads_batch=2, type_k=ggml_type,
                    type_v=ggml_type, flash_attn=flash, logits_all=True, verbose=False)
        ppl, count = perplexity(llm, llm.tokenize(text.encode())[:4 * WINDOW])
        print(f"{name}: perplexity {ppl:.4f} over {count} tokens", flush=True)
        for question in QUESTIONS:
            print(f"    {question!r}: {margins(llm, question)}", flush=True)
        del llm


if __name__ == "__main__":
    main()
