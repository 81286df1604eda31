"""Smoke-test a frozen Hearth bundle: window, self-test, `ask`, documents, network, contents.

Usage: python packaging/smoke_test.py DIST_DIR [--exe PATH] [--max-mb N] [--model-dir DIR]
Runs the bundle as a user would (no PYTHONPATH, from another folder, offscreen, a fresh data
folder). Each failed check prints one FAIL line; the exit code is 0 only when all pass."""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from smoke_network import check_https_download, check_mcp_serve, check_serve

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT_S = 300
# What must never ship: the project's tests, caches, user data and model weights.
FORBIDDEN_DIRS = {"tests", "__pycache__", ".pytest_cache", ".hypothesis", ".mypy_cache",
                  ".ruff_cache", ".cache", ".git"}
FORBIDDEN_SUFFIXES = (".gguf", ".safetensors", ".ts", ".db", ".pyc.tmp")
FORBIDDEN_NAMES = {"conftest.py", "settings.json", "tiny_model.py"}
# Signs of an unclean exit even when the exit code is 0.
UNCLEAN = ("Traceback (most recent call last)", "QThread: Destroyed", "Segmentation fault",
           "Fatal Python error")


def default_exe(dist: Path) -> Path:
    if sys.platform == "darwin":
        return dist / "Hearth.app" / "Contents" / "MacOS" / "Hearth"
    if sys.platform == "win32":
        return dist / "Hearth" / "hearth-cli.exe"  # the console twin: Hearth.exe has no stdout
    return dist / "Hearth" / "hearth"


def bundle_root(dist: Path) -> Path:
    return dist / "Hearth.app" if sys.platform == "darwin" else dist / "Hearth"


def bundle_env(home: Path, **extra_env: str) -> dict[str, str]:
    """The environment a user's launch gives the bundle, with its own data folder."""
    env = dict(os.environ, HEARTH_HOME=str(home), QT_QPA_PLATFORM="offscreen")
    env.update(extra_env)
    for leak in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV"):  # the bundle must stand alone
        env.pop(leak, None)
    return env


def run(exe: Path, args: list[str], home: Path, console: bool = True, prefix: tuple[str, ...] = (),
        **extra_env: str) -> subprocess.CompletedProcess[str]:
    """Run the bundle as a user would; console=False takes its stdout and stderr away."""
    env = bundle_env(home, **extra_env)
    no_console: dict[str, Any] = {} if console else {
        "capture_output": False, "stdin": subprocess.DEVNULL,
        # POSIX: close fds 1 and 2 in the child, as a Finder-launched app may find them.
        **({} if sys.platform == "win32" else {"preexec_fn": _close_stdio})}
    options: dict[str, Any] = {"capture_output": True, **no_console}
    try:
        return subprocess.run([*prefix, str(exe), *args], text=True, env=env, timeout=TIMEOUT_S,
                              cwd=tempfile.gettempdir(), encoding="utf-8", errors="replace",
                              **options)
    except subprocess.TimeoutExpired as exc:
        return subprocess.CompletedProcess(exc.cmd, 124, "", f"timed out after {TIMEOUT_S} s")


def run_detached_windows(exe: Path, args: list[str], home: Path
                         ) -> subprocess.CompletedProcess[str]:
    """Start the windowed exe as Explorer does on a double-click: through ShellExecuteEx
    (PowerShell's Start-Process), detached, so it gets no console and no standard handles at
    all. A child of subprocess would inherit this script's handles and hide that path."""
    quoted = ",".join("'" + a.replace("'", "''") + "'" for a in args)
    script = (f"$p = Start-Process -FilePath '{exe}' -ArgumentList {quoted} -Wait -PassThru "
              f"-WorkingDirectory '{tempfile.gettempdir()}'; exit $p.ExitCode")
    return run(Path("powershell.exe"), ["-NoProfile", "-NonInteractive", "-Command", script],
               home)


def _close_stdio() -> None:
    os.close(1)
    os.close(2)


def unclean(name: str, proc: subprocess.CompletedProcess[str]) -> list[str]:
    if proc.returncode != 0:
        return [f"{name} exited {proc.returncode}: {proc.stderr.strip()[-800:]}"]
    bad = [mark for mark in UNCLEAN if mark in proc.stderr]
    return [f"{name} did not exit cleanly ({bad[0]}): {proc.stderr.strip()[-800:]}"] if bad else []


def check_window_start(exe: Path, home: Path) -> list[str]:
    """The double-click path: no arguments, the window appears, then the probe quits the app."""
    proc = run(exe, [], home, HEARTH_STARTUP_PROBE="1")
    problems = unclean("app start", proc)
    if not problems and "HEARTH_WINDOW_SHOWN" not in proc.stdout:
        problems.append(f"app start never showed the window: {proc.stderr.strip()[-400:]}")
    return problems


def check_x11_start(exe: Path, home: Path) -> list[str]:
    """Linux: the same start on a real X server (Xvfb), through Qt's xcb plugin and the X
    libraries bundled with it. Skipped where xvfb-run is not installed."""
    xvfb = shutil.which("xvfb-run")
    if sys.platform != "linux" or xvfb is None:
        print("skip app start on X11 (no xvfb-run)")
        return []
    proc = run(exe, [], home, prefix=(xvfb, "-a"), QT_QPA_PLATFORM="xcb",
               HEARTH_STARTUP_PROBE="1")
    problems = unclean("app start on X11", proc)
    if not problems and "HEARTH_WINDOW_SHOWN" not in proc.stdout:
        problems.append(f"app start on X11 never showed the window: {proc.stderr[-400:]}")
    return problems


def check_selftest(exe: Path, home: Path, models: list[Path]) -> list[str]:
    model_args = [arg for model in models for arg in ("--model", str(model))]
    proc = run(exe, ["selftest", "--json", *model_args], home)
    if not proc.stdout.strip():
        return unclean("selftest", proc) or ["selftest printed nothing"]
    report = json.loads(proc.stdout.strip().splitlines()[-1])
    checks = report["checks"]
    problems = [f"selftest {name}: {res}" for name, res in checks.items()
                if not (res == "ok" or res.startswith("ok ("))]
    for name, res in checks.items():
        if res.startswith("ok ("):
            print(f"note selftest {name}: {res[3:]}")
    if not report.get("frozen"):
        problems.append("selftest ran from source, not from the bundle")
    return problems or unclean("selftest", proc)


def small_prompt_settings(home: Path) -> None:
    """One small skill keeps the prompt inside the tiny model's 4k context."""
    settings = home / "data" / "settings.json"
    settings.parent.mkdir(parents=True, exist_ok=True)
    settings.write_text(json.dumps({"enabled_skills": ["get_current_time"]}), encoding="utf-8")


def check_ask(exe: Path, home: Path, model: Path) -> list[str]:
    small_prompt_settings(home)
    proc = run(exe, ["ask", "Say hello", "--model", str(model), "--json", "--no-think",
                     "--max-tokens", "8"], home)
    problems = unclean("ask", proc)
    if problems:
        return problems
    events = [json.loads(line) for line in proc.stdout.splitlines() if line.strip()]
    done = [e for e in events if e.get("type") == "done"]
    if not done or done[-1].get("usage", {}).get("completion_tokens", 0) < 1:
        return [f"ask produced no answer: {proc.stdout[-400:]}"]
    return []


def check_without_console(exe: Path, home: Path, model: Path) -> list[str]:
    """The windowed app (Windows' Hearth.exe, a .app opened from Finder) has no stdout or
    stderr; llama.cpp and logging write to them anyway. It must still answer and save it."""
    small_prompt_settings(home)
    args = ["ask", "Without a console", "--model", str(model), "--no-think", "--max-tokens", "4"]
    if sys.platform == "win32":
        proc = run_detached_windows(exe.with_name("Hearth.exe"), args, home)
    else:
        proc = run(exe, args, home, console=False)
    if proc.returncode != 0:
        return [f"ask without a console exited {proc.returncode}"]
    # The messages, not the list's title: the model may have named the chat (the tiny model
    # sometimes writes a title that survives cleaning, at temperature 0.3).
    saved = run(exe, ["history", "export", "--json"], home)
    if "Without a console" not in saved.stdout or '"assistant"' not in saved.stdout:
        return [f"the answer given without a console was not saved: {saved.stdout[-300:]}"]
    return unclean("history export", saved)


def check_documents(exe: Path, home: Path) -> list[str]:
    """Parsing runs in a spawned worker: in a frozen app that only works through freeze_support."""
    import docx  # the build environment has python-docx; the bundle must parse what it writes

    folder = home / "docs"
    folder.mkdir(parents=True, exist_ok=True)
    document = docx.Document()
    document.add_paragraph("The blue heron nests by the quiet lake every spring.")
    document.save(str(folder / "heron.docx"))
    added = run(exe, ["docs", "add", str(folder), "--json"], home)
    problems = unclean("docs add", added)
    if problems:
        return problems
    report = json.loads(added.stdout.strip().splitlines()[-1])
    if report.get("added") != 1 or report.get("failed"):
        return [f"docs add did not index the .docx: {added.stdout.strip()[-400:]}"]
    found = run(exe, ["docs", "search", "heron", "--json"], home)
    if "quiet lake" not in found.stdout:
        return [f"docs search did not find the passage: {found.stdout[-300:]}{found.stderr[-300:]}"]
    return unclean("docs search", found)


def check_bad_model(exe: Path, home: Path) -> list[str]:
    bad = home / "broken.gguf"
    bad.write_bytes(b"GGUF" + b"\0" * 64)
    proc = run(exe, ["ask", "hi", "--model", str(bad)], home)
    lines = proc.stderr.strip().splitlines()
    if proc.returncode in (0, 124) or len(lines) != 1 or "Traceback" in proc.stderr:
        return [f"a broken model should give one stderr line, got {proc.returncode}: "
                f"{proc.stderr[-400:]}"]
    return []


def check_contents(bundle: Path, max_mb: float) -> list[str]:
    problems, total = [], 0
    for path in bundle.rglob("*"):
        rel = path.relative_to(bundle)
        if path.is_dir() and path.name in FORBIDDEN_DIRS:
            problems.append(f"forbidden folder in bundle: {rel}")
        elif path.is_file() and not path.is_symlink():
            total += path.stat().st_size
            if path.name.endswith(FORBIDDEN_SUFFIXES) or path.name in FORBIDDEN_NAMES:
                problems.append(f"forbidden file in bundle: {rel}")
    size_mb = total / 2**20
    print(f"bundle size: {size_mb:.0f} MB (limit {max_mb:.0f} MB)")
    if size_mb > max_mb:
        problems.append(f"bundle is {size_mb:.0f} MB, over the {max_mb:.0f} MB limit")
    return problems


def test_models(model_dir: Path) -> list[Path]:
    sys.path.insert(0, str(ROOT))
    from tests.support.tiny_model import build_tiny_model

    tiny = build_tiny_model(model_dir)
    # Apple Silicon always runs an MLX generation, with no switch to skip it: on Metal where
    # the Mac has a device, else (a CI VM) on the CPU after the selftest loaded the kernels.
    apple_silicon = sys.platform == "darwin" and platform.machine() == "arm64"
    return [tiny.gguf_path, tiny.mlx_dir] if apple_silicon else [tiny.gguf_path]


def run_checks(exe: Path, tmp: Path, model_dir: Path | None) -> list[str]:
    models = test_models((model_dir or tmp / "tiny").resolve())
    checks: list[tuple[str, Callable[[], list[str]]]] = [
        ("app start", lambda: check_window_start(exe, tmp / "home-start")),
        ("app start on X11", lambda: check_x11_start(exe, tmp / "home-x11")),
        ("selftest", lambda: check_selftest(exe, tmp / "home-selftest", models)),
        ("ask", lambda: check_ask(exe, tmp / "home-ask", models[0])),
        ("broken model", lambda: check_bad_model(exe, tmp / "home-ask")),
        ("documents", lambda: check_documents(exe, tmp / "home-docs")),
        ("no console", lambda: check_without_console(exe, tmp / "home-windowed", models[0])),
        ("https download", lambda: check_https_download(exe, tmp / "home-https", bundle_env)),
        ("serve", lambda: check_serve(exe, tmp / "home-serve", models[0], bundle_env)),
        ("mcp serve", lambda: check_mcp_serve(exe, tmp / "home-mcp", bundle_env)),
    ]
    problems: list[str] = []
    for name, check in checks:
        found = check()
        print(f"{'ok  ' if not found else 'FAIL'} {name}", flush=True)
        problems += found
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dist", type=Path, help="PyInstaller's dist folder")
    parser.add_argument("--exe", type=Path, help="the executable to run (default: per platform)")
    parser.add_argument("--max-mb", type=float, default=450, help="largest acceptable bundle")
    parser.add_argument("--model-dir", type=Path, help="reuse (or build) the tiny model here")
    args = parser.parse_args(argv)
    exe = (args.exe or default_exe(args.dist)).resolve()
    if not exe.exists():
        print(f"FAIL no executable at {exe}")
        return 1
    with tempfile.TemporaryDirectory(prefix="hearth-smoke-") as tmp:
        problems = run_checks(exe, Path(tmp), args.model_dir)
    problems += check_contents(bundle_root(args.dist), args.max_mb)
    for problem in problems:
        print(f"FAIL {problem}")
    print("smoke test passed" if not problems else f"smoke test failed ({len(problems)})")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
