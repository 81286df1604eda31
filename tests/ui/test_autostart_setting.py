"""Settings > General > "Start Hearth in the tray when I sign in" registers a real login item."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QDialogButtonBox

from app.ui.settings.dialog import SettingsDialog
from tests.ui.scripts import WAIT_MS


def _open(ctx: Any, qtbot: Any) -> SettingsDialog:
    box = SettingsDialog(ctx)
    qtbot.addWidget(box)
    box.show()
    return box


def _save(qtbot: Any, box: SettingsDialog) -> None:
    buttons = box.findChild(QDialogButtonBox)
    qtbot.mouseClick(buttons.button(QDialogButtonBox.StandardButton.Save),
                     Qt.MouseButton.LeftButton)


def test_the_switch_writes_and_removes_the_autostart_entry(ctx: Any, qtbot: Any,
                                                           tmp_path: Path,
                                                           monkeypatch: Any) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    entry = tmp_path / "autostart" / "hearth.desktop"
    box = _open(ctx, qtbot)
    assert not box.autostart.isChecked()
    box.autostart.setChecked(True)
    _save(qtbot, box)
    qtbot.waitUntil(entry.exists, timeout=WAIT_MS)  # renamed into place: whole once it exists
    assert "--hidden" in entry.read_text()
    assert [p.name for p in entry.parent.iterdir()] == ["hearth.desktop"]  # nothing staged left

    again = _open(ctx, qtbot)  # the dialog shows what the session will really do
    assert again.autostart.isChecked()
    again.autostart.setChecked(False)
    _save(qtbot, again)
    qtbot.waitUntil(lambda: not entry.exists(), timeout=WAIT_MS)
