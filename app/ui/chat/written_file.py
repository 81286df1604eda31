"""Open, Reveal and Undo for a file an office tool wrote (shown in its tool card)."""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QWidget

from app.ui.file_actions import open_path, reveal_path
from app.ui.widgets import button, dim_label, hbox


def written_path(data: object) -> str:
    """The path a tool result says it wrote, or ""."""
    if isinstance(data, dict) and isinstance(data.get("written"), str):
        return str(data["written"])
    return ""


class WrittenFileActions(QWidget):
    """Undo runs off the GUI thread (it hashes the file to be sure it was not edited since)."""

    undone = Signal(bool, str)  # ok, message: emitted from the worker, delivered queued

    def __init__(self, data: dict[str, object], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.data = data
        self.path = written_path(data)
        self.open_button = button(self.tr("Open"), lambda: open_path(self.path),
                                  self.tr("Open %1").replace("%1", Path(self.path).name))
        self.reveal_button = button(self.tr("Show in folder"), lambda: reveal_path(self.path))
        self.undo_button = button(self.tr("Undo"), self.undo)
        self.note = dim_label(wrap=False)
        row = hbox(self.open_button, self.reveal_button, self.undo_button, self.note, None)
        row.setContentsMargins(0, 4, 0, 0)
        self.setLayout(row)
        self.undone.connect(self._after_undo)

    def undo(self) -> None:
        from skills.office import undo

        self.undo_button.setEnabled(False)
        data = dict(self.data)

        def work() -> None:
            try:
                message = undo(data)
                ok = True
            except Exception as exc:  # noqa: BLE001 - shown in the card, in words
                message, ok = str(exc), False
            try:
                self.undone.emit(ok, message)
            except RuntimeError:  # the card was closed meanwhile
                pass

        threading.Thread(target=work, name="hearth-undo", daemon=True).start()

    def show_undone(self) -> None:
        """The write was undone (now, or before the chat was reopened): nothing left to undo."""
        self.note.setText(self.tr("Undone: the file is as it was before."))
        self.undo_button.setEnabled(False)
        self.open_button.setEnabled(bool(self.data.get("backup")))
        self.reveal_button.setEnabled(bool(self.data.get("backup")))

    def _after_undo(self, ok: bool, message: str) -> None:
        if ok:
            self.show_undone()
        else:
            self.note.setText(self.tr("Could not undo: %1").replace("%1", message))
            self.undo_button.setEnabled(True)
