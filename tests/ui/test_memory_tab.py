"""Settings > Memory and the chat delete dialog, clicked through on the real dialogs: list,
search, edit, forget one or all (asking first), memory off, standing instructions, each entry
opening its chat; deleting a chat names what it taught and forgets it too. English and Chinese."""

from __future__ import annotations

from typing import Any

import pytest
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QMessageBox

from app.ui.i18n import Translations
from tests.ui.conftest import WAIT_MS


@pytest.fixture
def taught(ctx: Any) -> dict[str, Any]:
    """Two chats: one taught Hearth two facts; plus one fact typed by hand."""
    hearth = ctx.hearth
    garden = hearth.history.create_conversation("Garden")
    hearth.history.add_message(garden.id, "user", "I grow tulips, remember that")
    other = hearth.history.create_conversation("Taxes")
    hearth.history.add_message(other.id, "user", "hi")
    memory = hearth.memory
    facts = [memory.add("I grow tulips", source=garden.id),
             memory.add("My garden faces south", source=garden.id),
             memory.add("I live in Lyon")]
    return {"garden": garden.id, "other": other.id, "facts": facts}


def _tab(window: Any, qtbot: Any, rows: int) -> Any:
    settings = window.open_settings()
    tab = settings.memory
    settings.tabs.setCurrentWidget(tab)
    qtbot.waitUntil(lambda: tab.table.rowCount() == rows, timeout=WAIT_MS)
    return tab


def _question(qtbot: Any, owner: Any) -> QMessageBox:
    qtbot.waitUntil(lambda: owner.box is not None and owner.box.isVisible(), timeout=WAIT_MS)
    box: QMessageBox = owner.box
    owner.box = None
    return box


def _shown(tab: Any) -> list[str]:
    """The memories the person sees (the search applied)."""
    return [tab.table.item(row, 0).text() for row in range(tab.table.rowCount())
            if not tab.table.isRowHidden(row)]


def _destructive(box: QMessageBox) -> Any:
    return next(b for b in box.buttons()
                if box.buttonRole(b) == QMessageBox.ButtonRole.DestructiveRole)


def test_the_memory_tab_lists_searches_edits_and_forgets(window: Any, qtbot: Any, ctx: Any,
                                                         taught: dict[str, Any]) -> None:
    memory = ctx.hearth.memory
    tab = _tab(window, qtbot, 3)
    assert _shown(tab) == ["I grow tulips", "My garden faces south", "I live in Lyon"]
    assert [tab.table.item(r, 1).text() for r in range(3)] == ["Garden", "Garden",
                                                                "Typed by you"]
    assert tab.table.item(0, 0).toolTip() == "Not given to the model yet"
    tab.search.setText("GARDEN")
    assert _shown(tab) == ["My garden faces south"]
    tab.search.setText("")

    tab.table.item(2, 0).setText("I live in Grenoble")  # what the inline editor does
    qtbot.waitUntil(lambda: memory.entries()[-1].text == "I live in Grenoble", timeout=WAIT_MS)

    tab.table.selectRow(2)
    tab.delete_button.click()
    box = _question(qtbot, tab)
    assert "I live in Grenoble" in box.text()
    box.button(QMessageBox.StandardButton.Cancel).click()  # Cancel keeps it
    assert ctx.ops.wait(WAIT_MS) and len(memory.entries()) == 3
    tab.table.selectRow(2)
    tab.delete_button.click()
    _destructive(_question(qtbot, tab)).click()
    qtbot.waitUntil(lambda: tab.table.rowCount() == 2, timeout=WAIT_MS)
    assert [m.text for m in memory.entries()] == ["I grow tulips", "My garden faces south"]

    tab.delete_all.click()
    box = _question(qtbot, tab)
    assert "2" in box.text() and box.defaultButton() is box.button(
        QMessageBox.StandardButton.Cancel)
    _destructive(box).click()
    qtbot.waitUntil(lambda: tab.table.rowCount() == 0, timeout=WAIT_MS)
    assert memory.entries() == [] and "Nothing remembered yet." in tab.count.text()


def test_an_empty_edit_is_refused_and_the_text_comes_back(window: Any, qtbot: Any, ctx: Any,
                                                          taught: dict[str, Any]) -> None:
    tab = _tab(window, qtbot, 3)
    tab.table.item(0, 0).setText("   ")
    box = _question(qtbot, tab)
    assert "empty" in box.text()
    box.button(QMessageBox.StandardButton.Ok).click()
    qtbot.waitUntil(lambda: tab.table.item(0, 0).text() == "I grow tulips", timeout=WAIT_MS)
    assert ctx.hearth.memory.entries()[0].text == "I grow tulips"


def test_each_memory_opens_its_chat(window: Any, qtbot: Any, ctx: Any,
                                    taught: dict[str, Any]) -> None:
    tab = _tab(window, qtbot, 3)
    tab.table.selectRow(2)
    assert not tab.open_button.isEnabled()  # typed by hand: no chat to open
    tab.table.selectRow(1)
    assert tab.open_button.isEnabled()
    tab.open_button.click()
    qtbot.waitUntil(lambda: window.chat.conversation_id == taught["garden"], timeout=WAIT_MS)


def test_memory_off_and_instructions_are_kept_with_save(window: Any, qtbot: Any, ctx: Any,
                                                        taught: dict[str, Any]) -> None:
    hearth = ctx.hearth
    settings = window.open_settings()
    tab = settings.memory
    qtbot.waitUntil(lambda: tab.table.rowCount() == 3, timeout=WAIT_MS)
    assert tab.enabled.isChecked() and not tab.without_asking.isChecked()  # the defaults
    tab.enabled.setChecked(False)
    tab.instructions.setPlainText("Always answer in metric.")
    tab.instructions.document().setModified(True)  # as typing does
    settings.save()
    assert ctx.ops.wait(WAIT_MS)
    assert hearth.settings.memory_enabled is False
    assert hearth.memory.instructions() == "Always answer in metric."
    system = hearth.assistant.prefix_request()[0][0]["content"]
    assert "Always answer in metric." in system and "I live in Lyon" not in system


def _delete_box(window: Any, qtbot: Any, cid: str) -> QMessageBox:
    window.sidebar.reload()
    qtbot.waitUntil(lambda: len(window.sidebar.conversations) == 2, timeout=WAIT_MS)
    box = window.sidebar.delete(cid)
    assert box is not None
    delete = _destructive(box)
    qtbot.waitUntil(delete.isEnabled, timeout=WAIT_MS)  # once it knows what the chat taught
    return box


@pytest.mark.parametrize("forget_too", [True, False])
def test_deleting_a_chat_offers_to_forget_what_it_taught(
        forget_too: bool, window: Any, qtbot: Any, ctx: Any, taught: dict[str, Any]) -> None:
    hearth = ctx.hearth
    box = _delete_box(window, qtbot, taught["garden"])
    said = box.informativeText()
    assert "2" in said and "I grow tulips" in said and "My garden faces south" in said
    assert "I live in Lyon" not in said
    check = box.checkBox()
    assert check is not None and check.isChecked()  # offered, and ticked
    check.setChecked(forget_too)
    forgotten: list[bool] = []
    window.sidebar.memory_forgotten.connect(lambda: forgotten.append(True))
    _destructive(box).click()
    qtbot.waitUntil(lambda: hearth.history.get_conversation(taught["garden"]) is None,
                    timeout=WAIT_MS)
    qtbot.waitUntil(lambda: forgotten == ([True] if forget_too else []), timeout=WAIT_MS)
    assert ctx.ops.wait(WAIT_MS)
    left = [m.text for m in hearth.memory.entries()]
    assert left == (["I live in Lyon"] if forget_too else
                    ["I grow tulips", "My garden faces south", "I live in Lyon"])


def test_a_chat_that_taught_nothing_offers_nothing(window: Any, qtbot: Any, ctx: Any,
                                                   taught: dict[str, Any]) -> None:
    box = _delete_box(window, qtbot, taught["other"])
    assert box.checkBox() is None and box.informativeText() == ""
    box.button(QMessageBox.StandardButton.Cancel).click()
    assert ctx.hearth.history.get_conversation(taught["other"]) is not None


@pytest.fixture
def chinese(qapp: Any) -> Any:
    translations = Translations(qapp)
    assert translations.apply("zh_CN") == "zh_CN"
    yield translations
    translations.apply("en")
    QApplication.instance().setStyleSheet("")
    QApplication.instance().setPalette(QPalette())


def test_the_memory_tab_and_delete_dialog_speak_chinese(window: Any, qtbot: Any, ctx: Any,
                                                        taught: dict[str, Any],
                                                        chinese: Any) -> None:
    from tests.ui.test_chinese_everywhere import english_on

    ctx.translations = chinese
    tab = _tab(window, qtbot, 3)
    tab.search.setText("zzz")  # hide the memories themselves: they are the person's words
    problems = english_on(tab)
    assert problems == {}, problems
    assert tab.table.item(2, 1).text() == "你亲自输入"
    tab.table.selectRow(0)
    tab.delete_button.click()
    box = _question(qtbot, tab)
    assert "忘记" in box.windowTitle() + box.text()
    box.button(QMessageBox.StandardButton.Cancel).click()
    box = _delete_box(window, qtbot, taught["garden"])
    check = box.checkBox()
    assert check is not None and not english_on(check)
    assert "Hearth" in box.informativeText() and "remembers" not in box.informativeText()
    box.button(QMessageBox.StandardButton.Cancel).click()
    eraser = window._dialogs["settings"].privacy.eraser  # Delete all history lives in Privacy
    eraser.ask()
    box = _question(qtbot, eraser)
    check = box.checkBox()
    assert check is not None and "2" in check.text() and not english_on(check)
    box.button(QMessageBox.StandardButton.Cancel).click()


def test_a_memory_approved_in_the_chat_is_kept_and_warms_the_new_prefix(
        window: Any, backend: Any, qtbot: Any, ctx: Any) -> None:
    from PySide6.QtCore import Qt

    from app.ui.chat.message import AssistantMessage
    from tests.ui.scripts import TITLE, answer, tool_call

    window._warm_up()  # what loading a model does: the window starts following memory
    assert ctx.ops.wait(WAIT_MS)
    backend.queue(tool_call("remember", text="I am vegetarian"), answer("ok", "Noted."), TITLE)
    box = window.chat.composer.input
    box.setFocus()
    qtbot.keyClicks(box, "Remember that I am vegetarian")
    qtbot.keyClick(box, Qt.Key.Key_Return)
    qtbot.waitUntil(lambda: bool(window.chat.findChildren(AssistantMessage)), timeout=WAIT_MS)
    (reply,) = window.chat.findChildren(AssistantMessage)
    qtbot.waitUntil(lambda: any(c.waiting for c in reply.cards.values()), timeout=WAIT_MS)
    (card,) = reply.cards.values()
    assert "I am vegetarian" in card.description.text()
    assert ctx.hearth.memory.entries() == []  # nothing kept before the yes
    with qtbot.waitSignal(window.personal_changed, timeout=WAIT_MS):
        qtbot.mouseClick(card.approve_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.chat.streaming, timeout=WAIT_MS)
    [kept] = ctx.hearth.memory.entries()
    assert (kept.text, kept.source) == ("I am vegetarian", window.chat.conversation_id)


def test_instructions_too_long_keep_the_dialog_open_and_lose_nothing(
        window: Any, qtbot: Any, ctx: Any) -> None:
    from app.core.memory.store import MAX_INSTRUCTIONS

    settings = window.open_settings()
    tab = settings.memory
    settings.tabs.setCurrentIndex(0)
    text = "Answer in metric. " * (MAX_INSTRUCTIONS // 10)
    tab.instructions.setPlainText(text)
    tab.instructions.document().setModified(True)
    settings.save()
    assert settings.isVisible() and settings.tabs.currentWidget() is tab
    assert str(MAX_INSTRUCTIONS) in tab.too_long.text() and tab.too_long.isVisible()
    assert tab.instructions.toPlainText() == text  # what was typed is all still there
    assert ctx.ops.wait(WAIT_MS) and ctx.hearth.memory.instructions() == ""
    tab.instructions.setPlainText("Answer in metric.")
    tab.instructions.document().setModified(True)
    settings.save()
    assert ctx.ops.wait(WAIT_MS) and ctx.hearth.memory.instructions() == "Answer in metric."


@pytest.mark.parametrize("forget_too", [True, False])
def test_delete_all_history_offers_to_forget_what_the_chats_taught(
        forget_too: bool, window: Any, qtbot: Any, ctx: Any, taught: dict[str, Any]) -> None:
    eraser = window.open_settings().privacy.eraser  # Delete all history lives in Privacy
    eraser.ask()
    box = _question(qtbot, eraser)
    check = box.checkBox()
    assert check is not None and check.isChecked()
    assert "2 things Hearth remembers" in check.text()  # the typed one is not the chats'
    check.setChecked(forget_too)
    _destructive(box).click()
    qtbot.waitUntil(lambda: ctx.hearth.history.list_conversations() == [], timeout=WAIT_MS)
    assert ctx.ops.wait(WAIT_MS)
    left = [m.text for m in ctx.hearth.memory.entries()]
    assert left == (["I live in Lyon"] if forget_too else
                    ["I grow tulips", "My garden faces south", "I live in Lyon"])


def test_a_memory_is_dated_by_this_computers_clock_with_the_month_in_words(
        window: Any, qtbot: Any, ctx: Any, far_east: Any) -> None:
    import sqlite3

    memory = ctx.hearth.memory.add("I live in Lyon")
    with sqlite3.connect(ctx.hearth.paths.history_db) as conn:  # written at 20:00 UTC
        conn.execute("update memories set created = ?, last_used = ? where id = ?",
                     ["2026-12-02T20:00:00+00:00", "2026-12-02T20:30:00+00:00", memory.id])
    tab = _tab(window, qtbot, 1)
    assert tab.table.item(0, 2).text() == "3 Dec 2026"  # 10:00 on the 3rd here, not "2026-12-02"
    assert tab.table.item(0, 0).toolTip() == "Last given to the model 3 Dec 2026 10:30"
