"""The conversation list: search every message with highlighted hits, rename, pin, delete."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt, QUrl
from PySide6.QtWidgets import QApplication

from app.ui.chat.message import AssistantMessage
from app.ui.rich_delegate import HTML_ROLE
from app.ui.shell.main_window import MainWindow
from app.ui.shell.sidebar import highlight_snippet
from tests.ui.scripts import WAIT_MS


@pytest.fixture
def window(ctx: Any, qtbot: Any) -> MainWindow:
    history = ctx.hearth.history
    for title, text in (("Trip", "Book the ferry to Helsinki"), ("Taxes", "Receipts for 2025"),
                        ("Garden", "When to plant tulips")):
        conv = history.create_conversation(title)
        history.add_message(conv.id, "user", text)
        history.add_message(conv.id, "assistant", f"About {title.lower()}: noted.")
    w = MainWindow(ctx)
    qtbot.addWidget(w)
    w.show()
    w.sidebar.reload()
    qtbot.waitUntil(lambda: len(w.sidebar.conversations) == 3, timeout=WAIT_MS)
    return w


def titles(window: MainWindow) -> list[str]:
    items = [window.sidebar.list.item(i) for i in range(window.sidebar.list.count())]
    return [i.text() for i in items if i.flags() & Qt.ItemFlag.ItemIsSelectable]


def test_search_finds_words_in_any_message_and_highlights_them(window, qtbot) -> None:
    qtbot.keyClicks(window.sidebar.search, "ferry")
    qtbot.waitUntil(lambda: window.sidebar.results.count() == 1, timeout=WAIT_MS)
    item = window.sidebar.results.item(0)
    shown = item.data(HTML_ROLE)
    assert "<b>ferry</b>" in shown and "<b>Trip</b>" in shown
    assert item.text() == "Trip: Book the ferry to Helsinki"  # plain, for screen readers
    window.sidebar.results.itemClicked.emit(item)
    qtbot.waitUntil(lambda: bool(window.chat.findChildren(AssistantMessage)), timeout=WAIT_MS)
    trip = next(c.id for c in window.sidebar.conversations if c.title == "Trip")
    assert window.chat.conversation_id == trip
    window.sidebar.search.clear()
    qtbot.waitUntil(lambda: window.sidebar.stack.currentIndex() == 0, timeout=WAIT_MS)


def test_a_search_with_no_hits_says_so(window, qtbot) -> None:
    qtbot.keyClicks(window.sidebar.search, "zeppelin")
    qtbot.waitUntil(lambda: window.sidebar.results_label.text() == "Nothing found",
                    timeout=WAIT_MS)


def test_snippets_escape_html_and_mark_hits() -> None:
    assert highlight_snippet("a <b>x</b> [[ferry]] c") == \
        "a &lt;b&gt;x&lt;/b&gt; <b>ferry</b> c"


def test_rename_pin_and_delete(window, qtbot, ctx) -> None:
    sidebar = window.sidebar
    garden = next(c.id for c in sidebar.conversations if c.title == "Garden")
    sidebar.rename(garden, "Spring garden")
    qtbot.waitUntil(lambda: "Spring garden" in titles(window), timeout=WAIT_MS)
    sidebar.set_pinned(garden, True)
    qtbot.waitUntil(lambda: sidebar.list.item(0).text() == "PINNED", timeout=WAIT_MS)
    assert titles(window)[0] == "Spring garden"
    sidebar.delete(garden, confirm=False)
    qtbot.waitUntil(lambda: "Spring garden" not in titles(window), timeout=WAIT_MS)
    assert ctx.hearth.history.get_conversation(garden) is None


def test_the_copy_link_on_a_code_block_copies_the_code(qapp, qtbot) -> None:
    message = AssistantMessage()
    qtbot.addWidget(message)
    message.add_text("Run this:\n\n```bash\necho hello\n```\n")
    message.finish()
    (segment,) = message.segments
    assert "Copy" in segment.toPlainText()
    segment.anchorClicked.emit(QUrl("copy:0"))
    assert QApplication.clipboard().text() == "echo hello\n"


def test_model_written_html_is_shown_as_text(qapp, qtbot) -> None:
    message = AssistantMessage()
    qtbot.addWidget(message)
    message.add_text("<script>alert(1)</script> **bold**")
    message.finish()
    html = message.segments[0].toHtml()
    assert "&lt;script&gt;" in html and "<script>" not in html


def test_the_tray_menu_offers_ask_open_pause_and_quit(qapp) -> None:
    from app.ui.shell.tray import Tray

    tray = Tray()
    texts = [a.text() for a in tray.menu.actions() if not a.isSeparator()]
    assert texts == ["Ask…", "Open Hearth", "Recent reminders", "Pause indexing", "Quit Hearth"]
    assert [a.text() for a in tray.recent_menu.actions()] == ["No reminders yet"]
    asked: list[bool] = []
    paused: list[bool] = []
    tray.ask.connect(lambda: asked.append(True))
    tray.pause_indexing.connect(paused.append)
    tray.ask_action.trigger()
    tray.pause_action.trigger()
    assert asked == [True] and paused == [True]
    tray.menu.deleteLater()


def test_opening_a_search_hit_scrolls_to_that_message(ctx, qtbot) -> None:
    history = ctx.hearth.history
    conv = history.create_conversation("Long trip planning")
    history.add_message(conv.id, "user", "Which zeppelin museum is worth a visit?")
    for i in range(30):
        history.add_message(conv.id, "assistant", f"Answer {i}.\n\n" + "More detail. " * 40)
        history.add_message(conv.id, "user", f"Follow-up question {i}?")
    window = MainWindow(ctx)
    qtbot.addWidget(window)
    window.resize(900, 600)
    window.show()
    qtbot.keyClicks(window.sidebar.search, "zeppelin")
    qtbot.waitUntil(lambda: window.sidebar.results.count() == 1, timeout=WAIT_MS)
    with qtbot.waitSignal(window.chat.history_loaded, timeout=WAIT_MS):
        window.sidebar.results.itemClicked.emit(window.sidebar.results.item(0))
    bar = window.chat.scroll_area.verticalScrollBar()
    qtbot.waitUntil(lambda: window.chat.renders.pending == 0, timeout=WAIT_MS)
    assert bar.maximum() > 0
    assert bar.value() < bar.maximum() / 4  # the first message is in view, not the last
