"""The processor: threads the engines use (one per physical core), and what the bundle needs."""

from __future__ import annotations

import os
import sys
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


# What the shipped llama.cpp is built for beyond x86-64's baseline (CMAKE_ARGS in
# packaging/build_linux.sh and packaging/windows/build.ps1; BMI2 only on Linux, so not asked):
# on a CPU without them the library dies with an illegal instruction, not an error.
BUNDLE_X86_FEATURES = ("avx", "avx2", "fma", "f16c")
# Windows reports features one by one (IsProcessorFeaturePresent); FMA and F16C come with AVX2
# on every x86 CPU that has it.
_WINDOWS_FEATURES = {"avx": 39, "avx2": 40}


def cpu_refusal(frozen: bool | None = None) -> str:
    """A sentence when this processor cannot run the bundled llama.cpp, else "".

    Only a frozen build is checked: a source install's llama.cpp may be compiled for this CPU."""
    if frozen is None:
        frozen = bool(getattr(sys, "frozen", False))
    if not frozen:
        return ""
    from backends.llama_backends import backend_files, package_lib

    lib = package_lib()
    if lib is not None and len(backend_files(lib).get("cpu", [])) > 1:
        return ""  # a CPU backend per instruction set, down to plain x86-64: one runs here
    import platform  # here: ~8 ms to import, and `hearth` imports this module before its window

    if platform.machine().lower() not in ("x86_64", "amd64"):
        return ""
    present = x86_features()
    missing = [f for f in BUNDLE_X86_FEATURES if present is not None and f not in present]
    if not missing:
        return ""
    names = ", ".join(f.upper() for f in missing)
    return (f"This computer's processor lacks {names}, which Hearth's built-in llama.cpp needs "
            "(processors from about 2013 on have it). Connect to a model server instead "
            "(Settings > Engine > Remote server).")


def x86_features() -> set[str] | None:
    """The processor's feature flags in /proc/cpuinfo's lower-case names; None if unknown."""
    if sys.platform.startswith("linux"):
        try:
            return parse_cpuinfo(Path("/proc/cpuinfo").read_text(errors="replace"))
        except OSError:
            return None
    if sys.platform == "win32":
        import ctypes

        present = ctypes.windll.kernel32.IsProcessorFeaturePresent
        found = {name for name, number in _WINDOWS_FEATURES.items() if present(number)}
        return found | {"fma", "f16c"} if "avx2" in found else found
    if sys.platform == "darwin":
        words = " ".join(_sysctl(k) for k in ("machdep.cpu.features",
                                               "machdep.cpu.leaf7_features")).lower()
        return {w.replace("avx1.0", "avx") for w in words.split()}
    return None


def parse_cpuinfo(text: str) -> set[str]:
    """The `flags` of the first processor in /proc/cpuinfo."""
    for line in text.splitlines():
        name, _, value = line.partition(":")
        if name.strip() == "flags":
            return set(value.split())
    return set()


def _sysctl(name: str) -> str:
    import subprocess  # here: `hearth` imports this module before its window

    try:
        return subprocess.run(["sysctl", "-n", name], capture_output=True, text=True,
                              timeout=5).stdout
    except (OSError, subprocess.SubprocessError):
        return ""


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
    text = _sysctl("hw.physicalcpu").strip() if sys.platform == "darwin" else ""
    return int(text) if text.isdigit() else 0
