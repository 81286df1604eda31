"""Quick ask: a small frameless box near the cursor; Enter streams the answer in place.

Esc hides it; "Open in Hearth" continues the same conversation in the main window. It is a
Qt.Tool window (not Qt.Popup, which grabs input and closes on an outside click) that hides
itself when it loses focus."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QEvent, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QCursor, QGuiApplication, QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.ui import turns
from app.ui.bridge import TurnBridge
from app.ui.chat.message import AssistantMessage
from app.ui.context import UiContext
from app.ui.failures import present, present_error
from app.ui.i18n import Retranslator

WIDTH = 640
MAX_ANSWER_HEIGHT = 420


class QuickAsk(QWidget):
    open_in_main = Signal(str)  # conversation id
    find_files = Signal(str)  # what was typed: search for it in the Files view

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Tool | Qt.WindowType.FramelessWindowHint
                         | Qt.WindowType.WindowStaysOnTopHint)
        self.ctx = ctx
        self.setObjectName("quickAskWindow")
        self.setAttribute(Qt.WidgetAttribute.WA_TranslucentBackground)
        self.setAttribute(Qt.WidgetAttribute.WA_MacAlwaysShowToolWindow)
        self._tr = Retranslator(self)
        self._tr(lambda: self.setWindowTitle(self.tr("Quick ask — Hearth")))
        self.conversation_id: str | None = None
        self.handle: Any = None
        self.bridge: TurnBridge | None = None
        self.answer: AssistantMessage | None = None
        self._was_active = False
        self._old: list[tuple[TurnBridge, Any]] = []
        self._fit_timer = QTimer(self)
        self._fit_timer.setInterval(100)  # grow with the streaming answer, ~10 times a second
        self._fit_timer.timeout.connect(self.fit)
        self._build()
        self.setFixedWidth(WIDTH)
        QShortcut(QKeySequence(Qt.Key.Key_Escape), self, self.dismiss)

    def _build(self) -> None:
        outer = QVBoxLayout(self)
        outer.setContentsMargins(8, 8, 8, 8)
        self.frame = QFrame()
        self.frame.setObjectName("quickAsk")
        outer.addWidget(self.frame)
        column = QVBoxLayout(self.frame)
        column.setContentsMargins(16, 10, 16, 12)
        column.setSpacing(6)
        row = QHBoxLayout()
        mark = QLabel("✦")
        mark.setObjectName("dim")
        mark.setAccessibleName("Hearth")
        self.input = QLineEdit()
        self._tr(lambda: self.input.setPlaceholderText(self.tr("Ask Hearth…")), key="placeholder")
        self._tr(lambda: self.input.setAccessibleName(self.tr("Quick question")))
        font = self.input.font()
        font.setPointSizeF(font.pointSizeF() * 1.25)
        self.input.setFont(font)
        self.input.returnPressed.connect(self.ask)
        row.addWidget(mark)
        row.addWidget(self.input, 1)
        column.addLayout(row)
        self.scroll_area = QScrollArea()
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.scroll_area.setMaximumHeight(MAX_ANSWER_HEIGHT)
        self.scroll_area.hide()
        column.addWidget(self.scroll_area)
        self.footer = QWidget()
        foot = QHBoxLayout(self.footer)
        foot.setContentsMargins(0, 0, 0, 0)
        hint = QLabel()
        self._tr(lambda: hint.setText(self.tr("Enter to ask · Esc to close")))
        hint.setObjectName("hint")
        self.open_button = QPushButton()
        self._tr(lambda: self.open_button.setText(self.tr("Open in Hearth")))
        self.open_button.clicked.connect(self._open_in_main)
        self.open_button.setEnabled(False)
        self.stop_button = QPushButton()
        self._tr(lambda: self.stop_button.setText(self.tr("Stop")))
        self.stop_button.clicked.connect(self.stop)
        self.stop_button.hide()
        self.files_button = QPushButton()
        self._tr(lambda: self.files_button.setText(self.tr("Find files")))
        self._tr(lambda: self.files_button.setToolTip(self.tr("Search your files for what you "
                                                              "typed, without asking the model")))
        self.files_button.clicked.connect(self._find_files)
        foot.addWidget(hint)
        foot.addStretch(1)
        foot.addWidget(self.files_button)
        foot.addWidget(self.stop_button)
        foot.addWidget(self.open_button)
        column.addWidget(self.footer)

    # -- showing ------------------------------------------------------------------------------
    def summon(self) -> None:
        """Show on the screen under the cursor (centred where the cursor cannot be read)."""
        screen = QGuiApplication.screenAt(QCursor.pos()) or QGuiApplication.primaryScreen()
        area = screen.availableGeometry()
        self.adjustSize()
        x = area.x() + (area.width() - self.width()) // 2
        y = area.y() + area.height() // 4
        self.move(QPoint(x, y))
        self.show()
        self.raise_()
        self.activateWindow()
        self.input.setFocus()
        self.input.selectAll()

    def toggle(self) -> None:
        if self.isVisible():
            self.dismiss()
        else:
            self.summon()

    def dismiss(self) -> None:
        self._was_active = False
        self.hide()

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        # Hide when the user clicks elsewhere, as a launcher does; only after we had focus,
        # so a window manager that never activates us cannot make the box vanish at once.
        if event.type() == QEvent.Type.ActivationChange:
            if self.isActiveWindow():
                self._was_active = True
            elif self._was_active and self.isVisible():
                self.dismiss()
        super().changeEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:  # noqa: N802
        if event.key() == Qt.Key.Key_Escape:
            self.dismiss()
            return
        super().keyPressEvent(event)

    # -- asking -------------------------------------------------------------------------------
    def ask(self) -> None:
        text = self.input.text().strip()
        if not text or self.bridge is not None:
            return
        for old in [o for o in self._old if o[1] is None or o[1].done]:
            self._old.remove(old)
            old[0].deleteLater()
        self.input.clear()
        self._tr(lambda: self.input.setPlaceholderText(text), key="placeholder")  # the last one
        self.answer = AssistantMessage(dark=self.ctx.dark)
        self.answer._layout.setContentsMargins(0, 0, 0, 0)
        self.scroll_area.setWidget(self.answer)
        self.scroll_area.show()
        self.bridge = bridge = TurnBridge(self)
        answer = self.answer
        bridge.reasoning.connect(answer.add_reasoning)
        bridge.text.connect(answer.add_text)
        bridge.tool_started.connect(lambda e: answer.add_tool(e.call_id, e.name, e.arguments))
        bridge.tool_finished.connect(
            lambda e: answer.finish_tool(e.call_id, e.name, e.ok, e.text, e.data))
        bridge.confirmation.connect(lambda e: answer.card_for(
            e.request.call_id, e.request.name).ask(e.request))
        bridge.sources.connect(answer.set_sources)
        bridge.started.connect(self._started)
        bridge.done.connect(lambda e: self._finished(
            "", self.tr("Stopped.") if getattr(e, "finish_reason", "") == "cancelled" else ""))
        bridge.failed.connect(lambda e: self._finished(present(e.kind, e.message).text))
        self.stop_button.show()
        self._fit_timer.start()
        ctx, cid = self.ctx, self.conversation_id
        thinking = bool(self.ctx.hearth.settings.thinking_default)
        self.ctx.ops.run(lambda: turns.send(ctx.assistant(), cid, text, thinking, bridge.post,
                                            kind="quick"),
                         self._got_handle, lambda e: self._finished(present_error(e).text))

    def _got_handle(self, handle: Any) -> None:
        self.handle = handle
        self.conversation_id = str(handle.conversation_id)
        self.open_button.setEnabled(True)

    def _started(self, event: Any) -> None:
        self.conversation_id = str(event.conversation_id)
        self.open_button.setEnabled(True)

    def stop(self) -> None:
        if self.handle is not None:
            self.handle.cancel()

    def _finished(self, error: str, note: str = "") -> None:
        if self.answer is not None:
            self.answer.finish(note=("⚠ " + error) if error else note)
            self.answer.regenerate_button.hide()
        if self.bridge is not None:
            # Deleted only once the turn thread is done: it may still post (the title).
            self._old.append((self.bridge, self.handle))
        self.bridge = None
        self.handle = None
        self.stop_button.hide()
        self._fit_timer.stop()
        QTimer.singleShot(0, self, self.fit)

    def fit(self) -> None:
        """Size the answer area to its content (up to a limit, then it scrolls)."""
        if self.answer is None:
            return
        self.answer.adjustSize()
        height = min(MAX_ANSWER_HEIGHT, self.answer.sizeHint().height() + 6)
        if height != self.scroll_area.height():
            self.scroll_area.setFixedHeight(height)
        for layout in (self.frame.layout(), self.layout()):
            if layout is not None:
                layout.activate()  # apply the new height now, not on the next event
        self.resize(WIDTH, self.sizeHint().height())

    @property
    def streaming(self) -> bool:
        return self.bridge is not None

    def _find_files(self) -> None:
        self.find_files.emit(self.input.text().strip())
        self.dismiss()

    def _open_in_main(self) -> None:
        if self.conversation_id:
            self.open_in_main.emit(self.conversation_id)
            self.dismiss()
