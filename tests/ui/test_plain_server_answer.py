"""A remote server that sends its answer as plain content with Think on: the chat shows the
answer once, as the answer (it was taken for reasoning, closed and asked again: twice)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from app.ui.chat.message import AssistantMessage, ThinkingSection
from app.ui.shell.main_window import MainWindow
from tests.backends.test_remote import FakeServer, chunk, server, sse  # noqa: F401 (fixture)
from tests.ui.scripts import WAIT_MS
from tests.ui.test_chat import messages, send, shown_text, wait_idle

ANSWER = "Paris is the capital of France."


@pytest.fixture
def plain(server: FakeServer) -> Iterator[FakeServer]:  # noqa: F811 (the fixture above)
    reply = sse(chunk("Paris is"), chunk(" the capital"), chunk(" of France."),
                chunk(finish="stop"))
    server.replies.extend([reply] * 6)  # every request gets it: the answer, a title, ...
    yield server


def test_plain_content_with_think_on_shows_the_answer_once(ctx: Any, qtbot: Any,
                                                          plain: FakeServer) -> None:
    settings = ctx.hearth.settings
    settings.engine, settings.remote_url = "remote", plain.url
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    with qtbot.waitSignal(window.model_loaded, timeout=WAIT_MS * 4):
        window.load_model()
    assert window.chat.composer.think.isChecked()  # Think is on
    send(qtbot, window, "What is the capital of France?")
    wait_idle(qtbot, window)
    (reply,) = messages(window, AssistantMessage)
    for section in reply.findChildren(ThinkingSection):
        section.toggle.click()  # opened, as the person would to read the reasoning
    shown = [shown_text(reply)] + [t.body.text() for t in reply.findChildren(ThinkingSection)
                                   if t.isVisible()]
    assert "\n".join(shown).count("Paris is") == 1  # once in the whole reply...
    assert ANSWER in shown_text(reply)  # ...as the answer
    chats = [r for r in plain.requests if r.get("path", "").endswith("chat/completions")]
    stored = ctx.hearth.history.messages(window.chat.conversation_id)
    assert stored[-1].content.strip() == ANSWER and not stored[-1].reasoning
    assert len(chats) <= 2  # the answer (and a title), not a second "now answer" request
