"""The one bridge from core events (raised on worker threads) to Qt signals on the GUI thread."""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import QObject, Qt, Signal, Slot


class TurnBridge(QObject):
    """Pass `bridge.post` as the assistant's on_event; connect to the typed signals below.

    post() may be called from any thread: the raw signal is queued to this object's thread (the
    GUI thread), where events are sorted by their class name. Matching by name keeps the UI
    working with the real core events and with test doubles that speak the same shapes."""

    raw = Signal(object)
    started = Signal(object)
    queued = Signal(int)
    reasoning = Signal(str)
    text = Signal(str)
    tool_started = Signal(object)
    confirmation = Signal(object)
    tool_finished = Signal(object)
    sources = Signal(object)
    done = Signal(object)
    failed = Signal(object)
    title_changed = Signal(str, str)

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        # Queued explicitly: even an event posted from the GUI thread is handled after the
        # current call returns, so handlers never re-enter the assistant.
        self.raw.connect(self._dispatch, Qt.ConnectionType.QueuedConnection)

    def post(self, event: Any) -> None:
        """Thread-safe; a bridge already deleted (window closed mid-turn) drops the event."""
        try:
            self.raw.emit(event)
        except RuntimeError:
            pass

    @Slot(object)
    def _dispatch(self, event: Any) -> None:
        kind = type(event).__name__
        if kind == "ReasoningDelta":
            self.reasoning.emit(event.text)
        elif kind == "TextDelta":
            self.text.emit(event.text)
        elif kind == "TurnStarted":
            self.started.emit(event)
        elif kind == "Queued":
            self.queued.emit(int(getattr(event, "position", 0)))
        elif kind == "ToolStarted":
            self.tool_started.emit(event)
        elif kind == "ConfirmationNeeded":
            self.confirmation.emit(event)
        elif kind == "ToolFinished":
            self.tool_finished.emit(event)
        elif kind == "SourcesFound":
            self.sources.emit(list(getattr(event, "sources", [])))
        elif kind == "TurnDone":
            self.done.emit(event)
        elif kind == "TurnFailed":
            self.failed.emit(event)
        elif kind == "TitleChanged":
            self.title_changed.emit(str(event.conversation_id), str(event.title))
