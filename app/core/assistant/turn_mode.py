"""Per-turn choices: thinking, token budget, which skills, step limit, confirmation policy."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass, replace
from typing import Literal

from app.core.assistant.budget import RequestKind
from app.core.events import AssistantEvent
from app.core.prompts import prompt_text
from app.core.runner import Priority
from skills.common.formats import is_office_file

ConfirmPolicy = Literal["ask", "approve", "deny", "hold"]
"""ask: emit ConfirmationNeeded and wait for approve()/deny(); approve (--yes) and deny
(non-interactive runs) answer at once but still emit the event so the caller can show it;
hold (a routine running on its own): emit it unanswered and go on without the change, which
the caller keeps as a pending approval for the person to decide later."""

OnEvent = Callable[[AssistantEvent], None]

DOC_SKILL_PREFIXES = ("search_documents", "read_document", "list_documents")



def is_office_turn(attachments: Collection[str]) -> bool:
    """A conversation about a dropped workbook or office file runs in office mode."""
    return any(is_office_file(path) for path in attachments)


def _ignore(_event: AssistantEvent) -> None:
    return None


@dataclass
class TurnMode:
    """How one turn runs; None fields fall back to the user's settings."""

    thinking: bool | None = None
    max_tokens: int | None = None
    skills: Collection[str] | None = None  # skill names or name prefixes; None: all enabled
    step_limit: int | None = None
    instructions: str = ""  # extra system-prompt text for this turn
    temperature: float | None = None  # None: the chat or tool-step setting
    seed: int | None = None
    kind: RequestKind = "chat"  # "quick" for the quick-ask box: its own thinking budget
    # Earlier turns' reasoning kept in the prompt, from the turn's first step to its last
    # (None: not kept; this turn's own reasoning always is).
    preserve_thinking: bool | None = None
    priority: Priority = Priority.USER  # ROUTINE: waits behind the person's own chat

    @classmethod
    def office(cls, **kwargs: object) -> TurnMode:
        """Office work runs as the model card measured it: thinking on, earlier reasoning
        kept (preserve_thinking) from the first step."""
        return cls(**kwargs).as_office()  # type: ignore[arg-type]

    def as_office(self) -> TurnMode:
        instructions, office_text = self.instructions, prompt_text("office").strip()
        if office_text not in instructions:
            instructions = (instructions + "\n" + office_text).strip()
        return replace(self, thinking=True, preserve_thinking=True, instructions=instructions)

    @classmethod
    def docs_only(cls, **kwargs: object) -> TurnMode:
        """Restrict the turn to the document skills and tell the model to answer from them."""
        mode = cls(**kwargs)  # type: ignore[arg-type]
        mode.skills = DOC_SKILL_PREFIXES
        mode.instructions = (mode.instructions + "\n" + prompt_text("docs_only").strip()).strip()
        return mode

    def allows(self, skill_name: str) -> bool:
        if self.skills is None:
            return True
        return any(skill_name == s or skill_name.startswith(s) for s in self.skills)
