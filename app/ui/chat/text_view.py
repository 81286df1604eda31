"""A read-only rich-text view that grows to fit its text and streams Markdown cheaply.

Updates are coalesced: `set_markdown` only marks the text dirty and a single-shot ~60 ms timer
renders it, so a model producing hundreds of tokens per second costs at most ~16 renders a
second. When a render gets slow (very long answers) the interval stretches to keep the GUI
thread mostly idle."""

from __future__ import annotations

import time

from PySide6.QtCore import QObject, QSize, Qt, QTimer, QUrl, Signal
from PySide6.QtGui import QGuiApplication, QResizeEvent, QTextOption
from PySide6.QtWidgets import QFrame, QSizePolicy, QTextBrowser, QWidget

from app.ui import markdown

COALESCE_MS = 60


class MessageText(QTextBrowser):
    """One message's text: selectable by mouse and keyboard, links for copy:N and cite:N."""

    cite_clicked = Signal(int)
    link_clicked = Signal(QUrl)

    def __init__(self, parent: QWidget | None = None, dark: bool = False) -> None:
        super().__init__(parent)
        self.setObjectName("messageText")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setOpenLinks(False)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Fixed)
        self.setWordWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self.setTextInteractionFlags(
            Qt.TextInteractionFlag.TextSelectableByMouse
            | Qt.TextInteractionFlag.TextSelectableByKeyboard
            | Qt.TextInteractionFlag.LinksAccessibleByKeyboard
            | Qt.TextInteractionFlag.LinksAccessibleByMouse
        )
        self.setTabChangesFocus(True)
        self.document().setDocumentMargin(2)
        self.document().contentsChanged.connect(self._fit)
        self.anchorClicked.connect(self._on_anchor)
        self._dark = dark
        self._source = ""
        self._code: list[str] = []
        self._dirty = False
        self._interval = COALESCE_MS
        self.last_render_ms = 0.0
        self._timer = QTimer(self, singleShot=True)
        self._timer.timeout.connect(self.flush)
        self.document().setDefaultStyleSheet(markdown.table_css(dark))

    # -- content ------------------------------------------------------------------------------
    def set_markdown(self, text: str, now: bool = False, later: bool = False) -> None:
        """Show `text` as Markdown: on the next coalescing tick, at once (now), or when the
        owner calls flush() (later)."""
        self._source = text
        self._dirty = True
        if now:
            self.flush()
        elif later:
            self._timer.stop()
        elif not self._timer.isActive():
            self._timer.start(self._interval)

    def flush(self) -> None:
        """Render pending text now (end of a stream, theme change)."""
        self._timer.stop()
        if not self._dirty:
            return
        started = time.perf_counter()
        if markdown.loading():  # the window has just opened: text as it is, Markdown soon
            self._show(markdown.plain(self._source))
            self._timer.start(COALESCE_MS)  # still dirty: rendered once the libraries are in
            return
        self._dirty = False
        self._show(markdown.render(self._source, self._dark, self.tr("Copy")))
        self.last_render_ms = (time.perf_counter() - started) * 1000
        # Keep rendering at most ~1/4 of the time: slow renders stretch the interval.
        self._interval = max(COALESCE_MS, int(self.last_render_ms * 4))

    def _show(self, rendered: markdown.Rendered) -> None:
        self._code = rendered.code_blocks
        # One fit after the new text, not one per internal change while Qt rebuilds it.
        document = self.document()
        document.blockSignals(True)
        self.setHtml(rendered.html)
        document.blockSignals(False)
        self._fit()

    @property
    def pending(self) -> bool:
        return self._dirty

    # -- size ---------------------------------------------------------------------------------
    def _fit(self) -> None:
        width = self.viewport().width()
        document = self.document()
        if document.textWidth() != width:  # re-wrapping is the costly part: only when needed
            document.setTextWidth(width)
        height = int(document.size().height()) + 4
        if height != self.height():
            self.setFixedHeight(height)

    def resizeEvent(self, event: QResizeEvent) -> None:  # noqa: N802 - Qt override
        super().resizeEvent(event)
        # Our own setFixedHeight lands here too; only a new width changes the wrapping.
        if event.size().width() != event.oldSize().width():
            self._fit()

    def sizeHint(self) -> QSize:  # noqa: N802 - Qt override
        return QSize(400, self.height())

    # -- links --------------------------------------------------------------------------------
    def _on_anchor(self, url: QUrl) -> None:
        scheme = url.scheme()
        if scheme == "copy":
            index = int(url.path() or 0)
            if 0 <= index < len(self._code):
                QGuiApplication.clipboard().setText(self._code[index])
        elif scheme == "cite":
            self.cite_clicked.emit(int(url.path() or 0))
        else:
            self.link_clicked.emit(url)


class RenderQueue(QObject):
    """Renders finished text views a few at a time, one batch per event-loop pass.

    Shared by every message of a view, so opening a long conversation (dozens of messages,
    each with parts to render) never renders them all in one go."""

    BUDGET_S = 0.008

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._views: list[MessageText] = []
        self._timer = QTimer(self, singleShot=True, interval=0)
        self._timer.timeout.connect(self._run)

    def add(self, view: MessageText) -> None:
        self._views.append(view)
        view.destroyed.connect(lambda _o=None, v=view: self._forget(v))
        self._timer.start()

    def _forget(self, view: MessageText) -> None:
        if view in self._views:
            self._views.remove(view)

    def _run(self) -> None:
        started = time.perf_counter()
        while self._views and time.perf_counter() - started < self.BUDGET_S:
            self._views.pop(0).flush()
        if self._views:
            self._timer.start()

    @property
    def pending(self) -> int:
        return len(self._views)
