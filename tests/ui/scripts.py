"""Realistic raw Nanbeige outputs for the scripted backend, and small waiting helpers."""

from __future__ import annotations

from typing import Any

from tests.support.model_output import answer_output, tool_call_output

WAIT_MS = 15000


answer = answer_output  # (reasoning, text): raw output with thinking on


def tool_call(name: str, **params: Any) -> str:
    return tool_call_output(f"I should use {name}.", name, params)


TITLE = "A test chat"  # after a conversation's first answer the assistant asks for a title


LONG_ANSWER = "\n\n".join(
    f"## Part {i}\n\nHere is point {i} with **bold** text, a list:\n\n- one\n- two\n\n"
    f"| a | b |\n|---|---|\n| {i} | {i * 2} |\n\n```python\nprint({i})\n```"
    for i in range(50)
)
