"""The Settings tab for privacy: where the history is kept, and Delete all history."""

from __future__ import annotations

from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from app.ui.context import UiContext
from app.ui.i18n import plural
from app.ui.settings.forget_history import HistoryEraser
from app.ui.widgets import bold_label, button, dim_label


class PrivacyTab(QWidget):
    """Delete all history asks first, then forgets every chat (`eraser.erased` tells the sidebar)."""

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        column = QVBoxLayout(self)
        column.setContentsMargins(12, 14, 12, 8)
        column.setSpacing(10)
        column.addWidget(bold_label(self.tr("History")))
        where = QLabel(self.tr("Your conversations, the documents dropped into them and the "
                               "model's memory of them stay on this computer."))
        where.setWordWrap(True)
        column.addWidget(where)
        self.eraser = HistoryEraser(ctx, self)
        self.delete_all = button(self.tr("Delete all history…"), self.eraser.ask,
                                 self.tr("Delete all history"))
        column.addWidget(self.delete_all)
        self.done = dim_label()
        self.eraser.erased.connect(self._erased)
        column.addWidget(self.done)
        column.addStretch(1)

    def _erased(self, gone: list[object]) -> None:
        self.done.setText(plural(self.eraser.counted(gone),
                                 self.tr("1 conversation deleted."),
                                 self.tr("%1 conversations deleted.")))
