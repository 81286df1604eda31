"""The remote engine against a server that behaves like vLLM / SGLang with Nanbeige parsers."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.core.assistant import Assistant, TurnMode
from app.core.events import OutputCut, TurnDone, TurnFailed
from app.core.history import HistoryStore
from app.core.runner import ModelRunner
from app.core.settings import Settings
from backends.remote import RemoteBackend
from skills.builtin import builtin_skills
from tests.support.fake_serving import FakeServing
from tests.support.tiny_model import CHAT_TEMPLATE

MARKUP = ("<think>", "</think>", "<tool_call>", "</tool_call>", "<|im_end|>", "<function=")


@pytest.fixture(params=["vllm", "sglang"])
def serving(request: pytest.FixtureRequest) -> Iterator[FakeServing]:
    server = FakeServing(CHAT_TEMPLATE, flavor=request.param).start()
    yield server
    server.stop()


@pytest.fixture
def setup(serving: FakeServing, tmp_path: Path) -> Iterator[tuple[ModelRunner, HistoryStore]]:
    runner = ModelRunner()
    runner.load(RemoteBackend(serving.url)).result(30)
    history = HistoryStore(tmp_path / "hearth.db")
    yield runner, history
    runner.close()
    history.close()


def test_the_server_kind_is_probed(serving: FakeServing) -> None:
    backend = RemoteBackend(serving.url)
    backend.load()
    assert backend.server.name == serving.flavor
    assert backend.info.extra["prompt_rendered_by"] == "server"
    assert backend.info.context_length == 8192


def test_tool_turn_and_non_think_over_a_parsing_server(
        serving: FakeServing, setup: tuple[ModelRunner, HistoryStore]) -> None:
    runner, history = setup
    serving.outputs.extend([
        "</think>\n\n<tool_call>\n<function=get_current_time>\n<parameter=timezone>\n"
        "Asia/Tokyo\n</parameter>\n</function>\n</tool_call>",
        "</think>\n\nIt is noon in Tokyo.", "Tokyo time"])
    events: list[Any] = []
    assistant = Assistant(runner, history, builtin_skills(), Settings())
    handle = assistant.send(None, "Time in Tokyo?", mode=TurnMode(thinking=False),
                            on_event=events.append)
    assert handle.wait(30)
    assert [e for e in events if isinstance(e, TurnDone)]
    assert not [e for e in events if isinstance(e, TurnFailed)]
    assert all(p.endswith("<think>\n\n</think>\n\n") for p in serving.prompts[:2])  # Non-Think
    assert "<parameter=timezone>\nAsia/Tokyo\n</parameter>" in serving.prompts[1]
    stored = [m for m in history.messages(handle.conversation_id) if m.role == "assistant"]
    assert stored[-1].content == "It is noon in Tokyo."
    assert not any(tag in m.content for m in stored for tag in MARKUP)


def test_reasoning_cut_short_is_continued_on_the_server(
        serving: FakeServing, setup: tuple[ModelRunner, HistoryStore]) -> None:
    runner, history = setup
    serving.outputs.extend(["one two three four five six seven eight nine ten", "Answer.",
                            "Title"])
    events: list[Any] = []
    assistant = Assistant(runner, history, [], Settings(thinking_budget_chat=3))
    handle = assistant.send(None, "Think", mode=TurnMode(thinking=True), on_event=events.append)
    assert handle.wait(30)
    assert [e.part for e in events if isinstance(e, OutputCut)] == ["reasoning"]
    assert serving.bodies[1]["continue_final_message"] is True
    assert serving.prompts[1].endswith("</think>\n\n")
    answer = [m for m in history.messages(handle.conversation_id) if m.role == "assistant"][-1]
    assert answer.content == "Answer." and answer.notice == "thinking_cut"
