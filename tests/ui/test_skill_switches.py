"""Settings > Skills: a switch per skill with what it does; a skill switched off is not offered
to the model from the next conversation on, and the prompt prefix is warmed again for it."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox, QLabel

from app.core.skill_switches import families
from app.ui.shell.main_window import MainWindow
from tests.ui.scripts import TITLE, WAIT_MS, answer
from tests.ui.test_chat import send, wait_idle
from tests.ui.test_chinese_everywhere import chinese, english_on  # noqa: F401 - a fixture

CALENDAR_TOOLS = {"list_events", "find_free_time", "add_event", "update_event", "delete_event"}


def skills_tab(qtbot: Any, window: MainWindow) -> Any:
    dialog: Any = window.open_settings()
    dialog.tabs.setCurrentWidget(dialog.skills)
    switches = dialog.skills.switches
    # Listed once the assistant is built, then shown and laid out (a click lands on each).
    qtbot.waitUntil(lambda: len(switches) == 5 and all(
        s.isVisible() and s.hitButton(s.rect().center()) for s in switches.values()),
        timeout=WAIT_MS)
    return dialog


def save(qtbot: Any, window: MainWindow, dialog: Any) -> None:
    with qtbot.waitSignal(window.settings_saved, timeout=WAIT_MS):
        buttons = dialog.findChild(QDialogButtonBox)
        buttons.button(QDialogButtonBox.StandardButton.Save).click()


def offered(call: Any) -> set[str]:
    return {tool["function"]["name"] for tool in call.options.tools or []}


def test_a_skill_switched_off_is_not_offered_in_the_next_conversation(
        ctx: Any, qtbot: Any, backend: Any) -> None:
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    dialog = skills_tab(qtbot, window)
    switches = dialog.skills.switches
    assert [s.text() for s in switches.values()] == [
        "Time and units", "Documents", "Files", "Calendar", "Office"]
    assert all(s.isChecked() for s in switches.values())
    said = [label.text() for label in dialog.skills.findChildren(QLabel)]
    assert any(text.startswith("Reads your calendar and finds free time") for text in said)
    qtbot.mouseClick(switches["calendar"], Qt.MouseButton.LeftButton)
    assert not switches["calendar"].isChecked()
    save(qtbot, window, dialog)
    assert "list_events" not in ctx.hearth.settings.enabled_skills

    backend.queue(answer("No calendar here.", "I cannot see your calendar."), TITLE)
    send(qtbot, window, "What is on today?")
    wait_idle(qtbot, window)
    tools = offered(backend.calls[0])
    assert tools and not tools & CALENDAR_TOOLS and "search_documents" in tools

    dialog = skills_tab(qtbot, window)  # as saved, and back on
    calendar = dialog.skills.switches["calendar"]
    assert not calendar.isChecked()
    qtbot.mouseClick(calendar, Qt.MouseButton.LeftButton)
    save(qtbot, window, dialog)
    assert ctx.hearth.settings.enabled_skills == []  # every skill on
    window.chat.new_conversation()
    backend.queue(answer("Looking.", "Nothing today."), TITLE)
    send(qtbot, window, "And now?")
    wait_idle(qtbot, window)
    asked = next(c for c in backend.calls  # the answer's step (the title's comes after)
                 if "And now?" in str(c.messages[-1].get("content")))
    assert offered(asked) >= CALENDAR_TOOLS


def test_the_skills_tab_speaks_chinese(ctx: Any, qtbot: Any, chinese: Any) -> None:  # noqa: F811
    ctx.translations = chinese
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    dialog = skills_tab(qtbot, window)
    assert dialog.skills.switches["calendar"].text() == "日历"
    assert english_on(dialog.skills) == {}
    dialog.reject()


def warmed(qtbot: Any, statuses: list[Any]) -> None:
    """Wait for a warm-up to run to its end (it says "Preparing…", then ready)."""
    def done() -> bool:
        seen = [s for s in list(statuses) if s is not None]
        return any(not s.ready for s in seen) and seen[-1].ready
    qtbot.waitUntil(done, timeout=WAIT_MS_MODEL)


WAIT_MS_MODEL = 120_000


def test_switching_a_skill_off_warms_the_new_prefix_for_the_next_chat(
        ctx: Any, qtbot: Any, tiny_model: Any) -> None:
    pytest.importorskip("llama_cpp")
    from tests.ui.test_prefix_ready import use_tiny_model

    hearth = ctx.hearth
    use_tiny_model(hearth, tiny_model)
    # Two families on (whole, so their switches are checked): a prefix the tiny model reads in
    # seconds, which switching the calendar off changes.
    found = families(hearth.assistant.registered)
    hearth.settings.enabled_skills = found["builtin"] + found["calendar"]
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.show()
    statuses: list[Any] = []
    window.prefix_status.connect(statuses.append)
    window.load_model()
    warmed(qtbot, statuses)  # the launch warm-up, with both families
    statuses.clear()
    dialog = skills_tab(qtbot, window)
    qtbot.mouseClick(dialog.skills.switches["calendar"], Qt.MouseButton.LeftButton)
    save(qtbot, window, dialog)
    warmed(qtbot, statuses)  # warmed again, for the prefix without the calendar
    assert window.prefix_label.text() == "Ready"

    messages, options = hearth.assistant.prefix_request()
    assert not {t["function"]["name"] for t in options.tools or []} & CALENDAR_TOOLS
    send(qtbot, window, "Hello")
    qtbot.waitUntil(lambda: not window.chat.streaming, timeout=WAIT_MS_MODEL)
    conversation = window.chat.conversation_id
    answer_ = [m for m in hearth.history.messages(conversation) if m.role == "assistant"][-1]
    prefix = hearth.runner.call(lambda: hearth.runner.backend._key(
        messages, options, None)).result(WAIT_MS_MODEL / 1000)
    assert answer_.cached_prompt_tokens >= len(prefix.tokens)  # the new prefix was ready
