"""Copy and Regenerate belong to a finished answer: hidden while it is still being written."""

from __future__ import annotations

import pytest

from app.ui.chat.message import AssistantMessage
from backends.scripted import ScriptedBackend
from tests.ui.scripts import TITLE, WAIT_MS, answer
from tests.ui.test_chat import messages, send, wait_idle


@pytest.fixture
def backend() -> ScriptedBackend:
    return ScriptedBackend(delay=0.02)  # chunks arrive over a while, as from a real model


def test_copy_and_regenerate_wait_for_the_end_of_the_answer(window, backend, qtbot) -> None:
    backend.queue(answer("Let me think about this. " * 25, "Here it is."), TITLE)
    send(qtbot, window, "Think first, then answer")
    (reply,) = messages(window, AssistantMessage)
    qtbot.waitUntil(lambda: "Thinking" in reply._stats.text(), timeout=WAIT_MS)
    assert window.chat.streaming and reply.status_shown  # the footer shows the status...
    assert not reply.copy_button.isVisibleTo(reply)  # ...but nothing to copy or redo yet
    assert not reply.regenerate_button.isVisibleTo(reply)
    wait_idle(qtbot, window)
    assert reply.copy_button.isVisibleTo(reply) and reply.regenerate_button.isVisibleTo(reply)
