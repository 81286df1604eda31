"""What the user sees when Hearth cuts the model short or summarizes older messages."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from app.ui.chat.message import AssistantMessage, SummaryMarker
from app.ui.settings.dialog import SettingsDialog
from tests.ui.scripts import TITLE, WAIT_MS, answer
from tests.ui.test_chat import messages, send, shown_text, wait_idle


def test_cut_thinking_shows_a_notice_live_and_after_reopening(window, backend, qtbot,
                                                                ctx) -> None:
    ctx.hearth.settings.thinking_budget_chat = 4
    backend.queue("one two three four five six seven", "The answer.", TITLE)
    send(qtbot, window, "Think long")
    wait_idle(qtbot, window)
    (reply,) = messages(window, AssistantMessage)
    assert reply.notices == ["Thinking was cut short."]
    assert not reply._note.isHidden()
    conv = window.chat.conversation_id
    window.chat.new_conversation()
    window.chat.load_conversation(conv)
    qtbot.waitUntil(lambda: len(messages(window, AssistantMessage)) == 1, timeout=WAIT_MS)
    (again,) = messages(window, AssistantMessage)
    assert again.notices == ["Thinking was cut short."]


def test_a_summary_is_a_collapsed_marker_and_the_meter_says_so(window, backend, qtbot,
                                                                 ctx) -> None:
    backend.info.context_length = 1500
    history = ctx.hearth.history
    conv = str(history.create_conversation("long").id)
    for n in range(30):
        history.add_message(conv, "user", f"Question {n}: " + "word " * 40)
        history.add_message(conv, "assistant", f"Answer {n}: " + "reply " * 40)
    window.chat.load_conversation(conv)
    qtbot.waitUntil(lambda: len(messages(window, AssistantMessage)) == 30, timeout=WAIT_MS)
    backend.queue("The user asked thirty questions.", answer("Still here.", "I am here."))
    send(qtbot, window, "Still there?")
    wait_idle(qtbot, window)
    reply = messages(window, AssistantMessage)[-1]
    assert "Earlier messages were summarized to fit the context." in reply.notices
    assert "earlier messages summarized" in window.context_label.text()
    live_at = where_summarized(window)
    # Above the first question kept whole (Question 29), below the last one summarized.
    assert live_at[0].startswith("Answer") and live_at[1].startswith("Question")
    (marker,) = messages(window, SummaryMarker)  # in the open chat, without reopening it
    assert_collapsed_marker(marker)
    window.chat.new_conversation()
    window.chat.load_conversation(conv)
    # A reopened chat is drawn in steps: wait for every earlier answer (all still shown) too.
    qtbot.waitUntil(lambda: len(messages(window, SummaryMarker)) == 1
                    and len(messages(window, AssistantMessage)) == 31, timeout=WAIT_MS)
    (marker,) = messages(window, SummaryMarker)
    assert_collapsed_marker(marker)
    assert where_summarized(window) == live_at  # the same place, live and reopened


def where_summarized(window) -> tuple[str, str]:
    """The first words of the messages either side of the marker."""
    widgets = window.chat._widgets()
    at = next(i for i, w in enumerate(widgets) if isinstance(w, SummaryMarker))
    return tuple(shown(w).split(":")[0] for w in (widgets[at - 1], widgets[at + 1]))


def shown(widget) -> str:
    return shown_text(widget) if isinstance(widget, AssistantMessage) else widget.text


def assert_collapsed_marker(marker: SummaryMarker) -> None:
    assert marker.toggle.text() == "Earlier messages summarized"
    assert marker.body.isHidden()
    marker.toggle.click()
    assert not marker.body.isHidden() and "thirty questions" in marker.body.text()


def test_settings_edit_sampling_and_thinking_budgets(ctx, qtbot) -> None:
    dialog = SettingsDialog(ctx)
    qtbot.addWidget(dialog)
    tab = dialog.generation
    assert tab.chat_temperature.value() == pytest.approx(0.6)
    assert tab.tool_temperature.value() == pytest.approx(1.0)
    tab.chat_temperature.setValue(0.7)
    tab.budgets["thinking_budget_quick"].setValue(512)
    dialog.save()
    settings = ctx.hearth.settings
    assert settings.chat_temperature == pytest.approx(0.7)
    assert settings.thinking_budget_quick == 512


def test_one_marker_however_often_it_summarized_and_it_stays_put_when_opened(
        window, backend, qtbot, ctx) -> None:
    backend.info.context_length = 1500
    history = ctx.hearth.history
    conv = str(history.create_conversation("long").id)

    def more(start: int) -> None:
        for n in range(start, start + 30):
            history.add_message(conv, "user", f"Question {n}: " + "word " * 40)
            history.add_message(conv, "assistant", f"Answer {n}: " + "reply " * 40)

    more(0)
    window.chat.load_conversation(conv)
    qtbot.waitUntil(lambda: len(messages(window, AssistantMessage)) == 30, timeout=WAIT_MS)
    backend.queue("The user asked thirty questions.", answer("Here.", "I am here."))
    send(qtbot, window, "Still there?")
    wait_idle(qtbot, window)
    more(100)  # the chat grows again (another window or the API wrote to it)
    window.chat.new_conversation()
    window.chat.load_conversation(conv)
    qtbot.waitUntil(lambda: len(messages(window, AssistantMessage)) == 61, timeout=WAIT_MS)
    backend.queue("Sixty questions now.", answer("Again.", "Still here."))
    send(qtbot, window, "And now?")
    wait_idle(qtbot, window)
    assert len([m for m in history.messages(conv) if m.summary_of]) == 2  # summarized twice
    assert len(messages(window, SummaryMarker)) == 1  # live: the newest summary only
    window.chat.new_conversation()
    window.chat.load_conversation(conv)
    qtbot.waitUntil(lambda: len(messages(window, AssistantMessage)) == 62, timeout=WAIT_MS)
    (marker,) = messages(window, SummaryMarker)  # reopened: the same
    assert "Sixty" in marker.summary

    bar = window.chat.scroll_area.verticalScrollBar()
    viewport = window.chat.scroll_area.viewport()

    def marker_top() -> int:
        return marker.mapTo(viewport, marker.rect().topLeft()).y()

    content = window.chat.scroll_area.widget()
    heights: list[int] = []

    def settled() -> bool:
        # The reopened chat renders its messages a few per event-loop pass, so what is above
        # the marker may still grow: wait (a condition, not a delay) until the content's
        # height is the same on two looks in a row, with the marker in view.
        window.chat.scroll_area.ensureWidgetVisible(marker, 0, 40)
        heights.append(content.height())
        return (len(heights) >= 2 and heights[-1] == heights[-2]
                and 0 <= marker_top() < viewport.height())

    qtbot.waitUntil(settled, timeout=WAIT_MS)
    closed_height = marker.height()
    qtbot.mouseClick(marker.toggle, Qt.MouseButton.LeftButton)
    # Opened, and the chat's layout has grown with it (the scroll range reaches past the view).
    qtbot.waitUntil(lambda: marker.height() > closed_height and bar.value() < bar.maximum(),
                    timeout=WAIT_MS)
    assert 0 <= marker_top() < viewport.height()  # not scrolled away
