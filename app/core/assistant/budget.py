"""Per-step generation policy: sampling, thinking budget per kind of request, loop detection."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from app.core.settings import Settings

RequestKind = Literal["chat", "quick", "tools", "title"]
_SENTENCE_ENDS = (". ", ".\n", "! ", "? ", "\n", "。", "！", "？")



@dataclass(frozen=True)
class Sampling:
    temperature: float
    top_p: float
    top_k: int


def step_sampling(settings: Settings, after_tool: bool) -> Sampling:
    """The first step of a user turn is chat; a step that reads a tool result is agentic work
    (the model card asks 0.6 for chat and reasoning, 1.0 for tool use)."""
    if after_tool:
        return Sampling(settings.tool_temperature, settings.tool_top_p, settings.tool_top_k)
    return Sampling(settings.chat_temperature, settings.chat_top_p, settings.chat_top_k)


def thinking_budget(settings: Settings, kind: RequestKind) -> int:
    """Reasoning tokens allowed for this kind of request; 0 means answer without reasoning."""
    budget = {"chat": settings.thinking_budget_chat, "quick": settings.thinking_budget_quick,
              "tools": settings.thinking_budget_tools, "title": settings.thinking_budget_title}
    return max(0, budget[kind])


class RepetitionGuard:
    """Spots a loop: the end of a text that repeats one unit (a phrase, a sentence, a paragraph)
    at least `repeats` times over at least `span` characters. Honest text repeats short
    markup (table rules, list bullets) but not a whole sentence four times in a row."""

    def __init__(self, span: int = 240, repeats: int = 4, longest_unit: int = 400,
                 every: int = 16) -> None:
        self.span = span
        self.repeats = repeats
        self.longest_unit = longest_unit
        self.every = every  # characters between checks: the check is cheap, not free
        self._text = ""
        self._checked = 0
        self.loop_at = -1  # where the repetition begins, once found
        self.unit = 0

    @property
    def text(self) -> str:
        return self._text

    def feed(self, piece: str) -> bool:
        """Add streamed text; True once a loop is found."""
        self._text += piece
        if self.loop_at >= 0:
            return True
        if len(self._text) - self._checked < self.every:
            return False
        self._checked = len(self._text)
        return self._find()

    def kept(self) -> str:
        """The text with the loop cut down to its first occurrence."""
        if self.loop_at < 0:
            return self._text
        start, unit = self.loop_at, self.unit
        # The repeating unit may begin mid-sentence: keep its first copy up to a sentence end.
        window = self._text[start:start + unit]
        ends = [i + len(mark) for mark in _SENTENCE_ENDS if (i := window.find(mark)) >= 0]
        before = self._text[:start].rstrip(" ")
        if not before or before.endswith(tuple(m.strip(" ") for m in _SENTENCE_ENDS)):
            ends = [0]
        return self._text[: start + min([e for e in ends if e < unit], default=0) + unit].rstrip()

    def _find(self) -> bool:
        text = self._text.rstrip()
        for unit in range(8, min(self.longest_unit, len(text) // self.repeats) + 1):
            tail = text[-unit:]
            if text[-2 * unit:-unit] != tail:
                continue
            count = max(self.repeats, -(-self.span // unit))
            if len(text) < count * unit or text[-count * unit:] != tail * count:
                continue
            start = len(text) - count * unit
            while start >= unit and text[start - unit:start] == tail:
                start -= unit  # back to the first whole copy...
            while start > 0 and text[start - 1] == text[start - 1 + unit]:
                start -= 1  # ...and to where the repetition really begins
            self.loop_at, self.unit = start, unit
            return True
        return False
