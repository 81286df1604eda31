"""Live language switching, keyboard-only use and accessible names across the main window."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QAbstractButton,
    QAbstractItemView,
    QAbstractSpinBox,
    QApplication,
    QComboBox,
    QKeySequenceEdit,
    QLineEdit,
    QMenu,
    QPlainTextEdit,
    QTableView,
    QTextEdit,
    QWidget,
)

from app.ui.chat.message import AssistantMessage, UserMessage
from app.ui.i18n import Translations
from app.ui.shell.main_window import MainWindow
from app.ui.shell.quick_ask import QuickAsk
from app.ui.shell.tray import Tray
from tests.ui.scripts import LONG_ANSWER, WAIT_MS, answer

INTERACTIVE = (QAbstractButton, QLineEdit, QTextEdit, QPlainTextEdit, QComboBox,
               QAbstractItemView, QAbstractSpinBox, QKeySequenceEdit)
# Their inner parts (a spin box's line edit, a combo's popup list, a table's header) are named
# by the outer one.
COMPOUND = (QAbstractSpinBox, QComboBox, QKeySequenceEdit, QLineEdit, QTableView)


@pytest.fixture
def window(ctx: Any, qtbot: Any) -> Iterator[MainWindow]:
    ctx.translations = Translations(QApplication.instance())
    w = MainWindow(ctx)
    qtbot.addWidget(w)
    w.show()
    yield w
    ctx.translations.apply("en")  # the next test expects English


def unnamed(root: QWidget) -> list[str]:
    """Interactive widgets a screen reader could only call "button" or "edit"."""
    missing = []
    for widget in root.findChildren(QWidget):
        if not isinstance(widget, INTERACTIVE) or not widget.isVisibleTo(root):
            continue
        if _inside(widget, root, COMPOUND):
            continue
        text = widget.text() if isinstance(widget, QAbstractButton) else ""
        # "‹" or "＋" alone says nothing when read aloud: a word is needed.
        if not (any(ch.isalnum() for ch in text) or widget.accessibleName().strip()):
            missing.append(f"{type(widget).__name__} {widget.objectName()!r} in "
                           f"{type(widget.parentWidget()).__name__}")
    return missing


def _inside(widget: QWidget, root: QWidget, kinds: tuple[type, ...]) -> bool:
    parent = widget.parentWidget()
    while parent is not None and parent is not root:
        if isinstance(parent, kinds):
            return True
        parent = parent.parentWidget()
    return False


def test_every_control_of_every_page_has_a_name(window, ctx, qtbot) -> None:
    pages = {}
    for key in ("chat", "library", "calendar"):
        window.show_page(key)
        pages[key] = unnamed(window)
    window.chat.show_banner("No model", button=True)
    pages["banner"] = unnamed(window)
    settings = window.open_settings()
    for index in range(settings.tabs.count()):  # type: ignore[attr-defined]
        settings.tabs.setCurrentIndex(index)  # type: ignore[attr-defined]
        pages[f"settings tab {index}"] = unnamed(settings)
    settings.reject()  # type: ignore[attr-defined]
    quick = QuickAsk(ctx)
    qtbot.addWidget(quick)
    quick.show()
    pages["quick ask"] = unnamed(quick)
    models = window.open_models()
    pages["models"] = unnamed(models)
    models.close()
    assert {k: v for k, v in pages.items() if v} == {}


def test_switching_language_retranslates_the_open_windows(window, ctx, qtbot) -> None:
    quick = QuickAsk(ctx)
    qtbot.addWidget(quick)
    window.show_page("library")
    library: Any = window.pages.currentWidget()
    window.show_page("calendar")
    calendar: Any = window.pages.currentWidget()
    window.show_page("chat")
    question = UserMessage("Hi", parent=window.chat)  # a chat already on screen
    answer = AssistantMessage(parent=window.chat)
    tray = Tray()

    def texts() -> dict[str, str]:
        return {"new": window.sidebar.new_button.text(),
                "prompt": window.chat.composer.input.placeholderText(),
                "send": window.chat.composer.send_button.text(),
                "menu": window.menuBar().actions()[0].text(),
                "library": library.tabs.tabText(0),
                "calendar": calendar.agenda.accessibleName(),
                "quick": quick.input.placeholderText(),
                "edit": question.edit_button.text(),
                "copy": answer.copy_button.text(),
                "tray": tray.ask_action.text()}

    english = texts()
    assert english["new"].endswith("New chat")
    ctx.hearth.settings.language = "en"
    window.open_models().close()  # opened once, hidden: reopened later in the new language
    settings: Any = window.open_settings()
    settings.language.setCurrentIndex(settings.language.findData("zh_CN"))
    settings.save()
    qtbot.waitUntil(lambda: window.sidebar.new_button.text().endswith("新对话"), timeout=WAIT_MS)
    chinese = texts()
    assert [k for k in english if english[k] == chinese[k]] == []
    assert chinese["send"] == "发送"
    models = window.open_models()
    assert models.windowTitle().startswith("模型")
    models.close()
    ctx.translations.apply("en")
    qtbot.waitUntil(lambda: window.sidebar.new_button.text() == english["new"], timeout=WAIT_MS)
    assert texts() == english
    tray.menu.deleteLater()


def focus_chain(window: QWidget) -> list[QWidget]:
    """The widgets Tab visits, in order, starting from the window (as Qt walks them)."""
    chain, widget = [], window.nextInFocusChain()
    while widget is not window and len(chain) < 500:
        if (widget.focusPolicy() & Qt.FocusPolicy.TabFocus and widget.isVisibleTo(window)
                and widget.isEnabled()):
            chain.append(widget)
        widget = widget.nextInFocusChain()
    return chain


def test_tab_goes_from_the_sidebar_through_the_chat_to_the_composer(window) -> None:
    chain = focus_chain(window)
    s, c = window.sidebar, window.chat.composer
    order = [s.new_button, s.search, s.list, c.input, c.attach, c.think, c.send_button]
    positions = [chain.index(w) for w in order]
    assert positions == sorted(positions)
    chips = [w for w in window.chat.empty.findChildren(QAbstractButton) if w in chain]
    assert chips and all(chain.index(s.list) < chain.index(b) < chain.index(c.input)
                         for b in chips)


def test_tab_reaches_a_new_answer_before_the_composer(window, qtbot) -> None:
    window.chat.send("Hello")
    qtbot.waitUntil(lambda: not window.chat.streaming, timeout=WAIT_MS)
    answer = window.chat._last(AssistantMessage)
    qtbot.waitUntil(answer.copy_button.isVisible, timeout=WAIT_MS)
    chain = focus_chain(window)
    c = window.chat.composer
    assert (chain.index(window.sidebar.list) < chain.index(answer.copy_button)
            < chain.index(c.input) < chain.index(c.send_button))


def shortcut(qtbot: Any, window: QWidget, key: Any, modifier: Any = Qt.KeyboardModifier.NoModifier,
             ) -> None:
    focused = QApplication.focusWidget() or window
    qtbot.keyClick(focused, key, modifier)


def test_keyboard_shortcuts_for_new_chat_search_settings_and_stop(window, ctx, backend,
                                                                  qtbot) -> None:
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=WAIT_MS)
    window.sidebar.list.setFocus()
    shortcut(qtbot, window, Qt.Key.Key_K, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.focusWidget() is window.sidebar.search
    shortcut(qtbot, window, Qt.Key.Key_N, Qt.KeyboardModifier.ControlModifier)
    assert QApplication.focusWidget() is window.chat.composer.input
    slow = type(backend)([answer("r", LONG_ANSWER)], delay=0.002)
    ctx.hearth.runner.load(slow).result(10)
    window.chat.send("Write a lot")
    qtbot.waitUntil(lambda: window.chat.turn is not None and window.chat.turn.handle is not None,
                    timeout=WAIT_MS)
    shortcut(qtbot, window, Qt.Key.Key_Escape)
    qtbot.waitUntil(lambda: not window.chat.streaming, timeout=WAIT_MS)
    stored = ctx.hearth.history.messages(window.chat.conversation_id)
    assert stored[-1].status == "cancelled"
    shortcut(qtbot, window, Qt.Key.Key_Comma, Qt.KeyboardModifier.ControlModifier)
    settings = window._dialogs.get("settings")
    assert settings is not None and settings.isVisible()
    settings.reject()  # type: ignore[attr-defined]


def test_the_menu_key_opens_the_menu_of_the_selected_chat(window, ctx, qtbot) -> None:
    for title in ("Taxes", "Holiday"):
        conv = ctx.hearth.history.create_conversation(title)
        ctx.hearth.history.add_message(conv.id, "user", title)  # empty chats are not listed
    window.sidebar.reload()
    qtbot.waitUntil(lambda: window.sidebar.list.count() == 2, timeout=WAIT_MS)
    window.activateWindow()
    qtbot.waitUntil(window.isActiveWindow, timeout=WAIT_MS)
    window.sidebar.list.setFocus()
    window.sidebar.list.setCurrentRow(1)
    chosen = window.sidebar.list.currentItem().text()
    qtbot.keyClick(window.sidebar.list, Qt.Key.Key_F10, Qt.KeyboardModifier.ShiftModifier)
    menus = [m for m in window.sidebar.findChildren(QMenu) if m.isVisible()]
    assert [a.text() for a in menus[0].actions() if a.text()] == [
        "Rename…", "Pin", "Delete…"]
    pin = next(a for a in menus[0].actions() if a.text() == "Pin")
    pin.trigger()
    menus[0].close()
    qtbot.waitUntil(lambda: [c.title for c in window.sidebar.conversations if c.pinned]
                    == [chosen], timeout=WAIT_MS)
