"""The remote engine's HTTP client before and after httpx2 (issue 29): streamed tokens/s.

Run: .venv/bin/python bench/remote_client.py [--chunks 5000] [--rounds 5] [--before REV]
One local SSE server streams the same reply (one token per event) to the remote engine of
REV (default: the commit before backends/https.py came in, unpacked with git archive) and of
this tree, each in its own process, alternating A/B. Prints chunks/s per arm and the ratio
after / before; both arms are measured in the same run against the same server."""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from parser_remote import _Sse, sse_chunks  # noqa: E402

CHILD = """
import json, sys, time
from backends.base import GenerateOptions
from backends.remote import RemoteBackend
url, runs = sys.argv[1], int(sys.argv[2])
started = time.perf_counter()
backend = RemoteBackend(url)
backend.load()
connect = time.perf_counter() - started
best, count = float("inf"), 0
for _ in range(runs):
    start = time.perf_counter()
    count = sum(1 for _ in backend.stream([{"role": "user", "content": "hi"}],
                                          GenerateOptions(), lambda: False))
    best = min(best, time.perf_counter() - start)
print(json.dumps({"seconds": best, "events": count, "connect_ms": connect * 1000}))
"""


def before_rev() -> str:
    added = subprocess.run(["git", "-C", str(ROOT), "log", "--diff-filter=A", "--format=%H",
                            "--", "backends/https.py"], capture_output=True, text=True).stdout
    return f"{added.split()[-1]}^" if added.split() else "HEAD"


def unpack(rev: str, into: Path) -> Path:
    archive = into / "before.tar"
    with archive.open("wb") as out:
        subprocess.run(["git", "-C", str(ROOT), "archive", rev, "backends"], stdout=out,
                       check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into, filter="data")
    return into


def arm(path: Path, url: str, runs: int) -> dict[str, float]:
    env = {**os.environ, "PYTHONPATH": str(path)}
    out = subprocess.run([sys.executable, "-c", CHILD, url, str(runs)], env=env, check=True,
                         capture_output=True, text=True, cwd=path).stdout
    return dict(json.loads(out.strip().splitlines()[-1]))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--chunks", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--before", default="")
    args = parser.parse_args()
    rev = args.before or before_rev()
    _Sse.chunks = sse_chunks(args.chunks)
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Sse)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    rates: dict[str, list[float]] = {"before": [], "after": []}
    connects: dict[str, list[float]] = {"before": [], "after": []}
    with tempfile.TemporaryDirectory() as tmp:
        old = unpack(rev, Path(tmp))
        for _ in range(args.rounds):
            for name, path in (("before", old), ("after", ROOT)):
                result = arm(path, url, 3)
                rates[name].append(args.chunks / result["seconds"])
                connects[name].append(result["connect_ms"])
    server.shutdown()
    for name in rates:
        print(f"{name:6} chunks/s median {statistics.median(rates[name]):,.0f} "
              f"(min {min(rates[name]):,.0f}, max {max(rates[name]):,.0f}); load() median "
              f"{statistics.median(connects[name]):.1f} ms")
    ratios = [a / b for a, b in zip(rates["after"], rates["before"], strict=True)]
    print(f"after / before (per round, median of {len(ratios)}): {statistics.median(ratios):.2f}"
          f" [{', '.join(f'{r:.2f}' for r in ratios)}]; before = {rev}")


if __name__ == "__main__":
    main()
