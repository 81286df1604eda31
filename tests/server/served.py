"""A real `hearth serve` process on 127.0.0.1 for tests: started, read line by line, stopped."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
WAIT_S = 120  # generous: a busy machine can be slow to start Python and load a model


class Served:
    """`hearth serve --json --port 0` in a child process with its own HEARTH_HOME; `cpus`, if
    given, are the only CPUs it may run on (the benchmark keeps it off the client's core)."""

    def __init__(self, home: Path, *args: str, settings: dict[str, Any] | None = None,
                 cpus: set[int] | None = None) -> None:
        (home / "data").mkdir(parents=True, exist_ok=True)
        if settings:
            (home / "data" / "settings.json").write_text(json.dumps(settings), encoding="utf-8")
        env = {**os.environ, "HEARTH_HOME": str(home), "PYTHONPATH": str(ROOT)}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "app.main", "serve", "--json", "--port", "0", *args],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=ROOT,
            preexec_fn=None if cpus is None else lambda: os.sched_setaffinity(0, cpus))
        self.lines: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        threading.Thread(target=self._read, daemon=True).start()
        first = self.next_line()
        assert first["type"] == "listening", first
        self.url: str = first["url"]
        self.key: str = first["api_key"]
        self.base = self.url.removesuffix("/v1")
        self.host, port = self.base.removeprefix("http://").rsplit(":", 1)
        self.port = int(port)

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(json.loads(line))
        self.lines.put({"type": "eof"})

    def next_line(self) -> dict[str, Any]:
        try:
            line = self.lines.get(timeout=WAIT_S)
        except queue.Empty:
            raise AssertionError(f"hearth serve said nothing: {self.stderr()}") from None
        if line["type"] == "eof":
            raise AssertionError(f"hearth serve ended: {self.stderr()}")
        self.seen.append(line)
        return line

    def wait_for(self, kind: str) -> dict[str, Any]:
        while True:
            line = self.next_line()
            if line["type"] == kind:
                return line

    def stderr(self) -> str:
        if self.process.poll() is None:
            return "(still running)"
        assert self.process.stderr is not None
        return self.process.stderr.read()

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
        try:
            return self.process.wait(WAIT_S)
        finally:
            if self.process.poll() is None:
                self.process.kill()
            for stream in (self.process.stdout, self.process.stderr):
                if stream is not None:
                    stream.close()
