"""MLX engine benchmark: Hearth's MlxBackend vs raw mlx_lm.stream_generate in the same run.

Prints prefill and decode tokens/s for both (and their ratio), time to first token of a
second turn after a ~2,000-token history vs the first turn (prefix reuse), and MLX's peak
memory vs weights + planned KV. Greedy sampling, so both paths generate the same tokens.

    .venv/bin/python bench/bench_mlx.py [--size tiny|small] [--repeats 5] [--decode-tokens 128]

"tiny" is the test model (2 layers x 2 loops, hidden 64); "small" is a random-weight model
with 4 layers x 2 loops and hidden 256, built once under bench/.cache."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from backends.base import GenerateOptions, Message
from backends.events import Done
from backends.mlx_backend import PREFILL_STEP, MlxBackend
from backends.model_shape import model_shape

CACHE = Path(__file__).resolve().parent / ".cache"
SIZES: dict[str, dict[str, int]] = {
    "tiny": dict(hidden=64, intermediate=128, layers=2, heads=4, kv_heads=2, head_dim=16),
    "small": dict(hidden=256, intermediate=704, layers=4, heads=4, kv_heads=2, head_dim=64),
}
SENTENCE = ("Please check the calendar for the meeting with the city people about the weather "
            "report, then search the document folder for the file we wrote today. ")


def build(size: str) -> Path:
    from tests.support.tiny_model import build_model

    return build_model(CACHE / f"mlx-{size}", vocab=512, seed=0, **SIZES[size]).mlx_dir


def history(backend: MlxBackend, target_tokens: int) -> list[Message]:
    """A conversation whose prompt is at least target_tokens tokens long."""
    messages: list[Message] = [{"role": "system", "content": "You are Hearth."}]
    ask = {"role": "user", "content": "Summarise what we did."}
    while prompt_tokens(backend, [*messages, ask]) < target_tokens:
        turn = len(messages) // 2
        messages.append({"role": "user", "content": f"Turn {turn}. " + SENTENCE})
        messages.append({"role": "assistant", "content": "Done. " + SENTENCE})
    return [*messages, ask]


def prompt_tokens(backend: MlxBackend, messages: list[Message]) -> int:
    prompt = backend.render_prompt(messages, GenerateOptions())
    return len(backend._tokenizer.encode(prompt, add_special_tokens=False))


def raw_run(model: Any, tokenizer: Any, tokens: list[int], max_tokens: int,
            **options: Any) -> tuple[float, float]:
    """(prefill seconds, decode tokens/s) straight through mlx_lm, fresh cache."""
    import mlx.core as mx
    from mlx_lm.generate import stream_generate
    from mlx_lm.models.cache import make_prompt_cache
    from mlx_lm.sample_utils import make_sampler

    start = time.perf_counter()
    first = 0.0
    n = 0
    for _ in stream_generate(model, tokenizer, mx.array(tokens), max_tokens=max_tokens,
                             sampler=make_sampler(temp=0.0), prompt_cache=make_prompt_cache(model),
                             **options):
        n += 1
        first = first or time.perf_counter()
    end = time.perf_counter()
    return first - start, (n - 1) / (end - first) if n > 1 else 0.0


def hearth_run(backend: MlxBackend, messages: list[Message], max_tokens: int,
               key: str) -> Done:
    options = GenerateOptions(max_tokens=max_tokens, temperature=0.0, cache_key=key)
    done = list(backend.stream(messages, options, lambda: False))[-1]
    assert isinstance(done, Done)
    return done


def compare(backend: MlxBackend, messages: list[Message], max_tokens: int,
            repeats: int) -> dict[str, list[float]]:
    """Interleaved raw / Hearth runs on the same tokens: wall-clock rates and CPU seconds."""
    tokenizer = backend._tokenizer  # the very tokenizer Hearth uses, so the tokens match
    prompt = backend.render_prompt(messages, GenerateOptions())
    tokens = tokenizer.encode(prompt, add_special_tokens=False)
    out: dict[str, list[float]] = {k: [] for k in (
        "raw_prefill", "raw_decode", "raw_cpu", "raw512_prefill", "raw512_cpu",
        "hearth_prefill", "hearth_decode", "hearth_cpu")}

    def raw(name: str, **options: Any) -> None:
        cpu = time.process_time()
        prefill, decode = raw_run(backend._model, tokenizer, tokens, max_tokens, **options)
        out[f"{name}_cpu"].append(time.process_time() - cpu)
        out[f"{name}_prefill"].append(len(tokens) / prefill)
        if name == "raw":
            out["raw_decode"].append(decode)

    def hearth(i: int) -> None:
        cpu = time.process_time()
        done = hearth_run(backend, messages, max_tokens, key=f"bench-{max_tokens}-{i}")
        out["hearth_cpu"].append(time.process_time() - cpu)
        out["hearth_prefill"].append(done.timings["prefill_tokens_per_second"])
        out["hearth_decode"].append(done.timings["tokens_per_second"])

    for i in range(repeats + 1):
        # Rotate the order, so no path always runs right after another on a warm cache.
        steps = [lambda: raw("raw"), lambda i=i: hearth(i),
                 # Hearth prefills in 512-token chunks (quick cancel); mlx_lm defaults to 2048.
                 lambda: raw("raw512", prefill_step_size=PREFILL_STEP)]
        for step in steps[i % 3:] + steps[: i % 3]:
            step()
        if i == 0:  # the first round warms every path up and is dropped
            for values in out.values():
                values.clear()
    out["prompt_tokens"] = [float(len(tokens))]
    return out


def second_turn(backend: MlxBackend, repeats: int) -> tuple[float, float, int]:
    firsts, seconds = [], []
    cached = 0
    for i in range(repeats):
        messages = history(backend, 2000)
        first = hearth_run(backend, messages, 8, key=f"turns-{i}")
        follow = [*messages, {"role": "assistant", "content": "Summary."},
                  {"role": "user", "content": "Thanks, and what is next?"}]
        second = hearth_run(backend, follow, 8, key=f"turns-{i}")
        firsts.append(first.timings["ttft_ms"])
        seconds.append(second.timings["ttft_ms"])
        cached = second.cached_prompt_tokens
    return min(firsts), min(seconds), cached


def cpu(figures: dict[str, list[float]], name: str) -> float:
    """Median CPU seconds of one run: counts work done, not time spent waiting for a core."""
    values = sorted(figures[f"{name}_cpu"])
    return values[len(values) // 2]


def main() -> int:
    sys.stdout.reconfigure(line_buffering=True)  # figures appear as they are measured
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", choices=sorted(SIZES), default="tiny")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--decode-tokens", type=int, default=128)
    args = parser.parse_args()
    import mlx.core as mx

    folder = build(args.size)
    backend = MlxBackend(str(folder))
    backend.load()
    best = max  # best of N: the least disturbed run on a shared machine
    print(f"model: {args.size} ({folder}), device {backend.info.device}, "
          f"best of {args.repeats} interleaved runs")

    # Decode runs are short, so take more of them: contention on a shared box is bursty.
    decode = compare(backend, [{"role": "user", "content": "Write a story."}],
                     args.decode_tokens, args.repeats * 3)
    long_chat = history(backend, 2000)
    prefill = compare(backend, long_chat, 1, args.repeats)
    raw_p, hearth_p = best(prefill["raw_prefill"]), best(prefill["hearth_prefill"])
    raw_d, hearth_d = best(decode["raw_decode"]), best(decode["hearth_decode"])
    raw512 = best(prefill["raw512_prefill"])
    print(f"prefill ({prefill['prompt_tokens'][0]:.0f} tokens), wall clock: raw {raw_p:,.0f} "
          f"tok/s (mlx_lm default 2048-token steps), raw {raw512:,.0f} tok/s (512-token steps), "
          f"Hearth {hearth_p:,.0f} tok/s (512-token steps); Hearth/raw {hearth_p / raw_p:.3f}, "
          f"same steps {hearth_p / raw512:.3f}")
    print(f"prefill, CPU seconds per run (robust to other load): raw same steps "
          f"{cpu(prefill, 'raw512'):.3f} s, Hearth {cpu(prefill, 'hearth'):.3f} s; Hearth/raw "
          f"throughput {cpu(prefill, 'raw512') / cpu(prefill, 'hearth'):.3f}")
    print(f"decode ({args.decode_tokens} tokens), wall clock: raw {raw_d:,.1f} tok/s, "
          f"Hearth {hearth_d:,.1f} tok/s, Hearth/raw {hearth_d / raw_d:.3f}")
    print(f"decode run, CPU seconds: raw {cpu(decode, 'raw'):.3f} s, Hearth "
          f"{cpu(decode, 'hearth'):.3f} s; Hearth/raw throughput "
          f"{cpu(decode, 'raw') / cpu(decode, 'hearth'):.3f}")

    first, second, cached = second_turn(backend, args.repeats)
    print(f"second turn after a ~2,000-token history: TTFT {second:.1f} ms vs first turn "
          f"{first:.1f} ms ({first / second:.1f}x shorter; {cached:,} prompt tokens from cache)")

    mx.reset_peak_memory()  # measure one Hearth turn alone, not the raw runs before it
    hearth_run(backend, long_chat, 16, key="peak")
    shape = model_shape(folder)
    tokens = int(prefill["prompt_tokens"][0]) + 16
    planned = shape.weights_bytes + tokens * shape.kv_bytes_per_token(backend.info.kv_type)
    peak = mx.get_peak_memory()
    print(f"peak MLX memory {peak / 2**20:.1f} MiB vs weights + planned KV for {tokens:,} "
          f"tokens {planned / 2**20:.1f} MiB (ratio {peak / planned:.2f})")
    backend.unload()
    return 0


if __name__ == "__main__":
    sys.exit(main())
