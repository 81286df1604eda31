"""A workbook dropped into the chat, "make a summary report of this as Word": the scripted
model queries it and writes the report; the card asks, Approve writes it, the file opens, and
the card offers Open, Show in folder and Undo."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from app.ui.chat.message import AssistantMessage
from app.ui.shell.main_window import MainWindow
from tests.office.conftest import listing, make_sales
from tests.ui.scripts import TITLE, WAIT_MS, answer, tool_call
from tests.ui.test_documents import drop, wait_indexed


@pytest.fixture
def window(ctx: Any, qtbot: Any, tmp_path: Path) -> MainWindow:
    ctx.hearth.settings.office_output_folder = str(tmp_path / "made")
    w = MainWindow(ctx)
    qtbot.addWidget(w)
    w.show()
    return w


def test_dropped_workbook_to_a_word_report_after_approve(window, backend, qtbot, tmp_path,
                                                         monkeypatch) -> None:
    import docx

    opened: list[str] = []
    monkeypatch.setattr("app.ui.chat.written_file.open_path", lambda p: opened.append(p))
    book = make_sales(tmp_path / "sales.xlsx")
    drop(window, [book])
    wait_indexed(qtbot, window)
    backend.queue(
        tool_call("office_query", files='["sales.xlsx"]',
                  sql='select "客户", sum("金额") as total from "销售" group by 1'),
        tool_call("office_report", title="Sales summary",
                  markdown="# Totals\n\n| 客户 | total |\n|---|---|\n| c0 | 1800 |\n"),
        answer("Written.", "Your report is ready."), TITLE)
    window.chat.send("make a summary report of this as Word")
    (reply,) = window.chat.findChildren(AssistantMessage)
    qtbot.waitUntil(lambda: any(c.waiting for c in reply.cards.values()), timeout=WAIT_MS)
    card = next(c for c in reply.cards.values() if c.waiting)
    assert "Sales summary.docx" in card.description.text()
    assert listing(tmp_path / "made") == []  # nothing before the yes
    qtbot.mouseClick(card.approve_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.chat.streaming, timeout=WAIT_MS)
    report = tmp_path / "made" / "Sales summary.docx"
    document = docx.Document(str(report))
    assert [p.text for p in document.paragraphs][:2] == ["Sales summary", "Totals"]
    # The card shows its file actions once the result has reached it (a queued update).
    qtbot.waitUntil(lambda: card.file_actions is not None
                    and card.file_actions.isVisibleTo(card), timeout=WAIT_MS)
    assert card.file_actions is not None
    qtbot.mouseClick(card.file_actions.open_button, Qt.MouseButton.LeftButton)
    assert opened == [str(report)]
    qtbot.mouseClick(card.file_actions.undo_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not report.exists(), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: "Undone" in card.file_actions.note.text(), timeout=WAIT_MS)
    query_card = next(c for c in reply.cards.values() if c.name == "office_query")
    assert query_card.title.text().endswith("Queried a spreadsheet")
    assert query_card.status.text().startswith("✓")
