"""Quick ask: summon, Enter streams the answer in place, Esc hides, continue in the window."""

from __future__ import annotations

from PySide6.QtCore import Qt

from app.ui.chat.message import AssistantMessage
from app.ui.shell.main_window import MainWindow
from tests.ui.scripts import TITLE, WAIT_MS, answer


def test_round_trip_from_quick_ask_to_the_main_window(ctx, quick, backend, qtbot) -> None:
    backend.queue(answer("Simple sum.", "2 + 2 = **4**."), TITLE,
                  answer("Double it.", "Twice that is 8."))
    quick.summon()
    assert quick.isVisible() and quick.focusWidget() is quick.input
    qtbot.keyClicks(quick.input, "What is 2 + 2?")
    qtbot.keyClick(quick.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not quick.streaming, timeout=WAIT_MS)
    assert "2 + 2 = 4." in quick.answer.segments[0].toPlainText()
    assert quick.scroll_area.height() > 20  # the box grew to show the answer
    assert quick.open_button.isEnabled()

    window = MainWindow(ctx)
    qtbot.addWidget(window)
    opened: list[str] = []
    quick.open_in_main.connect(opened.append)
    quick.open_in_main.connect(window.open_conversation)
    qtbot.mouseClick(quick.open_button, Qt.MouseButton.LeftButton)
    assert not quick.isVisible()
    assert opened == [quick.conversation_id]
    qtbot.waitUntil(lambda: bool(window.chat.findChildren(AssistantMessage)), timeout=WAIT_MS)
    window.chat.send("And doubled?")  # the same conversation continues in the window
    qtbot.waitUntil(lambda: not window.chat.streaming, timeout=WAIT_MS)
    stored = ctx.hearth.history.messages(opened[0])
    assert [m.content for m in stored] == ["What is 2 + 2?", "2 + 2 = **4**.", "And doubled?",
                                           "Twice that is 8."]


def test_escape_hides_and_the_box_opens_near_the_cursor_screen(quick, qtbot) -> None:
    quick.summon()
    screen = quick.screen().availableGeometry()
    assert screen.contains(quick.geometry().center())
    qtbot.keyClick(quick.input, Qt.Key.Key_Escape)
    assert not quick.isVisible()
    quick.toggle()
    assert quick.isVisible()
    quick.toggle()
    assert not quick.isVisible()


def test_stop_in_quick_ask_cancels_the_answer(ctx, quick, qtbot, backend) -> None:
    from tests.ui.scripts import LONG_ANSWER

    slow = type(backend)([answer("r", LONG_ANSWER)], delay=0.002)
    ctx.hearth.runner.load(slow).result(10)
    quick.summon()
    quick.input.setText("Write a lot")
    quick.ask()
    qtbot.waitUntil(lambda: quick.answer is not None and bool(quick.answer.answer),
                    timeout=WAIT_MS)
    qtbot.mouseClick(quick.stop_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not quick.streaming, timeout=WAIT_MS)
    assert len(quick.answer.answer) < len(LONG_ANSWER)
    assert quick.answer._note.text() == "Stopped."
