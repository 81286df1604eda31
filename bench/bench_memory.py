"""Memory and standing instructions in the saved prompt prefix: a new chat's first answer with
50 memories and instructions vs without, in fresh processes, in the same run.

    .venv/bin/python bench/bench_memory.py [--engine llama|mlx] [--model PATH] [--skills a,b]
                                           [--memories 50] [--repeats 3]

Each figure is a new process on a HEARTH_HOME of its own kind (one without memory, one with),
answering through Hearth's own Assistant. Per home: the first new chat computes the prefix
(nothing saved yet), then new chats and a quick ask restore it. Then one memory is added (as
an approved "remember" does): the next new chat computes the new prefix once, and the one
after restores it again. Figures are the engine's time to first token (median of --repeats
for the restored runs) and how many prompt tokens came from the saved state.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from pathlib import Path
from typing import Any

from bench_prefix import child, model_for

FACTS = ("I live in Lyon", "I am a nurse on night shifts", "My daughter Mia is seven",
         "I am allergic to peanuts", "I drive a 2019 Zoe", "My partner is called Sam",
         "I take the 7:40 train", "I support Olympique Lyonnais", "I am learning Japanese",
         "My sister lives in Montreal")


def memory_texts(n: int) -> list[str]:
    """n distinct short facts, about the length people's saved memories have."""
    return [f"{FACTS[i % len(FACTS)]} (note {i + 1})" for i in range(n)]


INSTRUCTIONS = ("Always answer in metric units. I work night shifts, so 'morning' means "
                "my evening. Keep answers short unless I ask for detail.")


def median_of(repeats: int, home: Path, **args: Any) -> dict[str, Any]:
    runs = [child(home, **args) for _ in range(repeats)]
    middle = statistics.median(r["ttft_ms"] for r in runs)
    return {**min(runs, key=lambda r: abs(r["ttft_ms"] - middle)), "ttft_ms": middle}


def home_figures(home: Path, base: dict[str, Any], repeats: int,
                 setup: dict[str, Any]) -> dict[str, dict[str, Any]]:
    found = {"cold": child(home, **base, **setup, text="What is on today?")}
    found["new chat"] = median_of(repeats, home, **base, text="Plan my week.")
    found["quick ask"] = median_of(repeats, home, **base, text="How many cm in an inch?",
                                   kind="quick")
    found["after a memory change"] = child(home, **base, remember=["I moved to Grenoble"],
                                           text="And tomorrow?")
    found["next new chat"] = median_of(repeats, home, **base, text="Plan my weekend.")
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--engine", default="llama", choices=["llama", "mlx"])
    parser.add_argument("--model", default="")
    parser.add_argument("--skills", default="get_current_time,convert_units")
    parser.add_argument("--memories", type=int, default=50)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    model = model_for(args)
    base = {"model": model, "engine": args.engine,
            "skills": [s for s in args.skills.split(",") if s]}
    personal = {"remember": memory_texts(args.memories), "instructions": INSTRUCTIONS}
    with tempfile.TemporaryDirectory() as plain, tempfile.TemporaryDirectory() as mine:
        without = home_figures(Path(plain), base, args.repeats, {})
        with_memory = home_figures(Path(mine), base, args.repeats, personal)
    report(model, args, without, with_memory)


def report(model: str, args: argparse.Namespace, without: dict[str, dict[str, Any]],
           with_memory: dict[str, dict[str, Any]]) -> None:
    print(f"model {Path(model).name} ({args.engine}); skills: {args.skills or 'all'}; "
          f"{args.memories} memories + standing instructions vs none; median of "
          f"{args.repeats} for restored runs")
    print("| first answer in a fresh process | without: TTFT / prompt / cached | "
          f"with {args.memories} memories: TTFT / prompt / cached | with / without |")
    print("|---|---|---|---|")
    for label in without:
        a, b = without[label], with_memory[label]
        print(f"| {label} | {a['ttft_ms']:,.0f} ms / {a['prompt_tokens']:,} / "
              f"{a['cached_prompt_tokens']:,} | {b['ttft_ms']:,.0f} ms / "
              f"{b['prompt_tokens']:,} / {b['cached_prompt_tokens']:,} | "
              f"**{b['ttft_ms'] / max(a['ttft_ms'], 1e-9):.2f}** |")
    cold = with_memory["cold"]["ttft_ms"]
    print(f"| with memory: new chat / its own cold prefill | | | "
          f"**{with_memory['new chat']['ttft_ms'] / cold:.3f}** |")


if __name__ == "__main__":
    main()
