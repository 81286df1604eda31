"""The model picker above the chat: the model in use, recent ones, and Manage models…."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QComboBox, QWidget

MANAGE = "::manage"


class ModelPicker(QComboBox):
    """`chosen(path)` for another model, `manage()` for the model manager."""

    chosen = Signal(str)
    manage = Signal()

    def __init__(self, settings: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.settings = settings
        self.setObjectName("modelPicker")
        self.setMinimumContentsLength(18)
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.activated.connect(self._activated)
        self.refresh()

    def refresh(self) -> None:
        """Rebuilt from settings (cheap: names only, no file is opened)."""
        self.blockSignals(True)
        self.clear()
        current = str(self.settings.model_path or "")
        paths = [p for p in dict.fromkeys([current, *self.settings.recent_models]) if p]
        for path in paths:
            self.addItem(Path(path).name, path)
            self.setItemData(self.count() - 1, path, _tooltip_role())
        if not paths:
            self.addItem(self.tr("No model yet"), "")
        self.insertSeparator(self.count())
        self.addItem(self.tr("Manage models…"), MANAGE)
        self.setCurrentIndex(0)
        self.setAccessibleName(self.tr("Model"))
        self.setToolTip(current or self.tr("No model chosen"))
        self.blockSignals(False)

    def _activated(self, index: int) -> None:
        data = self.itemData(index)
        if data == MANAGE:
            self.setCurrentIndex(0)
            self.manage.emit()
        elif data and data != self.settings.model_path:
            self.chosen.emit(str(data))


def _tooltip_role() -> Any:
    from PySide6.QtCore import Qt

    return Qt.ItemDataRole.ToolTipRole
