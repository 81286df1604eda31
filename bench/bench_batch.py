"""Batched decoding on llama.cpp: 4 requests in one batch vs one request alone (issue 28 item 2).

    .venv/bin/python bench/bench_batch.py                 # full-size random Nanbeige4.2 Q8_0
    .venv/bin/python bench/bench_batch.py --model gemma   # gemma3-270m (a real small model)
    .venv/bin/python bench/bench_batch.py --model tiny    # the tests' tiny model, seconds
    .venv/bin/python bench/bench_batch.py --requests 2,3,4   # the batch policy, by batch size
    .venv/bin/python bench/bench_batch.py --plain          # no drafts on either side

One request of --tokens through stream() (the single path, as the person's chat decodes) and
--requests different requests of --tokens each through stream_batch(), on two contexts of the
same model file in one process (the weights' pages are shared), decoding in turns, token by
token (a whole step for the batch): the machine's load, which swings severalfold from one
minute to the next on the shared box, weighs on both sides alike. Only the stretch where both
decode is counted (prefill and first tokens are left out, as in Done.timings
["tokens_per_second"]). Figures: aggregate decode tokens/s of the batch over tokens/s alone,
by wall clock and by the process's CPU time (target >= 1.8x for 4 x 128 on the full-size
model). Both sides verify prompt-lookup drafts, as Hearth serves requests (the draft tokens
kept are printed per side); --plain turns drafts off on both: what batching alone gains over
the engine alone. The request alone is the batch's first, and its two answers are compared
(greedy: equal unless the engine's arithmetic differs with the batch).

With several --requests sizes, each round races every size in turn, and the end shows what the
runner's batch policy (app/core/runner.py) makes of n requests at once, from the step costs the
engines timed in this run (backends/pass_costs.py) and the lone pace the single path's drafts
made in it (DraftPace: tokens per one-token pass): the size it batches, and its aggregate ratio
against always batching all n (one after another on the single path is 1.00x by definition)."""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core.runner import _best_joiners  # noqa: E402
from backends.base import BatchRequest, GenerateOptions  # noqa: E402
from backends.cpu import engine_threads  # noqa: E402
from backends.events import Done, Event, Prefill, merge_deltas  # noqa: E402
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


class Turns:
    """The two sides decode in turns: each runs in its own thread and, once both are past
    their prefill, hands over after every `quantum` tokens and waits for its next turn, so
    only one computes at a time and the machine's load weighs on both alike."""

    def __init__(self) -> None:
        self.cond = threading.Condition()
        self.sides: list[Side] = []
        self.turn = 0

    def measuring(self) -> bool:
        return all(s.warm for s in self.sides) and not any(s.over for s in self.sides)

    def hand_over(self, side: Side) -> None:
        with self.cond:
            mine = self.sides.index(side)
            self.turn = 1 - mine
            self.cond.notify_all()
            self.cond.wait_for(lambda: self.turn == mine or any(s.over for s in self.sides))

    def end(self, side: Side) -> None:
        with self.cond:
            side.over = True
            self.cond.notify_all()


@dataclass
class Side:
    """One side's token clock. The engines call should_stop once after every token (and once
    before a request's first token, and per prefix chunk: the prefill, never measured); the
    time since the side's previous call, or since it got its turn back, is that token's (in a
    batch, the first call after a step carries the step's time, the others next to none)."""

    turns: Turns
    requests: int
    quantum: int  # tokens per turn: 1 alone, one step of every request in the batch
    tokens: int = 0
    counted: int = 0  # tokens decoded while both sides are measured
    wall: float = 0.0
    cpu: float = 0.0
    marks: tuple[float, float] = (0.0, 0.0)
    over: bool = False
    answer: list[Any] = field(default_factory=list)  # the first request's events
    dones: list[Done] = field(default_factory=list)  # every request's Done (draft figures)

    @property
    def warm(self) -> bool:
        return self.tokens >= 2 * self.requests + 2  # past every request's first token

    def count(self) -> bool:
        now = (time.perf_counter(), time.process_time())
        if self.turns.measuring():
            self.wall += now[0] - self.marks[0]
            self.cpu += now[1] - self.marks[1]
            self.counted += 1
        self.tokens += 1
        if self.warm and self.tokens % self.quantum == 0:
            self.turns.hand_over(self)
        self.marks = (time.perf_counter(), time.process_time())
        return False


def request(index: int, tokens: int, side: Side) -> BatchRequest:
    messages = [{"role": "system", "content": "You are Hearth, a private desktop assistant."},
                {"role": "user", "content": f"Write a long, detailed article about "
                                            f"{TOPICS[index % len(TOPICS)]}."}]
    # Greedy, no reasoning budget: every request decodes its --tokens unless the model stops.
    options = GenerateOptions(max_tokens=tokens, temperature=0.0, enable_thinking=False)
    return BatchRequest(messages, options, side.count)


def run_alone(backend: LlamaCppBackend, side: Side, tokens: int) -> None:
    try:
        req = request(0, tokens, side)
        side.answer = list(backend.stream(req.messages, req.options, req.should_stop))
        side.dones = [e for e in side.answer if isinstance(e, Done)]
    finally:
        side.turns.end(side)


def run_batch(backend: LlamaCppBackend, side: Side, tokens: int) -> None:
    try:
        requests = [request(i, tokens, side) for i in range(side.requests)]
        events = list(backend.stream_batch(requests, lambda n: []))
        side.answer = [event for req, event in events if req is requests[0]]
        side.dones = [event for _req, event in events if isinstance(event, Done)]
    finally:
        side.turns.end(side)


def race(single: LlamaCppBackend, batched: LlamaCppBackend, count: int, tokens: int
         ) -> dict[str, float | str]:
    """One round: both sides decode in turns while both have tokens to go."""
    turns = Turns()
    alone, batch = Side(turns, 1, 1), Side(turns, count, count)
    turns.sides = [alone, batch]
    threads = [threading.Thread(target=run_alone, args=(single, alone, tokens)),
               threading.Thread(target=run_batch, args=(batched, batch, tokens))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return {"alone": alone.counted / alone.wall, "batch": batch.counted / batch.wall,
            "wall": (batch.counted / batch.wall) / (alone.counted / alone.wall),
            "cpu": (batch.counted / batch.cpu) / (alone.counted / alone.cpu),
            "tokens": f"{alone.counted} alone, {batch.counted} batched",
            "drafts": f"drafts kept alone {kept(alone)}, batched {kept(batch)}",
            "same": same_start(shown(batch.answer), shown(alone.answer))}


def kept(side: Side) -> str:
    """Draft tokens kept of those checked, over the side's answers ('-': none verified)."""
    drafted = sum(d.timings.get("drafted_tokens", 0.0) for d in side.dones)
    accepted = sum(d.timings.get("accepted_draft_tokens", 0.0) for d in side.dones)
    return f"{accepted:.0f}/{drafted:.0f}" if drafted else "-"


def shown(events: list[Event]) -> str:
    """What a client reads of an answer (text, reasoning, tool calls, errors), as text."""
    return repr(merge_deltas(e for e in events if not isinstance(e, Done | Prefill)))


def same_start(a: str, b: str) -> str:
    """'identical', or where two answers part (characters in common)."""
    common = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                  min(len(a), len(b)))
    return "identical" if a == b else f"differs after {common} of {len(a)} characters"


def engine_steps(name: str, counts: list[int], rounds: int) -> None:
    """The engine alone: raw llama_decode of one token of 1 sequence vs one token of each of
    N sequences, 4 steps each in turns, per round; what a batch of N can gain at most."""
    from llama_cpp import _internals

    from backends.llama_batch import open_llama
    from backends.llama_cpp import FLASH_ATTENTION, _import_engine

    llama_cpp = _import_engine()  # a build that loads its CPU backend at run time: this CPU's

    threads = engine_threads(0)
    llm = open_llama(max(counts) + 1, model_path=str(MODELS[name]), n_ctx=4096, n_batch=512,
                     n_ubatch=512, n_threads=threads, n_threads_batch=threads,
                     flash_attn=FLASH_ATTENTION, verbose=False)  # as Hearth opens it
    batch = _internals.LlamaBatch(n_tokens=512, embd=0, n_seq_max=1, verbose=False)
    positions = [0] * (max(counts) + 1)

    def step(seqs: list[int], length: int = 1) -> float:
        batch.batch.n_tokens = 0
        for seq in seqs:
            for _ in range(length):
                row = batch.batch.n_tokens
                b = batch.batch
                b.token[row], b.pos[row], b.n_seq_id[row], b.logits[row] = 100, positions[seq], 1, 1
                b.seq_id[row][0], b.n_tokens, positions[seq] = seq, row + 1, positions[seq] + 1
        started = time.perf_counter()
        assert llama_cpp.llama_decode(llm.ctx, batch.batch) == 0
        return time.perf_counter() - started

    for seq in range(max(counts) + 1):
        step([seq], 32)  # a short context in every sequence
    times: dict[int, list[float]] = {n: [] for n in [1, *counts]}
    for _ in range(rounds):
        for n in times:
            times[n].append(statistics.mean(step(list(range(1, n + 1)) if n > 1 else [0])
                                            for _ in range(4)))
    one = statistics.median(times[1])
    print(f"engine, one-token step {one:.2f} s")
    for n in counts:
        each = statistics.median(times[n])
        print(f"  {n} sequences: step {each:.2f} s, aggregate {n * one / each:.2f}x one sequence")


def policy(single: LlamaCppBackend, batched: LlamaCppBackend,
           rounds: dict[int, list[dict[str, float | str]]]) -> None:
    """What the runner's policy batches of n requests at once, by the step costs the engines
    timed in this run (a one-token pass of the single path, a step of n of the batch) and the
    pace the single path's answers made with their drafts (what a batch must beat)."""
    one, lone = single.pass_costs.measured(1), single.lone_gain()
    steps = {n: batched.pass_costs.measured(n) for n in rounds}
    if one is None or any(t is None for t in steps.values()):
        print("policy: not every step size was timed often enough (more --tokens)")
        return

    def gain(size: int) -> float:
        seconds = steps.get(size)
        return 1.0 if size == 1 else size * one / seconds if seconds else 0.0

    ratio = {n: statistics.median(float(r["wall"]) for r in measured)
             for n, measured in rounds.items()}
    ratio[1] = 1.0

    def time_for(count: int, pace: float) -> float:
        """Time for `count` requests as the policy decodes them against a lone answer at
        `pace`, in one request's time: a batch of the size it picks, then the rest alike."""
        if count == 0:
            return 0.0
        size = 1 + _best_joiners(gain, 1, count - 1, pace)
        return size / ratio.get(size, float("nan")) + time_for(count - size, pace)

    print(f"lone pace with drafts: {lone:.2f} tokens per one-token pass")
    for count in rounds:
        chosen = 1 + _best_joiners(gain, 1, count - 1, lone)
        plain = 1 + _best_joiners(gain, 1, count - 1, 1.0)
        print(f"{count} at once: engine-timed gain of a step of {count} {gain(count):.2f}; "
              f"policy starts with {chosen} together: {count / time_for(count, lone):.2f}x "
              f"(against plain decoding, 1.0: {plain} together, "
              f"{count / time_for(count, 1.0):.2f}x) vs always batching {ratio[count]:.2f}x",
              flush=True)


def load(name: str, context: int, speculate: bool = True) -> LlamaCppBackend:
    path = MODELS[name]
    if not path.is_file():
        sys.exit(f"{path} is missing (full: bench/make_full_model.py; gemma: run the gemma tests)")
    backend = LlamaCppBackend(str(path), context_length=context,
                              chat_template=COMPLETION_TEMPLATE if name == "gemma" else None,
                              n_threads=engine_threads(0), speculate=speculate)
    backend.load()
    return backend


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=sorted(MODELS), default="full")
    parser.add_argument("--requests", default="4", help="batch sizes, e.g. 2,3,4")
    parser.add_argument("--tokens", type=int, default=128)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--context", type=int, default=4096)
    parser.add_argument("--plain", action="store_true", help="no prompt-lookup drafts on "
                        "either side: what batching alone gains over the engine alone")
    parser.add_argument("--engine", default="", help="e.g. 2,4,8: raw llama_decode step costs "
                        "for that many sequences per pass instead of the batch vs alone")
    args = parser.parse_args()
    if args.engine:
        engine_steps(args.model, [int(n) for n in args.engine.split(",")], args.repeats)
        return
    single = load(args.model, args.context, not args.plain)
    batched = load(args.model, args.context, not args.plain)
    print(f"model {args.model}, threads {single.info.extra['threads']}, batch capacity "
          f"{batched.batch_capacity()}, context {single.info.context_length}", flush=True)
    sizes = [int(n) for n in args.requests.split(",")]
    rounds: dict[int, list[dict[str, float | str]]] = {n: [] for n in sizes}
    for i in range(args.repeats):
        for count in sizes:
            rounds[count].append(race(single, batched, count, args.tokens))
            r = rounds[count][-1]
            print(f"round {i}: alone {r['alone']:.2f} tok/s, batch of {count} "
                  f"{r['batch']:.2f} tok/s ({r['tokens']} tokens measured): {r['wall']:.2f}x "
                  f"wall, {r['cpu']:.2f}x CPU time; {r['drafts']}; request 0 batched vs alone: "
                  f"{r['same']}",
                  flush=True)
    for count in sizes:
        for key in ("wall", "cpu"):
            values = [float(r[key]) for r in rounds[count]]
            print(f"batch of {count}, median {key}: {statistics.median(values):.2f}x "
                  f"(rounds: {', '.join(f'{v:.2f}' for v in values)})")
    timed = {n: batched.pass_costs.measured(n) for n in range(1, 17)}
    print("batch steps by rows, engine-timed: " + ", ".join(
        f"{n}: {seconds:.2f} s" for n, seconds in timed.items() if seconds is not None))
    print(f"draft pace: alone {single.lone_gain():.2f}, batched {batched.batch_pace.gain:.2f} "
          "tokens per plain step")
    if len(sizes) > 1:
        policy(single, batched, rounds)
    single.unload()
    batched.unload()


if __name__ == "__main__":
    main()
