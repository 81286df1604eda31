"""The frozen Linux bundle against the source tree: time to window, `hearth ask`, size by part.

    .venv/bin/python bench/bench_bundle.py [--dist packaging/dist] [--runs 3]

Build the bundle first (bash packaging/build_linux.sh). Each figure is the median of --runs
fresh processes with a fresh HEARTH_HOME, for the bundle and for `python -m app.main` from source
measured in the same run; the ratio bundle/source is what to watch (a frozen app should start
about as fast as the source tree, not slower)."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def timed(cmd: list[str], home: Path, **env: str) -> tuple[float, str]:
    full_env = dict(os.environ, HEARTH_HOME=str(home), QT_QPA_PLATFORM="offscreen", **env)
    started = time.perf_counter()
    done = subprocess.run(cmd, capture_output=True, text=True, env=full_env, timeout=300,
                          cwd=ROOT)
    if done.returncode != 0:
        raise SystemExit(f"{cmd[:3]} failed: {done.stderr[-500:]}")
    return time.perf_counter() - started, done.stdout


def median_run(cmd: list[str], runs: int, model: Path | None = None, **env: str) -> float:
    times = []
    for _ in range(runs):
        with tempfile.TemporaryDirectory(prefix="hearth-bench-") as tmp:
            home = Path(tmp)
            if model is not None:  # one small skill: the prompt fits the tiny model's context
                (home / "data").mkdir(parents=True)
                (home / "data" / "settings.json").write_text(
                    json.dumps({"enabled_skills": ["get_current_time"]}))
            times.append(timed(cmd, home, **env)[0])
    return statistics.median(times)


def size_by_part(bundle: Path, top: int = 8) -> list[tuple[str, float]]:
    sizes: dict[str, int] = {}
    internal = bundle / "_internal"
    for path in internal.rglob("*"):
        if path.is_file() and not path.is_symlink():
            part = path.relative_to(internal).parts[0]
            sizes[part] = sizes.get(part, 0) + path.stat().st_size
    ranked = sorted(sizes.items(), key=lambda kv: -kv[1])
    return [(name, size / 2**20) for name, size in ranked[:top]]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--dist", type=Path, default=ROOT / "packaging" / "dist")
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    bundle = args.dist / "Hearth"
    exe = bundle / "hearth"
    if not exe.exists():
        print(f"no bundle at {bundle}: run bash packaging/build_linux.sh first")
        return 1
    from tests.support.tiny_model import build_tiny_model

    model = build_tiny_model(ROOT / "tests" / ".cache" / "tiny-model").gguf_path
    source = [sys.executable, "-m", "app.main"]
    ask = ["ask", "Say hello", "--model", str(model), "--json", "--no-think", "--max-tokens", "8"]
    rows = [
        ("time to window (s)", median_run([str(exe)], args.runs, HEARTH_STARTUP_PROBE="1"),
         median_run(source, args.runs, HEARTH_STARTUP_PROBE="1")),
        ("hearth ask, tiny GGUF (s)", median_run([str(exe), *ask], args.runs, model),
         median_run([*source, *ask], args.runs, model)),
        ("hearth selftest --no-window (s)",
         median_run([str(exe), "selftest", "--no-window"], args.runs),
         median_run([*source, "selftest", "--no-window"], args.runs)),
    ]
    print(f"{'figure':34} {'bundle':>8} {'source':>8} {'ratio':>6}")
    for name, frozen, src in rows:
        print(f"{name:34} {frozen:8.2f} {src:8.2f} {frozen / src:6.2f}")
    total = sum(p.stat().st_size for p in bundle.rglob("*") if p.is_file() and not p.is_symlink())
    print(f"\nbundle size: {total / 2**20:.0f} MiB; largest parts of _internal:")
    for name, mib in size_by_part(bundle):
        print(f"  {name:30} {mib:7.1f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
