"""The sidebar highlights the chat on screen: none after Ctrl+N, the new chat once it is
listed (also one that quick ask hands over), and clicking the chat shown before opens it."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from app.ui.shell.main_window import MainWindow
from tests.ui.scripts import TITLE, WAIT_MS, answer


@pytest.fixture
def window(ctx: Any, qtbot: Any) -> MainWindow:
    history = ctx.hearth.history
    for title in ("Trip", "Taxes"):
        conv = history.create_conversation(title)
        history.add_message(conv.id, "user", f"About {title}")
        history.add_message(conv.id, "assistant", "Noted.")
    w = MainWindow(ctx)
    qtbot.addWidget(w)
    w.show()
    w.sidebar.reload()
    qtbot.waitUntil(lambda: len(w.sidebar.conversations) == 2, timeout=WAIT_MS)
    return w


def highlighted(window: MainWindow) -> list[str]:
    return [i.text() for i in window.sidebar.list.selectedItems()]


def row(window: MainWindow, title: str) -> Any:
    items = [window.sidebar.list.item(i) for i in range(window.sidebar.list.count())]
    return next(i for i in items if i.text() == title)


def click(qtbot: Any, window: MainWindow, title: str) -> None:
    lst = window.sidebar.list
    qtbot.mouseClick(lst.viewport(), Qt.MouseButton.LeftButton,
                     pos=lst.visualItemRect(row(window, title)).center())


def reloaded(qtbot: Any, window: MainWindow, count: int) -> None:
    window.sidebar.reload()
    qtbot.waitUntil(lambda: len(window.sidebar.conversations) == count, timeout=WAIT_MS)
    assert window.ctx.ops.wait(WAIT_MS)


def test_ctrl_n_and_a_new_chat_move_the_highlight(window, backend, qtbot, ctx) -> None:
    click(qtbot, window, "Taxes")
    qtbot.waitUntil(lambda: window.chat.conversation_id is not None, timeout=WAIT_MS)
    assert highlighted(window) == ["Taxes"]
    QTest.keySequence(window, QKeySequence("Ctrl+N"))
    assert highlighted(window) == []
    reloaded(qtbot, window, 2)
    assert highlighted(window) == []  # not back on the chat that was shown before
    backend.queue(answer("r", "Hi."), "Greeting")
    with qtbot.waitSignal(window.chat.turn_finished, timeout=WAIT_MS):
        window.chat.send("Hello")
    qtbot.waitUntil(lambda: len(window.sidebar.conversations) == 3, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: highlighted(window) != [], timeout=WAIT_MS)
    new_id = window.chat.conversation_id
    assert window.sidebar.list.selectedItems()[0].data(Qt.ItemDataRole.UserRole) == new_id
    click(qtbot, window, "Taxes")  # the chat shown before opens again
    qtbot.waitUntil(lambda: window.chat.conversation_id != new_id, timeout=WAIT_MS)
    assert highlighted(window) == ["Taxes"]


def test_a_chat_handed_over_by_quick_ask_is_the_one_highlighted(window, quick, backend,
                                                                 qtbot, ctx) -> None:
    click(qtbot, window, "Trip")
    qtbot.waitUntil(lambda: window.chat.conversation_id is not None, timeout=WAIT_MS)
    trip = window.chat.conversation_id
    backend.queue(answer("Simple sum.", "2 + 2 = 4."), TITLE)
    quick.summon()
    qtbot.keyClicks(quick.input, "What is 2 + 2?")
    qtbot.keyClick(quick.input, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: not quick.streaming, timeout=WAIT_MS)
    quick.open_in_main.connect(window.open_conversation)
    qtbot.mouseClick(quick.open_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: window.chat.conversation_id == quick.conversation_id,
                    timeout=WAIT_MS)
    assert highlighted(window) != ["Trip"]
    reloaded(qtbot, window, 3)
    (shown,) = window.sidebar.list.selectedItems()  # the handed-over chat, once listed
    assert shown.data(Qt.ItemDataRole.UserRole) == quick.conversation_id
    click(qtbot, window, "Trip")
    qtbot.waitUntil(lambda: window.chat.conversation_id == trip, timeout=WAIT_MS)
    assert highlighted(window) == ["Trip"]


def test_no_sideways_scrollbar_in_the_sidebar(window, qtbot, ctx) -> None:
    history = ctx.hearth.history
    long_title = "A very long title about planning the summer trip to the northern lakes " * 3
    conv = history.create_conversation(long_title)
    history.add_message(conv.id, "user", "Plan the trip to the northern lakes " * 20)
    reloaded(qtbot, window, 3)
    for shown in (window.sidebar.list, window.sidebar.results):
        if shown is window.sidebar.results:
            window.sidebar.search.setText("northern lakes")
            qtbot.waitUntil(lambda: window.sidebar.results.count() > 0, timeout=WAIT_MS)
        shown.doItemsLayout()
        QApplication.processEvents()
        assert shown.isVisible()
        assert not shown.horizontalScrollBar().isVisible(), shown.objectName()


def ring_pixels(widget: Any) -> int:
    """Pixels of the accent colour (the focus ring) in what the widget draws."""
    from PySide6.QtGui import QColor

    from app.ui.theme import colors

    accent = QColor(colors(False)["accent"])
    image = widget.grab().toImage()
    return sum(1 for x in range(0, image.width(), 1) for y in range(0, image.height(), 2)
               if abs(QColor(image.pixel(x, y)).red() - accent.red()) < 8
               and abs(QColor(image.pixel(x, y)).green() - accent.green()) < 8
               and abs(QColor(image.pixel(x, y)).blue() - accent.blue()) < 8)


def test_ctrl_k_then_down_enters_the_results_with_a_focus_ring(window, qtbot) -> None:
    from app.ui.theme import stylesheet

    window.setStyleSheet(stylesheet(False))
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=WAIT_MS)
    QTest.keySequence(window, QKeySequence("Ctrl+K"))
    sidebar = window.sidebar
    assert QApplication.focusWidget() is sidebar.search
    qtbot.keyClicks(sidebar.search, "Taxes")
    qtbot.waitUntil(lambda: sidebar.results.count() > 0 and sidebar.results.isVisible(),
                    timeout=WAIT_MS)
    qtbot.keyClick(sidebar.search, Qt.Key.Key_Down)
    assert QApplication.focusWidget() is sidebar.results
    assert sidebar.results.currentRow() == 0
    assert ring_pixels(sidebar.results) > 40  # the focused hit shows a ring
    qtbot.keyClick(sidebar.results, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: window.chat.conversation_id is not None, timeout=WAIT_MS)

    sidebar.search.clear()
    QTest.keySequence(window, QKeySequence("Ctrl+K"))
    qtbot.keyClick(sidebar.search, Qt.Key.Key_Down)  # no query: Down goes to the chats
    assert QApplication.focusWidget() is sidebar.list
    assert sidebar.list.currentItem() is not None
    assert ring_pixels(sidebar.list) > 40
    sidebar.search.setFocus()
    assert ring_pixels(sidebar.list) < 40  # only while the list has the focus


def test_the_page_on_screen_is_marked_in_the_sidebar(window, qtbot) -> None:
    """Routines, then Settings and its dialog closed: Routines is still the page marked (it
    was Settings, by the keyboard focus a click left on it); a chat marks none."""
    nav = window.sidebar.nav_buttons
    marked = lambda: [key for key, button in nav.items() if button.isChecked()]  # noqa: E731
    assert marked() == []
    qtbot.mouseClick(nav["routines"], Qt.MouseButton.LeftButton)
    assert window.pages.currentWidget().objectName() == "routinesPage"
    assert marked() == ["routines"]
    qtbot.mouseClick(nav["routines"], Qt.MouseButton.LeftButton)  # again: it stays marked
    assert marked() == ["routines"]
    qtbot.mouseClick(nav["settings"], Qt.MouseButton.LeftButton)
    dialog = window._dialogs["settings"]
    assert dialog.isVisible()
    dialog.reject()
    assert marked() == ["routines"] and not nav["settings"].hasFocus()
    QTest.keySequence(window, QKeySequence("Ctrl+3"))  # View > Calendar
    assert marked() == ["calendar"]
    QTest.keySequence(window, QKeySequence("Ctrl+1"))  # View > Chat
    assert marked() == []
    assert window.ctx.ops.wait(WAIT_MS)


def test_the_chat_behind_a_page_is_not_marked_and_a_click_brings_it_back(window, qtbot) -> None:
    """On the Calendar, the chat still open on the Chat page looked chosen, and clicking it
    did nothing (it was "already open"): now only the page is marked, and the click goes
    back to the chat as it was (not read again: an answer being written goes on)."""
    click(qtbot, window, "Taxes")
    qtbot.waitUntil(lambda: window.chat.conversation_id is not None, timeout=WAIT_MS)
    assert window.ctx.ops.wait(WAIT_MS)
    shown = window.chat.conversation_id
    window.show_page("calendar")
    assert highlighted(window) == []  # one mark: the Calendar's
    reloaded(qtbot, window, 2)  # a reload meanwhile (a title, a routine's chat) keeps it so
    assert highlighted(window) == []
    loads = window.chat._load_token
    click(qtbot, window, "Taxes")
    assert window.pages.currentWidget() is window.chat
    assert window.chat.conversation_id == shown and window.chat._load_token == loads
    assert highlighted(window) == ["Taxes"]
    assert [k for k, b in window.sidebar.nav_buttons.items() if b.isChecked()] == []


def test_a_search_page_opened_from_the_sidebar_takes_what_is_typed(window, qtbot) -> None:
    """Files and Library are searches: opened with a click, the next keys went nowhere."""
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=WAIT_MS)
    nav = window.sidebar.nav_buttons
    qtbot.mouseClick(nav["files"], Qt.MouseButton.LeftButton)
    files = window.pages.currentWidget()
    QTest.keyClicks(QApplication.focusWidget(), "budget")
    assert files.query.text() == "budget"
    qtbot.mouseClick(nav["library"], Qt.MouseButton.LeftButton)
    library = window.pages.currentWidget()
    QTest.keyClicks(QApplication.focusWidget(), "kettle")
    assert library.search.text() == "kettle" and files.query.text() == "budget"
    qtbot.mouseClick(nav["calendar"], Qt.MouseButton.LeftButton)  # no search there
    assert QApplication.focusWidget() is not library.search
    assert window.ctx.ops.wait(WAIT_MS)
