"""/v1/responses takes back what it returned: `input = previous input + response.output + the
next message`, with the items built from the openai SDK's own models (ids, statuses, reasoning,
function calls and their outputs in the orders the SDKs produce), over a real `hearth serve`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from openai.types.responses import (
    EasyInputMessage,
    ResponseFunctionToolCall,
    ResponseFunctionToolCallOutputItem,
    ResponseOutputMessage,
    ResponseOutputRefusal,
    ResponseOutputText,
    ResponseReasoningItem,
)
from openai.types.responses.response_reasoning_item import Content, Summary

from app.core.server.errors import ApiError
from app.core.server.protocol import parse_responses
from backends.base import GenerateOptions
from backends.chat_format import ChatTemplate
from tests.server.test_openai_contract import AFTER_TOOL, ANSWER, TOOL_CALL, client, serve
from tests.server.test_responses_stream import RESPONSES_TOOL
from tests.support.tiny_model import CHAT_TEMPLATE

__all__ = ["serve"]

TEMPLATE = (Path(__file__).resolve().parents[2] / "backends" / "templates" /
            "nanbeige.jinja").read_text(encoding="utf-8")

REASONING = ResponseReasoningItem(
    id="rs_1", type="reasoning", status="completed", encrypted_content=None,
    summary=[Summary(type="summary_text", text="A summary.")],
    content=[Content(type="reasoning_text", text="I need the time in Tokyo.")])
CALL = ResponseFunctionToolCall(
    id="fc_1", type="function_call", call_id="call_1", name="get_time", status="completed",
    arguments=json.dumps({"timezone": "Asia/Tokyo"}), namespace=None, caller=None)
MESSAGE = ResponseOutputMessage(
    id="msg_1", type="message", role="assistant", status="completed", phase="final_answer",
    content=[ResponseOutputText(type="output_text", text="Let me look.", annotations=[],
                                logprobs=[]),
             ResponseOutputRefusal(type="refusal", refusal="")])
OUTPUT = ResponseFunctionToolCallOutputItem(
    id="fco_1", type="function_call_output", call_id="call_1", output="21:04",
    status="completed").model_dump(mode="json", by_alias=True)
USER = EasyInputMessage(role="user", content="What time is it in Tokyo?", type="message",
                        phase=None).model_dump(mode="json", by_alias=True)


def dumped(*items: Any) -> list[Any]:
    """Items as a client sends them back: SDK models dumped whole (every field, nulls too)."""
    return [i.model_dump(mode="json", by_alias=True) if hasattr(i, "model_dump") else i
            for i in items]


def rendered(items: list[Any], tools: bool = True) -> tuple[list[dict[str, Any]], str]:
    body: dict[str, Any] = {"input": items}
    if tools:
        body["tools"] = [RESPONSES_TOOL]
    request = parse_responses(body, 512)
    return request.messages, ChatTemplate(TEMPLATE).render(request.messages, request.options)


@pytest.mark.parametrize("item", [REASONING, CALL, MESSAGE], ids=lambda i: i.type)
def test_each_output_item_shape_is_taken_back_with_every_field(item: Any) -> None:
    """Each SDK model dumped whole (every field it has, nulls too), the call with its output
    (the SDK's own output item model)."""
    messages, _ = rendered(dumped(USER, item, *([OUTPUT] if item is CALL else [])))
    assert messages[1]["role"] == "assistant"
    if item is CALL:
        assert messages[2] == {"role": "tool", "tool_call_id": "call_1", "content": "21:04"}


def test_reasoning_message_and_calls_of_one_output_become_one_assistant_turn() -> None:
    messages, prompt = rendered(dumped(USER, REASONING, MESSAGE, CALL, OUTPUT))
    assert [m["role"] for m in messages] == ["user", "assistant", "tool"]
    turn = messages[1]
    assert turn["reasoning_content"] == "I need the time in Tokyo."
    assert turn["content"] == "Let me look."
    assert turn["tool_calls"][0]["function"]["arguments"] == {"timezone": "Asia/Tokyo"}
    # The tool step's earlier reasoning reaches the model, inside its own think block.
    assert "<think>\nI need the time in Tokyo.\n</think>\n\nLet me look." in prompt
    assert "<tool_response>\n21:04\n</tool_response>" in prompt


def test_parallel_calls_with_outputs_first_or_interleaved_follow_their_calls() -> None:
    second = CALL.model_copy(update={"id": "fc_2", "call_id": "call_2"})
    out2 = {**OUTPUT, "call_id": "call_2", "output": "08:04"}
    gathered, _ = rendered(dumped(USER, REASONING, CALL, second, OUTPUT, out2))
    outputs_first, _ = rendered(dumped(USER, OUTPUT, out2, REASONING, CALL, second))
    assert outputs_first == gathered
    assert [m["role"] for m in gathered] == ["user", "assistant", "tool", "tool"]
    assert [c["id"] for c in gathered[1]["tool_calls"]] == ["call_1", "call_2"]
    interleaved, _ = rendered(dumped(USER, REASONING, CALL, OUTPUT, second, out2))
    assert [m["role"] for m in interleaved] == ["user", "assistant", "tool", "assistant",
                                                "tool"]


def test_summary_stands_in_for_reasoning_without_content() -> None:
    summary_only = REASONING.model_copy(update={"content": None})
    messages, _ = rendered(dumped(USER, summary_only, MESSAGE), tools=False)
    assert messages[1]["reasoning_content"] == "A summary."


def test_earlier_turns_reasoning_follows_the_preserve_thinking_rule() -> None:
    """Without tools an earlier turn's reasoning is left out (the template's rule for a new
    question, as in the app); with tools it is kept."""
    items = dumped(USER, REASONING, MESSAGE, {"role": "user", "content": "And in Paris?"})
    _, plain = rendered(items, tools=False)
    _, with_tools = rendered(items)
    assert "I need the time in Tokyo." not in plain
    assert "I need the time in Tokyo." in with_tools


@pytest.mark.parametrize(("item", "reason"), [
    ({"type": "item_reference", "id": "msg_1"}, "keeps no responses"),
    ({"type": "web_search_call", "id": "ws_1"}, "'input[1]' has type \"web_search_call\""),
    ({**OUTPUT, "frobnicate": 1}, "Unknown field 'input[1].frobnicate'"),
    ({"role": "user", "content": [{"type": "input_image", "image_url": "x"}]}, "text only"),
])
def test_what_cannot_be_taken_back_is_named(item: Any, reason: str) -> None:
    with pytest.raises(ApiError) as caught:
        parse_responses({"input": [USER, item]}, 512)
    assert reason in caught.value.message and caught.value.param is not None


def test_tiny_template_renders_the_round_trip() -> None:
    request = parse_responses({"input": dumped(USER, REASONING, CALL, OUTPUT),
                               "tools": [RESPONSES_TOOL]}, 512)
    prompt = ChatTemplate(CHAT_TEMPLATE).render(request.messages, GenerateOptions(
        tools=request.options.tools, preserve_thinking=True))
    assert "<parameter=timezone>\nAsia/Tokyo\n</parameter>" in prompt


@pytest.mark.parametrize("stream", [False, True], ids=["whole", "streamed"])
def test_sdk_round_trip_sends_back_the_output_it_got(serve: Any, stream: bool) -> None:
    served = serve(TOOL_CALL, AFTER_TOOL, ANSWER)
    sdk = client(served)
    history: list[Any] = [USER]

    def ask() -> Any:
        if not stream:
            return sdk.responses.create(model="x", input=history, tools=[RESPONSES_TOOL])
        with sdk.responses.stream(model="x", input=history, tools=[RESPONSES_TOOL]) as events:
            return events.get_final_response()

    first = ask()
    call = next(item for item in first.output if item.type == "function_call")
    assert [item.type for item in first.output] == ["reasoning", "function_call"]
    history += [item.model_dump(exclude_unset=True) for item in first.output]
    history.append({"type": "function_call_output", "call_id": call.call_id, "output": "21:04"})
    second = ask()
    assert second.output_text == "It is 21:04 in Tokyo."
    history += [item.model_dump(exclude_unset=True) for item in second.output]
    history.append({"role": "user", "content": "Thanks!"})
    assert ask().output_text == "Hello from Hearth."
