"""The one bridge from core events (raised on worker threads) to Qt signals on the GUI thread."""

from __future__ import annotations

import threading

from PySide6.QtCore import QObject, Qt, Signal, SignalInstance, Slot

from app.core.events import (
    AssistantEvent,
    ConfirmationNeeded,
    ContextCompacted,
    OutputCut,
    Progress,
    Queued,
    ReasoningDelta,
    SourcesFound,
    TextDelta,
    TitleChanged,
    ToolFinished,
    ToolProgress,
    ToolStarted,
    TurnDone,
    TurnFailed,
    TurnStarted,
    merge_deltas,
)


class TurnBridge(QObject):
    """Pass `bridge.post` as the assistant's on_event; connect to the typed signals below.

    post() may be called from any thread: the raw signal is queued to this object's thread (the
    GUI thread), where each event goes to the signal of its type (app.core.events)."""

    raw = Signal(object)
    started = Signal(object)  # TurnStarted
    queued = Signal(int)
    progress = Signal(object)  # Progress: loading the model, reading the prompt
    reasoning = Signal(str)
    text = Signal(str)
    tool_started = Signal(object)  # ToolStarted
    confirmation = Signal(object)  # ConfirmationNeeded
    tool_finished = Signal(object)  # ToolFinished
    tool_progress = Signal(object)  # ToolProgress
    sources = Signal(object)  # list[Source]
    done = Signal(object)  # TurnDone
    failed = Signal(object)  # TurnFailed
    title_changed = Signal(str, str)
    cut = Signal(object)  # OutputCut: Hearth cut the model short
    compacted = Signal(object)  # ContextCompacted: older messages were summarized

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._lock = threading.Lock()
        self._pending: list[AssistantEvent] = []
        self._scheduled = False
        # Queued explicitly: even an event posted from the GUI thread is handled after the
        # current call returns, so handlers never re-enter the assistant.
        self.raw.connect(self._drain, Qt.ConnectionType.QueuedConnection)
        self._whole: dict[type, SignalInstance] = {
            TurnStarted: self.started, Progress: self.progress, ToolStarted: self.tool_started,
            ConfirmationNeeded: self.confirmation, ToolFinished: self.tool_finished,
            ToolProgress: self.tool_progress, TurnDone: self.done, TurnFailed: self.failed,
            OutputCut: self.cut, ContextCompacted: self.compacted}

    def post(self, event: AssistantEvent) -> None:
        """Thread-safe; a bridge already deleted (window closed mid-turn) drops the event.

        Events wait in a list and one wake-up is queued per batch: a model streaming hundreds
        of tokens a second must not flood the GUI thread with one Qt event per token."""
        with self._lock:
            self._pending.append(event)
            if self._scheduled:
                return
            self._scheduled = True
        try:
            self.raw.emit(None)
        except RuntimeError:
            pass

    @Slot(object)
    def _drain(self, _wake: object) -> None:
        with self._lock:
            events, self._pending = self._pending, []
            self._scheduled = False
        for event in merge_deltas(events):
            self._dispatch(event)

    def _dispatch(self, event: AssistantEvent) -> None:
        match event:
            case ReasoningDelta():
                self.reasoning.emit(event.text)
            case TextDelta():
                self.text.emit(event.text)
            case Queued():
                self.queued.emit(event.position)
            case SourcesFound():
                self.sources.emit(list(event.sources))
            case TitleChanged():
                self.title_changed.emit(event.conversation_id, event.title)
            case _:  # the others travel whole, each on the signal of its type
                signal = self._whole.get(type(event))
                if signal is not None:
                    signal.emit(event)
