"""UI test fixtures: a real Hearth (history, skills, assistant) over the scripted backend."""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

pytest.importorskip("pytestqt")

from backends.scripted import ScriptedBackend

WAIT_MS = 15000


def _live_threads() -> set[threading.Thread]:
    # Qt's own pool threads show up as _DummyThread once they run Python; they are Qt's to
    # manage (Ops.wait checks them), and Python never removes those entries.
    return {t for t in threading.enumerate() if not isinstance(t, threading._DummyThread)}


@pytest.fixture(autouse=True, scope="session")
def markdown_loaded() -> None:
    """The window loads Markdown on a thread once it is up (app/ui/markdown.py); tests other
    than that load's own see rendered Markdown from their first message."""
    from app.ui import markdown

    markdown.warm_up()


@pytest.fixture(autouse=True)
def collect_on_the_gui_thread() -> Iterator[None]:
    """As the app does (app/ui/gui_gc.py): no automatic collection while a test runs, so a
    worker thread never frees a widget caught in a reference cycle (a segmentation fault);
    what the test left is collected here, on the GUI thread. Widgets the last test closed are
    deleted first: deleteLater outside an event loop waits for the next loop, which would be
    this test's, and destroying a window of 160 messages inside a stall meter is a stall the
    test did not cause."""
    from PySide6.QtCore import QCoreApplication, QEvent

    if QCoreApplication.instance() is not None:
        QCoreApplication.processEvents()  # results of work that ended reach them, alive
        QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    gc.disable()
    try:
        yield
    finally:
        gc.collect()
        gc.enable()


@pytest.fixture(autouse=True)
def no_leaked_threads() -> Iterator[None]:
    """Fail a test that leaves threads running after its fixtures have closed everything."""
    before = _live_threads()
    yield
    deadline = time.monotonic() + 5
    leaked = _live_threads() - before
    while leaked and time.monotonic() < deadline:
        time.sleep(0.02)
        leaked = {t for t in leaked if t.is_alive()}
    assert not leaked, f"threads left running: {sorted(t.name for t in leaked)}"


@pytest.fixture
def hearth(hearth_home: Any, backend: ScriptedBackend) -> Iterator[Any]:
    """The real composition root, with the scripted engine loaded on the real runner."""
    from app.main import Hearth

    h = Hearth()
    h.settings.thinking_default = True  # the scripted outputs below start with reasoning
    h.runner.load(backend).result(10)
    yield h
    if "assistant" in h.__dict__:
        h.assistant.close()
    h.close()


@pytest.fixture
def window(ctx: Any, qtbot: Any) -> Any:
    """The main window, shown; a test module may define its own (set up differently)."""
    from app.ui.shell.main_window import MainWindow

    w = MainWindow(ctx)
    qtbot.addWidget(w)
    w.show()
    return w


@pytest.fixture
def tray() -> bool:
    """Whether `app_desktop` has a tray (offscreen has none); a module may say otherwise."""
    return False


@pytest.fixture
def app_desktop(ctx: Any, qtbot: Any, monkeypatch: Any, tray: bool) -> Iterator[Any]:
    """Hearth's desktop as `hearth` makes it; afterwards the application is left as the next
    test expects it."""
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QApplication

    from app.ui.shell.desktop import Desktop

    monkeypatch.setattr("app.ui.shell.desktop.tray_available", lambda: tray)
    app = QApplication.instance()
    made = Desktop(app, ctx.hearth)
    qtbot.addWidget(made.window)
    qtbot.addWidget(made.quick)
    yield made
    made.ctx.ops.wait(WAIT_MS)
    made.detach()
    QApplication.processEvents()  # what detaching set going (the sidebar's reload) ends here
    made.ctx.ops.wait(WAIT_MS)
    if made.tray is not None:
        made.tray.hide()
    made.theme.setParent(None)
    made.setParent(None)
    app.setStyleSheet("")
    app.setPalette(QPalette())
    app.setQuitOnLastWindowClosed(True)


@pytest.fixture
def quick(ctx: Any, qtbot: Any) -> Any:
    """The quick-ask box (not shown)."""
    from app.ui.shell.quick_ask import QuickAsk

    box = QuickAsk(ctx)
    qtbot.addWidget(box)
    return box


@pytest.fixture
def ctx(qapp: Any, hearth: Any) -> Iterator[Any]:
    from app.ui.context import UiContext
    from app.ui.ops import Ops

    ops = Ops()
    yield UiContext(hearth, ops)
    assert ops.wait(WAIT_MS), "background work did not finish"
    qapp.processEvents()
