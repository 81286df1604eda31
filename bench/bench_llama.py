"""Hearth's llama.cpp backend vs raw llama-cpp-python: speed, prefix reuse, chat reopen, memory.

    .venv/bin/python bench/bench_llama.py            # tiny random model, seconds
    .venv/bin/python bench/bench_llama.py --full     # full-size random Nanbeige4.2 (Q8_0), slow

Every figure is a ratio against a reference measured in the same run on the same model."""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from backends.base import GenerateOptions  # noqa: E402
from backends.events import Done  # noqa: E402
from backends.llama_cpp import LlamaCppBackend  # noqa: E402

FILLER = ("The quarterly report covers revenue, costs, hiring plans and the office move to "
          "Lyon; each section lists owners, dates and open questions for the next review. ")


def never() -> bool:
    return False


def conversation(n_tokens: int, backend: LlamaCppBackend, tag: str) -> list[dict[str, Any]]:
    """A system + user conversation whose prompt is about n_tokens long."""
    piece = len(backend._llm.tokenize(FILLER.encode(), add_bos=False, special=False))
    text = f"[{tag}] " + FILLER * max(1, n_tokens // piece)
    return [{"role": "system", "content": "You are Hearth, a private desktop assistant."},
            {"role": "user", "content": text + "\nSummarise this."}]


def hearth_turn(backend: LlamaCppBackend, messages: list[dict[str, Any]], decode: int,
                key: str | None = None, seed: int = 7) -> Done:
    options = GenerateOptions(max_tokens=decode, seed=seed, enable_thinking=False, cache_key=key)
    done = list(backend.stream(messages, options, never))[-1]
    assert isinstance(done, Done)
    return done


def raw_turn(llm: Any, tokens: list[int], decode: int, seed: int = 7) -> dict[str, float]:
    """The same generation straight through llama_cpp.Llama.generate, timed the same way."""
    llm.set_seed(seed)
    cpu = time.process_time()
    started = time.perf_counter()
    first = last = 0.0
    count = 0
    for token in llm.generate(tokens, top_k=20, top_p=0.95, min_p=0.0, typical_p=1.0, temp=0.6,
                              repeat_penalty=1.0, reset=True):
        last = time.perf_counter()
        first = first or last
        if token == llm.token_eos() or count == decode:
            break
        count += 1
    prefill = first - started
    return {"prefill_tps": len(tokens) / prefill, "ttft_ms": prefill * 1000,
            "decode_tps": max(count - 1, 0) / max(last - first, 1e-9), "tokens": count,
            "cpu_s": time.process_time() - cpu}


def speed(backend: LlamaCppBackend, prefill: int, decode: int, repeats: int) -> dict[str, float]:
    """Prefill and decode tokens/s, Hearth vs raw, alternating runs on one llama.cpp context."""
    llm = backend._llm
    messages = conversation(prefill, backend, "speed")
    tokens = llm.tokenize(backend.render_prompt(
        messages, GenerateOptions(enable_thinking=False)).encode(), add_bos=False, special=True)
    hearth_p, hearth_d, raw_p, raw_d, hearth_cpu, raw_cpu = [], [], [], [], [], []
    for i in range(repeats):
        # Alternate which goes first, so drift in machine load does not favour either side.
        for side in (("raw", "hearth") if i % 2 == 0 else ("hearth", "raw")):
            llm.reset()  # both start cold: no prefix to reuse
            if side == "raw":
                raw = raw_turn(llm, tokens, decode)
                raw_p.append(raw["prefill_tps"])
                raw_d.append(raw["decode_tps"])
                raw_cpu.append(raw["cpu_s"])
            else:
                cpu = time.process_time()
                done = hearth_turn(backend, messages, decode)
                hearth_cpu.append(time.process_time() - cpu)
                hearth_p.append(done.timings["prefill_tokens_per_second"])
                hearth_d.append(done.timings["tokens_per_second"])
    return {"prompt_tokens": len(tokens), "decoded": raw["tokens"],
            "raw_prefill_tps": statistics.median(raw_p),
            "hearth_prefill_tps": statistics.median(hearth_p),
            "raw_decode_tps": statistics.median(raw_d),
            "hearth_decode_tps": statistics.median(hearth_d),
            # CPU seconds per whole turn: unlike wall time, not skewed by other processes.
            "raw_cpu_s": statistics.median(raw_cpu), "hearth_cpu_s": statistics.median(hearth_cpu)}


def history_reuse(backend: LlamaCppBackend, history: int) -> dict[str, float]:
    """One long conversation A: turn 1 cold, turn 2 warm, then reopened after chat B.

    One long prefill serves as the cold reference for both ratios (turn 3 of A would take a
    little longer than turn 1 to compute from scratch, so the reopen ratio is conservative)."""
    backend._llm.reset()
    a1 = conversation(history, backend, "chat A")
    cold = hearth_turn(backend, a1, 2, key="A")
    a2 = [*a1, {"role": "assistant", "content": "Here is the summary."},
          {"role": "user", "content": "And the open questions?"}]
    warm = hearth_turn(backend, a2, 2, key="A")
    hearth_turn(backend, conversation(64, backend, "chat B"), 2, key="B")
    a3 = [*a2, {"role": "assistant", "content": "Two are open."},
          {"role": "user", "content": "Which ones?"}]
    reopened = hearth_turn(backend, a3, 2, key="A")
    return {"history_tokens": cold.prompt_tokens, "cold_ttft_ms": cold.timings["ttft_ms"],
            "warm_ttft_ms": warm.timings["ttft_ms"], "warm_cached": warm.cached_prompt_tokens,
            "reopen_ttft_ms": reopened.timings["ttft_ms"],
            "reopen_cached": reopened.cached_prompt_tokens, "reopen_prompt": reopened.prompt_tokens}


def tiny_model_path() -> Path:
    from tests.support.tiny_model import build_tiny_model

    return build_tiny_model(ROOT / "bench" / ".cache" / "tiny-model").gguf_path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--model", help="a GGUF (default: the tiny random model)")
    parser.add_argument("--full", action="store_true", help="full-size random Nanbeige4.2 Q8_0")
    parser.add_argument("--prefill", type=int, default=512)
    parser.add_argument("--decode", type=int, default=16)
    parser.add_argument("--history", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--only", choices=["all", "speed", "history"], default="all")
    args = parser.parse_args()
    if args.full:
        from bench.make_full_model import make_full_model

        path = make_full_model("q8_0").gguf_path
    else:
        path = Path(args.model) if args.model else tiny_model_path()
    run(path, args)


def run(path: Path, args: argparse.Namespace) -> None:
    # A fresh cache folder per run: a state saved by an earlier run would make "cold" warm.
    with tempfile.TemporaryDirectory(prefix="kv-", dir=path.parent) as cache_dir:
        backend = LlamaCppBackend(str(path), context_length=max(4096, args.history + 512),
                                  cache_dir=Path(cache_dir), n_threads=args.threads)
        measure(backend, path, args)


def measure(backend: LlamaCppBackend, path: Path, args: argparse.Namespace) -> None:
    started = time.perf_counter()
    backend.load()
    print(f"model {path.name}: {path.stat().st_size / 2**30:.2f} GiB, loaded in "
          f"{time.perf_counter() - started:.1f} s, context {backend.info.context_length}, "
          f"threads {backend._llm.n_threads if hasattr(backend._llm, 'n_threads') else '?'}")
    if args.only in ("all", "speed"):
        report_speed(backend, args)
    if args.only in ("all", "history"):
        report_history(backend, args)
    report_memory(backend, path)
    backend.unload()


def report_speed(backend: LlamaCppBackend, args: argparse.Namespace) -> None:
    s = speed(backend, args.prefill, args.decode, args.repeats)
    print(f"prefill {s['prompt_tokens']} tok: hearth {s['hearth_prefill_tps']:.1f} tok/s, raw "
          f"{s['raw_prefill_tps']:.1f} tok/s, ratio {s['hearth_prefill_tps'] / s['raw_prefill_tps']:.3f}")
    print(f"decode {s['decoded']} tok: hearth {s['hearth_decode_tps']:.2f} tok/s, raw "
          f"{s['raw_decode_tps']:.2f} tok/s, ratio {s['hearth_decode_tps'] / s['raw_decode_tps']:.3f}")
    print(f"CPU time per turn (prefill + decode): hearth {s['hearth_cpu_s']:.2f} s, raw "
          f"{s['raw_cpu_s']:.2f} s, raw / hearth {s['raw_cpu_s'] / s['hearth_cpu_s']:.3f}")


def report_history(backend: LlamaCppBackend, args: argparse.Namespace) -> None:
    h = history_reuse(backend, args.history)
    print(f"second turn with a {h['history_tokens']}-token history: TTFT {h['warm_ttft_ms']:.1f} ms "
          f"vs first turn {h['cold_ttft_ms']:.1f} ms -> {h['cold_ttft_ms'] / h['warm_ttft_ms']:.1f}x "
          f"shorter ({h['warm_cached']} tokens from cache)")
    print(f"reopen after another chat ({h['reopen_prompt']} tok): TTFT {h['reopen_ttft_ms']:.1f} ms "
          f"vs cold {h['cold_ttft_ms']:.1f} ms -> {h['reopen_ttft_ms'] / h['cold_ttft_ms']:.3f} of "
          f"cold ({h['reopen_cached']} tokens restored)")


def report_memory(backend: LlamaCppBackend, path: Path) -> None:
    from backends.llama_gguf import inspect_gguf, model_shape

    shape = model_shape(inspect_gguf(path), path.stat().st_size)
    planned_kv = backend.info.context_length * shape.kv_bytes_per_token(backend.kv_type)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux reports KiB
    expected = path.stat().st_size + planned_kv
    print(f"peak RSS {peak / 2**30:.2f} GiB vs weights + planned KV {expected / 2**30:.2f} GiB "
          f"-> {peak / expected:.2f}x")


if __name__ == "__main__":
    main()
