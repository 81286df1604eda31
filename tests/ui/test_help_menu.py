"""Help > Keyboard shortcuts lists what the menus answer to (read from them, so it cannot go
stale) and the global quick-ask keys only while they work; Help > About names the version, the
model answering and the folder that holds the person's data, a link that opens it."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QUrl
from PySide6.QtWidgets import QLabel, QMessageBox

from app import __version__
from app.ui.shell.hotkey import GlobalHotkey, HotkeyStatus


def help_actions(window: Any) -> dict[str, Any]:
    (menu,) = [a.menu() for a in window.menuBar().actions() if a.text() == "&Help"]
    return {a.text(): a for a in menu.actions()}


def label_text(box: QMessageBox) -> str:
    return next(lb.text() for lb in box.findChildren(QLabel) if "<" in lb.text())


def test_keyboard_shortcuts_come_from_the_menus(window: Any, ctx: Any) -> None:
    actions = help_actions(window)
    assert actions["&Keyboard shortcuts"].shortcut().toString() == "Ctrl+/"
    box = window.show_shortcuts()
    shown = label_text(box)
    for what, keys in (("New chat", "Ctrl+N"), ("Export this chat", "Ctrl+Shift+E"),
                       ("Calendar", "Ctrl+3"), ("Stop answer", "Ctrl+."),
                       ("Keyboard shortcuts", "Ctrl+/"), ("Send", "Enter"),
                       ("Search all chats", "Ctrl+K"), ("Stop an answer", "Esc")):
        assert f"<td>{what}</td><td>&nbsp;&nbsp;<b>{keys}</b>" in shown, what
    assert "Quick ask" not in shown  # no global shortcut registered here: not promised
    box.close()


def test_the_quick_ask_keys_are_listed_while_they_work(window: Any, ctx: Any) -> None:
    class Working(GlobalHotkey):
        def _register(self, chord: Any, text: str) -> HotkeyStatus:
            return HotkeyStatus(True, "")

    ctx.hotkey = Working()
    ctx.hotkey.register("Ctrl+Alt+H")
    box = window.show_shortcuts()
    assert "<td>Quick ask, from any app</td><td>&nbsp;&nbsp;<b>Ctrl+Alt+H</b>" in label_text(box)
    box.close()
    ctx.hotkey.register("H")  # refused (no Ctrl, Alt or Cmd): no longer promised
    box = window.show_shortcuts()
    assert "Quick ask" not in label_text(box)
    box.close()


def test_about_names_the_version_the_model_and_the_data_folder(window: Any, ctx: Any) -> None:
    about = help_actions(window)["&About Hearth"]
    assert about.menuRole() == about.MenuRole.AboutRole  # macOS puts it in the app menu
    box = window.show_about()
    text = label_text(box)
    data = str(ctx.hearth.paths.data)
    assert f"Hearth {__version__}" in text
    assert f"Model: {window.engine_label.text()}" in text
    assert f'<a href="{QUrl.fromLocalFile(data).toString()}">{data}</a>' in text
    (label,) = [lb for lb in box.findChildren(QLabel) if "<a href" in lb.text()]
    assert label.openExternalLinks()  # a click opens the folder
    box.close()
