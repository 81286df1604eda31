"""The person's time to first token while a 4,000-token API answer is being written: before
(the answer held the model to its end) and now (it pauses at the next token and goes on from
its KV afterwards), against the person's TTFT on an idle model, all in the same run.

    .venv/bin/python bench/bench_interrupt.py --runs 3        # tiny model, ~2 min

Both arms run on the same ModelRunner and llama.cpp engine, rotating every run: "before"
submits the API answer as Hearth did until issue 27 (not pausable once it answers), "now" as
`hearth serve` does today (pausable). The person sends a short chat turn once the API answer
has written --after tokens' worth of deltas (on the model thread, so by order, not time). At
temperature 0 the API answer of both arms must be the same text: the pause changes nothing."""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core.runner import ModelRunner, Priority  # noqa: E402
from backends.base import GenerateOptions  # noqa: E402
from backends.events import Done, Event, ReasoningDelta, TextDelta, ToolCall  # noqa: E402
from backends.llama_cpp import LlamaCppBackend  # noqa: E402
from tests.support.tiny_model import build_tiny_model  # noqa: E402

# A prompt the tiny random model answers for 4,000 tokens at temperature 0 without an EOS.
API_PROMPT = "Describe, at great length, a day in Lyon."
PERSON_PROMPT = "What is on my calendar today?"
HANG_S = 900.0  # a hang guard only


@dataclass
class Arm:
    """One arm's figures for one run."""

    person_ttft: float = 0.0
    api_total: float = 0.0
    api_tokens: int = 0
    api_text: list[str] = field(default_factory=list)
    gave_way: int = 0


def person_turn(runner: ModelRunner, tag: str, sent: list[float], first: list[float],
                finished: threading.Event) -> None:
    """Queue the person's turn; its first reasoning or text token lands in `first`."""
    def on_event(event: Event) -> None:
        if not first and isinstance(event, (TextDelta, ReasoningDelta, ToolCall)):
            first.append(time.perf_counter())
        if isinstance(event, Done):
            finished.set()

    sent.append(time.perf_counter())
    runner.submit([{"role": "user", "content": PERSON_PROMPT}],
                  GenerateOptions(max_tokens=16, enable_thinking=False, temperature=0,
                                  cache_key=f"person-{tag}"), on_event, priority=Priority.USER)


def idle_ttft(runner: ModelRunner, tag: str) -> float:
    sent: list[float] = []
    first: list[float] = []
    finished = threading.Event()
    person_turn(runner, tag, sent, first, finished)
    if not finished.wait(HANG_S) or not first:
        raise RuntimeError("the person's turn did not answer")
    return first[0] - sent[0]


def with_api_answer(runner: ModelRunner, tag: str, pausable: bool, decode: int,
                    after: int) -> Arm:
    """The person's TTFT when they send a message `after` deltas into an API answer."""
    arm = Arm()
    sent: list[float] = []
    first: list[float] = []
    person_done = threading.Event()
    api_done = threading.Event()
    deltas = [0]

    def on_api(event: Event) -> None:  # the model thread
        if isinstance(event, (TextDelta, ReasoningDelta)):
            arm.api_text.append(event.text)
            deltas[0] += 1
            if deltas[0] == after:
                person_turn(runner, tag, sent, first, person_done)
        if isinstance(event, Done):
            arm.api_tokens = event.completion_tokens
            api_done.set()

    started = time.perf_counter()
    handle = runner.submit([{"role": "user", "content": API_PROMPT}],
                           GenerateOptions(max_tokens=decode, temperature=0,
                                           cache_key=f"api-{tag}"),
                           on_api, priority=Priority.API, pausable=pausable)
    if not api_done.wait(HANG_S) or not person_done.wait(HANG_S) or not first:
        raise RuntimeError("an arm did not finish")
    arm.api_total = time.perf_counter() - started
    arm.person_ttft = first[0] - sent[0]
    arm.gave_way = handle.gave_way
    return arm


def run(model: Path, runs: int, decode: int, after: int) -> list[dict[str, Arm | float]]:
    runner = ModelRunner()
    rows: list[dict[str, Arm | float]] = []
    try:
        runner.load(LlamaCppBackend(str(model), context_length=decode + 1024)).result(300)
        idle_ttft(runner, "warm")  # the first turn pays one-time setup
        for i in range(runs):
            row: dict[str, Arm | float] = {"idle": idle_ttft(runner, f"idle{i}")}
            order = [True, False] if i % 2 else [False, True]
            for pausable in order:
                name = "now" if pausable else "before"
                row[name] = with_api_answer(runner, f"{name}{i}", pausable, decode, after)
                print(f"run {i + 1} {name}: person's TTFT "
                      f"{_arm(row, name).person_ttft:.3f} s", flush=True)
            rows.append(row)
    finally:
        runner.close()
    return rows


def _arm(row: dict[str, Arm | float], name: str) -> Arm:
    arm = row[name]
    assert isinstance(arm, Arm)
    return arm


def report(rows: list[dict[str, Arm | float]], model: Path, decode: int, after: int) -> str:
    idle = statistics.median(float(r["idle"]) for r in rows)  # type: ignore[arg-type]
    before = statistics.median(_arm(r, "before").person_ttft for r in rows)
    now = statistics.median(_arm(r, "now").person_ttft for r in rows)
    api_before = statistics.median(_arm(r, "before").api_total for r in rows)
    api_now = statistics.median(_arm(r, "now").api_total for r in rows)
    same = all("".join(_arm(r, "before").api_text) == "".join(_arm(r, "now").api_text)
               for r in rows)
    tokens = {_arm(r, a).api_tokens for r in rows for a in ("before", "now")}
    lines = [
        f"Model `{model.parent.name}/{model.name}`, {len(rows)} runs (medians), API answer "
        f"{'/'.join(str(t) for t in sorted(tokens))} tokens at temperature 0, the person's "
        f"turn sent {after} deltas into it; {os.cpu_count()} CPUs, load "
        f"{os.getloadavg()[0]:.1f}.",
        "",
        "| | person's TTFT | vs idle model | API answer, total |",
        "|---|---|---|---|",
        f"| idle model (reference) | {idle:.3f} s | 1.0x | |",
        f"| before: the API answer runs to its end | {before:.3f} s | {before / idle:.0f}x | "
        f"{api_before:.2f} s |",
        f"| now: it pauses at the next token | {now:.3f} s | {now / idle:.1f}x | "
        f"{api_now:.2f} s ({api_now / api_before:.2f}x) |",
        "",
        f"The person's first token comes {before / now:.0f}x sooner. The API answer is the same "
        f"text in both arms: {'yes' if same else 'NO'}; it paused "
        f"{statistics.median(_arm(r, 'now').gave_way for r in rows):.0f} time(s) per run.",
    ]
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--decode", type=int, default=4000, help="the API answer's max tokens")
    parser.add_argument("--after", type=int, default=200,
                        help="deltas of the API answer before the person sends")
    parser.add_argument("--model", type=Path, default=None,
                        help="a GGUF (default: the tiny test model)")
    parser.add_argument("--out", default=str(ROOT / "bench" / "results" / "interrupt.md"))
    args = parser.parse_args()
    model = args.model or build_tiny_model(ROOT / "tests" / ".cache" / "tiny-model").gguf_path
    text = report(run(model, args.runs, args.decode, args.after), model, args.decode,
                  args.after)
    Path(args.out).write_text(text + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
