"""Small pieces of the chat page: the welcome shown in an empty chat, and the banner line."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)


class EmptyState(QWidget):
    """What a new chat shows: what Hearth can do, and a few questions to start with."""

    suggestion = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 80, 0, 0)
        title = QLabel(self.tr("What can I help with?"))
        font = title.font()
        font.setPointSizeF(font.pointSizeF() * 1.6)
        title.setFont(font)
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        hint = QLabel(self.tr("Ask a question, drop a PDF or a folder here to ask about it, or "
                              "ask about your files and calendar. Everything stays on this "
                              "computer."))
        hint.setObjectName("empty")
        hint.setWordWrap(True)
        hint.setAlignment(Qt.AlignmentFlag.AlignCenter)
        box.addWidget(title)
        box.addWidget(hint)
        box.addSpacing(12)
        box.addLayout(self._chips())

    def _chips(self) -> QHBoxLayout:
        chips = QHBoxLayout()
        chips.addStretch(1)
        for text in (self.tr("What's on my calendar this week?"),
                     self.tr("Find my most recent invoice"),
                     self.tr("Summarise the PDF I dropped")):
            chip = QPushButton(text)
            chip.clicked.connect(lambda _=False, t=text: self.suggestion.emit(t))
            chips.addWidget(chip)
        chips.addStretch(1)
        return chips


class Banner(QFrame):
    """A quiet line above the composer: no model yet, indexing progress, an error."""

    action = Signal()

    def __init__(self, action_text: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("banner")
        row = QHBoxLayout(self)
        row.setContentsMargins(12, 8, 12, 8)
        self.text = QLabel()
        self.text.setWordWrap(True)
        self.text.setAccessibleName(self.tr("Status"))
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(160)
        self.progress.setAccessibleName(self.tr("Progress"))
        self.progress.hide()
        self.button = QPushButton(action_text)
        self.button.clicked.connect(self.action)
        row.addWidget(self.text, 1)
        row.addWidget(self.progress)
        row.addWidget(self.button)
        self.hide()

    def show_message(self, text: str, button: bool = False, progress: int | None = None) -> None:
        self.text.setText(text)
        self.button.setVisible(button)
        self.progress.setVisible(progress is not None)
        if progress is not None:
            self.progress.setValue(progress)
        self.setVisible(bool(text))
