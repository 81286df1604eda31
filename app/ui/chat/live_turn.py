"""One answer being produced: its bridge, its widget, its figures; and telling screen readers."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent
from PySide6.QtWidgets import QWidget

from app.ui.bridge import TurnBridge
from app.ui.chat.message import AssistantMessage


@dataclass
class Turn:
    """One answer being produced; `message` is None once the view moved to another chat."""

    bridge: TurnBridge
    message: AssistantMessage | None
    conversation_id: str | None
    thinking: bool
    handle: Any = None
    stop_asked: bool = False
    started: float = field(default_factory=time.perf_counter)
    first_token: float = 0.0
    deltas: int = 0
    compacted: bool = False  # older messages were summarized to fit the context


def turn_stats(turn: Turn, done: Any) -> tuple[str, dict[str, float]]:
    """'12.3 tok/s · 256 tokens' from the engine's figures, else from what the UI counted."""
    usage = dict(getattr(done, "usage", {}) or {})
    timings = dict(getattr(done, "timings", {}) or {})
    tokens = int(usage.get("completion_tokens", 0)) or turn.deltas
    decode_ms = float(timings.get("decode_ms", 0) or 0)
    tps = tokens * 1000 / decode_ms if decode_ms > 0 and tokens > 1 else 0.0
    if not tps and turn.first_token and tokens > 1:  # one token has no speed
        elapsed = time.perf_counter() - turn.first_token
        tps = tokens / elapsed if elapsed > 0 else 0.0
    figures = {"tps": tps, "tokens": float(tokens),
               "prompt_tokens": float(usage.get("prompt_tokens", 0))}
    count = "1 token" if tokens == 1 else f"{tokens} tokens"
    return (f"{tps:.1f} tok/s · {count}" if tps else count) if tokens else "", figures



def announce(widget: QWidget, text: str) -> None:
    """Tell screen readers once, when an answer is complete (never per token)."""
    if QAccessible.isActive():
        event = QAccessibleAnnouncementEvent(widget, text)
        event.setPoliteness(QAccessible.AnnouncementPoliteness.Polite)
        QAccessible.updateAccessibility(event)
