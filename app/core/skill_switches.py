"""Which skills are switched on: the `enabled_skills` setting read and written per skill family
(documents, files, calendar, office, the built-in ones), as Settings shows them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from skills.base import Skill

NONE_ON = "-"  # enabled_skills when every skill is off ([] means every skill is on)
FAMILIES = ("builtin", "documents", "files", "calendar", "office")  # in Settings' order


def family_of(skill: Skill) -> str:
    """The skills package a tool comes from ("calendar" for skills.calendar.tools...), or
    the family a tool defined elsewhere names (the routine tool is switched with the calendar)."""
    named = getattr(skill, "family", "")
    if named:
        return str(named)
    parts = type(skill).__module__.split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "skills" else parts[0]


def switched_on(skills: Iterable[Skill], enabled: Sequence[str]) -> list[Skill]:
    """The skills the setting lets the model use (an empty setting: all of them)."""
    wanted = set(enabled)
    return [s for s in skills if not wanted or s.name in wanted]


def families(skills: Iterable[Skill]) -> dict[str, list[str]]:
    """Tool names per family, the known families first in FAMILIES' order."""
    found: dict[str, list[str]] = {}
    for skill in skills:
        found.setdefault(family_of(skill), []).append(skill.name)
    order = {name: i for i, name in enumerate(FAMILIES)}
    return dict(sorted(found.items(), key=lambda kv: order.get(kv[0], len(order))))


def enabled_setting(all_names: Sequence[str], on: Iterable[str]) -> list[str]:
    """The setting for these tools switched on: [] when all are, NONE_ON when none is."""
    chosen = set(on)
    if all(name in chosen for name in all_names):
        return []
    return [name for name in all_names if name in chosen] or [NONE_ON]
