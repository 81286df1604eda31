"""The Responses API's input items (what a response returned, sent back with ids and statuses)
as pydantic models, and each as the chat message, or piece of one, it stands for."""

from __future__ import annotations

import json
from typing import Annotated, Literal

from pydantic import BaseModel, Discriminator, Field, JsonValue, Tag, model_validator

from app.core.server.request_fields import (
    ROLES,
    Arguments,
    Body,
    Content,
    Ignored,
    TextPart,
    arguments,
    kinds,
    reason,
    text_of,
)
from backends.base import Message


class _Item(Body):
    """What every item a Response returns carries back: its id and status change nothing."""

    id: str | None = None
    status: Ignored = None


class MessageItem(_Item):
    type: Literal["message"] = "message"
    role: Literal["user", "assistant", "system", "developer"]
    content: Content
    phase: Ignored = None


class FunctionCallItem(_Item):
    type: Literal["function_call"]
    call_id: str
    name: str
    arguments: Arguments = None
    namespace: Ignored = None
    caller: Ignored = None
    async_: Ignored = Field(default=None, alias="async")
    parsed_arguments: Ignored = None  # the SDK's stream helper adds it to what it returns


class FunctionCallOutputItem(_Item):
    type: Literal["function_call_output"]
    call_id: str
    output: Content
    created_by: Ignored = None
    name: Ignored = None
    namespace: Ignored = None
    caller: Ignored = None


class ReasoningItem(_Item):
    """The model's earlier reasoning, given back: its text goes to the template."""

    type: Literal["reasoning"]
    summary: list[TextPart] = []
    content: list[TextPart] | None = None
    encrypted_content: Ignored = None

    def text(self) -> str:
        parts = self.content if self.content else self.summary
        return "\n\n".join(p.text for p in parts)


class UnknownItem(BaseModel):
    """An item type Hearth cannot read back (hosted tools, references to stored items)."""

    @model_validator(mode="before")
    @classmethod
    def refuse(cls, value: dict[str, JsonValue]) -> None:
        kind = value.get("type")
        if kind == "item_reference":
            raise reason("is an item_reference: Hearth keeps no responses between requests, "
                          "so send the items themselves.")
        raise reason(f"has type {json.dumps(kind)}, which Hearth does not take (message, "
                      "reasoning, function_call, function_call_output).")


_ITEM_TAGS = {"message": "~message", "function_call": "~function_call",
              "function_call_output": "~function_call_output", "reasoning": "~reasoning"}


def _item_kind(value: object) -> str | None:
    if not isinstance(value, dict):
        return None
    return _ITEM_TAGS.get(str(value.get("type", "message")), "~other")


InputItem = Annotated[
    Annotated[MessageItem, Tag("~message")] | Annotated[FunctionCallItem, Tag("~function_call")]
    | Annotated[FunctionCallOutputItem, Tag("~function_call_output")]
    | Annotated[ReasoningItem, Tag("~reasoning")] | Annotated[UnknownItem, Tag("~other")],
    Discriminator(_item_kind)]
Input = Annotated[Annotated[str, Tag("~str")]
                  | Annotated[Annotated[list[InputItem], Field(min_length=1)], Tag("~list")],
                  kinds("a string or an array of items")]


def item_message(item: MessageItem | FunctionCallItem | FunctionCallOutputItem
                  | ReasoningItem | UnknownItem) -> Message:
    """One input item as the chat message (or the piece of one) it stands for."""
    if isinstance(item, MessageItem):
        return {"role": ROLES[item.role], "content": text_of(item.content)}
    if isinstance(item, ReasoningItem):
        return {"role": "assistant", "content": "", "reasoning_content": item.text()}
    if isinstance(item, FunctionCallItem):
        return {"role": "assistant", "content": "", "tool_calls": [{
            "id": item.call_id, "type": "function",
            "function": {"name": item.name, "arguments": arguments(item.arguments)}}]}
    assert isinstance(item, FunctionCallOutputItem)  # UnknownItem never validates
    return {"role": "tool", "tool_call_id": item.call_id, "content": text_of(item.output)}
