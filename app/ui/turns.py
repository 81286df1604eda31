"""Starting turns on the core Assistant: send, regenerate, edit-and-resend, one place.

Each returns the turn's handle at once (the turn's thread stores the user's message), so the
GUI thread may call them once it has the assistant (app/ui/chat/live_answer.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from app.core.assistant import Assistant, TurnHandle, TurnMode
    from app.core.events import AssistantEvent

OnEvent = Callable[["AssistantEvent"], None]


def _mode(thinking: bool, kind: Literal["chat", "quick"] = "chat") -> TurnMode:
    from app.core.assistant import TurnMode  # loaded after the window is shown

    return TurnMode(thinking=thinking, kind=kind)


def send(assistant: Assistant, conversation_id: str | None, text: str, thinking: bool,
         on_event: OnEvent, attachments: list[str] | None = None,
         kind: Literal["chat", "quick"] = "chat") -> TurnHandle:
    """kind "quick" (the quick-ask box) gets its own thinking budget."""
    return assistant.send(conversation_id, text, attachments=attachments or None,
                          mode=_mode(thinking, kind), on_event=on_event, confirm="ask")


def regenerate(assistant: Assistant, conversation_id: str, thinking: bool,
               on_event: OnEvent, message_id: str | None = None) -> TurnHandle:
    """Answer again the question `message_id` (an answer) replied to; None: the last one."""
    return assistant.regenerate(conversation_id, mode=_mode(thinking), on_event=on_event,
                                confirm="ask", message_id=message_id)


def edit_and_resend(assistant: Assistant, conversation_id: str, message_id: str, text: str,
                    thinking: bool, on_event: OnEvent) -> TurnHandle:
    return assistant.edit_and_resend(conversation_id, message_id, text, mode=_mode(thinking),
                                     on_event=on_event, confirm="ask")
