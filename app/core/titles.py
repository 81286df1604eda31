"""Conversation titles: a few words from the model after the first exchange, else the user's."""

from __future__ import annotations

import re
import threading

from app.core.history.records import UNTITLED
from app.core.oneshot import generate_text
from app.core.prompts import prompt_text
from app.core.runner import ModelRunner
from backends.base import GenerateOptions

MAX_WORDS = 6
MAX_CHARS = 60
TITLE_TOKENS = 24
_JUNK = re.compile(r"<[^>]*>|[\"'`*#_\[\]]")
_LIST_MARK = re.compile(r"^(?:[-+•>]|\d+[.)])\s+")  # a title written as a list item or quote


def fallback_title(user_text: str) -> str:
    """The first words of the user's message (used when the model gives nothing usable)."""
    words = user_text.split()
    title = " ".join(words[:MAX_WORDS])
    if len(title) > MAX_CHARS:
        title = title[: MAX_CHARS - 1].rstrip() + "…"
    return title or UNTITLED


def clean_title(raw: str) -> str:
    """Model output -> a title, or "" when it is empty or garbage (tags, one long token...)."""
    line = next((ln for ln in raw.strip().splitlines() if ln.strip()), "")
    line = _JUNK.sub("", line).strip().rstrip(".:;,!?。").strip()
    line = _LIST_MARK.sub("", line)
    line = re.sub(r"^(title|标题)\s*[:：]\s*", "", line, flags=re.IGNORECASE)
    if not line or len(line) > MAX_CHARS * 2 or not any(ch.isalnum() for ch in line):
        return ""
    if "\ufffd" in line:
        return ""  # broken bytes: the model produced half a character
    words = line.split()
    if len(words) > MAX_WORDS * 2:
        return ""  # the model rambled instead of titling
    title = " ".join(words[:MAX_WORDS])
    return title if len(title) <= MAX_CHARS else title[: MAX_CHARS - 1].rstrip() + "…"


def generate_title(runner: ModelRunner, user_text: str, answer: str,
                   cancel: threading.Event, timeout: float = 60.0,
                   thinking_budget: int = 0) -> str:
    """Ask the model (few tokens; reasoning only with a thinking budget, which Hearth closes
    when it is spent); fall back to the user's first words."""
    messages = [
        {"role": "system", "content": prompt_text("title").strip()},
        {"role": "user", "content": f"User: {user_text[:1000]}\n\nAssistant: {answer[:1000]}"},
    ]
    think = thinking_budget > 0
    options = GenerateOptions(enable_thinking=think, max_tokens=TITLE_TOKENS + thinking_budget,
                              temperature=0.3, thinking_budget=thinking_budget if think else None)
    raw = generate_text(runner, messages, options, cancel, timeout)
    return clean_title(raw) or fallback_title(user_text)
