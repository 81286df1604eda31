"""The part of every prompt that never changes: the system message and the tool schemas."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.core.assistant.mode import TurnMode
from app.core.prompts import build_system_prompt, user_locale
from app.core.settings import Settings
from backends.base import Message
from skills.base import Skill, tool_spec


def system_message(skills: Sequence[Skill], settings: Settings, mode: TurnMode,
                   notes: Sequence[str] = ()) -> Message:
    """The one system message of a turn; turns and the launch warm-up build it the same way,
    so their rendered prefixes (and the saved model state behind them) are identical."""
    text = build_system_prompt(skills, locale_name=user_locale(settings.language),
                               instructions=mode.instructions, notes=notes)
    return {"role": "system", "content": text}


def tool_specs(skills: Sequence[Skill]) -> list[dict[str, Any]]:
    """The schemas the chat template renders after the system message, in a fixed order."""
    return [tool_spec(skill) for skill in skills]
