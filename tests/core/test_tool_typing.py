"""Optional string parameters (the usual MCP shape) reach the skill as strings, through the
real Assistant: the parser never turns a value the schema allows to be a string into a number."""

from __future__ import annotations

from typing import Any

from app.core.assistant import Assistant, TurnMode
from app.core.events import ToolFinished
from app.core.history import HistoryStore
from app.core.runner import ModelRunner
from app.core.settings import Settings
from backends.scripted import ScriptedBackend
from skills.base import ReadOnlyTool, SkillContext, SkillResult
from tests.core.test_assistant_loop import WAIT, Events
from tests.support.model_output import answer, call


class LookupSkill(ReadOnlyTool):
    name = "lookup_order"
    description = "Find an order by its number or its customer."
    parameters = {"type": "object", "properties": {
        "order": {"type": ["string", "null"]},
        "customer": {"anyOf": [{"type": "string"}, {"type": "null"}]},
        "limit": {"type": ["integer", "null"]}}}

    def __init__(self) -> None:
        self.seen: list[dict[str, Any]] = []

    def run(self, arguments: dict[str, Any], context: SkillContext) -> SkillResult:
        self.seen.append(arguments)
        return SkillResult("found it")


def test_optional_strings_that_look_like_numbers_stay_strings(history: HistoryStore) -> None:
    backend = ScriptedBackend()
    runner = ModelRunner()
    runner.load(backend).result(WAIT)
    try:
        skill = LookupSkill()
        backend.queue(call("lookup_order", order="00123", customer="true", limit="5"),
                      answer("Order 00123 is on its way."), "Order")
        events = Events()
        handle = Assistant(runner, history, [skill], Settings()).send(
            None, "Where is order 00123?", on_event=events, mode=TurnMode(thinking=True))
        assert handle.wait(WAIT)
        assert skill.seen == [{"order": "00123", "customer": "true", "limit": 5}]
        assert [e.ok for e in events.of(ToolFinished)] == [True]  # Hearth's validator agrees
    finally:
        runner.close()
