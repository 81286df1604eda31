"""Small pieces of the chat page: the welcome shown in an empty chat, and the banner line."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QProgressBar, QVBoxLayout, QWidget

from app.ui.banner_frame import BannerFrame
from app.ui.i18n import Retranslator
from app.ui.widgets import tr_button


class EmptyState(QWidget):
    """What a new chat shows: what Hearth can do, and a few questions to start with."""

    suggestion = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._tr = Retranslator(self)
        box = QVBoxLayout(self)
        box.setContentsMargins(0, 80, 0, 0)
        title = QLabel()
        self._tr(lambda: title.setText(self.tr("What can I help with?")))
        font = title.font()
        font.setPointSizeF(font.pointSizeF() * 1.6)
        title.setFont(font)
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        hint = QLabel()
        self._tr(lambda: hint.setText(self.tr("Ask a question, drop a PDF or a folder here to ask "
                                              "about it, or ask about your files and calendar. "
                                              "Everything stays on this computer.")))
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
        texts: list[Callable[[], str]] = [lambda: self.tr("What's on my calendar this week?"),
                                          lambda: self.tr("Find my most recent invoice"),
                                          lambda: self.tr("Summarise the PDF I dropped")]
        for text in texts:
            chip = tr_button(self._tr, text)
            # The chip's current text: the question in the language now shown.
            chip.clicked.connect(lambda _=False, c=chip: self.suggestion.emit(c.text()))
            chips.addWidget(chip)
        chips.addStretch(1)
        return chips


class Banner(BannerFrame):
    """A quiet line above the composer: no model yet, indexing progress, an error."""

    action = Signal()

    def __init__(self, action_text: Callable[[], str], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._tr(lambda: self.text.setAccessibleName(self.tr("Status")))
        self.progress = QProgressBar()
        self.progress.setMaximumWidth(160)
        self._tr(lambda: self.progress.setAccessibleName(self.tr("Progress")))
        self.progress.hide()
        self.button = tr_button(self._tr, action_text, self.action.emit)
        self.add(self.progress)
        self.add(self.button)
        self.hide()

    def show_message(self, text: str, button: bool = False, progress: int | None = None) -> None:
        self.text.setText(text)
        self.button.setVisible(button)
        self.progress.setVisible(progress is not None)
        if progress is not None:
            self.progress.setValue(progress)
        self.setVisible(bool(text))
