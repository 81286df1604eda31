"""Time to first token when reopening a ~2,000-token conversation vs computing it cold.

Runs the real Assistant and ModelRunner on the tiny random-weight models (GGUF, and MLX when
mlx-lm is installed). For each engine, two long conversations A and B are stored in a fresh
history; then, one question at a time (max 1 new token, no thinking):

  cold A, cold B   each computed from scratch (the engine has never seen them)
  reopen A         A's KV comes back from the in-memory per-conversation cache
  reopen B         after a model reload: B's KV comes back from the cache files on disk

TTFT is the engine's own figure (render + tokenize + cache restore + prefill), reported in the
TurnDone timings; the wall time from send() to TurnDone is shown beside it.

    .venv/bin/python bench/bench_reopen.py [--tokens 2000] [--engines llama,mlx]
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from app.core.assistant import Assistant, TurnMode  # noqa: E402
from app.core.events import TurnDone, TurnFailed  # noqa: E402
from app.core.history import HistoryStore  # noqa: E402
from app.core.runner import ModelRunner  # noqa: E402
from app.core.settings import Settings  # noqa: E402
from backends.base import Backend  # noqa: E402
from tests.support.tiny_model import build_tiny_model  # noqa: E402

USER = ("Could you remind me what we decided about the garden plan, the budget for the new "
        "fence and who is going to pick up the seeds from the market on Saturday morning?")
ANSWER = ("We agreed to plant tomatoes and beans along the south wall, keep the fence under "
          "four hundred euros, and Maria will collect the seeds at nine before the rain.")
MODE = TurnMode(thinking=False, max_tokens=1)


def make_backend(engine: str, model: Any, cache_dir: Path) -> Backend:
    if engine == "llama":
        from backends.llama_cpp import LlamaCppBackend

        return LlamaCppBackend(str(model.gguf_path), cache_dir=cache_dir)
    from backends.mlx_backend import MlxBackend

    return MlxBackend(str(model.mlx_dir), cache_dir=cache_dir)


def fill(history: HistoryStore, exchanges: int) -> str:
    conv = history.create_conversation(title="Garden plans").id  # titled: no title request
    # A distinct opening, so no conversation shares more than the system prompt with another.
    history.add_message(conv, "user", f"Conversation {conv}.")
    history.add_message(conv, "assistant", "Noted.")
    for number in range(exchanges):
        history.add_message(conv, "user", f"{number}. {USER}")
        history.add_message(conv, "assistant", f"{number}. {ANSWER}")
    return conv


def ask(assistant: Assistant, conv: str, question: str) -> dict[str, Any]:
    """One turn; returns the engine's TTFT, the wall time and the token counts."""
    result: dict[str, Any] = {}

    def on_event(event: Any) -> None:
        if isinstance(event, TurnDone):
            result.update(event.usage, ttft_ms=event.timings.get("ttft_ms", float("nan")))
        elif isinstance(event, TurnFailed):
            result["error"] = event.message

    started = time.perf_counter()
    handle = assistant.send(conv, question, mode=MODE, on_event=on_event)
    handle.wait(600)
    result["wall_ms"] = (time.perf_counter() - started) * 1000
    if "error" in result:
        raise SystemExit(f"bench failed: {result['error']}")
    return result


def calibrate(assistant: Assistant, history: HistoryStore, target: int) -> int:
    """How many stored exchanges make a prompt of about `target` tokens."""
    small = ask(assistant, fill(history, 2), "probe")["prompt_tokens"]
    large = ask(assistant, fill(history, 6), "probe")["prompt_tokens"]
    per_exchange = (large - small) / 4
    base = small - 2 * per_exchange
    return max(1, round((target - base) / per_exchange))


def run_engine(engine: str, model: Any, target: int, work: Path) -> dict[str, Any]:
    cache_dir = work / engine / "kv"
    history = HistoryStore(work / engine / "hearth.db")
    runner = ModelRunner()
    try:
        runner.load(make_backend(engine, model, cache_dir)).result()
        assistant = Assistant(runner, history, [], Settings())
        exchanges = calibrate(assistant, history, target)
        conv_a, conv_b = fill(history, exchanges), fill(history, exchanges)
        cold = [ask(assistant, conv_a, "And the fence colour?"),
                ask(assistant, conv_b, "And the fence colour?")]
        memory = ask(assistant, conv_a, "What about the shed?")  # A parked in memory by B
        runner.load(make_backend(engine, model, cache_dir)).result()  # flushes caches to disk
        disk = ask(assistant, conv_b, "What about the shed?")
    finally:
        runner.close()
        history.close()
    cold_ttft = statistics.mean(r["ttft_ms"] for r in cold)
    return {"engine": engine, "exchanges": exchanges, "cold": cold, "memory": memory,
            "disk": disk, "cold_ttft": cold_ttft}


def report(rows: list[dict[str, Any]]) -> None:
    print(f"{'engine':6} {'case':14} {'prompt':>7} {'cached':>7} {'ttft ms':>9} "
          f"{'wall ms':>9} {'vs cold':>8}")
    for row in rows:
        cases = [("cold A", row["cold"][0]), ("cold B", row["cold"][1]),
                 ("reopen memory", row["memory"]), ("reopen disk", row["disk"])]
        for name, r in cases:
            ratio = r["ttft_ms"] / row["cold_ttft"]
            print(f"{row['engine']:6} {name:14} {r['prompt_tokens']:7d} "
                  f"{r['cached_prompt_tokens']:7d} {r['ttft_ms']:9.1f} {r['wall_ms']:9.1f} "
                  f"{ratio:8.3f}")
    for row in rows:
        worst = max(row["memory"]["ttft_ms"], row["disk"]["ttft_ms"]) / row["cold_ttft"]
        verdict = "meets" if worst <= 0.1 else "MISSES"
        print(f"{row['engine']}: reopen TTFT is {worst:.3f} of cold at worst "
              f"({verdict} the <= 0.1 target)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tokens", type=int, default=2000, help="conversation length")
    parser.add_argument("--engines", default="llama,mlx", help="comma-separated: llama, mlx")
    args = parser.parse_args()
    engines = [e for e in args.engines.split(",") if e]
    if "mlx" in engines and importlib.util.find_spec("mlx_lm") is None:
        print("mlx-lm is not installed: skipping the MLX engine")
        engines.remove("mlx")
    model = build_tiny_model(ROOT / "tests" / ".cache" / "tiny-model")
    with tempfile.TemporaryDirectory(prefix="hearth-bench-") as tmp:
        rows = [run_engine(engine, model, args.tokens, Path(tmp)) for engine in engines]
    report(rows)


if __name__ == "__main__":
    main()
