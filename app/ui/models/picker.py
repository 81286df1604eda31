"""The model picker above the chat: the model in use, recent ones, and Manage models…."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QComboBox, QWidget

from app.core.settings import Settings
from backends.engines import Engine

MANAGE = "::manage"
SERVER = "::server"  # the remote engine's model: it lives on the server, not in a file here

NAME_CHARS = 40  # the widest name shown whole, in average characters

Loaded = Callable[[], object]  # the runner's BackendInfo, or None: what answers now


def loaded_path(info: object) -> str:
    """The local file of what the runner has loaded ("" for nothing, or a server's model)."""
    if info is None or str(getattr(info, "engine", "")) == Engine.REMOTE:
        return ""
    return str(getattr(info, "model_path", "") or "")


class ModelPicker(QComboBox):
    """`chosen(path)` for another model, `manage()` for the model manager. Its first entry is
    what the runner has loaded (`loaded()`), never only what the settings name."""

    chosen = Signal(str)
    manage = Signal()

    def __init__(self, settings: Settings, loaded: Loaded, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.loaded = loaded
        self.setObjectName("modelPicker")
        # As wide as its longest name (a model's file name is its only name), up to a limit
        # past which names are shortened in the middle, where their quantisation ends them.
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.activated.connect(self._activated)
        self.refresh()

    def refresh(self) -> None:
        """Rebuilt from the runner's loaded model and the recent ones (in memory, no file is
        opened)."""
        self.blockSignals(True)
        self.clear()
        info = self.loaded()
        current = loaded_path(info)
        if info is not None and not current:  # a server's model (or one made in memory)
            name = str(getattr(info, "model_name", "") or "")
            remote = str(getattr(info, "engine", "")) == Engine.REMOTE
            self.addItem(self.tr("%1 (server)").replace("%1", name) if remote else name, SERVER)
            tip = name
        elif info is None:
            self.addItem(self.tr("No model loaded"), "")
            tip = self.tr("No model loaded")
        else:
            tip = current
        paths = [p for p in dict.fromkeys([current, *self.settings.recent_models]) if p]
        for path in paths:
            self.addItem(self._short(Path(path).name), path)
            self.setItemData(self.count() - 1, path, Qt.ItemDataRole.ToolTipRole)
        self.insertSeparator(self.count())
        self.addItem(self.tr("Manage models…"), MANAGE)
        self.setCurrentIndex(0)
        self.setAccessibleName(self.tr("Model"))
        self.setToolTip(tip)
        self.blockSignals(False)

    def _short(self, name: str) -> str:
        metrics = self.fontMetrics()
        return metrics.elidedText(name, Qt.TextElideMode.ElideMiddle,
                                  metrics.horizontalAdvance("x") * NAME_CHARS)

    def _activated(self, index: int) -> None:
        data = self.itemData(index)
        if data == MANAGE:
            self.setCurrentIndex(0)
            self.manage.emit()
        elif data and data != SERVER and data != loaded_path(self.loaded()):
            self.chosen.emit(str(data))
