"""llama.cpp prefill speed by thread count and OpenMP wait policy, on a quiet and a busy machine.

    .venv/bin/python bench/bench_threads.py [--model PATH] [--tokens 1024] [--repeats 3]

Each configuration runs in its own process (OpenMP reads its environment once, at load).
"Busy" starts one CPU-bound process per core next to it, as other programs would. Figures are
prefill tokens per second (median), and each busy figure over the quiet one of the same run."""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

CONFIGS = [  # (label, threads, extra environment)
    ("1 thread", 1, {}),
    ("physical cores, default OpenMP wait (spins)", 0, {}),
    ("physical cores, OMP_WAIT_POLICY=PASSIVE", 0, {"OMP_WAIT_POLICY": "PASSIVE"}),
    ("physical cores, GOMP_SPINCOUNT=10000", 0, {"GOMP_SPINCOUNT": "10000"}),
]

CHILD = """
import json, statistics, sys, time
sys.path.insert(0, sys.argv[1])
from backends.cpu import engine_threads
import llama_cpp
threads = engine_threads(int(sys.argv[3]))
llm = llama_cpp.Llama(model_path=sys.argv[2], n_ctx=int(sys.argv[4]) + 16, n_batch=512,
                      n_ubatch=512, n_threads=threads, n_threads_batch=threads, verbose=False)
tokens = [(i * 7919) % (llm.n_vocab() - 10) + 5 for i in range(int(sys.argv[4]))]
speeds = []
for _ in range(int(sys.argv[5])):
    llm.reset()
    started = time.perf_counter()
    llm.eval(tokens)
    speeds.append(len(tokens) / (time.perf_counter() - started))
print(json.dumps({"threads": threads, "tok_s": statistics.median(speeds)}))
"""


def spin(stop_at: float) -> None:
    x = 0
    while time.time() < stop_at:
        x += 1


def run(model: str, threads: int, env: dict[str, str], tokens: int, repeats: int) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, str(ROOT), model, str(threads),
                          str(tokens), str(repeats)], capture_output=True, text=True,
                         env={**_without_wait_settings(), **env}, check=True, timeout=3600)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _without_wait_settings() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", default=str(ROOT / "tests" / ".cache" / "tiny-model" /
                                               "model.gguf"))
    parser.add_argument("--tokens", type=int, default=1024)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    from backends.cpu import physical_cores

    print(f"model {Path(args.model).name}, {args.tokens} tokens, physical cores "
          f"{physical_cores()}, logical {os.cpu_count()}, load {os.getloadavg()[0]:.1f}")
    print("| configuration | quiet tok/s | busy tok/s | busy / quiet |")
    print("|---|---|---|---|")
    for label, threads, env in CONFIGS:
        quiet = run(args.model, threads, env, args.tokens, args.repeats)
        stop_at = time.time() + 3600
        hogs = [multiprocessing.Process(target=spin, args=(stop_at,), daemon=True)
                for _ in range(physical_cores())]
        for hog in hogs:
            hog.start()
        try:
            busy = run(args.model, threads, env, args.tokens, args.repeats)
        finally:
            for hog in hogs:
                hog.terminate()
                hog.join()
        print(f"| {label} ({quiet['threads']}) | {quiet['tok_s']:,.0f} | {busy['tok_s']:,.0f} "
              f"| {busy['tok_s'] / quiet['tok_s']:.3f} |", flush=True)


if __name__ == "__main__":
    main()
