"""The person's time to first token while a batch of API requests decodes (issue 28 item 2).

    .venv/bin/python bench/bench_batch_person.py                 # full-size random Nanbeige4.2
    .venv/bin/python bench/bench_batch_person.py --model tiny    # the tests' tiny model

Through the real runner on one loaded llama.cpp model, interleaved: the person's short chat
turn on an idle model (the reference), then the same turn sent while --requests API requests
are being decoded in one batch (each has written a few tokens). The person's turn pauses the
batch at its next step and runs alone; the figure is the person's time to first token busy
over idle (target: unchanged, i.e. about 1.0, plus at most one batch step). The API requests
are cancelled once the person has an answer (their going on is tested, not timed, here)."""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core.runner import ModelRunner, Priority, RequestHandle  # noqa: E402
from backends.base import GenerateOptions  # noqa: E402
from backends.events import Done, Event, ReasoningDelta, TextDelta  # noqa: E402
from bench.bench_batch import TOPICS, load  # noqa: E402

WAIT = 1800  # hang guard only


def person_ttft(runner: ModelRunner) -> float:
    """Seconds from the person's submit to their first delta."""
    first = threading.Event()
    done = threading.Event()

    def on_event(event: Event) -> None:
        if isinstance(event, (TextDelta, ReasoningDelta)):
            first.set()
        if isinstance(event, Done):
            first.set()
            done.set()

    started = time.perf_counter()
    runner.submit([{"role": "user", "content": "What time is my next meeting?"}],
                  GenerateOptions(max_tokens=4, temperature=0, enable_thinking=False,
                                  cache_key="person"), on_event, priority=Priority.USER)
    first.wait(WAIT)
    took = time.perf_counter() - started
    done.wait(WAIT)
    return took


def start_batch(runner: ModelRunner, count: int, tokens: int) -> list[RequestHandle]:
    """`count` API requests queued together (one batch); returns once each has written."""
    gate = threading.Event()
    runner.call(lambda: gate.wait(WAIT))
    writing = [threading.Event() for _ in range(count)]
    handles = []
    for index in range(count):
        messages = [{"role": "user", "content": "Write a long, detailed article about "
                                                f"{TOPICS[index % len(TOPICS)]}."}]
        options = GenerateOptions(max_tokens=tokens, temperature=0.0, enable_thinking=False)
        mark = writing[index]

        def on_event(event: Event, mark: threading.Event = mark) -> None:
            if isinstance(event, (TextDelta, Done)):
                mark.set()

        handles.append(runner.submit(messages, options, on_event,
                                     priority=Priority.API, pausable=True))
    gate.set()
    for mark in writing:
        mark.wait(WAIT)
    return handles


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=["full", "gemma", "tiny"], default="full")
    parser.add_argument("--requests", type=int, default=4)
    parser.add_argument("--tokens", type=int, default=128)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    runner = ModelRunner()
    backend = load(args.model, 4096)
    runner.load(backend).result(WAIT)
    person_ttft(runner)  # warm-up: the person's conversation and the weights in memory
    idle: list[float] = []
    busy: list[float] = []
    for i in range(args.repeats):
        for side in (["idle", "busy"] if i % 2 == 0 else ["busy", "idle"]):
            if side == "idle":
                idle.append(person_ttft(runner))
                continue
            handles = start_batch(runner, args.requests, args.tokens)
            busy.append(person_ttft(runner))
            for handle in handles:
                handle.cancel()
                handle.wait(WAIT)
        print(f"run {i}: person's first token idle {idle[-1]:.3f} s, during a batch of "
              f"{args.requests} {busy[-1]:.3f} s ({busy[-1] / idle[-1]:.2f}x)", flush=True)
    ratio = statistics.median(b / i for b, i in zip(busy, idle, strict=True))
    print(f"median: idle {statistics.median(idle):.3f} s, busy {statistics.median(busy):.3f} s,"
          f" ratio {ratio:.2f}x")
    runner.close()


if __name__ == "__main__":
    main()
