"""Reading an agent's request: the pydantic models (app/core/server/protocol.py) against the
hand-written readers they replaced (issue 29; loaded from git), and json.loads of the same body
as the reference every reader pays first. Writes bench/results/protocol.md."""

from __future__ import annotations

import argparse
import importlib.util
import json
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core.server import protocol  # noqa: E402

OLD_COMMIT = "fe352ef"  # the last commit with the hand-written readers


def agent_body(turns: int, tools: int) -> dict[str, Any]:
    """An OpenClaw-sized chat request: a long system prompt, tool steps, tools offered."""
    specs = [{"type": "function", "function": {
        "name": f"tool_{i}", "description": "Does one thing. " * 8,
        "parameters": {"type": "object", "properties": {
            "path": {"type": "string"}, "limit": {"type": "integer"}}, "required": ["path"]}}}
        for i in range(tools)]
    messages: list[dict[str, Any]] = [{"role": "system", "content": "You are an agent. " * 400}]
    for i in range(turns):
        messages += [
            {"role": "user", "content": f"Step {i}: read the file and summarise it."},
            {"role": "assistant", "content": None, "reasoning_content": "I will read it. " * 20,
             "tool_calls": [{"id": f"call_{i}", "type": "function", "function": {
                 "name": "tool_1", "arguments": json.dumps({"path": f"/tmp/{i}.txt"})}}]},
            {"role": "tool", "tool_call_id": f"call_{i}", "content": "line of text\n" * 60}]
    return {"model": "x", "messages": messages, "tools": specs, "temperature": 0.6,
            "stream": True, "stream_options": {"include_usage": True}}


def old_reader() -> Any:
    source = subprocess.run(["git", "-C", str(ROOT), "show",
                             f"{OLD_COMMIT}:app/core/server/protocol.py"],
                            capture_output=True, text=True, check=True).stdout
    path = Path("/tmp") / "hearth_old_protocol.py"
    path.write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("hearth_old_protocol", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


def timed(work: Callable[[], object], runs: int) -> float:
    """Median milliseconds of `work` over `runs` runs (after one warm-up)."""
    work()
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        samples.append((time.perf_counter() - start) * 1000)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    old = old_reader()
    rows = []
    for turns, tools in ((1, 5), (20, 30)):
        body = json.dumps(agent_body(turns, tools)).encode()
        reference = timed(lambda b=body: json.loads(b), args.runs)
        new = timed(lambda b=body: protocol.parse_chat(json.loads(b), 512), args.runs)
        before = timed(lambda b=body: old.parse_chat(json.loads(b), 512), args.runs)
        rows.append(f"| {turns} turns, {tools} tools ({len(body) // 1024} KiB) | "
                    f"{new:.2f} ms | {before:.2f} ms | json.loads {reference:.2f} ms | "
                    f"{new / reference:.1f} (before: {before / reference:.1f}) |")
    table = "\n".join([
        "| request | pydantic models | hand-written readers | reference (same run) | ratio |",
        "|---|---|---|---|---|", *rows])
    out = ROOT / "bench" / "results" / "protocol.md"
    out.write_text(f"# Reading a chat request (median of {args.runs})\n\n{table}\n",
                   encoding="utf-8")
    print(table)


if __name__ == "__main__":
    main()
