"""A message longer than the model can read is not cut in silence: it is kept whole as a
document of the chat (searchable and readable by the model's document tools), the message says
so, the model is told where the rest is, and the context line says what the model received."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.ui.chat.message import AssistantMessage, UserMessage
from app.ui.shell.main_window import MainWindow
from tests.ui.scripts import TITLE, WAIT_MS, answer, tool_call
from tests.ui.test_chat import messages, wait_idle
from tests.ui.test_reopened_cards import reopen

WINDOW = 2048  # a small context: the paste below is several times what one message may take


@pytest.fixture
def window(ctx: Any, qtbot: Any) -> MainWindow:
    ctx.hearth.runner.info.context_length = WINDOW
    w = MainWindow(ctx)
    qtbot.addWidget(w)
    w.show()
    return w


def paste() -> str:
    lines = [f"Line {i}: the meeting notes say nothing special about item {i}."
             for i in range(140)]
    lines[70] = "Line 70: the spare key is under the blue flowerpot by the shed."
    return "\n".join(lines) + "\n\nWhere is the spare key?"


def test_a_long_paste_is_kept_whole_and_the_model_can_search_it(window, backend, qtbot, ctx):
    text = paste()
    assert len(text) > 8000
    backend.queue(tool_call("search_documents", query="spare key flowerpot"),
                  answer("found", "Under the blue flowerpot by the shed [1]."), TITLE)
    with qtbot.waitSignal(window.chat.turn_finished, timeout=WAIT_MS):
        window.chat.send(text)
    cid = window.chat.conversation_id
    (stored,) = [m for m in ctx.hearth.history.messages(cid) if m.role == "user"]
    assert stored.content == text  # the person's words, whole
    (kept,) = stored.attachments
    assert Path(kept).read_text(encoding="utf-8") == text
    names = [Path(d.path).name for d in ctx.hearth.documents.documents(scope=cid)]
    assert names == [Path(kept).name]

    sent = backend.calls[0].messages[-1]["content"]
    assert kept in sent and "read_document" in sent  # the model is told where the rest is
    assert sent.startswith("[The user's message is") and "Where is the spare key?" in sent
    assert "blue flowerpot" not in sent  # the middle went as the document...
    card = next(iter(messages(window, AssistantMessage)[-1].cards.values()))
    assert "blue flowerpot" in card.result.text()  # ...and the model's search finds it

    (bubble,) = messages(window, UserMessage)
    assert bubble.attached.isVisibleTo(bubble) and Path(kept).name in bubble.attached.text()
    assert "document" in window.context_label.text()
    reopen(qtbot, window)
    (bubble,) = messages(window, UserMessage)
    assert Path(kept).name in bubble.attached.text()  # a reopened chat says so too


def test_a_message_that_fits_goes_as_written(window, backend, qtbot, ctx) -> None:
    backend.queue(answer("r", "Fine."), TITLE)
    window.chat.send("A short question?")
    wait_idle(qtbot, window)
    (stored,) = [m for m in ctx.hearth.history.messages(window.chat.conversation_id)
                 if m.role == "user"]
    assert stored.attachments == []
    assert backend.calls[0].messages[-1]["content"].startswith("A short question?")
    (bubble,) = messages(window, UserMessage)
    assert not bubble.attached.isVisibleTo(bubble)


def test_a_paste_that_cannot_be_indexed_says_why_in_the_window_language(window, qtbot,
                                                                         qapp) -> None:
    """Why the file was refused is a code: a Chinese window says it in Chinese (the index's
    English sentence sat in the Chinese line before)."""
    from app.ui.i18n import Translations
    from tests.ui.test_chinese_everywhere import english_in

    translations = Translations(qapp)
    assert translations.apply("zh_CN") == "zh_CN"
    try:
        window.chat.send("\x00\x01 binary bytes pasted by mistake " * 400)  # not text: refused
        qtbot.waitUntil(lambda: "二进制数据" in window.chat.banner_text.text(), timeout=WAIT_MS)
        text = window.chat.banner_text.text()
    finally:
        translations.apply("en")
    assert not set(english_in(text)) - {"Pasted", "text"}, text  # the file name stays as it is
