"""A process that ran MLX on the runner thread exits cleanly (no C++ abort at exit)."""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import sys, threading
from app.core.runner import ModelRunner
from backends.base import GenerateOptions
from backends.mlx_backend import MlxBackend

runner = ModelRunner()
runner.load(MlxBackend(sys.argv[1])).result(60)
done = threading.Event()
runner.submit([{"role": "user", "content": "hi"}], GenerateOptions(max_tokens=4),
              lambda e: done.set() if type(e).__name__ == "Done" else None)
assert done.wait(60)
runner.close()
print("closed", flush=True)
"""


def test_exit_after_mlx_on_the_runner_thread_is_clean(tiny_model) -> None:  # type: ignore[no-untyped-def]
    for _ in range(3):  # the abort was a race at exit: try a few times
        proc = subprocess.run([sys.executable, "-c", SCRIPT, str(tiny_model.mlx_dir)],
                              capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr[-500:]
        assert "terminate called" not in proc.stderr
