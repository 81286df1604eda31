"""The records the history store hands out, the allowed roles and statuses, and its errors."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, fields
from datetime import UTC, datetime
from typing import Any

from backends.errors import FailureKind

ROLES = ("system", "user", "assistant", "tool")
STATUSES = ("complete", "streaming", "interrupted", "cancelled", "error")

# Columns stored as JSON text, with the empty value a new message gets.
JSON_FIELDS: dict[str, Any] = {"tool_calls": [], "sources": [], "attachments": [], "timings": {},
                               "card": {}}
# Fields the store assigns itself; callers may not set them.
FIXED_FIELDS = frozenset({"id", "conversation_id", "seq", "created"})


class HistoryError(Exception):
    """A readable problem with a history request (bad field, bad value), or with the database
    itself (then `kind` says storage or a full disk)."""

    def __init__(self, message: str, kind: FailureKind = FailureKind.BAD_INPUT) -> None:
        super().__init__(message)
        self.kind = kind


class NotFound(HistoryError):
    """No conversation or message with that id."""


UNTITLED = "New chat"  # the one name of a chat without a title, wherever it shows


@dataclass
class Conversation:
    """One chat. An empty title means the assistant has not named it yet."""

    id: str
    title: str
    created: str  # ISO 8601, UTC
    updated: str  # ISO 8601, UTC; bumped by every new message
    pinned: bool
    archived: bool
    model: str  # the model of the latest answer


@dataclass
class StoredMessage:
    """One message as saved. `status` tells whether an answer finished or was cut short."""

    id: str
    conversation_id: str
    seq: int  # 1, 2, 3... within the conversation
    role: str  # system | user | assistant | tool
    content: str = ""
    reasoning: str = ""
    tool_calls: list[dict[str, Any]] = field(default_factory=list)  # [{"id","name","arguments"}]
    tool_call_id: str = ""
    tool_name: str = ""
    tool_ok: bool | None = None
    sources: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[str] = field(default_factory=list)
    model: str = ""
    engine: str = ""
    prompt_tokens: int = 0
    cached_prompt_tokens: int = 0
    completion_tokens: int = 0
    timings: dict[str, Any] = field(default_factory=dict)
    status: str = "complete"  # complete | streaming | interrupted | cancelled | error
    created: str = ""
    notice: str = ""  # Hearth cut the model short: thinking_cut | answer_loop | tool_loop
    summary_of: int = 0  # a system message summarizing messages up to this seq (for the model)
    # A tool result's card as the person saw it, redrawn when the chat is reopened:
    # {"data": what the tool gave its card, "denied": true, "undone": true}.
    card: dict[str, Any] = field(default_factory=dict)


@dataclass
class SearchHit:
    """A message matching a search, or a conversation whose title matches (role "title",
    message_id ""); `snippet` wraps each matched word in [[ and ]]."""

    conversation_id: str
    conversation_title: str
    message_id: str
    role: str
    snippet: str


MESSAGE_FIELDS = tuple(f.name for f in fields(StoredMessage))
SETTABLE_FIELDS = frozenset(MESSAGE_FIELDS) - FIXED_FIELDS


def now() -> str:
    """A sortable UTC timestamp with milliseconds, so two quick messages keep their order."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def check_fields(values: dict[str, Any]) -> None:
    """Reject unknown fields, bad roles and statuses before anything is written."""
    unknown = sorted(set(values) - SETTABLE_FIELDS)
    if unknown:
        raise HistoryError(f"unknown message field(s): {', '.join(unknown)}")
    if "role" in values and values["role"] not in ROLES:
        raise HistoryError(f"role must be one of {', '.join(ROLES)}, not {values['role']!r}")
    if "status" in values and values["status"] not in STATUSES:
        raise HistoryError(f"status must be one of {', '.join(STATUSES)}, not {values['status']!r}")


def to_columns(values: dict[str, Any]) -> dict[str, Any]:
    """Message fields -> column values (JSON text for lists/dicts, 0/1/NULL for tool_ok)."""
    out: dict[str, Any] = {}
    for name, value in values.items():
        if name in JSON_FIELDS:
            try:
                out[name] = json.dumps(value, ensure_ascii=False)
            except (TypeError, ValueError) as exc:
                raise HistoryError(f"{name} must be JSON-serialisable: {exc}") from exc
        elif name == "tool_ok":
            out[name] = None if value is None else int(bool(value))
        else:
            out[name] = value
        if isinstance(out[name], str):
            out[name] = storable(out[name])
    return out


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def storable(text: str) -> str:
    """Text SQLite can store: a lone surrogate (a model or server can emit half a character
    pair) becomes U+FFFD, so the answer is saved instead of failing as a whole."""
    return _LONE_SURROGATE.sub("\ufffd", text)


def message_from_row(row: dict[str, Any]) -> StoredMessage:
    """A database row -> StoredMessage; bad JSON (hand-edited file) falls back to empty."""
    values = {name: row[name] for name in MESSAGE_FIELDS if name in row}
    for name, empty in JSON_FIELDS.items():
        values[name] = _loads(values.get(name), empty)
    if values.get("tool_ok") is not None:
        values["tool_ok"] = bool(values["tool_ok"])
    return StoredMessage(**values)


def conversation_from_row(row: dict[str, Any]) -> Conversation:
    values = {f.name: row[f.name] for f in fields(Conversation)}
    return Conversation(**{**values, "pinned": bool(values["pinned"]),
                           "archived": bool(values["archived"])})


def _loads(text: object, empty: object) -> Any:
    if not isinstance(text, str) or not text:
        return type(empty)()
    try:
        value = json.loads(text)
    except ValueError:
        return type(empty)()
    return value if isinstance(value, type(empty)) else type(empty)()
