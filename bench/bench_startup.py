"""Time from starting `hearth` to its main window being shown, against a bare PySide6 window.

    .venv/bin/python bench/bench_startup.py [--runs 5]

Each run spawns `python -m app.main` with a fresh HEARTH_HOME (no model: the first-run path)
and HEARTH_STARTUP_PROBE=1, which makes the app print the wall-clock time when the window is
exposed and quit. The reference, measured the same way in the same run: a bare PySide6 process
that opens a QMainWindow and prints the time from its showEvent (the same zero-timer as the
app's). Target: at most 0.3 s more than the bare window (issue 28). Offscreen by default
(QT_QPA_PLATFORM can be overridden, e.g. xcb under Xvfb).

Every process runs with compiled bytecode cached, as an installed Hearth does (pip and the
bundles ship .pyc files) and as the bare window's PySide6 and stdlib already are: in a cache
of the benchmark's own (PYTHONPYCACHEPREFIX), filled by a first launch of each side that is
not timed, so nothing is written into the trees. A shell with PYTHONDONTWRITEBYTECODE=1 would
otherwise make Hearth compile its ~80 modules from source at every launch (~0.15 s) while the
bare window compiles none; `--compile-each-launch` measures that way."""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
TARGET_S = 1.0
TARGET_EXTRA_S = 0.3  # over a bare PySide6 window measured the same way

BARE_WINDOW = """
import sys, time
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMainWindow

class Window(QMainWindow):
    def showEvent(self, event):
        super().showEvent(event)
        QTimer.singleShot(0, self, self.shown)

    def shown(self):
        print(f"HEARTH_WINDOW_SHOWN {time.time():.4f} 0 {time.process_time():.4f}", flush=True)
        QTimer.singleShot(0, app.quit)

app = QApplication(sys.argv)
window = Window()
window.resize(1000, 700)
window.show()
sys.exit(app.exec())
"""


PYCACHE = Path(tempfile.gettempdir()) / "hearth-bench-pycache"
CACHE_BYTECODE = True  # main() turns it off for --compile-each-launch
CPU_TIMES: dict[tuple[str, ...], list[float]] = {}  # per command: CPU seconds to the window


def _env(home: str) -> dict[str, str]:
    env = dict(os.environ)
    env.setdefault("QT_QPA_PLATFORM", "offscreen")
    env.update(HEARTH_HOME=home, HEARTH_STARTUP_PROBE="1")
    if CACHE_BYTECODE:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    return env


def time_window(command: list[str] | None = None, tree: Path = ROOT) -> float:
    """Seconds from spawning the process to the window being shown (from the app's own line);
    `tree`: the checkout whose app runs (another commit's export, for a before/after). The CPU
    seconds the process had used by then go to CPU_TIMES (when its line says; older trees'
    do not)."""
    with tempfile.TemporaryDirectory(prefix="hearth-bench-") as home:
        env = {**_env(home), "PYTHONPATH": str(tree)}
        started = time.time()
        done = subprocess.run(command or [sys.executable, "-m", "app.main"], cwd=tree,
                              env=env, capture_output=True, text=True, timeout=120)
    line = next((ln for ln in done.stdout.splitlines() if ln.startswith("HEARTH_WINDOW_SHOWN")),
                None)
    if done.returncode != 0 or line is None:
        raise SystemExit(f"hearth did not show its window:\n{done.stderr[-2000:]}")
    fields = line.split()
    if len(fields) > 3:
        CPU_TIMES.setdefault(tuple(command or [str(tree)]), []).append(float(fields[3]))
    return float(fields[1]) - started


def time_reference() -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-c", "import PySide6.QtWidgets"], check=True,
                   env=_env(tempfile.gettempdir()))
    return time.perf_counter() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--against", type=Path, default=None,
                        help="another tree (e.g. `git archive REV | tar -x -C DIR`), run in turn")
    parser.add_argument("--compile-each-launch", action="store_true",
                        help="no bytecode cache (as with PYTHONDONTWRITEBYTECODE=1 set)")
    args = parser.parse_args()
    global CACHE_BYTECODE
    CACHE_BYTECODE = not args.compile_each_launch
    # Untimed first launches: the OS file cache and the bytecode cache are warm, as at any
    # second launch.
    time_window()
    bare_command = [sys.executable, "-c", BARE_WINDOW]
    time_window(bare_command)
    time_reference()
    if args.against is not None:
        time_window(tree=args.against)
    windows, bares, references, others = [], [], [], []
    for _ in range(args.runs):  # interleaved: a load spike hits both alike
        windows.append(time_window())
        bares.append(time_window(bare_command))
        references.append(time_reference())
        if args.against is not None:
            others.append(time_window(tree=args.against))
    best, median = min(windows), statistics.median(windows)
    ref, bare = statistics.median(references), statistics.median(bares)
    extra = statistics.median(w - b for w, b in zip(windows, bares, strict=True))
    print(f"platform: {os.environ.get('QT_QPA_PLATFORM', 'offscreen')}, runs: {args.runs}, "
          f"bytecode {'cached' if CACHE_BYTECODE else 'compiled at each launch'}, "
          f"load average {os.getloadavg()[0]:.1f}")
    print(f"launch -> window shown: median {median:.3f} s, best {best:.3f} s, "
          f"worst {max(windows):.3f} s (target < {TARGET_S:.1f} s)")
    print(f"reference (python + import PySide6.QtWidgets): median {ref:.3f} s")
    print(f"ratio window / reference: {median / ref:.2f}x")
    print(f"bare PySide6 window shown: median {bare:.3f} s; Hearth - bare: median {extra:+.3f} s "
          f"(target <= +{TARGET_EXTRA_S:.1f} s)")
    cpu, bare_cpu = CPU_TIMES.get((str(ROOT),), []), CPU_TIMES.get(tuple(bare_command), [])
    if cpu and bare_cpu:  # the first launches (not timed) are left out
        print(f"CPU time to the window: Hearth median {statistics.median(cpu[1:]):.3f} s, "
              f"bare {statistics.median(bare_cpu[1:]):.3f} s")
    if others:
        other = statistics.median(o - b for o, b in zip(others, bares, strict=True))
        print(f"{args.against}: median {statistics.median(others):.3f} s; "
              f"its - bare: median {other:+.3f} s")
    print("PASS" if median < TARGET_S and extra <= TARGET_EXTRA_S else "SLOW")
    return 0


if __name__ == "__main__":
    sys.exit(main())
