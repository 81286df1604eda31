"""Batched decoding on llama.cpp: 4 requests in one batch vs one request alone (issue 28 item 2).

    .venv/bin/python bench/bench_batch.py                 # full-size random Nanbeige4.2 Q8_0
    .venv/bin/python bench/bench_batch.py --model gemma   # gemma3-270m (a real small model)
    .venv/bin/python bench/bench_batch.py --model tiny    # the tests' tiny model, seconds

One request of --tokens through stream() (the single path, as the person's chat decodes) and
--requests different requests of --tokens each through stream_batch(), on two contexts of the
same model file in one process (the weights' pages are shared), decoded in turns a few tokens
at a time: the machine's load, which swings severalfold from one minute to the next on the
shared box, weighs on both sides alike. Only the stretch where both decode is counted (prefill
and the first token of every request are left out, as in Done.timings["tokens_per_second"]).
Figures: aggregate decode tokens/s of the batch over tokens/s alone, by wall clock and by the
process's CPU time (target >= 1.8x for 4 x 128 on the full-size model). The request alone is
the batch's first, and its two answers are compared (greedy: equal unless the engine's
arithmetic differs with the batch)."""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from backends.base import BatchRequest, GenerateOptions  # noqa: E402
from backends.cpu import engine_threads  # noqa: E402
from backends.events import TextDelta  # noqa: E402
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


@dataclass
class Side:
    """One side's events, decoded a stretch at a time (to its next event). The engines call
    should_stop once after every token: each call is a token, and the time since the stretch
    began or the previous call in it is that token's (in a batch, the first call after a step
    carries the step's time and the others, in the same step, next to none)."""

    requests: int
    events: Iterator[Any] = field(default_factory=lambda: iter(()))
    first: Any = None  # the batch's first request, whose answer is kept
    tokens: int = 0
    measuring: bool = False
    marks: tuple[float, float] = (0.0, 0.0)  # wall and CPU clocks at the last mark
    wall: float = 0.0
    cpu: float = 0.0
    counted: int = 0  # tokens decoded while measuring
    texts: list[str] = field(default_factory=list)
    over: bool = False

    def count(self) -> bool:
        self.tokens += 1
        now = (time.perf_counter(), time.process_time())
        if self.measuring:
            self.wall += now[0] - self.marks[0]
            self.cpu += now[1] - self.marks[1]
            self.counted += 1
        self.marks = now
        return False

    def advance(self, measure: bool) -> None:
        """Run to the next event, timed when `measure`."""
        self.measuring = measure
        self.marks = (time.perf_counter(), time.process_time())
        try:
            event = next(self.events)
        except StopIteration:
            self.over = True
            return
        finally:
            self.measuring = False
        if isinstance(event, tuple):
            event = event[1] if event[0] is self.first else None
        if isinstance(event, TextDelta):
            self.texts.append(event.text)


def request(index: int, tokens: int, side: Side) -> BatchRequest:
    messages = [{"role": "system", "content": "You are Hearth, a private desktop assistant."},
                {"role": "user", "content": f"Write a long, detailed article about "
                                            f"{TOPICS[index % len(TOPICS)]}."}]
    # Greedy, no reasoning budget: every request decodes its --tokens unless the model stops.
    options = GenerateOptions(max_tokens=tokens, temperature=0.0, enable_thinking=False)
    return BatchRequest(messages, options, side.count)


def start(single: LlamaCppBackend, batched: LlamaCppBackend, count: int, tokens: int
          ) -> tuple[Side, Side]:
    alone, batch = Side(1), Side(count)
    req = request(0, tokens, alone)
    alone.events = iter(single.stream(req.messages, req.options, req.should_stop))
    requests = [request(i, tokens, batch) for i in range(count)]
    batch.first = requests[0]
    batch.events = iter(batched.stream_batch(requests, lambda places: []))
    # Through the prefill, unmeasured: should_stop is also polled once before a request's
    # first token (and per prefix chunk), after which it counts tokens exactly.
    for side in (alone, batch):
        while side.tokens < 2 * side.requests + 2 and not side.over:
            side.advance(measure=False)
    return alone, batch


def race(single: LlamaCppBackend, batched: LlamaCppBackend, count: int, tokens: int
         ) -> dict[str, float | str]:
    """One round: both sides decode in turns, one event each, while both have tokens to go."""
    alone, batch = start(single, batched, count, tokens)
    while not alone.over and not batch.over:
        alone.advance(measure=True)
        batch.advance(measure=True)
    for side in (alone, batch):  # the rest is not compared: finish it unmeasured
        while not side.over:
            side.advance(measure=False)
    return {"alone": alone.counted / alone.wall, "batch": batch.counted / batch.wall,
            "wall": (batch.counted / batch.wall) / (alone.counted / alone.wall),
            "cpu": (batch.counted / batch.cpu) / (alone.counted / alone.cpu),
            "same": same_start("".join(batch.texts), "".join(alone.texts))}


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
    single, batched = load(args.model, args.context), load(args.model, args.context)
    print(f"model {args.model}, threads {single.info.extra['threads']}, batch capacity "
          f"{batched.batch_capacity()}, context {single.info.context_length}", flush=True)
    rounds = []
    for i in range(args.repeats):
        rounds.append(race(single, batched, args.requests, args.tokens))
        r = rounds[-1]
        print(f"round {i}: alone {r['alone']:.2f} tok/s, batch of {args.requests} "
              f"{r['batch']:.2f} tok/s: {r['wall']:.2f}x wall, {r['cpu']:.2f}x CPU time; "
              f"request 0 batched vs alone: {r['same']}", flush=True)
    for key in ("wall", "cpu"):
        values = [float(r[key]) for r in rounds]
        print(f"median {key}: {statistics.median(values):.2f}x "
              f"(rounds: {', '.join(f'{v:.2f}' for v in values)})")
    single.unload()
    batched.unload()


if __name__ == "__main__":
    main()
