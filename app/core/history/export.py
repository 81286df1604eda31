"""Conversations rendered for people (Markdown) and for programs (JSON-ready dicts)."""

from __future__ import annotations

import json
import re
from dataclasses import asdict
from typing import Any

from app.core.history.records import UNTITLED, Conversation, StoredMessage

_SPEAKERS = {"system": "System", "user": "You", "assistant": "Hearth", "tool": "Tool"}


def conversation_json(conversation: Conversation, messages: list[StoredMessage]) -> dict[str, Any]:
    return {**asdict(conversation), "messages": [asdict(m) for m in messages]}


def conversation_markdown(conversation: Conversation, messages: list[StoredMessage]) -> str:
    lines = [f"# {conversation.title or UNTITLED}", ""]
    meta = f"Started {conversation.created}"
    if conversation.model:
        meta += f" · {conversation.model}"
    lines += [f"_{meta}_", ""]
    for message in messages:
        lines += _message_markdown(message)
    return "\n".join(lines).rstrip() + "\n"


def _message_markdown(message: StoredMessage) -> list[str]:
    heading = _SPEAKERS.get(message.role, message.role)
    if message.role == "tool":
        outcome = {True: "ok", False: "failed", None: ""}[message.tool_ok]
        heading = f"Tool result: {message.tool_name}" + (f" ({outcome})" if outcome else "")
    if message.summary_of:
        heading = f"Earlier messages summarized (up to message {message.summary_of})"
    if message.status != "complete":
        heading += f" [{message.status}]"
    lines = [f"## {heading}", ""]
    if message.reasoning:
        lines += [_quote("Thinking: " + message.reasoning), ""]
    if message.role == "tool":
        lines += [_fence(message.content), ""]
    elif message.content:
        lines += [message.content, ""]
    if message.attachments:
        lines += ["Attached: " + ", ".join(f"`{path}`" for path in message.attachments), ""]
    for call in message.tool_calls:
        arguments = json.dumps(call.get("arguments", {}), ensure_ascii=False)
        lines += [f"Called `{call.get('name', '?')}` with `{arguments}`", ""]
    lines += _sources_markdown(message.sources)
    return lines


def _sources_markdown(sources: list[dict[str, Any]]) -> list[str]:
    if not sources:
        return []
    lines = ["Sources:", ""]
    for number, source in enumerate(sources, start=1):
        label = source.get("title") or source.get("document") or "source"
        where = f", {source['location']}" if source.get("location") else ""
        lines.append(f"{source.get('citation', number)}. {label}{where}")
    return [*lines, ""]


def _quote(text: str) -> str:
    return "\n".join("> " + line if line else ">" for line in text.splitlines())


def _fence(text: str) -> str:
    """A code fence longer than any backtick run inside the text, so it can't be closed early."""
    longest = max((len(run) for run in re.findall(r"`+", text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}\n{text}\n{fence}"
