"""A reopened chat draws its tool cards as they were live: a written file keeps Open / Show in
folder / Undo (and says it was undone), a denied action says "Denied", and a document card
shows the passages, not the fenced text and instructions meant for the model."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from app.ui.chat.message import AssistantMessage
from app.ui.shell.main_window import MainWindow
from tests.office.conftest import make_sales
from tests.ui.scripts import TITLE, WAIT_MS, answer, tool_call
from tests.ui.test_chat import event_call, messages, send, wait_idle
from tests.ui.test_documents import drop, wait_indexed


@pytest.fixture
def window(ctx: Any, qtbot: Any, tmp_path: Path) -> MainWindow:
    ctx.hearth.settings.office_output_folder = str(tmp_path / "made")
    w = MainWindow(ctx)
    qtbot.addWidget(w)
    w.show()
    return w


def reopen(qtbot: Any, window: MainWindow) -> AssistantMessage:
    """Leave the chat and open it again from history; its (last) answer as drawn now."""
    cid = window.chat.conversation_id
    assert cid is not None
    window.chat.new_conversation()
    with qtbot.waitSignal(window.chat.history_loaded, timeout=WAIT_MS):
        window.chat.load_conversation(cid)
    return messages(window, AssistantMessage)[-1]


def card_named(reply: AssistantMessage, name: str) -> Any:
    return next(c for c in reply.cards.values() if c.name == name)


def test_a_written_file_keeps_its_actions_and_its_undo(window, backend, qtbot,
                                                       tmp_path) -> None:
    drop(window, [make_sales(tmp_path / "sales.xlsx")])
    wait_indexed(qtbot, window)
    backend.queue(tool_call("office_report", title="Sales summary",
                            markdown="# Totals\n\n| a | b |\n|---|---|\n| 1 | 2 |\n"),
                  answer("Written.", "Your report is ready."), TITLE)
    window.chat.send("make a Word report")
    (reply,) = messages(window, AssistantMessage)
    qtbot.waitUntil(lambda: any(c.waiting for c in reply.cards.values()), timeout=WAIT_MS)
    qtbot.mouseClick(card_named(reply, "office_report").approve_button,
                     Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)
    report = tmp_path / "made" / "Sales summary.docx"
    assert report.exists()
    told = [m.content for m in window.ctx.hearth.history.messages(window.chat.conversation_id)
            if m.role == "tool"][-1]
    assert "1 table" in told and "1 tables" not in told  # counted as people count
    shown = card_named(reply, "office_report").result.text()
    assert "Sales summary.docx" in shown and "The user can" not in shown  # not the model's

    card = card_named(reopen(qtbot, window), "office_report")
    assert card.file_actions is not None and card.file_actions.isVisibleTo(card)
    assert card.file_actions.undo_button.isEnabled()
    qtbot.mouseClick(card.file_actions.undo_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not report.exists(), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: "Undone" in card.file_actions.note.text(), timeout=WAIT_MS)
    window.ctx.ops.wait(WAIT_MS)  # the card's new state is stored on a worker

    again = card_named(reopen(qtbot, window), "office_report")
    assert again.file_actions is not None
    assert "Undone" in again.file_actions.note.text()  # not "the file is there"
    assert not again.file_actions.undo_button.isEnabled()


def test_a_denied_action_reopens_as_denied(window, backend, qtbot) -> None:
    when = (datetime.now(UTC) + timedelta(days=2)).replace(hour=9, minute=30)
    backend.queue(event_call(when), answer("no", "Not added."), TITLE)
    send(qtbot, window, "Book the dentist on Thursday 9:30")
    (reply,) = messages(window, AssistantMessage)
    qtbot.waitUntil(lambda: any(c.waiting for c in reply.cards.values()), timeout=WAIT_MS)
    qtbot.mouseClick(card_named(reply, "add_event").deny_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)

    card = card_named(reopen(qtbot, window), "add_event")
    assert card.status.text() == "○ Denied"
    assert "Failed" not in card.status.text()
    # What the model was told ("The user declined this action...") is not the card's text.
    assert card.result.isHidden() and "declined" not in card.result.text()


def test_a_document_card_shows_passages_not_model_text(window, backend, qtbot,
                                                       tmp_path) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("The boiler is serviced every October by Alvarez Heating.\n",
                     encoding="utf-8")
    drop(window, [notes])
    wait_indexed(qtbot, window)
    backend.queue(tool_call("read_document", document="notes.txt"),
                  answer("read", "Alvarez services it in October [1]."), TITLE)
    window.chat.send("who services the boiler?")
    wait_idle(qtbot, window)
    live = card_named(messages(window, AssistantMessage)[-1], "read_document").result.text()

    card = card_named(reopen(qtbot, window), "read_document")
    for shown in (live, card.result.text()):
        assert "Alvarez Heating" in shown
        assert "document_data" not in shown
        assert "never instructions" not in shown  # the warning is for the model
    assert card.status.text() == "✓ Done"
