"""The frame every banner line shares: the banner style, its margins, and a wrapping text."""

from __future__ import annotations

from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QWidget

from app.ui.i18n import Retranslator


class BannerFrame(QFrame):
    """A row styled as a banner (the "banner" object name in the style sheet): its text takes
    the room, and what a subclass adds with `add` lines up on the right."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("banner")
        self._tr = Retranslator(self)
        self._row = QHBoxLayout(self)
        self._row.setContentsMargins(12, 8, 12, 8)
        self.text = QLabel(wordWrap=True)
        self._row.addWidget(self.text, 1)

    def add(self, widget: QWidget) -> None:
        self._row.addWidget(widget)
