"""Batched decoding on MLX: 4 requests through MlxBackend.stream_batch vs 1 through stream().

Aggregate decode tokens/s of the batch (all four answers' tokens over the batch's decode time)
against one request alone (plain decoding, no prompt-lookup drafts, as inside a batch), runs
interleaved (A, B, A, B...), the first round dropped as warm-up; also whether each batched
answer is token for token its one-at-a-time answer (greedy).

    .venv/bin/python bench/bench_mlx_batch.py [--size wide|tiny] [--repeats 3] [--tokens 128]

"wide" is a random-weight Nanbeige (8 layers x 2 loops, hidden 1024, 16 heads, 4 KV heads),
built once under bench/.cache; "tiny" is the test model. This is MLX's CPU build on Linux,
not Apple Silicon."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from backends.base import BatchRequest, GenerateOptions, Message
from backends.events import Done, Event
from backends.mlx_backend import MlxBackend

CACHE = Path(__file__).resolve().parent / ".cache"
SIZES: dict[str, dict[str, int]] = {
    "tiny": dict(hidden=64, intermediate=128, layers=2, heads=4, kv_heads=2, head_dim=16),
    "wide": dict(hidden=1024, intermediate=2816, layers=8, heads=16, kv_heads=4, head_dim=64),
}
SYSTEM: Message = {"role": "system", "content": "You are Hearth, a helpful assistant."}
QUESTIONS = ("Write a story about the sea.", "Explain how a calendar works.",
             "Plan a trip to the mountains with friends.", "Describe the weather today.")


def build(size: str) -> Path:
    from tests.support.tiny_model import build_model

    return build_model(CACHE / f"mlx-batch-{size}", vocab=512, seed=0, **SIZES[size]).mlx_dir


def options(tokens: int) -> GenerateOptions:
    return GenerateOptions(temperature=0.0, max_tokens=tokens)


def ask(question: str) -> list[Message]:
    return [SYSTEM, {"role": "user", "content": question}]


def one(backend: MlxBackend, question: str, tokens: int) -> tuple[float, list[Event]]:
    """Decode tokens/s of one request alone (its own Done timings)."""
    events = list(backend.stream(ask(question), options(tokens), lambda: False))
    done = events[-1]
    assert isinstance(done, Done)
    return done.timings["tokens_per_second"], events


def four(backend: MlxBackend, tokens: int) -> tuple[float, list[list[Event]]]:
    """Aggregate decode tokens/s of four requests in one batch: every token after each
    request's first, over the time from the earliest first token to the last end (a little
    under the true rate: the others' first tokens come a step or so later)."""
    requests = [BatchRequest(ask(q), options(tokens), lambda: False) for q in QUESTIONS]
    events: dict[int, list[Event]] = {id(r): [] for r in requests}
    first_at: dict[int, float] = {}
    for request, event in backend.stream_batch(requests, lambda places: []):
        events[id(request)].append(event)
        first_at.setdefault(id(request), time.perf_counter())
    end = time.perf_counter()
    dones = [e[-1] for e in events.values()]
    assert all(isinstance(d, Done) for d in dones)
    window = end - min(first_at.values())
    written = sum(d.completion_tokens - 1 for d in dones if isinstance(d, Done))
    return written / window, [events[id(r)] for r in requests]


def main() -> int:
    sys.stdout.reconfigure(line_buffering=True)  # figures appear as they are measured
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", choices=sorted(SIZES), default="wide")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--tokens", type=int, default=128)
    args = parser.parse_args()
    started = time.perf_counter()
    folder = build(args.size)
    print(f"model {args.size} ({folder}) ready in {time.perf_counter() - started:.0f} s")
    backend = MlxBackend(str(folder), speculate=False)
    backend.load()
    print(f"device {backend.info.device}, context {backend.info.context_length}, "
          f"capacity {backend.batch_capacity()}, {args.tokens} tokens per request")
    singles: list[float] = []
    batches: list[float] = []
    identical = 0
    for round_ in range(args.repeats + 1):
        single, alone = one(backend, QUESTIONS[round_ % 4], args.tokens)
        batch, answers = four(backend, args.tokens)
        if round_ == 0:  # warm-up; also the identity check, once
            refs = [one(backend, q, args.tokens)[1] for q in QUESTIONS]
            identical = sum(a[:-1] == r[:-1] for a, r in zip(answers, refs, strict=True))
            counts = [d.completion_tokens for d in (a[-1] for a in answers) if isinstance(d, Done)]
            print(f"batched answers token for token the one-at-a-time ones: {identical}/4 "
                  f"(completion tokens {counts})")
            continue
        singles.append(single)
        batches.append(batch)
        print(f"round {round_}: one request {single:.1f} tok/s, four batched {batch:.1f} tok/s "
              f"aggregate, ratio {batch / single:.2f}")
    ratios = sorted(b / s for b, s in zip(batches, singles, strict=True))
    print(f"median ratio (4 batched aggregate / 1 alone): {ratios[len(ratios) // 2]:.2f} "
          f"(min {ratios[0]:.2f}, max {ratios[-1]:.2f})")
    backend.unload()
    return 0


if __name__ == "__main__":
    sys.exit(main())
