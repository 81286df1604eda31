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
