"""Stored messages -> widgets: a user bubble per user message, one assistant widget per turn."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication
from PySide6.QtWidgets import QWidget

from app.core.pastes import is_paste
from app.ui.chat.message import AssistantMessage, SummaryMarker, UserMessage
from app.ui.chat.text_view import RenderQueue

if TYPE_CHECKING:
    from app.core.history import HistoryStore
    from app.core.history.records import StoredMessage
    from skills.base import Source

_NOTES = {
    "interrupted": str(QT_TRANSLATE_NOOP("History", "The app closed before this answer finished.")),
    "cancelled": str(QT_TRANSLATE_NOOP("History", "Stopped.")),
    "error": str(QT_TRANSLATE_NOOP("History", "This answer failed.")),
}


# Stored with a message when Hearth cut the model short (app/core/assistant/turn.py).
NOTICES = {
    "thinking_cut": str(QT_TRANSLATE_NOOP("History", "Thinking was cut short.")),
    "answer_loop": str(QT_TRANSLATE_NOOP(
        "History", "The answer was stopped because it kept repeating itself.")),
    "tool_loop": str(QT_TRANSLATE_NOOP(
        "History", "Stopped: the same tool call kept repeating.")),
}


def notice_text(notice: str, texts: dict[str, str] = NOTICES) -> str:
    """The translated words for a stored notice ("" for none or an unknown one); with
    `texts` the answer statuses' notes, for a status."""
    text = texts.get(notice, "")
    return QCoreApplication.translate("History", text) if text else ""


def _source(raw: object) -> Source:
    """Sources come back from the store as dicts; the widgets read a Source."""
    from skills.base import Source  # with the history: not before the window

    if isinstance(raw, Source):
        return raw
    found = raw if isinstance(raw, dict) else {}
    return Source(citation=int(found.get("citation", 0)), document=found.get("document", ""),
                  title=found.get("title", ""), location=found.get("location", ""),
                  page=found.get("page"), text=found.get("text", ""))


def _add_assistant(widget: AssistantMessage, message: StoredMessage) -> None:
    if message.reasoning:
        widget.add_reasoning(message.reasoning)
    if message.content:
        widget.add_text(message.content)
    for call in message.tool_calls or []:
        widget.add_tool(str(call.get("id", "")), str(call.get("name", "")),
                        dict(call.get("arguments") or {}))
    if message.sources:
        widget.set_sources(widget.sources + [_source(s) for s in message.sources])
    widget.add_notice(notice_text(getattr(message, "notice", "")))
    widget.message_id = message.id


Group = tuple[str, list["StoredMessage"]]  # ("user" | "summary", [message]) or ("assistant", [...])


def group_messages(stored: list[StoredMessage]) -> list[Group]:
    """Consecutive assistant and tool messages (one tool-using turn) form one group.

    A summary is stored when it is made (mid-turn) but shown where it applies: above the
    first message it did not summarize, as the live chat shows it. Pure data, so it runs on
    the worker that read the messages."""
    groups: list[Group] = []
    summaries = []
    for message in stored:
        if message.role == "user":
            groups.append(("user", [message]))
        elif getattr(message, "summary_of", 0):
            summaries.append(message)
        elif message.role in ("assistant", "tool"):
            if groups and groups[-1][0] == "assistant":
                groups[-1][1].append(message)
            else:
                groups.append(("assistant", [message]))
    # The model reads only the newest summary (it covers the older ones): one marker, there.
    for summary in summaries[-1:]:
        at = next((i for i, (_kind, messages) in enumerate(groups)
                   if getattr(messages[0], "seq", 0) > summary.summary_of), len(groups))
        groups.insert(at, ("summary", [summary]))
    return groups


def build_widget(group: Group, dark: bool, renders: RenderQueue | None = None) -> QWidget:
    """One message widget; its Markdown renders later through `renders` when given."""
    kind, messages = group
    if kind == "user":
        user = UserMessage(messages[0].content, messages[0].id, dark=dark)
        pasted = next((p for p in messages[0].attachments or [] if is_paste(p)), None)
        if pasted is not None:
            user.show_attached(Path(pasted).name)
        return user
    if kind == "summary":
        return SummaryMarker(messages[0].content)
    widget = AssistantMessage(dark=dark, renders=renders)
    status = ""
    for message in messages:
        if message.role == "assistant":
            _add_assistant(widget, message)
            status = message.status
        else:
            ok = message.tool_ok if message.tool_ok is not None else True
            card = dict(getattr(message, "card", None) or {})
            widget.finish_tool(message.tool_call_id, message.tool_name, ok, message.content,
                               card.get("data"), card)
    widget.finish(note=notice_text(status, _NOTES), deferred=renders is not None)
    return widget


def remember_card(history: HistoryStore, conversation_id: str, call_id: str,
                  state: dict[str, object]) -> None:
    """Store a tool card's new state (undone) with its result, so a reopened chat shows it.
    Blocks on the disk: run it on a worker."""
    for message in history.messages(conversation_id):
        if message.role == "tool" and message.tool_call_id == call_id:
            history.update_message(message.id, card={**(message.card or {}), **state})
            return
