"""Settings: edit, save to disk, apply at once; the hotkey result is shown with what to do."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence, QPalette
from PySide6.QtWidgets import QApplication, QDialogButtonBox

from app.ui.settings.dialog import SettingsDialog
from app.ui.shell.hotkey import GlobalHotkey, HotkeyStatus
from app.ui.theme import ThemeManager
from tests.ui.scripts import WAIT_MS


class FakeHotkey(GlobalHotkey):
    """Refuses Ctrl+Alt+Space (as if another app had it), accepts anything else."""

    def _register(self, chord: Any, text: str) -> HotkeyStatus:
        if text == "Ctrl+Alt+Space":
            return HotkeyStatus(False, "Ctrl+Alt+Space is already used by another app.")
        return HotkeyStatus(True, f"{text} opens Quick ask from anywhere.")


@pytest.fixture
def dialog(ctx: Any, qtbot: Any) -> SettingsDialog:
    ctx.theme = ThemeManager(QApplication.instance(), "light")
    ctx.theme.apply()
    ctx.hotkey = FakeHotkey()
    ctx.hotkey.register("Ctrl+Alt+Space")
    box = SettingsDialog(ctx)
    qtbot.addWidget(box)
    box.show()
    yield box
    QApplication.instance().setStyleSheet("")
    QApplication.instance().setPalette(QPalette())


def save(qtbot: Any, dialog: SettingsDialog) -> None:
    buttons = dialog.findChild(QDialogButtonBox)
    qtbot.mouseClick(buttons.button(QDialogButtonBox.StandardButton.Save),
                     Qt.MouseButton.LeftButton)


def on_disk(ctx: Any) -> dict[str, Any]:
    path = Path(ctx.hearth.paths.settings_file)
    return json.loads(path.read_text()) if path.exists() else {}


def test_save_writes_settings_and_applies_the_theme(ctx, dialog, qtbot, tmp_path) -> None:
    dialog.theme.setCurrentIndex(dialog.theme.findData("dark"))
    dialog.thinking.setChecked(False)
    dialog.context.setValue(8192)
    dialog.kv.setCurrentIndex(dialog.kv.findData("q8_0"))
    dialog.watched.add(str(tmp_path))
    saved: list[set[str]] = []
    dialog.saved.connect(saved.append)
    save(qtbot, dialog)
    qtbot.waitUntil(lambda: bool(saved), timeout=WAIT_MS)
    disk = on_disk(ctx)
    assert (disk["theme"], disk["thinking_default"], disk["context_length"], disk["kv_type"]) == (
        "dark", False, 8192, "q8_0")
    assert disk["watched_folders"] == [str(tmp_path)]
    assert saved[0] >= {"theme", "context_length", "kv_type", "watched_folders"}
    window_colour = QApplication.instance().palette().color(QPalette.ColorRole.Window)
    assert window_colour.lightness() < 80  # dark now, without a restart


def test_a_folder_is_removed_once_chosen_and_only_then(dialog, tmp_path) -> None:
    folders = dialog.watched
    assert not folders.remove_button.isEnabled()  # nothing listed, nothing chosen
    folders.add(str(tmp_path / "Notes"))
    folders.add(str(tmp_path / "Bills"))
    assert not folders.remove_button.isEnabled()
    folders.list.setCurrentRow(1)
    assert folders.remove_button.isEnabled()
    folders.remove_button.click()
    assert folders.folders() == [str(tmp_path / "Notes")]
    # Remove is on exactly while a folder is chosen (the list may choose the next one)
    assert folders.remove_button.isEnabled() == bool(folders.list.selectedItems())


def test_a_refused_hotkey_is_reported_and_a_free_one_accepted(ctx, dialog, qtbot) -> None:
    assert dialog.hotkey_status.text().startswith("⚠")
    assert "another app" in dialog.hotkey_status.text()
    dialog.hotkey.setKeySequence(QKeySequence("Ctrl+Alt+K"))
    dialog.hotkey.editingFinished.emit()
    assert dialog.hotkey_status.text() == "✓ Ctrl+Alt+K opens Quick ask from anywhere."
    save(qtbot, dialog)
    qtbot.waitUntil(lambda: on_disk(ctx).get("hotkey") == "Ctrl+Alt+K", timeout=WAIT_MS)


def test_the_engine_choice_is_explained(ctx, dialog, qtbot, tmp_path) -> None:
    dialog.model_path.setText(str(tmp_path / "missing.gguf"))
    dialog.model_path.editingFinished.emit()
    qtbot.waitUntil(lambda: "missing.gguf" in dialog.engine_reason.text(), timeout=WAIT_MS)
    assert dialog.engine_reason.text().startswith("⚠")
    model = tmp_path / "model.gguf"
    model.write_bytes(b"GGUF" + b"\0" * 16)
    dialog.engine.setCurrentIndex(dialog.engine.findData("auto"))
    dialog.model_path.setText(str(model))
    dialog.model_path.editingFinished.emit()
    qtbot.waitUntil(lambda: "GGUF file" in dialog.engine_reason.text(), timeout=WAIT_MS)
    assert "llama.cpp" in dialog.engine_reason.text()


def test_cancel_changes_nothing(ctx, dialog, qtbot) -> None:
    dialog.theme.setCurrentIndex(dialog.theme.findData("dark"))
    dialog.reject()
    assert ctx.hearth.settings.theme == "system"
    assert not on_disk(ctx)


def test_tool_servers_are_added_in_the_gui_and_saved(ctx, dialog, qtbot) -> None:
    """Defect 12: the README promised MCP servers in settings; there was no way in the GUI."""
    from app.core.settings import load_settings

    page = dialog.mcp
    assert not page.edit_button.isEnabled() and not page.remove_button.isEnabled()  # none yet
    form = page.edit(None)
    example = form.command.placeholderText()  # read whole: the form is wide enough for it
    assert form.command.fontMetrics().horizontalAdvance(example) < form.command.width()
    form.name.setText("notes")
    form.command.setText("npx -y '@modelcontextprotocol/server-filesystem' ~/Notes")
    form.accept()
    assert page.table.rowCount() == 1
    assert not page.remove_button.isEnabled()  # listed, but not chosen
    page.table.selectRow(0)
    assert page.edit_button.isEnabled() and page.remove_button.isEnabled()
    form = page.edit(None)  # a second one with the same name is refused inline
    form.name.setText("notes")
    form.use_url.setChecked(True)
    form.url.setText("ftp://nowhere")
    form.accept()
    assert form.isVisible() and "http://" in form.error.text()
    form.url.setText("http://127.0.0.1:8931/mcp")
    form.accept()
    assert form.error.text() == "Another server already has this name."
    form.name.setText("browser")
    form.trusted.setChecked(True)
    form.accept()
    assert not form.isVisible()
    save(qtbot, dialog)
    qtbot.waitUntil(lambda: len(on_disk(ctx).get("mcp_servers", [])) == 2, timeout=WAIT_MS)
    servers = load_settings(ctx.hearth.paths.settings_file).mcp_servers
    assert [(s.name, s.command, s.url, s.trusted) for s in servers] == [
        ("notes", ["npx", "-y", "@modelcontextprotocol/server-filesystem", "~/Notes"], "",
         False),
        ("browser", [], "http://127.0.0.1:8931/mcp", True)]


def test_the_office_output_folder_is_chosen_in_settings(ctx, dialog, qtbot, tmp_path,
                                                        monkeypatch) -> None:
    from PySide6.QtWidgets import QFileDialog, QPushButton

    from skills.office import default_output_folder

    field = dialog.office_output
    assert field.path.text() == default_output_folder()  # the default is shown, not a blank
    assert not field.reset.isEnabled()
    monkeypatch.setattr(QFileDialog, "getExistingDirectory",
                        staticmethod(lambda *_a, **_k: str(tmp_path)))
    choose = next(b for b in field.findChildren(QPushButton) if b.text() == "Choose…")
    qtbot.mouseClick(choose, Qt.MouseButton.LeftButton)
    assert field.path.text() == str(tmp_path) and field.reset.isEnabled()
    saved: list[set[str]] = []
    dialog.saved.connect(saved.append)
    save(qtbot, dialog)
    qtbot.waitUntil(lambda: bool(saved), timeout=WAIT_MS)
    assert "office_output_folder" in saved[0]
    assert on_disk(ctx)["office_output_folder"] == str(tmp_path)
    # The office tools write there from now on (they read the setting for each file).
    assert ctx.hearth.office_access().output_folder() == str(tmp_path.resolve())

    again = SettingsDialog(ctx)
    qtbot.addWidget(again)
    assert again.office_output.path.text() == str(tmp_path)
    qtbot.mouseClick(again.office_output.reset, Qt.MouseButton.LeftButton)
    assert again.office_output.path.text() == default_output_folder()
    assert again.values()["office_output_folder"] == ""
