"""How many threads the engines use: one per physical core this process may run on."""

from __future__ import annotations

import os
import platform
import subprocess
from functools import cache
from pathlib import Path


@cache
def physical_cores() -> int:
    """Physical cores (not hyper-threads) available to this process; at least 1.

    Two threads on one core's hyper-threads share its vector units, so they add little to
    prefill and, on a busy machine, leave more threads waiting at llama.cpp's barriers."""
    logical = _usable_logical()
    physical = _linux_physical() or _sysctl_physical() or logical
    return max(1, min(physical, logical))


def engine_threads(setting: int = 0) -> int:
    """The user's thread count when set (>0), else one per physical core."""
    return setting if setting > 0 else physical_cores()


def wait_without_spinning() -> None:
    """Make llama.cpp's OpenMP worker threads sleep, not spin, while they wait for each other.

    With the default policy a waiting thread spins for a while at every barrier; when another
    program holds a core, the spinning threads burn the time the descheduled one needs, and
    prefill on a busy machine ran 2.7x (9x with tiny ops) slower than with passive waiting
    (bench/bench_threads.py). OpenMP reads this once, when llama.cpp's library loads, so call
    it before the first `import llama_cpp`; a value the user set is kept."""
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


def _usable_logical() -> int:
    try:
        return len(os.sched_getaffinity(0))  # a container or taskset may allow fewer
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def _linux_physical() -> int:
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return 0
    cores: set[tuple[str, str]] = set()
    physical_id = core_id = ""
    for line in [*text.splitlines(), ""]:
        key, _, value = line.partition(":")
        key = key.strip()
        if key == "physical id":
            physical_id = value.strip()
        elif key == "core id":
            core_id = value.strip()
        elif not line.strip():
            if core_id:
                cores.add((physical_id, core_id))
            physical_id = core_id = ""
    return len(cores)


def _sysctl_physical() -> int:
    if platform.system() != "Darwin":
        return 0
    try:
        out = subprocess.run(["sysctl", "-n", "hw.physicalcpu"], capture_output=True,
                             text=True, timeout=5, check=False).stdout
        return int(out.strip() or 0)
    except (OSError, ValueError, subprocess.SubprocessError):
        return 0
