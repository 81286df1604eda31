"""Agent frameworks over Hearth's Responses API, against a real `hearth serve` (the scripted
engine writes Nanbeige's raw output, so calls go through Hearth's own parser): an openai-agents
`Runner` loop and a pydantic-ai agent each call a tool, read its result, answer, and go on to a
second turn with the whole history sent back."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.server.test_openai_contract import AFTER_TOOL, ANSWER, TOOL_CALL, serve

__all__ = ["serve"]

# The frameworks are imported in the tests that use them: together they take seconds to import,
# which collecting the whole suite would otherwise pay on every run.


@pytest.fixture(autouse=True)
def _no_tracing() -> None:
    from agents import set_tracing_disabled

    set_tracing_disabled(True)  # openai-agents would send traces to OpenAI otherwise


def test_openai_agents_runner_loop_with_a_tool_and_a_second_turn(serve: Any) -> None:
    import openai
    from agents import Agent, OpenAIResponsesModel, Runner, function_tool

    served = serve(TOOL_CALL, AFTER_TOOL, ANSWER)
    asked: list[str] = []

    @function_tool
    def get_time(timezone: str) -> str:
        """The current time in a time zone."""
        asked.append(timezone)
        return "21:04"

    sdk = openai.AsyncOpenAI(base_url=served.url, api_key=served.key, max_retries=0)
    agent = Agent(name="clock", instructions="Answer briefly.", tools=[get_time],
                  model=OpenAIResponsesModel("scripted", sdk))

    async def run() -> tuple[Any, Any]:
        first = await Runner.run(agent, "What time is it in Tokyo?")
        again = first.to_input_list() + [{"role": "user", "content": "Thanks!"}]
        return first, await Runner.run(agent, again)

    first, second = asyncio.run(run())
    assert asked == ["Asia/Tokyo"]
    assert first.final_output == "It is 21:04 in Tokyo."
    kinds = [item.type for item in first.new_items]
    assert "tool_call_item" in kinds and "tool_call_output_item" in kinds
    assert second.final_output == "Hello from Hearth."


def test_openai_agents_streamed_runner(serve: Any) -> None:
    import openai
    from agents import Agent, OpenAIResponsesModel, Runner, function_tool

    served = serve(TOOL_CALL, AFTER_TOOL)

    @function_tool
    def get_time(timezone: str) -> str:
        """The current time in a time zone."""
        return "21:04"

    sdk = openai.AsyncOpenAI(base_url=served.url, api_key=served.key, max_retries=0)
    agent = Agent(name="clock", tools=[get_time], model=OpenAIResponsesModel("scripted", sdk))

    async def run() -> Any:
        result = Runner.run_streamed(agent, "What time is it in Tokyo?")
        async for _ in result.stream_events():
            pass
        return result

    assert asyncio.run(run()).final_output == "It is 21:04 in Tokyo."


def test_pydantic_ai_agent_over_the_responses_model(serve: Any) -> None:
    from pydantic_ai import Agent as PydanticAgent
    from pydantic_ai.models.openai import OpenAIResponsesModel as PydanticResponsesModel
    from pydantic_ai.providers.openai import OpenAIProvider

    served = serve(TOOL_CALL, AFTER_TOOL, ANSWER)
    model = PydanticResponsesModel("scripted", provider=OpenAIProvider(
        base_url=served.url, api_key=served.key))
    agent = PydanticAgent(model, instructions="Answer briefly.")
    asked: list[str] = []

    @agent.tool_plain
    def get_time(timezone: str) -> str:
        """The current time in a time zone."""
        asked.append(timezone)
        return "21:04"

    first = agent.run_sync("What time is it in Tokyo?")
    assert asked == ["Asia/Tokyo"] and first.output == "It is 21:04 in Tokyo."
    second = agent.run_sync("Thanks!", message_history=first.all_messages())
    assert second.output == "Hello from Hearth."
