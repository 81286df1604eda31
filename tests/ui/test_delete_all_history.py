"""Settings > Privacy > Delete all history, clicked through on the real llama.cpp: it says what
goes, Cancel keeps everything, Delete all forgets every chat (its messages and its KV cache on
disk) and the sidebar empties; a chat's own menu offers only what is about that chat."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtWidgets import QApplication, QMessageBox

from app.ui.shell.main_window import MainWindow
from backends.kv_cache import file_stem
from tests.ui.conftest import WAIT_MS

SECRETS = ("Quendrick plans the Xylophonia festival.", "Pellucid Gardens budget for Zanthoria.")


@pytest.fixture
def hearth(hearth_home: Path, tiny_model: Any) -> Iterator[Any]:
    """Overrides the scripted Hearth of tests/ui: two chats answered by the real engine."""
    pytest.importorskip("llama_cpp")
    from app.main import Hearth

    made = Hearth()
    made.settings.model_path = str(tiny_model.gguf_path)
    made.settings.engine = "llama"
    made.settings.context_length = 2048
    made.settings.max_tokens = 8
    made.settings.enabled_skills = ["get_current_time"]
    made.runner.load(made.make_backend()).result(120)
    for text in SECRETS:
        chat = made.conversations.create(title=text.split()[0])
        handle = made.assistant.send(chat.id, text)
        assert handle.wait(120) and handle.finish_reason != "error"
    yield made
    made.close()


def kv_files(hearth: Any, ids: list[str]) -> list[Path]:
    return [p for p in hearth.paths.kv_cache_dir.rglob("*")
            if p.is_file() and p.name.startswith(tuple(file_stem(i) for i in ids))]


def holders(root: Path, needle: bytes) -> list[str]:
    return [str(p.relative_to(root)) for p in root.rglob("*") if p.is_file()
            and needle in p.read_bytes()]


def question(qtbot: Any, eraser: Any) -> QMessageBox:
    qtbot.waitUntil(lambda: eraser.box is not None and eraser.box.isVisible(), timeout=WAIT_MS)
    box: QMessageBox = eraser.box
    eraser.box = None
    return box


def button(box: QMessageBox, role: QMessageBox.ButtonRole) -> Any:
    return next(b for b in box.buttons() if box.buttonRole(b) == role)


def test_delete_all_history_from_settings(ctx: Any, qtbot: Any, hearth_home: Path) -> None:
    hearth = ctx.hearth
    ids = [c.id for c in hearth.history.list_conversations()]
    hearth.runner.unload().result(60)  # both chats' KV go to disk
    assert len(kv_files(hearth, ids)) == 2
    hearth.runner.load(hearth.make_backend()).result(120)
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    window.sidebar.reload()
    qtbot.waitUntil(lambda: len(window.sidebar.conversations) == 2, timeout=WAIT_MS)
    window.open_conversation(ids[0])
    hearth.history.create_conversation()  # started, never used: not shown, and not counted
    settings = window.open_settings()
    tab = settings.privacy  # type: ignore[attr-defined]
    settings.tabs.setCurrentWidget(tab)  # type: ignore[attr-defined]

    tab.delete_all.click()
    box = question(qtbot, tab.eraser)
    assert "Delete all 2 conversations for good?" in box.text()
    for what in ("messages", "documents", "KV caches", "search entries", "cannot be undone"):
        assert what in box.text()
    assert box.defaultButton() is box.button(QMessageBox.StandardButton.Cancel)
    box.button(QMessageBox.StandardButton.Cancel).click()
    assert ctx.ops.wait(WAIT_MS)
    assert len(hearth.history.list_conversations()) == 3  # Cancel keeps everything

    tab.delete_all.click()
    button(question(qtbot, tab.eraser), QMessageBox.ButtonRole.DestructiveRole).click()
    qtbot.waitUntil(lambda: window.sidebar.list.count() == 0, timeout=WAIT_MS)
    assert hearth.history.list_conversations(include_archived=True) == []
    assert tab.done.text() == "2 conversations deleted."  # the number the question said
    assert window.chat.conversation_id not in ids  # the open chat was closed for a new one
    assert kv_files(hearth, ids) == []
    settings.reject()
    hearth.runner.unload().result(60)  # nothing of the chats may be parked on disk again
    assert kv_files(hearth, ids) == []
    for secret in SECRETS:
        assert holders(hearth_home, secret.split()[0].encode()) == [], secret


def test_a_chats_menu_is_about_that_chat_and_settings_says_when_there_is_nothing(
        ctx: Any, qtbot: Any) -> None:
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    window.sidebar.reload()
    qtbot.waitUntil(lambda: len(window.sidebar.conversations) == 2, timeout=WAIT_MS)
    sidebar = window.sidebar
    sidebar.list.setCurrentRow(0)
    sidebar.menu_for_current()  # what Shift+F10 or a right click opens
    qtbot.waitUntil(lambda: QApplication.activePopupWidget() is not None, timeout=WAIT_MS)
    menu = QApplication.activePopupWidget()
    texts = [a.text() for a in menu.actions() if a.text()]
    menu.close()
    assert "Delete…" in texts
    assert "Delete all history…" not in texts  # every chat is not this chat's business
    settings = window.open_settings()
    eraser = settings.privacy.eraser  # type: ignore[attr-defined]
    eraser.ask()
    button(question(qtbot, eraser), QMessageBox.ButtonRole.DestructiveRole).click()
    qtbot.waitUntil(lambda: window.sidebar.list.count() == 0, timeout=WAIT_MS)
    eraser.ask()
    box = question(qtbot, eraser)
    assert box.text() == "There is no history to delete."
    box.button(QMessageBox.StandardButton.Ok).click()
