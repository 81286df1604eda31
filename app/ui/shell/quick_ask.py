"""Quick ask: a small frameless box near the cursor; Enter streams the answer in place.

Esc hides it; "Open in Hearth" continues the same conversation in the main window. It is a
Qt.Tool window (not Qt.Popup, which grabs input and closes on an outside click) that hides
itself when it loses focus."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.core.events import TurnStarted

if TYPE_CHECKING:
    from app.core.assistant import TurnHandle

from PySide6.QtCore import QEvent, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import (
    QCursor,
    QGuiApplication,
    QKeyEvent,
    QKeySequence,
    QPainter,
    QPaintEvent,
    QResizeEvent,
    QShortcut,
)
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
from app.ui.chat.live_answer import LiveAnswer
from app.ui.chat.message import AssistantMessage
from app.ui.context import UiContext
from app.ui.i18n import Retranslator

WIDTH = 640
MAX_ANSWER_HEIGHT = 420


class QuickAsk(QWidget):
    open_in_main = Signal(str)  # conversation id
    take_over = Signal(object)  # LiveAnswer: the main window goes on showing it
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
        self._composited: bool | None = None  # known once shown (X11: asked of the server)
        self.live: LiveAnswer | None = None
        self.answer: AssistantMessage | None = None
        self._was_active = False
        self._old: list[LiveAnswer] = []
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
        self._fit_desktop()
        self.raise_()
        self.activateWindow()
        self.input.setFocus()
        self.input.selectAll()

    def _fit_desktop(self) -> None:
        """X11: no taskbar button of its own, and without a compositor the see-through margin
        (black there) is cut away with a rounded mask."""
        from app.ui.shell.x11_window import composited, skip_taskbar

        if QGuiApplication.platformName() != "xcb":
            return
        skip_taskbar(int(self.winId()))
        if self._composited is None:
            self._composited = composited()
        self._mask_corners()

    def _mask_corners(self) -> None:
        if self._composited is not False:
            return
        from PySide6.QtGui import QPainterPath, QRegion

        path = QPainterPath()
        path.addRoundedRect(self.frame.geometry().toRectF(), 14, 14)
        self.setMask(QRegion(path.toFillPolygon().toPolygon()))

    def paintEvent(self, event: QPaintEvent) -> None:  # noqa: N802
        # Without a compositor the see-through margin is black: what the rounded mask keeps of
        # it (the soft edge of the frame's border) must lie on the window colour, not on black.
        if self._composited is False:
            painter = QPainter(self)
            painter.fillRect(self.rect(), self.palette().window())
            painter.end()  # before the frame paints over it
        super().paintEvent(event)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._mask_corners()

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
        if not text or self.live is not None:
            return
        for old in [o for o in self._old if o.thread_done]:
            self._old.remove(old)
            old.deleteLater()
        self.input.clear()
        self._tr(lambda: self.input.setPlaceholderText(text), key="placeholder")  # the last one
        self.answer = AssistantMessage(dark=self.ctx.dark)
        self.answer._layout.setContentsMargins(0, 0, 0, 0)
        self.answer.regenerate_button.hide()
        self.scroll_area.setWidget(self.answer)
        self.scroll_area.show()
        thinking = bool(self.ctx.hearth.settings.thinking_default)
        self.live = live = LiveAnswer(self.answer, self.conversation_id, thinking, self)
        live.started.connect(self._started)
        live.finished.connect(lambda _figures: self._finished())
        self.stop_button.show()
        self._fit_timer.start()
        cid = self.conversation_id
        live.start(self.ctx.ops, self.ctx.assistant,
                   lambda a, post: self._begun(turns.send(a, cid, text, thinking, post,
                                                          kind="quick")))

    def _begun(self, handle: TurnHandle) -> TurnHandle:
        self.conversation_id = handle.conversation_id
        self.open_button.setEnabled(True)
        return handle

    @property
    def handle(self) -> TurnHandle | None:
        return self.live.handle if self.live is not None else None

    def _started(self, event: TurnStarted) -> None:
        self.conversation_id = event.conversation_id
        self.open_button.setEnabled(True)

    def stop(self) -> None:
        if self.live is not None:
            self.live.stop()

    def _finished(self) -> None:
        if self.answer is not None:
            self.answer.regenerate_button.hide()
        if self.live is not None:
            # Deleted only once the turn thread is done: it may still post (the title).
            self._old.append(self.live)
        self.live = None
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
        return self.live is not None

    def _find_files(self) -> None:
        self.find_files.emit(self.input.text().strip())
        self.dismiss()

    def _open_in_main(self) -> None:
        """Continue in the main window; an answer still being written goes on there, live."""
        live = self.live
        if live is not None and self.answer is not None:
            live.release()
            self.scroll_area.takeWidget()  # the widget moves with the answer
            self.answer.regenerate_button.show()
            self.live, self.answer = None, None
            self.stop_button.hide()
            self._fit_timer.stop()
            self.scroll_area.hide()
            self.take_over.emit(live)
            self.dismiss()
        elif self.conversation_id:
            self.open_in_main.emit(self.conversation_id)
            self.dismiss()
