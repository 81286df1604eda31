"""The one bridge from core events (raised on worker threads) to Qt signals on the GUI thread."""

from __future__ import annotations

import threading
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
        self._lock = threading.Lock()
        self._pending: list[Any] = []
        self._scheduled = False
        # Queued explicitly: even an event posted from the GUI thread is handled after the
        # current call returns, so handlers never re-enter the assistant.
        self.raw.connect(self._drain, Qt.ConnectionType.QueuedConnection)

    def post(self, event: Any) -> None:
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
    def _drain(self, _wake: Any) -> None:
        with self._lock:
            events, self._pending = self._pending, []
            self._scheduled = False
        for kind, event in _merge_deltas(events):
            self._dispatch(kind, event)

    def _dispatch(self, kind: str, event: Any) -> None:
        if kind == "ReasoningDelta":
            self.reasoning.emit(event)
        elif kind == "TextDelta":
            self.text.emit(event)
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


def _merge_deltas(events: list[Any]) -> list[tuple[str, Any]]:
    """Runs of reasoning or text deltas become one string each; everything keeps its order."""
    out: list[tuple[str, Any]] = []
    for event in events:
        kind = type(event).__name__
        if kind in ("ReasoningDelta", "TextDelta"):
            if out and out[-1][0] == kind:
                out[-1] = (kind, out[-1][1] + event.text)
            else:
                out.append((kind, event.text))
        else:
            out.append((kind, event))
    return out
