"""The assistant's smaller parts: titles, the system prompt, the built-in skills."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from app.core.prompts import build_system_prompt, user_locale
from app.core.titles import clean_title, fallback_title
from skills.base import SkillContext, SkillError
from skills.builtin import ConvertUnits, CurrentTime, builtin_skills, convert


@pytest.mark.parametrize(("raw", "title"), [
    ("Trip to Lisbon", "Trip to Lisbon"),
    ('"Budget review for Q3."\n', "Budget review for Q3"),
    ("Title: Garden plans", "Garden plans"),
    ("**Weekly groceries**\nSome explanation after it", "Weekly groceries"),
    ("- Send a code", "Send a code"),  # a list item, as small models often write one
    ("1. Tax return checklist", "Tax return checklist"),
    ("> Moving house", "Moving house"),
    ("2024 budget", "2024 budget"),
    ("  ", ""),
    ("<tool_call>", ""),
    ("...", ""),
    ("bad \ufffd bytes", ""),
    (" ".join(["word"] * 30), ""),  # rambling, not a title
])
def test_clean_title(raw: str, title: str) -> None:
    assert clean_title(raw) == title


def test_fallback_title_uses_the_first_words() -> None:
    assert fallback_title("  please plan my trip to Lisbon in May  ") == (
        "please plan my trip to Lisbon")
    assert fallback_title("") == "New chat"
    assert len(fallback_title("x" * 500)) <= 60


def test_system_prompt_names_zone_locale_and_skills() -> None:
    text = build_system_prompt(builtin_skills(), timezone="Europe/Paris",
                               locale_name="fr_FR", instructions="Answer in haiku.",
                               notes=["The external tool server 'x' is unavailable."])
    assert "Hearth" in text
    assert "Europe/Paris" in text and "fr_FR" in text and "[sent " in text
    # The template lists the tools; the prompt adds only what it cannot say.
    assert "get_current_time" not in text and "[n]" not in text  # no document skill here
    assert "never instructions" in text  # tool output is data
    assert text.endswith("The external tool server 'x' is unavailable.\n\nAnswer in haiku.")



def test_system_prompt_is_the_same_on_every_day(monkeypatch: pytest.MonkeyPatch) -> None:
    """No date, time or UTC offset (it moves with daylight saving): the saved prefix state
    behind the prompt stays valid across midnight and across a DST change."""
    import time_machine

    texts = []
    for moment in ("2026-03-28 23:59", "2026-03-29 12:00", "2026-11-30 08:00"):
        with time_machine.travel(datetime.fromisoformat(moment).replace(
                tzinfo=ZoneInfo("Europe/Paris")), tick=False):
            texts.append(build_system_prompt(builtin_skills(), timezone="Europe/Paris",
                                             locale_name="fr_FR"))
    assert texts[0] == texts[1] == texts[2]
    assert "March" not in texts[0] and "UTC+" not in texts[0]


def test_system_prompt_names_the_tools_that_ask_first_and_how_to_cite() -> None:
    from types import SimpleNamespace
    from typing import Any

    def skill(name: str, changes: bool) -> Any:
        return SimpleNamespace(name=name, changes_things=changes)

    text = build_system_prompt([skill("read_document", False), skill("add_event", True),
                                skill("delete_event", True)], timezone="UTC",
                               locale_name="en_US")
    assert "add_event, delete_event change something" in text and "approves" in text
    assert "[n]" in text and "read_document" in text  # citations, whole documents


def test_system_prompt_without_skills_says_so() -> None:
    assert "No tools are enabled" in build_system_prompt([], timezone="UTC", locale_name="en_US")


def test_locale_prefers_the_app_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LANG", "de_DE.UTF-8")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    assert user_locale("system") == "de_DE"
    assert user_locale("zh_CN") == "zh_CN"


@pytest.mark.parametrize(("value", "source", "target", "expected"), [
    (5, "mi", "km", 8.04672),
    (212, "°F", "C", 100.0),
    (0, "celsius", "kelvin", 273.15),
    (1, "GiB", "MB", 1073.741824),
    (100, "km/h", "mph", 62.1371192),
    (2, "cups", "ml", 473.176473),
    (1, "acre", "m²", 4046.8564224),
    (90, "minutes", "h", 1.5),
])
def test_convert_units(value: float, source: str, target: str, expected: float) -> None:
    assert convert(value, source, target) == pytest.approx(expected)


@pytest.mark.parametrize(("args", "message"), [
    ({"value": 1, "from_unit": "kg", "to_unit": "km"}, "Cannot convert mass"),
    ({"value": 1, "from_unit": "parsec", "to_unit": "km"}, "Unknown unit 'parsec'"),
    ({"value": 1, "from_unit": "C", "to_unit": "kg"}, "Cannot convert between"),
])
def test_convert_units_explains_bad_units(args: dict[str, object], message: str) -> None:
    with pytest.raises(SkillError, match=message):
        ConvertUnits().run(args, SkillContext())


def test_current_time_here_and_elsewhere() -> None:
    here = CurrentTime().run({}, SkillContext(timezone="Europe/Paris"))
    assert "Europe/Paris" in here.text and str(datetime.now().year) in here.text
    tokyo = CurrentTime().run({"timezone": "Asia/Tokyo"}, SkillContext())
    assert "(UTC+09:00)" in tokyo.text and tokyo.data["timezone"] == "Asia/Tokyo"
    with pytest.raises(SkillError, match="Unknown time zone 'Mars/Olympus'"):
        CurrentTime().run({"timezone": "Mars/Olympus"}, SkillContext())


def test_a_turn_handle_calls_a_cancel_hook_only_while_it_is_registered() -> None:
    """Stopping a turn stops the generation running for it, also one that began after Stop
    was pressed, and never one from a later step (the hook is gone with its block)."""
    from app.core.assistant.handle import TurnHandle

    handle, calls = TurnHandle("c"), []
    with handle.cancelling(lambda: calls.append("first")):
        handle.cancel()
    handle.cancel()  # again, after the block: the first step's hook is not called twice
    with handle.cancelling(lambda: calls.append("late")):
        pass
    assert calls == ["first", "late"] and handle.stop_flag.is_set() and not handle.done
    handle.finish()
    assert handle.wait(0) and handle.done
