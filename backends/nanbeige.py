"""Nanbeige's conventions, one definition for every engine: the texts that end a turn, the
reasoning tags, and whether a prompt leaves the reasoning open (see ../shared/nanbeige)."""

from __future__ import annotations

STOP_TEXTS = ("<|im_end|>", "<|endoftext|>")  # end of the assistant's turn / of the document
THINK_OPEN = "<think>"
THINK_CLOSE = "</think>"


def opens_reasoning(prompt: str) -> bool:
    """Whether the output of this prompt starts inside the reasoning: Think mode leaves
    `<think>` open (also after a reasoning prefix being continued); Non-Think, and a prefix
    whose reasoning is closed, end after `</think>`."""
    return prompt.rfind(THINK_OPEN) > prompt.rfind(THINK_CLOSE)
