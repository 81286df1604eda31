"""After a crash mid-skill, the history still replays into a valid prompt for the next turn."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from app.core.assistant import TurnMode
from app.core.assistant.transcript import INTERRUPTED, engine_messages
from app.core.events import TurnDone
from app.core.history import HistoryStore
from app.core.runner import ModelRunner
from backends.scripted import ScriptedBackend
from tests.core.test_assistant_loop import WAIT, Events, make
from tests.support.model_output import answer
from tests.support.tiny_model import CHAT_TEMPLATE


def _call(call_id: str, name: str, **arguments: Any) -> dict[str, Any]:
    return {"id": call_id, "name": name, "arguments": arguments}


def crashed_conversation(history: HistoryStore, answered: int) -> str:
    """A turn whose process died while its skills ran: `answered` of two calls got a result."""
    conv = str(history.create_conversation().id)
    history.add_message(conv, "user", "convert 5 mi and 212 F")
    calls = [_call("call_a", "convert_units", value=5, from_unit="mi", to_unit="km"),
             _call("call_b", "convert_units", value=212, from_unit="F", to_unit="C")]
    history.add_message(conv, "assistant", "", reasoning="Two conversions.", tool_calls=calls)
    for call in calls[:answered]:
        history.add_message(conv, "tool", "8.05 km", tool_call_id=call["id"],
                            tool_name=call["name"])
    return conv


@pytest.mark.parametrize("answered", [0, 1])
def test_a_call_left_without_result_gets_an_interrupted_result(
        tmp_path: Path, answered: int) -> None:
    history = HistoryStore(tmp_path / "h.db")
    try:
        conv = crashed_conversation(history, answered)
        history.add_message(conv, "user", "did it work?")
        messages = [m for _, m in engine_messages(history.messages(conv))]
    finally:
        history.close()
    assert [m["role"] for m in messages] == ["user", "assistant", "tool", "tool", "user"]
    # Each call answered once, in the order of the calls, before the next user message.
    assert [m["tool_call_id"] for m in messages[2:4]] == ["call_a", "call_b"]
    assert [m["content"] == INTERRUPTED for m in messages[2:4]] == [answered == 0, True]
    assert messages[3]["name"] == "convert_units"


def test_complete_histories_are_left_alone(tmp_path: Path) -> None:
    history = HistoryStore(tmp_path / "h.db")
    try:
        conv = crashed_conversation(history, answered=2)
        messages = [m for _, m in engine_messages(history.messages(conv))]
    finally:
        history.close()
    assert [m["role"] for m in messages] == ["user", "assistant", "tool", "tool"]
    assert all(m["content"] != INTERRUPTED for m in messages)


def test_the_next_turn_after_a_crash_renders_and_answers(tmp_path: Path) -> None:
    # The Nanbeige-structured template: tool results must follow the call, in one user turn.
    backend = ScriptedBackend([answer("The conversion was interrupted; shall I retry?")],
                              template=CHAT_TEMPLATE)
    runner = ModelRunner()
    runner.load(backend).result(WAIT)
    history = HistoryStore(tmp_path / "h.db")
    try:
        conv = crashed_conversation(history, answered=0)
        events = Events()
        handle = make(runner, history).send(conv, "did it work?", on_event=events,
                                            mode=TurnMode(thinking=True))
        assert handle.wait(WAIT)
        assert events.of(TurnDone)[0].finish_reason == "stop"
        prompt = backend.render_prompt(*backend.calls[0])
    finally:
        runner.close()
        history.close()
    call_at = prompt.index("<function=convert_units>")
    result_at = prompt.index(f"<tool_response>\n{INTERRUPTED}\n</tool_response>")
    question_at = prompt.index("did it work?")
    assert call_at < result_at < question_at
    assert prompt.count("<tool_response>") == 2
