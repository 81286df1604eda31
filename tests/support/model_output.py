"""Raw model output in Nanbeige's format, for the scripted engine to replay in tests."""

from __future__ import annotations

from typing import Any


def answer_output(reasoning: str, text: str) -> str:
    """Output with thinking on: the reasoning, </think>, then the visible answer."""
    return f"{reasoning}\n</think>\n\n{text}"


def tool_call_output(reasoning: str, name: str, params: dict[str, Any]) -> str:
    """The reasoning, </think>, then one <tool_call> of `name` with each parameter's value on
    its own lines (as str() writes it)."""
    body = "".join(f"<parameter={k}>\n{v}\n</parameter>\n" for k, v in params.items())
    return answer_output(reasoning, f"<tool_call>\n<function={name}>\n{body}</function>\n</tool_call>")


def answer(text: str) -> str:
    """A final answer after a line of reasoning (Think mode)."""
    return answer_output("I have what I need.", text)


def call(name: str, **params: Any) -> str:
    """One call of the tool `name` after a line of reasoning (Think mode)."""
    return tool_call_output(f"I will use {name}.", name, params)


GREETING = answer_output("The user says hello. I should greet them back briefly.", "Hello! How can I help?")
TIME_CALL = tool_call_output("The user wants the time in Tokyo, so I will use the tool.",
                             "get_current_time", {"timezone": "Asia/Tokyo"})
