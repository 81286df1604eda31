""""Opened ..." only when a program took the file: on a desktop where no application handles
it (xdg-open exits non-zero), the card and the model hear that nothing opened it."""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from app.ui.chat.message import AssistantMessage
from app.ui.shell.main_window import MainWindow
from tests.ui.scripts import TITLE, WAIT_MS, answer, tool_call

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="xdg-open is the Linux opener")


@pytest.fixture
def window(ctx: Any, qtbot: Any, tmp_path: Path) -> MainWindow:
    root = tmp_path / "Papers"
    root.mkdir()
    (root / "lease.pdf").write_bytes(b"%PDF-1.4\n")
    ctx.hearth.settings.file_roots = [str(root)]
    ctx.hearth.files.add_root(str(root))
    ctx.hearth.files.scan()
    w = MainWindow(ctx)
    qtbot.addWidget(w)
    w.show()
    return w


def opener(tmp_path: Path, monkeypatch: Any, status: int) -> None:
    """xdg-open as on a desktop with (0) or without (3) an application for the file."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir(exist_ok=True)
    fake = bin_dir / "xdg-open"
    fake.write_text(f"#!/bin/sh\nexit {status}\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")


def open_lease(window: MainWindow, backend: Any, qtbot: Any, tmp_path: Path) -> Any:
    backend.queue(tool_call("open_file", path=str(tmp_path / "Papers" / "lease.pdf")),
                  answer("done", "Here it is."), TITLE)
    window.chat.send("open my lease")
    (reply,) = window.chat.findChildren(AssistantMessage)
    qtbot.waitUntil(lambda: any(c.waiting for c in reply.cards.values()), timeout=WAIT_MS)
    card = next(iter(reply.cards.values()))
    qtbot.mouseClick(card.approve_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.chat.streaming, timeout=WAIT_MS)
    return card


def test_nothing_opened_is_not_called_opened(window, backend, qtbot, ctx, tmp_path,
                                             monkeypatch) -> None:
    opener(tmp_path, monkeypatch, 3)
    card = open_lease(window, backend, qtbot, tmp_path)
    assert card.status.text().startswith("✕")
    assert "no program on this computer opened it" in card.result.text()
    told = [m.content for m in ctx.hearth.history.messages(window.chat.conversation_id)
            if m.role == "tool"][-1]
    assert not told.startswith("Opened") and "no program" in told


def test_a_file_a_program_took_is_opened(window, backend, qtbot, ctx, tmp_path,
                                         monkeypatch) -> None:
    opener(tmp_path, monkeypatch, 0)
    card = open_lease(window, backend, qtbot, tmp_path)
    assert card.status.text() == "✓ Done"
    assert "Opened" in card.result.text()
