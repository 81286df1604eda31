"""Starting turns on the core Assistant: send, regenerate, edit-and-resend, one place.

Runs on a background-ops worker (the assistant writes the user message to disk before it
returns its handle), never on the GUI thread."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


def _mode(thinking: bool, kind: str = "chat") -> Any:
    from app.core.assistant import TurnMode

    return TurnMode(thinking=thinking, kind=kind)  # type: ignore[arg-type]


def send(assistant: Any, conversation_id: str | None, text: str, thinking: bool,
         on_event: Callable[[Any], None], attachments: list[str] | None = None,
         kind: str = "chat") -> Any:
    """kind "quick" (the quick-ask box) gets its own thinking budget."""
    return assistant.send(conversation_id, text, attachments=attachments or None,
                          mode=_mode(thinking, kind), on_event=on_event, confirm="ask")


def regenerate(assistant: Any, conversation_id: str, thinking: bool,
               on_event: Callable[[Any], None]) -> Any:
    return assistant.regenerate(conversation_id, mode=_mode(thinking), on_event=on_event,
                                confirm="ask")


def edit_and_resend(assistant: Any, conversation_id: str, message_id: Any, text: str,
                    thinking: bool, on_event: Callable[[Any], None]) -> Any:
    return assistant.edit_and_resend(conversation_id, message_id, text, mode=_mode(thinking),
                                     on_event=on_event, confirm="ask")
