"""The chat page driven like a user: type, send, watch it stream, stop, approve, regenerate."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from PySide6.QtCore import Qt

from app.ui.chat.message import AssistantMessage, ThinkingSection, UserMessage
from app.ui.shell.main_window import MainWindow
from tests.ui.scripts import LONG_ANSWER, TITLE, WAIT_MS, answer, tool_call


def send(qtbot: Any, window: MainWindow, text: str) -> None:
    box = window.chat.composer.input
    box.setFocus()
    qtbot.keyClicks(box, text)
    qtbot.keyClick(box, Qt.Key.Key_Return)


def wait_idle(qtbot: Any, window: MainWindow) -> None:
    qtbot.waitUntil(lambda: not window.chat.streaming, timeout=WAIT_MS)


def messages(window: MainWindow, kind: type) -> list[Any]:
    layout = window.chat.messages
    found = [layout.itemAt(i).widget() for i in range(layout.count())]
    return [w for w in found if isinstance(w, kind)]


def shown_text(message: AssistantMessage) -> str:
    return "\n".join(s.toPlainText() for s in message.segments)


def test_enter_sends_and_the_answer_streams_as_markdown(window, backend, qtbot, ctx) -> None:
    backend.queue(answer("The user greets me; I will greet back.",
                         "Hello! Here is a table:\n\n| a | b |\n|---|---|\n| 1 | 2 |"), TITLE)
    send(qtbot, window, "Hi there")
    assert window.chat.streaming  # the button is Stop while the answer is written
    assert window.chat.composer.send_button.text() == "Stop"
    wait_idle(qtbot, window)
    (user,) = messages(window, UserMessage)
    (reply,) = messages(window, AssistantMessage)
    assert user.text == "Hi there"
    assert "Hello!" in shown_text(reply)
    assert "| a |" not in shown_text(reply)  # the table is rendered, not shown as pipes
    assert reply.segments[0].document().toHtml().count("<td") >= 2
    assert window.chat.composer.send_button.text() == "Send"
    assert window.engine_label.text() == "scripted · scripted"  # engine · model
    assert window.speed_label.text().endswith("tok/s")
    assert window.context_label.text().startswith("Context ") and "32,768" in \
        window.context_label.text()
    stored = ctx.hearth.history.messages(window.chat.conversation_id)
    assert [m.role for m in stored] == ["user", "assistant"]
    assert stored[1].reasoning.startswith("The user greets me")
    qtbot.waitUntil(lambda: window.sidebar.list.count() == 1, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: window.sidebar.list.item(0).text() == TITLE, timeout=WAIT_MS)


def test_thinking_is_collapsed_until_opened(window, backend, qtbot) -> None:
    backend.queue(answer("Step one. Step two.", "Done."), TITLE)
    send(qtbot, window, "Think about it")
    wait_idle(qtbot, window)
    (reply,) = messages(window, AssistantMessage)
    (thinking,) = reply.findChildren(ThinkingSection)
    assert thinking.frame.isHidden() and thinking.toggle.arrowType() == Qt.ArrowType.RightArrow
    thinking.toggle.click()
    assert not thinking.frame.isHidden() and thinking.toggle.arrowType() == Qt.ArrowType.DownArrow
    assert "Step one. Step two." in thinking.body.text()


def test_think_switch_follows_the_setting_and_applies_per_turn(window, backend, qtbot) -> None:
    backend.queue(answer("r", "a"), TITLE, "b")
    assert window.chat.composer.think.isChecked()  # thinking_default is on in these tests
    send(qtbot, window, "first")
    wait_idle(qtbot, window)
    window.chat.composer.think.click()
    send(qtbot, window, "second")
    wait_idle(qtbot, window)
    first, _title, second = backend.calls
    assert first.options.enable_thinking is True
    assert second.options.enable_thinking is False
    assert "b" in shown_text(messages(window, AssistantMessage)[1])


def test_stop_ends_the_answer_early_and_says_so(ctx, qtbot, backend) -> None:
    slow = type(backend)([answer("thinking", LONG_ANSWER)], delay=0.002)
    ctx.hearth.runner.load(slow).result(10)
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    send(qtbot, window, "Write a lot")
    qtbot.waitUntil(lambda: bool(messages(window, AssistantMessage)[0].answer), timeout=WAIT_MS)
    qtbot.mouseClick(window.chat.composer.send_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)
    (reply,) = messages(window, AssistantMessage)
    assert 0 < len(reply.answer) < len(LONG_ANSWER)
    assert reply._note.text() == "Stopped."
    stored = ctx.hearth.history.messages(window.chat.conversation_id)
    assert stored[-1].status == "cancelled"


def event_call(when: datetime) -> str:
    return tool_call("add_event", title="Dentist", start=when.strftime("%Y-%m-%dT%H:%M"))


@pytest.mark.parametrize("approve", [True, False])
def test_changes_wait_for_approve_or_deny_in_the_card(window, backend, qtbot, ctx,
                                                     approve) -> None:
    when = (datetime.now(UTC) + timedelta(days=2)).replace(hour=9, minute=30, second=0,
                                                           microsecond=0)
    backend.queue(event_call(when), answer("done", "Added." if approve else "Not added."),
                  TITLE)
    send(qtbot, window, "Book the dentist on Thursday 9:30")
    (reply,) = messages(window, AssistantMessage)
    qtbot.waitUntil(lambda: any(c.waiting for c in reply.cards.values()), timeout=WAIT_MS)
    (card,) = reply.cards.values()
    assert "Dentist" in card.description.text()
    assert window.chat.streaming  # the turn waits for the decision
    button = card.approve_button if approve else card.deny_button
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)
    titles = [e.title for e in ctx.hearth.calendar.all_events()]
    assert titles == (["Dentist"] if approve else [])
    assert card.status.text() == ("✓ Done" if approve else "○ Denied")  # not a failure


def click(qtbot: Any, button: Any) -> None:
    qtbot.mouseClick(button, Qt.MouseButton.LeftButton)


def test_regenerate_keeps_both_answers_behind_a_switcher(window, backend, qtbot, ctx) -> None:
    backend.queue(answer("r", "First answer."), TITLE, answer("r", "Second answer."),
                  answer("r", "Third answer."))
    send(qtbot, window, "Tell me something")
    wait_idle(qtbot, window)
    (reply,) = messages(window, AssistantMessage)
    assert reply.switcher.isHidden()  # one answer: nothing to switch
    click(qtbot, reply.regenerate_button)
    assert messages(window, AssistantMessage)[0].alternative_label.text() == "2 / 2"
    wait_idle(qtbot, window)
    (reply,) = messages(window, AssistantMessage)
    assert "Second answer." in shown_text(reply)
    assert reply.switcher.isVisible() and reply.alternative_label.text() == "2 / 2"
    assert not reply.next_button.isEnabled()

    click(qtbot, reply.previous_button)
    qtbot.waitUntil(lambda: "First answer." in "".join(
        shown_text(m) for m in messages(window, AssistantMessage)), timeout=WAIT_MS)
    (reply,) = messages(window, AssistantMessage)
    assert reply.alternative_label.text() == "1 / 2" and reply.next_button.isEnabled()
    stored = ctx.hearth.history.messages(window.chat.conversation_id)
    assert [m.content for m in stored if m.role == "assistant"] == ["First answer."]

    send(qtbot, window, "And then?")  # the model reads the answer shown
    wait_idle(qtbot, window)
    sent = [m["content"] for m in backend.calls[-1].messages if m["role"] == "assistant"]
    assert sent == ["First answer."]


def test_any_answer_can_be_regenerated_and_what_followed_comes_back(
        window, backend, qtbot, ctx) -> None:
    backend.queue(answer("r", "Paris."), TITLE, answer("r", "Rome."), answer("r", "Lyon."))
    send(qtbot, window, "A city?")
    wait_idle(qtbot, window)
    send(qtbot, window, "Another?")
    wait_idle(qtbot, window)
    first, last = messages(window, AssistantMessage)
    assert first.regenerate_button.isVisible() and last.regenerate_button.isVisible()
    click(qtbot, first.regenerate_button)
    wait_idle(qtbot, window)
    assert [u.text for u in messages(window, UserMessage)] == ["A city?"]
    (reply,) = messages(window, AssistantMessage)
    assert "Lyon." in shown_text(reply) and reply.alternative_label.text() == "2 / 2"
    click(qtbot, reply.previous_button)
    # The reopened history is built a few widgets at a time: wait for both answers too.
    qtbot.waitUntil(lambda: (len(messages(window, UserMessage)),
                             len(messages(window, AssistantMessage))) == (2, 2), timeout=WAIT_MS)
    assert [u.text for u in messages(window, UserMessage)] == ["A city?", "Another?"]
    first, _ = messages(window, AssistantMessage)
    qtbot.waitUntil(lambda: "Paris." in shown_text(first), timeout=WAIT_MS)
    assert first.alternative_label.text() == "1 / 2"


def test_edit_and_resend_rewrites_the_question(window, backend, qtbot, ctx) -> None:
    backend.queue(answer("r", "Paris."), TITLE, answer("r", "Rome."))
    send(qtbot, window, "Capital of France?")
    wait_idle(qtbot, window)
    (user,) = messages(window, UserMessage)
    qtbot.mouseClick(user.edit_button, Qt.MouseButton.LeftButton)
    box = window.chat.composer.input
    assert box.toPlainText() == "Capital of France?"
    box.clear()
    send(qtbot, window, "Capital of Italy?")
    wait_idle(qtbot, window)
    stored = ctx.hearth.history.messages(window.chat.conversation_id)
    assert [(m.role, m.content) for m in stored] == [("user", "Capital of Italy?"),
                                                     ("assistant", "Rome.")]
    assert [u.text for u in messages(window, UserMessage)] == ["Capital of Italy?"]


def test_reopening_a_conversation_shows_its_history(window, backend, qtbot) -> None:
    backend.queue(answer("r", "Kept answer."), TITLE)
    send(qtbot, window, "Remember this")
    wait_idle(qtbot, window)
    cid = window.chat.conversation_id
    window.new_chat()
    assert not messages(window, AssistantMessage)
    qtbot.waitUntil(lambda: window.sidebar.list.count() == 1, timeout=WAIT_MS)
    window.sidebar._activated(window.sidebar.list.item(0))
    qtbot.waitUntil(lambda: bool(messages(window, AssistantMessage)), timeout=WAIT_MS)
    assert window.chat.conversation_id == cid
    qtbot.waitUntil(lambda: "Kept answer." in shown_text(messages(window, AssistantMessage)[0]),
                    timeout=WAIT_MS)  # stored answers render through the view's render queue


def test_a_failed_turn_is_explained_and_the_app_stays_usable(window, backend, qtbot,
                                                            ctx) -> None:
    ctx.hearth.runner.unload().result(10)
    send(qtbot, window, "Hello?")
    wait_idle(qtbot, window)
    (reply,) = messages(window, AssistantMessage)
    assert reply._note.text().startswith("⚠")
    assert window.chat.composer.send_button.text() == "Send"
