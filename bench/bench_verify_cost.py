"""The cost of checking k tokens in one forward pass, against one token, on the full-size model.

    .venv/bin/python bench/bench_verify_cost.py [--sizes 1,2,4,8,12,16] [--runs 7] [--context 256]
    .venv/bin/python bench/bench_verify_cost.py --model tests/.cache/gemma3-270m/gemma-3-270m-q4_k_m.gguf
    .venv/bin/python bench/bench_verify_cost.py --costs 1:1,4:2.7,8:4.1,12:5.3,16:6.8

Model: the full-size random Nanbeige4.2-3B Q8_0 (bench/.cache/nanbeige4.2-3b-random-q8_0, built
by bench/make_full_model.py; this script never builds it), loaded as Hearth loads it. After a
`--context`-token prompt, each size k is one llama_decode of k tokens with logits for every
position, exactly as prompt-lookup verification runs it (backends/llama_speculate.py), then its
KV is dropped again. Sizes are interleaved run by run (the order rotating), and each run's
times are divided by that run's own k = 1 time, so a load spike moves numerator and denominator
alike; the figure is the median of those ratios.

A random model copies nothing, so its own draft acceptance says nothing; what it does give is
the price of a verify pass. The second table takes the answers Gemma 3 270M writes for
bench/bench_lookup.py's tasks (plain decoding, temperature 0), replays the drafter over them
(with the draft sources the engine builds from the prompt, backends/draft_sources.py; a
draft token counts as kept when it equals the token the answer has there, which is what
verification decides at temperature 0), the drafter knowing these costs and passes capped at a
few sizes, and prints the expected decode speed-up per task: answer tokens over the summed
cost of the passes. `--costs` skips the measurement and replays with the costs given."""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from backends.draft_sources import draft_texts  # noqa: E402
from backends.frame_drafts import FrameDrafts  # noqa: E402
from backends.llama_speculate import decode_all  # noqa: E402
from backends.pass_costs import PassCosts  # noqa: E402
from backends.prompt_lookup import PromptLookup  # noqa: E402

FULL = ROOT / "bench" / ".cache" / "nanbeige4.2-3b-random-q8_0" / "model.gguf"
CAPS = (4, 8, 12, 16)  # the largest pass the drafter may make, in the replay


def measure(llm: Any, sizes: Sequence[int], runs: int, context: int) -> dict[int, float]:
    """Median over runs of (time of a k-token pass) / (time of a 1-token pass, same run)."""
    prompt = [(7 + 13 * i) % 1000 + 10 for i in range(context)]
    llm.reset()
    llm.eval(prompt)
    batch = [(11 + 17 * i) % 1000 + 10 for i in range(max(sizes))]
    for k in sizes:  # a first pass of each size: lazily touched pages, its compute graph
        decode_all(llm, batch[:k], context)
    ratios: dict[int, list[float]] = {k: [] for k in sizes}
    for run in range(runs):
        order = list(sizes[run % len(sizes):]) + list(sizes[:run % len(sizes)])  # rotate
        times = {}
        for k in order:
            started = time.perf_counter()
            decode_all(llm, batch[:k], context)
            times[k] = time.perf_counter() - started
        for k in sizes:
            ratios[k].append(times[k] / times[1])
    return {k: statistics.median(v) for k, v in ratios.items()}


def replay(prompt: Sequence[int], answer: Sequence[int], drafter: PromptLookup) -> list[int]:
    """The sizes of the passes speculation makes to write `answer` after `prompt` (the first
    answer token comes out of the prompt's own pass, as in speculative_tokens)."""
    sizes: list[int] = []
    done = 1
    drafter.extend(answer[:1])
    while done < len(answer):
        draft = drafter.propose(len(answer) - done)
        kept = 0
        while kept < len(draft) and draft[kept] == answer[done + kept]:
            kept += 1
        sizes.append(len(draft) + 1)
        drafter.feedback(len(draft), kept)
        new = answer[done:done + kept + 1]
        drafter.extend(new)
        done += len(new)
    return sizes


def cost_of(size: int, cost: dict[int, float]) -> float:
    """A pass of `size` tokens: measured, else linear between the sizes measured around it."""
    if size in cost:
        return cost[size]
    known = sorted(cost)
    lower = max((k for k in known if k < size), default=known[0])
    upper = min((k for k in known if k > size), default=known[-1])
    if upper == lower:
        return cost[upper]
    return cost[lower] + (cost[upper] - cost[lower]) * (size - lower) / (upper - lower)


# prompt, answer, draft sources, the tools' call frames
Answer = tuple[list[int], list[int], list[list[int]], FrameDrafts]


def gemma_answers() -> dict[str, Answer]:
    """Each bench_lookup task's prompt tokens, Gemma's answer tokens (greedy, plain) and the
    drafter's extra sources (the engine's _drafter builds the same)."""
    import llama_cpp

    from bench.bench_lookup import TASKS, _gemma

    llm = llama_cpp.Llama(str(_gemma()), n_ctx=2048, n_threads=2, verbose=False)
    answers = {}
    for name, task in TASKS.items():
        prompt = llm.tokenize(task.prompt.encode(), add_bos=True, special=False)
        sources = [llm.tokenize(text.encode(), add_bos=False, special=False)
                   for text in draft_texts(task.prompt, task.tools)]
        answer: list[int] = []
        for token in llm.generate(prompt, reset=True, temp=0.0, top_k=1):
            if token == llm.token_eos() or len(answer) >= 128:
                break
            answer.append(token)
            if task.end and task.end in llm.detokenize(answer).decode(errors="replace"):
                break
        frames = FrameDrafts(task.tools, lambda text: llm.tokenize(
            text.encode(), add_bos=False, special=False))
        answers[name] = (prompt, answer, sources, frames)
    return answers


def print_replay(cost: dict[int, float]) -> None:
    answers = gemma_answers()
    print(f"Expected decode speed-up with these costs, Gemma's answers replayed (pass size cap "
          f"{', '.join(map(str, CAPS))}):")
    print("| task | tokens | " + " | ".join(f"cap {cap}" for cap in CAPS) + " |")
    print("|---|---:|" + "---:|" * len(CAPS))
    for name, (prompt, answer, sources, frames) in answers.items():
        cells = []
        for cap in CAPS:
            known = {k: v for k, v in cost.items() if k <= cap}
            drafter = PromptLookup(prompt, PassCosts(known, learn=False), sources, frames)
            sizes = replay(prompt, answer, drafter)
            speedup = (len(answer) - 1) / sum(cost_of(s, cost) for s in sizes)
            cells.append(f"{speedup:.2f}x ({drafter.stats.acceptance:.0%})")
        print(f"| {name} | {len(answer)} | " + " | ".join(cells) + " |")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", type=Path, default=FULL)
    parser.add_argument("--sizes", default="1,2,4,8,12,16")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--context", type=int, default=256)
    parser.add_argument("--costs", help="k:ratio,... (skip the measurement, replay with these)")
    args = parser.parse_args()
    if args.costs:
        cost = {int(k): float(v) for k, v in (pair.split(":") for pair in args.costs.split(","))}
        print_replay(cost)
        return 0
    if not args.model.exists():
        raise SystemExit(f"{args.model} is missing: build it with bench/make_full_model.py")
    sizes = sorted({1, *(int(s) for s in args.sizes.split(","))})
    from backends.llama_cpp import LlamaCppBackend

    backend = LlamaCppBackend(str(args.model), context_length=max(1024, args.context + 64),
                              chat_template="{{ bos_token }}")  # no chat here: any template
    backend.load()
    cost = measure(backend._llm, sizes, args.runs, args.context)
    backend.unload()
    print(f"{args.model.parent.name}/{args.model.name}, {args.context}-token context, median of "
          f"{args.runs} interleaved runs, load {os.getloadavg()[0]:.1f}")
    print("| k (tokens in the pass) | " + " | ".join(str(k) for k in sizes) + " |")
    print("|---|" + "---:|" * len(sizes))
    print("| time / time of k = 1 | " + " | ".join(f"{cost[k]:.2f}" for k in sizes) + " |")
    print("| tokens per time of one, if all kept | "
          + " | ".join(f"{k / cost[k]:.2f}" for k in sizes) + " |")
    print()
    print_replay(cost)
    return 0


if __name__ == "__main__":
    sys.exit(main())
