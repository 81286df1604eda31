"""The message box: Enter sends, Shift+Enter breaks the line; Think switch; Send/Stop; drops."""

from __future__ import annotations

import html
from pathlib import Path

from PySide6.QtCore import QT_TRANSLATE_NOOP, QEvent, QObject, Qt, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QKeyEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from app.ui.file_actions import pick_documents
from app.ui.i18n import Retranslator
from app.ui.widgets import button, dim_label, hbox, in_help

ATTACHMENT_ICON = Path(__file__).resolve().parents[3] / "resources" / "icons" / "attachment.svg"


def accept_as_copy(event: QDropEvent | QDragEnterEvent) -> None:
    """Take dropped files as a copy (or a link), never as a move: after a move the file
    manager deletes the original, and Hearth only reads it."""
    for action in (Qt.DropAction.CopyAction, Qt.DropAction.LinkAction):
        if event.possibleActions() & action:
            event.setDropAction(action)
            event.accept()
            return
    event.ignore()


def dropped_paths(event: QDropEvent | QDragEnterEvent) -> list[str]:
    mime = event.mimeData()
    if not mime.hasUrls():
        return []
    return [u.toLocalFile() for u in mime.urls() if u.isLocalFile() and u.toLocalFile()]


class Composer(QFrame):
    """Emits `submitted(text, think)`; while an answer streams the button becomes Stop."""

    submitted = Signal(str, bool)
    stop_requested = Signal()
    files_dropped = Signal(list)
    edit_cancelled = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("composer")
        self.setAcceptDrops(True)
        self._streaming = False
        self._tr = Retranslator(self)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setSpacing(4)
        self.edit_label = dim_label(wrap=False)
        self.edit_label.hide()
        layout.addWidget(self.edit_label)
        self.files_label = dim_label()
        self.files_label.setTextFormat(Qt.TextFormat.RichText)
        self.files_label.hide()
        layout.addWidget(self.files_label)
        self.input = QPlainTextEdit()
        self.input.setObjectName("prompt")
        self._tr(lambda: self.input.setPlaceholderText(self.tr("Ask anything, or drop files "
                                                               "here…")))
        self._tr(lambda: self.input.setAccessibleName(self.tr("Message")))
        self.input.setTabChangesFocus(True)  # Tab must leave the prompt (screen-reader users)
        self.input.setFixedHeight(self.input.fontMetrics().lineSpacing() * 3 + 16)
        self.input.installEventFilter(self)
        self.input.setAcceptDrops(False)  # drops land on the frame, which indexes them
        layout.addWidget(self.input)
        layout.addLayout(self._build_bar())
        in_help(QShortcut(QKeySequence("Ctrl+T"), self, self.think.toggle),
                QT_TRANSLATE_NOOP("HelpMenu", "Think before answering, on or off"))
        # Texts that follow state: Send/Stop, ✓ Think, the editing line.
        self._tr(lambda: self.set_streaming(self._streaming))
        self._tr(lambda: self._update_think(self.think.isChecked()))
        self._tr(lambda: self.edit_label.setText(self.tr("Editing your message — Enter resends, "
                                                         "Esc cancels")))

    def _build_bar(self) -> QHBoxLayout:
        self.attach = QToolButton()
        self._tr(lambda: self.attach.setText("＋ " + self.tr("Files")))
        self._tr(lambda: self.attach.setAccessibleName(self.tr("Add files")))
        self._tr(lambda: self.attach.setToolTip(self.tr("Add files to this chat so you can ask "
                                                        "about them")))
        self.attach.clicked.connect(self._pick_files)
        self.think = QToolButton()
        self.think.setCheckable(True)
        self._tr(lambda: self.think.setAccessibleName(self.tr("Think before answering")))
        self._chosen_think: bool | None = None  # the person's choice while a chat locks it
        self._think_tip()
        self.think.toggled.connect(self._update_think)
        self.send_button = button("", self._on_button)
        self.send_button.setObjectName("primary")
        self.hint = QLabel()
        self._tr(lambda: self.hint.setText(self.tr("Enter to send · Shift+Enter for a new "
                                                   "line")))
        self.hint.setObjectName("hint")
        bar = hbox(self.attach, self.think, None, self.hint, self.send_button)
        bar.setSpacing(6)
        return bar

    # -- state --------------------------------------------------------------------------------
    def set_streaming(self, streaming: bool) -> None:
        self._streaming = streaming
        self.send_button.setText(self.tr("Stop") if streaming else self.tr("Send"))
        self.send_button.setAccessibleName(self.send_button.text())
        self.send_button.setObjectName("danger" if streaming else "primary")
        # Restyled for its new name once Qt has styled it; before its first show (the window's
        # build) Qt styles it anyway, and asking for the style object there would make PySide6
        # create QStyle's enum classes ahead of the first frame.
        if self.send_button.testAttribute(Qt.WidgetAttribute.WA_WState_Polished):
            self.send_button.style().polish(self.send_button)

    def set_editing(self, text: str | None) -> None:
        """Edit-and-resend mode: the old text is in the box until sent or Esc."""
        editing = text is not None
        self.edit_label.setVisible(editing)
        if editing:
            self.input.setPlainText(text or "")
            self.input.setFocus()

    def set_attachments(self, paths: list[str]) -> None:
        names = [html.escape(Path(p).name) for p in paths]
        icon = f'<img src="{ATTACHMENT_ICON.as_posix()}" width="14" height="14"> '
        self.files_label.setText(icon + ", ".join(names) if names else "")
        self.files_label.setVisible(bool(names))

    @property
    def editing(self) -> bool:
        return self.edit_label.isVisible()

    def _think_tip(self) -> None:
        self._tr(lambda: self.think.setToolTip(self.tr("Think step by step before answering "
                                                       "(slower, better for hard questions)  "
                                                       "Ctrl+T")), key="think_tip")

    def lock_think(self, on: bool) -> None:
        """A chat about spreadsheets always thinks (the turn runs in office mode): the toggle
        shows that, and gives the person's own choice back in other chats."""
        if on and self._chosen_think is None:
            self._chosen_think = self.think.isChecked()
            self.think.setChecked(True)
            self.think.setEnabled(False)
            self._tr(lambda: self.think.setToolTip(self.tr(
                "Chats about spreadsheets always think: the model works through the figures "
                "step by step.")), key="think_tip")
        elif not on and self._chosen_think is not None:
            self.think.setEnabled(True)
            self.think.setChecked(self._chosen_think)
            self._chosen_think = None
            self._think_tip()

    def _update_think(self, on: bool) -> None:
        self.think.setText(("✓ " if on else "") + self.tr("Think"))

    # -- input --------------------------------------------------------------------------------
    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802
        if watched is self.input and isinstance(event, QKeyEvent):
            key = event
            if event.type() != QEvent.Type.KeyPress:
                return False
            if key.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and not (
                key.modifiers() & Qt.KeyboardModifier.ShiftModifier
            ):
                if not self._streaming:  # Enter never stops an answer by accident
                    self._on_button()
                return True
            if key.key() == Qt.Key.Key_Escape and self.editing:
                self.set_editing(None)
                self.input.clear()
                self.edit_cancelled.emit()
                return True
        return super().eventFilter(watched, event)

    def _on_button(self) -> None:
        if self._streaming:
            self.stop_requested.emit()
            return
        text = self.input.toPlainText().strip()
        if not text:
            return
        self.input.clear()
        self.submitted.emit(text, self.think.isChecked())

    def _pick_files(self) -> None:
        paths = pick_documents(self, self.tr("Add files"))
        if paths:
            self.files_dropped.emit(paths)

    # -- drag and drop ------------------------------------------------------------------------
    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        if dropped_paths(event):
            self.setProperty("dragging", True)
            self.style().polish(self)
            accept_as_copy(event)

    def dragLeaveEvent(self, event: object) -> None:  # noqa: N802
        self.setProperty("dragging", False)
        self.style().polish(self)

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        self.setProperty("dragging", False)
        self.style().polish(self)
        paths = dropped_paths(event)
        if paths:
            accept_as_copy(event)
            self.files_dropped.emit(paths)
