"""A folder digest running in the chat: its card offers Pause, says "Paused — 1 of 3 files"
while nothing more is read, and Resume carries on to the answer."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt

from app.ui.chat.message import AssistantMessage
from tests.ui.scripts import TITLE, WAIT_MS, answer, tool_call
from tests.ui.test_chinese_everywhere import chinese, english_on  # noqa: F401 - a fixture


class GatedSummarizer:
    """The real model summarizer, held at its first file until the test lets it go."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.name = inner.name
        self.reading = threading.Event()
        self.go = threading.Event()
        self.calls = 0

    def summarize(self, title: str, text: str, should_stop: Any) -> str:
        self.calls += 1
        self.reading.set()
        while not self.go.wait(0.02):
            if should_stop():
                return ""
        return str(self.inner.summarize(title, text, should_stop))


def shown(message: AssistantMessage) -> str:
    return "\n".join(s.toPlainText() for s in message.segments)


def test_pause_holds_the_digest_between_files_and_resume_finishes_it(
        window: Any, ctx: Any, backend: Any, qtbot: Any, tmp_path: Path) -> None:
    folder = tmp_path / "notes"
    folder.mkdir()
    for n in range(3):
        (folder / f"n{n}.md").write_text(f"# Note {n}\n\nBudget {n}.\n", encoding="utf-8")
    hearth = ctx.hearth
    hearth.settings.file_roots = [str(folder)]
    gate = GatedSummarizer(hearth.digester.summarizer)
    hearth.digester.summarizer = gate
    backend.queue(tool_call("office_digest", folder=str(folder), question="budgets?"),
                  "Budget 0.", "Budget 1.", "Budget 2.",
                  answer("From the summaries.", "The budgets are 0, 1 and 2 [1][2][3]."), TITLE)
    window.chat.send("digest my notes")
    (reply,) = window.chat.findChildren(AssistantMessage)
    qtbot.waitUntil(lambda: gate.reading.is_set() and "office_digest" in {
        c.name for c in reply.cards.values()}, timeout=WAIT_MS)
    card = next(c for c in reply.cards.values() if c.name == "office_digest")
    qtbot.waitUntil(lambda: card.pause_button.isVisible(), timeout=WAIT_MS)
    assert card.status.text() == "1 of 3: n0.md"
    assert not card.resume_button.isVisible()

    qtbot.mouseClick(card.pause_button, Qt.MouseButton.LeftButton)
    assert card.status.text() == "Paused — 1 of 3 files"
    assert card.resume_button.isVisible() and not card.pause_button.isVisible()
    digest = next(s for s in hearth.assistant.skills() if s.name == "office_digest")
    qtbot.waitUntil(lambda: digest.job.paused, timeout=WAIT_MS)  # Pause went off the GUI thread
    gate.go.set()  # the file being read is finished; then the digest waits for Resume
    qtbot.waitUntil(lambda: digest.job is not None and digest.job.held, timeout=WAIT_MS)
    assert gate.calls == 1 and backend.pending == 4  # no other file read, no answer yet
    assert card.status.text() == "Paused — 1 of 3 files"
    assert "The budgets are" not in shown(reply)

    qtbot.mouseClick(card.resume_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.chat.streaming, timeout=WAIT_MS)
    assert gate.calls == 3
    assert "The budgets are 0, 1 and 2" in shown(reply)
    assert card.status.text().startswith("✓")
    assert not card.pause_button.isVisible() and not card.resume_button.isVisible()


def test_the_paused_card_speaks_chinese(qapp: Any, qtbot: Any, chinese: Any) -> None:  # noqa: F811
    from app.ui.chat.tool_card import ToolCard

    card = ToolCard("c1", "office_digest", {})
    qtbot.addWidget(card)
    card.show()
    card.show_progress(0, 3, "/notes/n0.md")
    card.offer_pause()
    assert card.pause_button.text() == "暂停" and english_on(card) == {}
    qtbot.mouseClick(card.pause_button, Qt.MouseButton.LeftButton)
    assert card.status.text() == "已暂停 — 已完成 1 / 3 个文件"
    assert card.resume_button.text() == "继续" and english_on(card) == {}
