"""The window comes first: nothing its first frame does not need is imported or opened before it.

Run as `hearth` is (a fresh process, `python -m app.main` with no subcommand); the probe that
fires when the window is exposed is replaced by one that reports what the process holds then."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.ui.scripts import WAIT_MS

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

# What the first frame does not show, built or imported right after it (the search results'
# rich-text delegate: with the first results): quick ask (and its hotkey), the window icon,
# the single-instance server (QtNetwork: the lock alone decides who is first), the bridge
# that hands an answer's events to the window with the core's and the engines' event classes
# (20 frozen dataclasses).
RIGHT_AFTER = ("app.ui.shell.quick_ask", "app.ui.shell.hotkey", "app.ui.icons",
               "PySide6.QtNetwork", "app.ui.bridge", "app.core.events", "backends.events")
LATER_MODULES = (*RIGHT_AFTER, "app.ui.rich_delegate")
# Imported where they are used, never before the window: SQLite's module (sorting a storage
# error), subprocess (opening a file in another app) and hashlib with OpenSSL (the instance
# key is CPython's own SHA-256).
UNUSED_BEFORE = ("sqlite3", "subprocess", "hashlib")
LATER_WIDGETS = ("QuickAsk",)
# PySide6 creates a class, and every enum class it holds, when it is first touched: ~1 ms per
# enum on a busy machine. These are not needed before the window shows (QStyle: the style
# object, reached through setStyle() or widget.style(); QIcon: the window icon; the dialogs and
# the settings' spin boxes and tabs, named where they are built).
LATER_QT_CLASSES = ("QStyle", "QCommonStyle", "QFileDialog", "QAccessible", "QIcon", "QPainter",
                    "QTextDocument", "QMessageBox", "QInputDialog", "QDialog", "QCheckBox",
                    "QSpinBox", "QDoubleSpinBox", "QTabWidget")

SCRIPT = """
import gc, json, os, sys
import app.ui.shell.application as application

def probe(app):
    import PySide6.QtCore, PySide6.QtGui, PySide6.QtWidgets
    home = os.environ["HEARTH_HOME"]
    files = [os.path.relpath(os.path.join(top, name), home)
             for top, _dirs, names in os.walk(home) for name in names]
    made = [name for module in (PySide6.QtCore, PySide6.QtGui, PySide6.QtWidgets)
            for name, value in vars(module).items() if isinstance(value, type)]
    widgets = [type(widget).__name__ for widget in app.topLevelWidgets()]
    shown = {"modules": sorted(sys.modules), "files": files, "qt_classes": made,
             "widgets": widgets, "gc_at_show": gc.isenabled()}

    def after():  # queued behind the steps that follow the first frame
        shown["gc_after"] = gc.isenabled()
        shown["modules_after"] = sorted(sys.modules)
        print("SHOWN " + json.dumps(shown), flush=True)
        app.quit()

    from PySide6.QtCore import QTimer
    QTimer.singleShot(0, after)

application._probe = probe  # what the startup probe calls once the window is exposed
from app.main import main
sys.exit(main([]))
"""


def _at_first_show(home: Path) -> dict[str, Any]:
    env = {**os.environ, "HEARTH_HOME": str(home), "QT_QPA_PLATFORM": "offscreen",
           "HEARTH_STARTUP_PROBE": "1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", SCRIPT], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)  # a hang guard only
    assert done.returncode == 0, done.stderr[-2000:]
    line = next(ln for ln in done.stdout.splitlines() if ln.startswith("SHOWN "))
    shown: dict[str, Any] = json.loads(line.removeprefix("SHOWN "))
    return shown


def test_the_window_is_shown_before_any_heavy_module_or_database(tmp_path: Path) -> None:
    shown = _at_first_show(tmp_path / "home")
    loaded = set(shown["modules"])
    early = [name for name in HEAVY if name in loaded]
    assert early == [], f"imported before the window was shown: {early}"
    assert "app.ui.shell.main_window" in loaded  # the probe did run at the window's first show
    opened = [name for name in shown["files"] if name.endswith((".db", ".db-wal", ".sqlite"))]
    assert opened == []


def test_the_first_frame_builds_only_what_it_shows(tmp_path: Path) -> None:
    """Quick ask, the hotkey, the search results' delegate and the window icon come right
    after the first frame; Qt classes the window does not need are not created before it."""
    shown = _at_first_show(tmp_path / "home")
    assert "MainWindow" in shown["widgets"]
    early = [name for name in LATER_MODULES + UNUSED_BEFORE if name in shown["modules"]]
    early += [name for name in LATER_WIDGETS if name in shown["widgets"]]
    early += [name for name in LATER_QT_CLASSES if name in shown["qt_classes"]]
    assert early == [], f"built before the window was shown: {early}"
    # Right after it: listening for later launches, and the first answer finds its event
    # classes loaded (nothing imported on the GUI thread then).
    missing = [name for name in RIGHT_AFTER if name not in shown["modules_after"]]
    assert missing == [], f"not loaded after the first frame: {missing}"


def test_what_comes_after_the_first_frame_is_there_once_it_has_run(ctx: Any, qtbot: Any,
                                                                    monkeypatch: Any) -> None:
    """The steps after the first frame build quick ask and set the window icon; the look's
    stylesheet, set once the window is built (not before, where every widget added to it
    would work out its inherited style again), is there before the window is shown."""
    from PySide6.QtGui import QIcon, QPalette
    from PySide6.QtWidgets import QApplication

    from app.ui.shell.desktop import Desktop
    from app.ui.theme import stylesheet

    app = QApplication.instance()
    app.setStyleSheet("")
    desktop = Desktop(app, ctx.hearth)
    qtbot.addWidget(desktop.window)
    assert app.styleSheet() == stylesheet(desktop.theme.dark)
    assert "quick" not in desktop.__dict__
    monkeypatch.setattr(desktop, "_after_shown", lambda: None)  # no model, services, hotkey
    desktop.start()
    try:
        qtbot.waitUntil(lambda: "quick" in desktop.__dict__, timeout=WAIT_MS)
        qtbot.addWidget(desktop.quick)
        assert not app.windowIcon().isNull()
    finally:  # leave the application as the next test expects it
        desktop.ctx.ops.wait(WAIT_MS)
        desktop.detach()
        desktop.theme.setParent(None)
        desktop.setParent(None)
        app.setStyleSheet("")
        app.setPalette(QPalette())
        app.setWindowIcon(QIcon())
        app.setQuitOnLastWindowClosed(True)


def test_the_cyclic_collector_waits_for_the_window_and_then_runs_again(tmp_path: Path) -> None:
    """Off until the first frame (its passes over what startup builds cost ~30 ms), on again
    after it: left off, reference cycles would pile up for the whole session."""
    shown = _at_first_show(tmp_path / "home")
    assert shown["gc_at_show"] is False
    assert shown["gc_after"] is True
