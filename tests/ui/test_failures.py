"""Failures in the window: every kind has its own translated line and the button it calls for."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import QTranslator
from PySide6.QtWidgets import QApplication

from app.core.failures import FailureKind
from app.ui.chat.message import AssistantMessage
from app.ui.failures import Action, action_label, present
from app.ui.i18n import TRANSLATIONS
from backends.errors import ContextFull, RemoteError
from tests.ui.test_chat import messages, send, wait_idle


def test_every_kind_has_its_own_line_in_english_and_chinese(qapp: Any) -> None:
    english = {kind: present(kind).text for kind in FailureKind}
    assert len(set(english.values())) == len(FailureKind)
    translator = QTranslator()
    assert translator.load("hearth_zh_CN", str(TRANSLATIONS))
    QApplication.installTranslator(translator)
    try:
        for kind in FailureKind:
            assert present(kind).text != english[kind], kind
        for action in (Action.CHOOSE_MODEL, Action.OPEN_SETTINGS, Action.NEW_CHAT):
            assert action_label(action) and action_label(action).isascii() is False
    finally:
        QApplication.removeTranslator(translator)


def test_the_detail_follows_only_where_it_says_more(qapp: Any) -> None:
    refused = present(FailureKind.SERVER_REFUSED, "The server answered 401: bad key")
    assert refused.text == "The model server refused the request. The server answered 401: bad key"
    assert present(FailureKind.BUSY, "An answer is still being written: wait").text == (
        "An answer in this conversation is still being written.")
    assert present("no-such-kind").kind is FailureKind.INTERNAL


def _failed_reply(qtbot: Any, window: Any) -> AssistantMessage:
    send(qtbot, window, "Hello?")
    wait_idle(qtbot, window)
    (reply,) = messages(window, AssistantMessage)
    return reply


def test_no_model_offers_to_choose_one(window, ctx, qtbot) -> None:
    ctx.hearth.runner.unload().result(10)
    reply = _failed_reply(qtbot, window)
    assert reply._note.text() == "⚠ No model is loaded yet."
    assert window.chat.banner.button.text() == "Choose a model…"
    with qtbot.waitSignal(window.chat.open_models, timeout=1000):
        window.chat.banner.button.click()


def test_a_full_context_offers_a_new_chat_on_every_engine(window, backend, qtbot) -> None:
    backend.queue(ContextFull("The conversation (9,000 tokens) does not fit the 8,192-token "
                              "context"))
    reply = _failed_reply(qtbot, window)
    assert reply._note.text().startswith("⚠ This conversation no longer fits")
    assert "9,000 tokens" in reply._note.text()
    assert window.chat.banner.button.text() == "New chat"
    assert window.chat.conversation_id is not None
    window.chat.banner.button.click()
    assert window.chat.conversation_id is None and not messages(window, AssistantMessage)


def test_an_unreachable_server_offers_settings(window, backend, qtbot) -> None:
    backend.queue(RemoteError("Cannot connect to http://127.0.0.1:9: the connection was refused."))
    reply = _failed_reply(qtbot, window)
    assert reply._note.text().startswith("⚠ The model server cannot be reached.")
    assert window.chat.banner.button.text() == "Settings…"
    with qtbot.waitSignal(window.chat.open_settings, timeout=1000):
        window.chat.banner.button.click()
    for dialog in QApplication.topLevelWidgets():
        if dialog.objectName() == "settingsDialog" or type(dialog).__name__ == "SettingsDialog":
            dialog.close()


@pytest.mark.parametrize("kind", list(FailureKind))
def test_each_kind_names_one_action_at_most(kind: FailureKind, qapp: Any) -> None:
    shown = present(kind)
    assert (shown.action is Action.NONE) == (action_label(shown.action) == "")
