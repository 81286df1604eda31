"""Batched decoding on llama.cpp: 4 requests in one batch vs one request alone (issue 28 item 2).

    .venv/bin/python bench/bench_batch.py                 # full-size random Nanbeige4.2 Q8_0
    .venv/bin/python bench/bench_batch.py --model gemma   # gemma3-270m (a real small model)
    .venv/bin/python bench/bench_batch.py --model tiny    # the tests' tiny model, seconds

Interleaved in one process on one loaded model: one request of --tokens through stream() (the
single path, as the person's chat decodes), then --requests different requests of --tokens each
through stream_batch(). The request alone is the batch's first, and its two answers are compared
(greedy: equal unless the engine's arithmetic differs with the batch). The figure is aggregate
decode tokens/s of the batch over decode tokens/s of the request alone (target >= 1.8x for
4 x 128 on the full-size model). Decode counts every token after a request's first (the first
comes out of the prefill), as Done.timings["tokens_per_second"] does."""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from backends.base import BatchRequest, GenerateOptions  # noqa: E402
from backends.cpu import engine_threads  # noqa: E402
from backends.events import Done, Event, TextDelta  # noqa: E402
from backends.llama_cpp import LlamaCppBackend  # noqa: E402

MODELS = {
    "full": ROOT / "bench" / ".cache" / "nanbeige4.2-3b-random-q8_0" / "model.gguf",
    "gemma": ROOT / "tests" / ".cache" / "gemma3-270m" / "gemma-3-270m-q4_k_m.gguf",
    "tiny": ROOT / "tests" / ".cache" / "tiny-model" / "model.gguf",
}
# gemma3-270m is a base model without a chat template: the user's text is continued.
COMPLETION_TEMPLATE = "{{ bos_token }}{% for m in messages %}{{ m.content }}{% endfor %}"
TOPICS = ["the harbour town's new ferry timetable", "a recipe for bread with rye and honey",
          "how a bicycle gear hub works", "the history of the public library on Elm Street",
          "planning a week of walks in the hills", "why the river floods in spring"]


def never() -> bool:
    return False


def request(index: int, tokens: int) -> BatchRequest:
    messages = [{"role": "system", "content": "You are Hearth, a private desktop assistant."},
                {"role": "user", "content": f"Write a long, detailed article about "
                                            f"{TOPICS[index % len(TOPICS)]}."}]
    # Greedy, no reasoning budget: every request decodes its --tokens unless the model stops.
    options = GenerateOptions(max_tokens=tokens, temperature=0.0, enable_thinking=False)
    return BatchRequest(messages, options, never)


def text_of(events: list[Event]) -> str:
    return "".join(e.text for e in events if isinstance(e, TextDelta))


def alone(backend: LlamaCppBackend, tokens: int) -> tuple[dict[str, float], str]:
    """The batch's first request on the single path: its decode speed and its answer."""
    req = request(0, tokens)
    events = list(backend.stream(req.messages, req.options, never))
    done = events[-1]
    assert isinstance(done, Done), done
    return {"tps": done.timings["tokens_per_second"], "tokens": done.completion_tokens}, \
        text_of(events)


def batch(backend: LlamaCppBackend, count: int, tokens: int) -> tuple[dict[str, float], str]:
    """Aggregate decode tokens/s (every request's tokens after its first, over the time from
    the first request's first token to the last request's end) and the first one's answer."""
    requests = [request(i, tokens) for i in range(count)]
    started = time.perf_counter()
    events = list(backend.stream_batch(requests, lambda places: []))
    dones = [event for _, event in events if isinstance(event, Done)]
    assert len(dones) == count and all(d.finish_reason in ("length", "stop") for d in dones), dones
    # Each request's clock starts when it joins (all at `started`, within milliseconds).
    first = min(started + d.timings["ttft_ms"] / 1000 for d in dones)
    end = max(started + d.timings["total_ms"] / 1000 for d in dones)
    decoded = sum(d.completion_tokens - 1 for d in dones)
    return {"tps": decoded / (end - first), "tokens": sum(d.completion_tokens for d in dones),
            "ttft_s": max(d.timings["ttft_ms"] for d in dones) / 1000}, \
        text_of([event for req, event in events if req is requests[0]])


def same_start(a: str, b: str) -> str:
    """'identical', or where two answers part (characters in common)."""
    common = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                  min(len(a), len(b)))
    return "identical" if a == b else f"differs after {common} of {len(a)} characters"


def load(name: str, context: int) -> LlamaCppBackend:
    path = MODELS[name]
    if not path.is_file():
        sys.exit(f"{path} is missing (full: bench/make_full_model.py; gemma: run the gemma tests)")
    backend = LlamaCppBackend(str(path), context_length=context,
                              chat_template=COMPLETION_TEMPLATE if name == "gemma" else None,
                              n_threads=engine_threads(0))
    backend.load()
    return backend


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=sorted(MODELS), default="full")
    parser.add_argument("--requests", type=int, default=4)
    parser.add_argument("--tokens", type=int, default=128)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--context", type=int, default=4096)
    args = parser.parse_args()
    backend = load(args.model, args.context)
    print(f"model {args.model}, threads {backend.info.extra['threads']}, batch capacity "
          f"{backend.batch_capacity()}, context {backend.info.context_length}", flush=True)
    alone(backend, 8)  # warm-up: pages of the weights in memory, buffers allocated
    ratios: list[float] = []
    singles: list[dict[str, float]] = []
    batches: list[dict[str, float]] = []
    answers: dict[str, str] = {}
    for i in range(args.repeats):
        # Alternate which goes first, so drift in the machine's load favours neither.
        order: list[Any] = ["alone", "batch"] if i % 2 == 0 else ["batch", "alone"]
        for side in order:
            if side == "alone":
                figures, answers[side] = alone(backend, args.tokens)
                singles.append(figures)
            else:
                figures, answers[side] = batch(backend, args.requests, args.tokens)
                batches.append(figures)
        ratios.append(batches[-1]["tps"] / singles[-1]["tps"])
        print(f"run {i}: alone {singles[-1]['tps']:.2f} tok/s ({singles[-1]['tokens']:.0f} "
              f"tokens), batch of {args.requests} {batches[-1]['tps']:.2f} tok/s "
              f"({batches[-1]['tokens']:.0f} tokens, last first token after "
              f"{batches[-1]['ttft_s']:.1f} s): {ratios[-1]:.2f}x; request 0 batched vs "
              f"alone: {same_start(answers['batch'], answers['alone'])}", flush=True)
    print(f"median: alone {statistics.median(s['tps'] for s in singles):.2f} tok/s, batch "
          f"{statistics.median(b['tps'] for b in batches):.2f} tok/s, ratio "
          f"{statistics.median(ratios):.2f}x (runs: {', '.join(f'{r:.2f}' for r in ratios)})")
    backend.unload()


if __name__ == "__main__":
    main()
