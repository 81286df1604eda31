"""One source of truth for the model in use: the picker, the Models dialog and the status bar
name what the runner has loaded (a remote engine's server model, not the local file the
settings remember), and a failed load says which model answers now."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.ui.shell.main_window import MainWindow
from tests.support.fake_serving import FakeServing
from tests.support.tiny_model import CHAT_TEMPLATE
from tests.ui.scripts import WAIT_MS

pytestmark = pytest.mark.usefixtures("needs_llama_cpp")


@pytest.fixture
def window(ctx: Any, qtbot: Any) -> MainWindow:
    w = MainWindow(ctx)
    qtbot.addWidget(w)
    w.show()
    return w


@pytest.fixture
def serving() -> Any:
    server = FakeServing(CHAT_TEMPLATE, flavor="vllm").start()
    yield server
    server.stop()


def in_use_rows(window: MainWindow) -> list[str]:
    """The Models dialog's "On this computer" rows that say "In use"."""
    from PySide6.QtWidgets import QLabel, QPushButton

    manager = window.open_models()
    rows = []
    for frame in manager.local.findChildren(QLabel):
        button = next((b for b in frame.parent().findChildren(QPushButton)), None)
        if button is not None and button.text() == "In use" and frame.toolTip():
            rows.append(frame.toolTip())
    return rows


def load(qtbot: Any, window: MainWindow) -> None:
    with qtbot.waitSignal(window.model_loaded, timeout=WAIT_MS * 4):
        window.load_model()


def test_a_remote_engine_shows_the_servers_model_not_the_local_file(window, ctx, qtbot,
                                                                    serving, tiny_model):
    settings = ctx.hearth.settings
    local = str(tiny_model.gguf_path)
    settings.model_path, settings.recent_models = local, [local]
    settings.engine, settings.remote_url = "remote", serving.url
    load(qtbot, window)
    assert window.engine_label.text() == "remote · nanbeige"
    assert window.model_picker.currentText() == "nanbeige (server)"
    assert in_use_rows(window) == []  # the local file does not answer


def test_a_load_that_never_started_leaves_the_previous_model_and_says_so(
        window, ctx, qtbot, tiny_model, tmp_path):
    settings = ctx.hearth.settings
    settings.engine, settings.model_path = "llama", str(tiny_model.gguf_path)
    load(qtbot, window)
    missing = str(tmp_path / "gone.gguf")
    window.use_model(missing)
    qtbot.waitUntil(lambda: "still loaded" in window.chat.banner_text.text(), timeout=WAIT_MS)
    name = tiny_model.gguf_path.name
    assert ctx.hearth.runner.info is not None  # it really is still loaded...
    assert window.engine_label.text() == f"llama.cpp · {name}"  # ...and the window says so
    assert window.model_picker.currentText() == name
    assert in_use_rows(window) == [str(tiny_model.gguf_path)]
    assert missing not in in_use_rows(window)


def test_a_load_that_failed_in_the_engine_leaves_none_and_says_so(window, ctx, qtbot,
                                                                 tiny_model, tmp_path):
    settings = ctx.hearth.settings
    settings.engine, settings.model_path = "llama", str(tiny_model.gguf_path)
    load(qtbot, window)
    broken = tmp_path / "broken.gguf"
    broken.write_bytes(b"GGUF" + b"\0" * 64)
    window.use_model(str(broken))
    qtbot.waitUntil(lambda: "No model is loaded now" in window.chat.banner_text.text(),
                    timeout=WAIT_MS * 4)
    assert ctx.hearth.runner.info is None
    assert window.engine_label.text() == "No model loaded"
    assert window.model_picker.currentText() == "No model loaded"
    assert "still loaded" not in window.chat.banner_text.text()
    assert in_use_rows(window) == []
    assert Path(broken).name != window.model_picker.currentText()
