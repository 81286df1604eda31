"""Smoke-test a frozen Hearth bundle: self-test, a real `ask` on the tiny model, size and contents.

Usage: python packaging/smoke_test.py DIST_DIR [--exe PATH] [--max-mb N]
Exit code 0 when every check passes; each check prints one line."""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# What must never ship: the project's tests, caches and build leftovers.
FORBIDDEN_DIRS = {"tests", "__pycache__", ".pytest_cache", ".hypothesis", ".mypy_cache"}
FORBIDDEN_SUFFIXES = (".pyc.tmp", ".gguf")


def default_exe(dist: Path) -> Path:
    if sys.platform == "darwin":
        return dist / "Hearth.app" / "Contents" / "MacOS" / "Hearth"
    if sys.platform == "win32":
        return dist / "Hearth" / "hearth-cli.exe"
    return dist / "Hearth" / "hearth"


def run(exe: Path, args: list[str], home: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, HEARTH_HOME=str(home), QT_QPA_PLATFORM="offscreen")
    env.pop("PYTHONPATH", None)  # the bundle must not lean on the source tree
    return subprocess.run([str(exe), *args], capture_output=True, text=True, env=env,
                          timeout=300, cwd=tempfile.gettempdir())


def check_selftest(exe: Path, home: Path, model: Path) -> list[str]:
    proc = run(exe, ["selftest", "--json", "--model", str(model)], home)
    if proc.returncode != 0:
        return [f"selftest exited {proc.returncode}: {proc.stderr.strip()[-800:]}"]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    return [f"selftest {name}: {res}" for name, res in report["checks"].items() if res != "ok"]


def check_ask(exe: Path, home: Path, model: Path) -> list[str]:
    proc = run(exe, ["ask", "Say hello", "--model", str(model), "--json", "--no-think",
                     "--max-tokens", "8"], home)
    if proc.returncode != 0:
        return [f"ask exited {proc.returncode}: {proc.stderr.strip()[-800:]}"]
    events = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    done = [e for e in events if e.get("type") == "done"]
    if not done or done[-1]["usage"]["completion_tokens"] < 1:
        return [f"ask produced no answer: {proc.stdout[-400:]}"]
    return []


def check_bad_model(exe: Path, home: Path) -> list[str]:
    bad = home / "broken.gguf"
    bad.parent.mkdir(parents=True, exist_ok=True)
    bad.write_bytes(b"GGUF" + b"\0" * 64)
    proc = run(exe, ["ask", "hi", "--model", str(bad)], home)
    lines = proc.stderr.strip().splitlines()
    if proc.returncode == 0 or len(lines) != 1 or "Traceback" in proc.stderr:
        return [f"a broken model should give one stderr line, got: {proc.stderr[-400:]}"]
    return []


def check_contents(bundle: Path, max_mb: float) -> list[str]:
    problems, total = [], 0
    for path in bundle.rglob("*"):
        if path.is_dir() and path.name in FORBIDDEN_DIRS:
            problems.append(f"forbidden folder in bundle: {path.relative_to(bundle)}")
        elif path.is_file() and not path.is_symlink():
            total += path.stat().st_size
            if path.name.endswith(FORBIDDEN_SUFFIXES):
                problems.append(f"forbidden file in bundle: {path.relative_to(bundle)}")
    size_mb = total / 2**20
    print(f"bundle size: {size_mb:.0f} MB (limit {max_mb:.0f} MB)")
    if size_mb > max_mb:
        problems.append(f"bundle is {size_mb:.0f} MB, over the {max_mb:.0f} MB limit")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("dist", type=Path)
    parser.add_argument("--exe", type=Path)
    parser.add_argument("--max-mb", type=float, default=700)
    args = parser.parse_args(argv)
    exe = args.exe or default_exe(args.dist)
    sys.path.insert(0, str(ROOT))
    from tests.support.tiny_model import build_tiny_model

    with tempfile.TemporaryDirectory() as tmp:
        model = build_tiny_model(Path(tmp) / "tiny").gguf_path
        home = Path(tmp) / "home"
        problems = check_selftest(exe, home, model)
        problems += check_ask(exe, home, model)
        problems += check_bad_model(exe, home)
    problems += check_contents(args.dist, args.max_mb)
    for problem in problems:
        print(f"FAIL {problem}")
    print("smoke test passed" if not problems else f"smoke test failed ({len(problems)})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
