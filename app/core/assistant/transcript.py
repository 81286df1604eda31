"""What the turn loop needs from the history store, and stored messages -> engine messages."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Protocol

from app.core.assistant.context_budget import summary_message
from app.core.pastes import is_paste, model_text
from backends.base import Message

if TYPE_CHECKING:
    from app.core.history.records import Conversation, StoredMessage



class HistoryLike(Protocol):
    """The subset of app.core.history.HistoryStore the assistant uses (tests may fake it)."""

    def create_conversation(self, title: str = "", model: str = "",
                            conversation_id: str | None = None) -> Conversation: ...

    def get_conversation(self, conversation_id: str) -> Conversation | None: ...

    def add_message(self, conversation_id: str, role: str, content: str = "",
                    **fields: object) -> StoredMessage: ...

    def update_message(self, message_id: str, **fields: object) -> None: ...

    def messages(self, conversation_id: str) -> list[StoredMessage]: ...

    def rename(self, conversation_id: str, title: str) -> None: ...

    def needs_title(self, conversation_id: str) -> bool: ...

    def delete_messages_after(self, conversation_id: str, seq: int) -> None: ...

    def keep_alternative(self, conversation_id: str, user_message_id: str) -> int: ...

    def select_alternative(self, conversation_id: str, user_message_id: str,
                           position: int) -> None: ...


def sent_note(created: str) -> str:
    """When the user sent a message, in local time.

    Why not put the clock in the system prompt: the system prompt starts every prompt, so a
    changing time there would invalidate the whole per-conversation KV cache on each turn.
    A note tied to each stored message never changes once written."""
    try:
        moment = datetime.fromisoformat(created).astimezone()
    except ValueError:
        return ""
    return f"\n\n[sent {moment.strftime('%a %Y-%m-%d %H:%M')}]"


INTERRUPTED = ("The tool was interrupted before it returned a result (Hearth stopped while it "
               "ran). Nothing is known about what it did; run it again if it is still needed.")


def engine_messages(stored: list[StoredMessage]) -> list[tuple[int, Message]]:
    """Stored history -> (seq, message) pairs for the model.

    Messages a stored summary stands for are replaced by it (the newest summary wins).
    Every tool call gets a result: a crash while a skill ran can leave a stored call with none,
    and the model would then read a call that was never answered. A synthetic result saying it
    was interrupted (rather than dropping the call) keeps the model honest about what it tried."""
    summary = next((m for m in reversed(stored) if getattr(m, "summary_of", 0)), None)
    out: list[tuple[int, Message]] = []
    if summary is not None:
        out.append((summary.summary_of, summary_message(summary.content)))
        stored = [m for m in stored if m.seq > summary.summary_of]
    waiting: list[Message] = []  # calls of the last assistant message with no result yet
    seq = 0
    for message in stored:
        converted = _convert(message)
        if converted is None:
            continue
        if converted["role"] == "tool":
            answered = converted.get("tool_call_id")
            waiting = [call for call in waiting if call["id"] != answered]
        else:
            out += _interrupted(waiting, seq)
            waiting = list(converted.get("tool_calls", []))
        seq = message.seq
        out.append((seq, converted))
    return out + _interrupted(waiting, seq)


def _interrupted(calls: list[Message], seq: int) -> list[tuple[int, Message]]:
    return [(seq, {"role": "tool", "content": INTERRUPTED, "tool_call_id": call["id"],
                   "name": call["function"]["name"]}) for call in calls]


def _convert(message: StoredMessage) -> Message | None:
    if message.role == "user":
        # A message kept whole as a file (app.core.pastes) reaches the model as an excerpt.
        pasted = next((p for p in message.attachments if is_paste(p)), None)
        body = message.content if pasted is None else model_text(message.content, pasted)
        others = [p for p in message.attachments if p != pasted]
        text = body + _attachments_note(others)
        return {"role": "user", "content": text + sent_note(message.created)}
    if message.role == "tool":
        return {"role": "tool", "content": message.content,
                "tool_call_id": message.tool_call_id, "name": message.tool_name}
    if message.role != "assistant":
        return None  # system prompts are rebuilt for every turn, never replayed
    if not message.content and not message.tool_calls and message.status != "complete":
        return None  # an empty reply that was cancelled or failed says nothing to the model
    out: Message = {"role": "assistant", "content": message.content}
    if message.reasoning:
        out["reasoning_content"] = message.reasoning
    if message.tool_calls:
        out["tool_calls"] = [
            {"id": call.get("id", ""), "type": "function",
             "function": {"name": call.get("name", ""), "arguments": call.get("arguments", {})}}
            for call in message.tool_calls
        ]
    return out


def _attachments_note(files: list[str]) -> str:
    """Attached files are named in the prompt so the model can read them with its tools."""
    if not files:
        return ""
    return "\n\nAttached files:\n" + "\n".join(f"- {path}" for path in files)
