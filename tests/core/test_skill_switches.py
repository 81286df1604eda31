"""The enabled_skills setting as Settings writes it: all on is [], all off is none offered."""

from __future__ import annotations

from app.core.settings import Settings
from app.core.skill_switches import NONE_ON, enabled_setting, families, switched_on
from skills.builtin import builtin_skills


def test_every_skill_off_offers_none_and_every_skill_on_is_the_default() -> None:
    skills = builtin_skills()
    names = [s.name for s in skills]
    assert families(skills) == {"builtin": names}
    assert enabled_setting(names, names) == [] == Settings().enabled_skills
    assert enabled_setting(names, []) == [NONE_ON]
    assert switched_on(skills, [NONE_ON]) == []
    assert [s.name for s in switched_on(skills, names[:1])] == names[:1]
