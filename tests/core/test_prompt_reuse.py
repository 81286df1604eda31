"""A tool step reuses what the turn's first step read: the same thinking rules from its first
step to its last, so the earlier turns' part of the prompt is not rendered differently and
read again (the model's own template; the scripted engine counts the shared prefix)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.history import HistoryStore
from app.core.runner import ModelRunner
from backends.scripted import ScriptedBackend
from tests.core.test_assistant_loop import make, turn
from tests.support.model_output import TIME_CALL, answer, answer_output

TEMPLATE = (Path(__file__).resolve().parents[2] / "backends" / "templates" /
            "nanbeige.jinja").read_text(encoding="utf-8")
LONG_THOUGHT = " ".join(f"thought{i}" for i in range(300))


@pytest.fixture
def backend() -> ScriptedBackend:
    return ScriptedBackend(template=TEMPLATE)


def test_tool_step_rereads_only_what_is_new(runner: ModelRunner, history: HistoryStore,
                                            backend: ScriptedBackend) -> None:
    backend.queue(answer_output(LONG_THOUGHT, "Hello!"), "Greeting")
    first, _ = turn(make(runner, history), "hello")
    conv = first.conversation_id
    backend.queue(TIME_CALL, answer("It is evening in Tokyo."))
    turn(make(runner, history), "time in Tokyo?", conversation=conv)
    step_one, step_two = [m for m in history.messages(conv) if m.role == "assistant"][-2:]
    assert step_one.prompt_tokens > 300
    read_again = step_two.prompt_tokens - step_two.cached_prompt_tokens
    # What is new: the first step's output and the tool's result, not the earlier turn.
    assert read_again < 150, (step_two.prompt_tokens, step_two.cached_prompt_tokens)
