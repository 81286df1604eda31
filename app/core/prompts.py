"""Builds Hearth's system prompt from resources/prompts/*.md: identity, zone, locale, skills."""

from __future__ import annotations

import locale
import os
from collections.abc import Sequence
from functools import cache
from importlib import resources
from string import Template

from skills.base import Skill

# One way to find the local zone, shared with the calendar (re-exported for the turn loop).
from skills.common.clock import local_timezone_name as local_timezone_name


@cache
def prompt_text(name: str) -> str:
    """The text of resources/prompts/<name>.md (packaged with the app)."""
    return resources.files("resources").joinpath("prompts", f"{name}.md").read_text("utf-8")


def user_locale(language_setting: str = "system") -> str:
    """The user's locale, e.g. en_US; the app's language setting wins over the system's."""
    if language_setting and language_setting != "system":
        return language_setting
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(variable, "")
        if value and value not in ("C", "POSIX") and not value.startswith("C."):
            return value.split(".")[0]
    found = locale.getlocale()[0]
    return found or "en_US"


def tools_section(skills: Sequence[Skill]) -> str:
    if not skills:
        return prompt_text("no_tools").strip()
    # The chat template already renders every tool's name, description and schema: only what
    # it cannot say is written here (which tools change things and wait for the user).
    changing = [skill.name for skill in skills if skill.changes_things]
    asks = ""
    if changing:
        asks = (f"- {', '.join(changing)} change something on the user's computer: the user "
                "approves or declines each call. If declined, do not retry unless asked, and "
                "say it was not done.\n")
    documents = any(skill.name == "read_document" for skill in skills)
    return Template(prompt_text("tools")).substitute(
        asks_first=asks, documents=prompt_text("tools_documents").strip() if documents else ""
    ).strip()


def build_system_prompt(skills: Sequence[Skill], *, timezone: str | None = None,
                        locale_name: str | None = None, instructions: str = "",
                        notes: Sequence[str] = ()) -> str:
    """The system message: the same text on every day, in every conversation, for as long as
    the skills, zone, locale and instructions stay the same, so its model state can be kept on
    disk and reused. "Now" travels in each user message's [sent ...] note instead (the date,
    and the UTC offset, which moves with daylight saving time, are deliberately absent)."""
    text = Template(prompt_text("system")).substitute(
        timezone=timezone or local_timezone_name(),
        locale=locale_name or user_locale(),
        tools_section=tools_section(skills),
    ).strip()
    extra = [part.strip() for part in (*notes, instructions) if part.strip()]
    return "\n\n".join([text, *extra])
