"""One live answer for the chat view and quick ask: what it says before the first token, the
queue notice in both, and "Open in Hearth" taking the answer over mid-way."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

from PySide6.QtCore import Qt

from app.core.events import Progress, Queued
from app.ui.chat.live_answer import LiveAnswer
from app.ui.chat.message import AssistantMessage
from app.ui.shell.main_window import MainWindow
from app.ui.shell.quick_ask import QuickAsk
from tests.ui.scripts import TITLE, WAIT_MS, answer
from tests.ui.test_chat import event_call, messages, send, wait_idle


def ask(qtbot: Any, quick: QuickAsk, text: str) -> None:
    quick.summon()
    qtbot.keyClicks(quick.input, text)
    qtbot.keyClick(quick.input, Qt.Key.Key_Return)


def hold_engine(backend: Any, monkeypatch: Any) -> threading.Event:
    """Make the engine wait until the returned event is set.

    Otherwise the first tokens can arrive (and replace a notice) before a notice the test posts
    is drawn, on a busy machine."""
    gate, real_stream = threading.Event(), backend.stream

    def held_stream(*args: Any, **kwargs: Any) -> Iterator[Any]:
        gate.wait(WAIT_MS / 1000)
        yield from real_stream(*args, **kwargs)

    monkeypatch.setattr(backend, "stream", held_stream)
    return gate


def test_send_says_what_happens_before_the_first_token(window, backend, qtbot,
                                                      monkeypatch) -> None:
    gate = hold_engine(backend, monkeypatch)
    backend.queue(answer("Thinking it over.", "Done."), TITLE)
    send(qtbot, window, "Hello")
    live = window.chat.turn
    assert live is not None and live.message is not None
    assert live.message.status_shown  # at once, before any event loop pass
    assert live.message._stats.text() == "Preparing…"
    live.bridge.post(Progress("loading"))
    qtbot.waitUntil(lambda: live.message._stats.text() == "Loading the model…", timeout=WAIT_MS)
    live.bridge.post(Progress("reading", 512, 2048))
    qtbot.waitUntil(lambda: live.message._stats.text() == "Reading 2,048 tokens (25%)…",
                    timeout=WAIT_MS)
    gate.set()
    wait_idle(qtbot, window)
    (reply,) = messages(window, AssistantMessage)
    assert "Done." in reply.answer and "tok/s" in reply._stats.text()


def test_quick_ask_shows_the_queue_and_tells_screen_readers(quick, backend, qtbot,
                                                            monkeypatch) -> None:
    told: list[str] = []
    monkeypatch.setattr("app.ui.chat.live_answer.announce", lambda w, text: told.append(text))
    gate = hold_engine(backend, monkeypatch)
    backend.queue(answer("Sum.", "It is 4."), TITLE)
    ask(qtbot, quick, "2 + 2?")
    live = quick.live
    assert isinstance(live, LiveAnswer)
    live.bridge.post(Queued(2))  # what the runner says while another answer runs
    qtbot.waitUntil(lambda: quick.answer is not None and "2 ahead" in quick.answer._stats.text(),
                    timeout=WAIT_MS)
    gate.set()
    qtbot.waitUntil(lambda: not quick.streaming, timeout=WAIT_MS)
    assert told == ["The answer is ready."]


def test_open_in_hearth_takes_over_the_answer_being_written(ctx, quick, backend,
                                                            qtbot) -> None:
    when = (datetime.now(UTC) + timedelta(days=2)).replace(hour=9, minute=30, second=0,
                                                           microsecond=0)
    backend.queue(answer("Earlier.", "Earlier answer."), TITLE, event_call(when),
                  answer("done", "Added the dentist."))
    ask(qtbot, quick, "Hello")
    qtbot.waitUntil(lambda: not quick.streaming, timeout=WAIT_MS)
    ask(qtbot, quick, "Book the dentist on Thursday 9:30")
    live, widget = quick.live, quick.answer
    assert live is not None and widget is not None
    qtbot.waitUntil(lambda: any(c.waiting for c in widget.cards.values()), timeout=WAIT_MS)
    main = MainWindow(ctx)
    qtbot.addWidget(main)
    quick.take_over.connect(main.take_over)
    qtbot.mouseClick(quick.open_button, Qt.MouseButton.LeftButton)
    assert not quick.isVisible() and quick.live is None
    # The same widget, question still open, now at the end of the conversation in the window.
    qtbot.waitUntil(lambda: main.chat.turn is live, timeout=WAIT_MS)
    shown = messages(main, AssistantMessage)
    assert shown[-1] is widget and len(shown) == 2
    assert main.chat.streaming and main.chat.conversation_id == live.conversation_id
    (card,) = widget.cards.values()
    qtbot.mouseClick(card.approve_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, main)
    assert "Added the dentist." in widget.answer
    assert [e.title for e in ctx.hearth.calendar.all_events()] == ["Dentist"]
    main.chat.send("Thanks")  # the window goes on with the same conversation
    qtbot.waitUntil(lambda: len(messages(main, AssistantMessage)) == 3, timeout=WAIT_MS)
