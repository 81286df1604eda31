"""Run a command under an address-space cap (RLIMIT_AS) and measure it: exit code, peak
resident memory, seconds, and what it printed (hostile-input tests and bench/bench_bounded.py)."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CAP = 4 * 2**30  # the 4 GB machine


@dataclass
class Measured:
    code: int
    peak_mb: float
    seconds: float
    out: str
    err: str


def hearth_env(home: Path) -> dict[str, str]:
    return {**os.environ, "HEARTH_HOME": str(home), "PYTHONPATH": str(ROOT),
            "QT_QPA_PLATFORM": "offscreen", "HF_HUB_OFFLINE": "1"}


def run_capped(argv: list[str], env: dict[str, str], cap: int = CAP,
               stdin: str | None = None, timeout: float = 600) -> Measured:
    """`argv` (a Python module's arguments, or a full command line when it starts with '/')
    under `cap` bytes of address space, with its own peak RSS from wait4."""
    command = argv if argv[0].startswith("/") else [sys.executable, *argv]

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))

    started = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out, tempfile.TemporaryFile("w+") as err, \
            tempfile.TemporaryFile("w+") as given:
        given.write(stdin or "")
        given.seek(0)
        process = subprocess.Popen(command, stdin=given, stdout=out, stderr=err, text=True,
                                   env=env, cwd=ROOT, preexec_fn=limit)
        deadline = started + timeout
        while True:  # wait4 gives this child's own peak, not the most of all children so far
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
            if pid:
                break
            if time.perf_counter() > deadline:
                process.kill()
            time.sleep(0.05)
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        return Measured(process.returncode, usage.ru_maxrss / 1024,
                        time.perf_counter() - started, out.read(), err.read())
