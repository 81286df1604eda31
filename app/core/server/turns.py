"""The Responses API's flat input items joined back into the chat turns the template renders.

A response's output is a list of items (reasoning, message, function calls) that were one
assistant turn; clients send it back item by item, followed by the calls' outputs. Here each
run of assistant items becomes one assistant message again (reasoning, text and calls
together, as the model wrote them), and each output follows the call it answers whatever order
the client listed them in."""

from __future__ import annotations

from backends.base import Message


def conversation(pieces: list[Message]) -> list[Message]:
    """Chat messages from one message per item: assistant pieces of one turn merged, tool
    results moved after the turn that called them."""
    messages: list[Message] = []
    turn: Message | None = None  # the assistant turn later assistant items still belong to
    for piece in pieces:
        if piece["role"] != "assistant":
            messages.append(piece)
            turn = None
        elif turn is None or not _joins(turn, piece):
            turn = dict(piece)
            messages.append(turn)
        else:
            _join(turn, piece)
    return _results_after_calls(messages)


def _joins(turn: Message, piece: Message) -> bool:
    """Whether `piece` continues `turn`: text after reasoning, calls after text or reasoning.
    A second reasoning item, or text after a call, is the model's next step."""
    if "reasoning_content" in piece:
        return False
    if piece.get("tool_calls"):
        return True
    return not turn.get("content") and not turn.get("tool_calls")


def _join(turn: Message, piece: Message) -> None:
    if piece.get("tool_calls"):
        turn["tool_calls"] = [*turn.get("tool_calls", []), *piece["tool_calls"]]
    if piece.get("content"):
        turn["content"] = piece["content"]


def _results_after_calls(messages: list[Message]) -> list[Message]:
    """Tool results listed before the call they answer (some SDKs gather outputs first)
    moved to just after that call's turn; the template wants a call before its result."""
    called_at = {call["id"]: index for index, message in enumerate(messages)
                 for call in message.get("tool_calls", [])}
    early = {index for index, message in enumerate(messages) if message["role"] == "tool"
             and called_at.get(message.get("tool_call_id"), -1) > index}
    if not early:
        return messages
    ordered: list[Message] = []
    for index, message in enumerate(messages):
        if index in early:
            continue
        ordered.append(message)
        answers = [messages[i] for i in sorted(early)
                   if called_at[messages[i]["tool_call_id"]] == index]
        ordered += answers  # ahead of results already in place: the turn's results stay together
    return ordered

