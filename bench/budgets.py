"""Conversations that never break: a long conversation on the tiny model with a small context,
and reasoning / answer / tool-call loops. Writes bench/results/budgets.md.

    .venv/bin/python bench/budgets.py [--turns 200] [--context 2048] [--seeds 20]

1. --turns scripted user turns on the real llama.cpp engine (tiny random-weight Nanbeige), each
   after a large tool exchange (a read_document result of 20,000 characters) added to history,
   through the real Assistant: turns answered, compactions, mean prompt tokens per turn, and
   how much of the prompt the KV cache served (on turns without compaction the reference is
   the whole previous prompt; on turns that compacted, the system prompt and tools).
2. Reasoning that never closes `</think>` on the real tiny model (--seeds seeds; thinking
   budget 64): how many end with an answer or a notice, tokens spent before the cut.
3. Scripted loops through the real Assistant (scripted engine): a repeated sentence in the
   reasoning, a repeated sentence in the answer, a repeated tool call."""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core.assistant import Assistant, TurnMode  # noqa: E402
from app.core.events import (  # noqa: E402
    ContextCompacted,
    OutputCut,
    ToolFinished,
    TurnDone,
    TurnFailed,
)
from app.core.history import HistoryStore  # noqa: E402
from app.core.runner import ModelRunner  # noqa: E402
from app.core.settings import Settings  # noqa: E402
from backends.llama_cpp import LlamaCppBackend  # noqa: E402
from backends.scripted import ScriptedBackend  # noqa: E402
from skills.builtin import builtin_skills  # noqa: E402
from tests.support.tiny_model import build_tiny_model  # noqa: E402

MARKUP = ("<think>", "</think>", "<tool_call>", "</tool_call>", "<|im_end|>")
PAGE = ("Page {n}. The quarterly report lists revenue, costs and the people responsible for "
        "each line item, with notes on what changed since the last quarter. ")


def _turn(assistant: Assistant, conv: str | None, text: str, mode: TurnMode
          ) -> tuple[Any, list[Any]]:
    events: list[Any] = []
    handle = assistant.send(conv, text, mode=mode, on_event=events.append)
    if not handle.wait(600):
        raise SystemExit("a turn did not finish within 10 minutes")
    return handle, events


def long_conversation(model_path: Path, turns: int, context: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="hearth-bench-") as tmp:
        runner = ModelRunner()
        runner.load(LlamaCppBackend(str(model_path), context_length=context)).result(120)
        history = HistoryStore(Path(tmp) / "hearth.db")
        assistant = Assistant(runner, history, [], Settings(max_tokens=24))
        conv = str(history.create_conversation("long").id)
        answered = compactions = 0
        prompts: list[int] = []
        ratios_plain: list[float] = []  # cached / the previous prompt (all of it is reusable)
        ratios_compacted: list[float] = []  # cached / this prompt
        previous = 0
        started = time.perf_counter()
        for n in range(turns):
            call_id = f"c{n}"
            history.add_message(conv, "user", f"Read report {n} for me.")
            history.add_message(conv, "assistant", "", tool_calls=[
                {"id": call_id, "name": "read_document", "arguments": {"path": f"/r{n}.pdf"}}])
            history.add_message(conv, "tool", "".join(PAGE.format(n=p) for p in range(120)),
                                tool_call_id=call_id, tool_name="read_document", tool_ok=True)
            history.add_message(conv, "assistant", f"Report {n} is read.", status="complete")
            _, events = _turn(assistant, conv, f"What changed in report {n}?",
                              TurnMode(thinking=False, seed=n))
            done = [e for e in events if isinstance(e, TurnDone)]
            failed = [e for e in events if isinstance(e, TurnFailed)]
            compacted = [e for e in events if isinstance(e, ContextCompacted)]
            answered += bool(done) and not failed
            compactions += len(compacted)
            if done:
                usage = done[0].usage
                prompts.append(usage["prompt_tokens"])
                cached = usage["cached_prompt_tokens"]
                if compacted:
                    ratios_compacted.append(cached / max(1, usage["prompt_tokens"]))
                elif previous:
                    ratios_plain.append(min(1.0, cached / previous))
                previous = usage["prompt_tokens"]
        elapsed = time.perf_counter() - started
        stored = history.messages(conv)
        markup = sum(any(t in m.content for t in MARKUP) for m in stored if m.role == "assistant")
        runner.close()
        history.close()
    return {"turns": turns, "answered": answered, "compactions": compactions,
            "mean_prompt": statistics.mean(prompts) if prompts else 0.0,
            "max_prompt": max(prompts, default=0), "context": context,
            "cached_plain": statistics.mean(ratios_plain) if ratios_plain else 0.0,
            "cached_compacted": statistics.mean(ratios_compacted) if ratios_compacted else 0.0,
            "plain_turns": len(ratios_plain), "stored": len(stored), "markup": markup,
            "seconds": elapsed}


def never_closing(model_path: Path, seeds: int) -> dict[str, Any]:
    """The random tiny model almost never writes `</think>`: reasoning would run to max_tokens."""
    with tempfile.TemporaryDirectory(prefix="hearth-bench-") as tmp:
        runner = ModelRunner()
        runner.load(LlamaCppBackend(str(model_path), context_length=2048)).result(120)
        history = HistoryStore(Path(tmp) / "hearth.db")
        assistant = Assistant(runner, history, [],
                              Settings(max_tokens=256, thinking_budget_chat=64))
        ended, spent, cut = 0, [], 0
        for seed in range(seeds):
            handle, events = _turn(assistant, None, "Explain the report.",
                                   TurnMode(thinking=True, seed=seed))
            cuts = [e for e in events if isinstance(e, OutputCut)]
            cut += bool(cuts)
            spent += [c.tokens for c in cuts]
            answer = [m for m in history.messages(handle.conversation_id)
                      if m.role == "assistant"][-1]
            ended += bool(answer.content.strip() or answer.notice) and answer.status == "complete"
        runner.close()
        history.close()
    return {"runs": seeds, "ended": ended, "cut": cut,
            "spent": statistics.mean(spent) if spent else 0.0}


def scripted_loops(repeats: int = 20) -> list[dict[str, Any]]:
    sentence = "Let me check the time zone once more. "
    answer_loop = "I have what I need.\n</think>\n\nSure. " + "I agree with that completely. " * 80
    call = ("I will use the tool.\n</think>\n\n<tool_call>\n<function=get_current_time>\n"
            "<parameter=timezone>\nAsia/Tokyo\n</parameter>\n</function>\n</tool_call>")
    cases = [("reasoning repeats a sentence", [sentence * 80, "It is noon."]),
             ("answer repeats a sentence", [answer_loop]),
             ("the same tool call again and again", [call] * 6)]
    rows = []
    for name, outputs in cases:
        ended, spent = 0, []
        for _ in range(repeats):
            with tempfile.TemporaryDirectory(prefix="hearth-bench-") as tmp:
                backend = ScriptedBackend()
                runner = ModelRunner()
                runner.load(backend).result(30)
                history = HistoryStore(Path(tmp) / "hearth.db")
                backend.queue(*outputs, "Title")
                assistant = Assistant(runner, history, builtin_skills(), Settings())
                handle, events = _turn(assistant, None, "go", TurnMode(thinking=True))
                answer = [m for m in history.messages(handle.conversation_id)
                          if m.role == "assistant"][-1]
                cuts = [e for e in events if isinstance(e, OutputCut)]
                ran = [e for e in events if isinstance(e, ToolFinished) and e.ok]
                ended += bool(cuts) and bool(answer.content.strip()) and bool(answer.notice)
                spent.append(cuts[0].tokens if cuts and cuts[0].part != "tools" else len(ran))
                runner.close()
                history.close()
        rows.append({"case": name, "runs": repeats, "ended": ended,
                     "spent": statistics.mean(spent)})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=200)
    parser.add_argument("--context", type=int, default=2048)
    parser.add_argument("--seeds", type=int, default=20)
    args = parser.parse_args()
    model = build_tiny_model(ROOT / "tests" / ".cache" / "tiny-model").gguf_path
    long = long_conversation(model, args.turns, args.context)
    never = never_closing(model, args.seeds)
    loops = scripted_loops()
    lines = [
        "# Budgets: conversations that never break (issue 12)", "",
        f"Command: `.venv/bin/python bench/budgets.py --turns {args.turns} --context "
        f"{args.context} --seeds {args.seeds}`", "",
        "## A long conversation with large tool results (real llama.cpp, tiny model)", "",
        "| figure | value |", "|---|---|",
        f"| turns answered | {long['answered']} of {long['turns']} |",
        f"| context window | {long['context']:,} tokens |",
        f"| compactions (older turns summarized by the model) | {long['compactions']} |",
        f"| mean / max prompt tokens per turn | {long['mean_prompt']:.0f} / {long['max_prompt']} |",
        f"| turns without compaction: share of the previous prompt served from the KV cache "
        f"({long['plain_turns']} turns; reference 100%: only new messages need prefill) "
        f"| {long['cached_plain']:.0%} |",
        f"| turns that compacted: share of the prompt served from the KV cache (the system "
        f"prompt and tools stay cached) | {long['cached_compacted']:.0%} |",
        f"| messages kept in history (nothing deleted) | {long['stored']} |",
        f"| stored answers with markup | {long['markup']} |",
        f"| wall time | {long['seconds']:.0f} s |", "",
        "## Reasoning that never closes (real llama.cpp, thinking budget 64, max_tokens 256)", "",
        "| figure | value |", "|---|---|",
        f"| turns ending with an answer or a notice | {never['ended']} of {never['runs']} |",
        f"| reasoning cut by Hearth | {never['cut']} of {never['runs']} |",
        f"| mean reasoning tokens before the cut | {never['spent']:.0f} |", "",
        "## Scripted loops (scripted engine, real Assistant)", "",
        "| case | end with an answer and a notice | tokens (or tool runs) before the cut |",
        "|---|---|---|",
        *[f"| {r['case']} | {r['ended']} of {r['runs']} | {r['spent']:.0f} |" for r in loops],
        "",
    ]
    out = ROOT / "bench" / "results" / "budgets.md"
    out.write_text("\n".join(lines), encoding="utf-8")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
