"""Realistic raw Nanbeige outputs for the scripted backend, and small waiting helpers."""

from __future__ import annotations

from typing import Any

WAIT_MS = 15000


def answer(reasoning: str, text: str) -> str:
    """Raw output with thinking on: reasoning, </think>, then the answer."""
    return f"{reasoning}\n</think>\n\n{text}"


def tool_call(name: str, **params: Any) -> str:
    body = "".join(f"<parameter={k}>\n{v}\n</parameter>\n" for k, v in params.items())
    return (f"I should use {name}.\n</think>\n\n<tool_call>\n<function={name}>\n{body}"
            "</function>\n</tool_call>")


TITLE = "A test chat"  # after a conversation's first answer the assistant asks for a title


LONG_ANSWER = "\n\n".join(
    f"## Part {i}\n\nHere is point {i} with **bold** text, a list:\n\n- one\n- two\n\n"
    f"| a | b |\n|---|---|\n| {i} | {i * 2} |\n\n```python\nprint({i})\n```"
    for i in range(50)
)
