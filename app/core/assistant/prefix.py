"""The part of every prompt that never changes: the system message and the tool schemas."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from app.core.assistant.turn_mode import TurnMode
from app.core.prompts import build_system_prompt, user_locale
from app.core.settings import Settings
from backends.base import Message
from skills.base import Skill, tool_spec


def system_message(skills: Sequence[Skill], settings: Settings, mode: TurnMode,
                   notes: Sequence[str] = (), personal: str = "") -> Message:
    """The one system message of a turn; turns and the launch warm-up build it the same way,
    so their rendered prefixes (and the saved model state behind them) are identical.
    `personal` (standing instructions, memories) comes before anything a mode or a tool
    server adds, so every kind of turn shares its tokens."""
    text = build_system_prompt(skills, locale_name=user_locale(settings.language),
                               instructions=mode.instructions, notes=[personal, *notes])
    return {"role": "system", "content": text}


# Schema keys that only a validator needs: arguments are validated against the skill's full
# schema before a tool runs (assistant/tools.py), so the model is spared reading them.
VALIDATION_ONLY = frozenset({"additionalProperties", "$schema", "title"})


def tool_specs(skills: Sequence[Skill]) -> list[dict[str, object]]:
    """The schemas the chat template renders after the system message, in a fixed order."""
    return [cast("dict[str, object]", _compact(tool_spec(skill))) for skill in skills]


def _compact(value: object) -> object:
    if isinstance(value, dict):
        # A property may itself be named "title": only drop the keyword, never a property.
        return {key: (_compact(item) if key != "properties" else
                      {name: _compact(schema) for name, schema in item.items()})
                for key, item in value.items() if key not in VALIDATION_ONLY}
    if isinstance(value, list):
        return [_compact(item) for item in value]
    return value
