"""The window comes first: nothing its first frame does not need is imported or opened before it.

Run as `hearth` is (a fresh process, `python -m app.main` with no subcommand); the probe that
fires when the window is exposed is replaced by one that reports what the process holds then."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Each one costs tens to hundreds of milliseconds to import, or opens a file the first frame
# does not show: the history (sqlite_utils pulls numpy), the engines, the API server, MCP, the
# indexes, the calendar, the tool schemas, the chat template, D-Bus, Markdown and Pygments
# (loaded on a thread of their own once the window is up: app/ui/markdown.py).
HEAVY = ("numpy", "markdown_it", "pygments", "sqlite_utils", "llama_cpp", "mlx", "uvicorn",
         "starlette", "fastapi", "mcp",
         "httpx", "icalendar", "jsonschema", "jinja2", "pathspec",
         "app.core.history", "app.core.assistant", "app.core.runner", "skills.documents",
         "skills.files", "skills.calendar", "skills.office", "backends.llama_cpp",
         "backends.mlx_backend", "backends.remote", "jeepney")

SCRIPT = """
import json, os, sys
import app.ui.shell.application as application

def probe(app):
    home = os.environ["HEARTH_HOME"]
    files = [os.path.relpath(os.path.join(top, name), home)
             for top, _dirs, names in os.walk(home) for name in names]
    print("SHOWN " + json.dumps({"modules": sorted(sys.modules), "files": files}), flush=True)
    from PySide6.QtCore import QTimer
    QTimer.singleShot(0, app.quit)

application._probe = probe  # what the startup probe calls once the window is exposed
from app.main import main
sys.exit(main([]))
"""


def _at_first_show(home: Path) -> dict[str, list[str]]:
    env = {**os.environ, "HEARTH_HOME": str(home), "QT_QPA_PLATFORM": "offscreen",
           "HEARTH_STARTUP_PROBE": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)  # a hang guard only
    assert done.returncode == 0, done.stderr[-2000:]
    line = next(ln for ln in done.stdout.splitlines() if ln.startswith("SHOWN "))
    shown: dict[str, list[str]] = json.loads(line.removeprefix("SHOWN "))
    return shown


def test_the_window_is_shown_before_any_heavy_module_or_database(tmp_path: Path) -> None:
    shown = _at_first_show(tmp_path / "home")
    loaded = set(shown["modules"])
    early = [name for name in HEAVY if name in loaded]
    assert early == [], f"imported before the window was shown: {early}"
    assert "app.ui.shell.main_window" in loaded  # the probe did run at the window's first show
    opened = [name for name in shown["files"] if name.endswith((".db", ".db-wal", ".sqlite"))]
    assert opened == []
