"""Every streamed Responses event Hearth writes validates strictly against the official openai
SDK's own event model for its type (required fields present, literals as the API has them)."""

from __future__ import annotations

import json
import typing
from typing import Any

from openai.types.responses import ResponseStreamEvent
from pydantic import BaseModel

from app.core.server.response_stream import ResponseStream
from backends.events import Done, ToolCall

TOOLS = [{"type": "function", "function": {"name": "get_time", "description": "The time.",
                                           "parameters": {"type": "object"}}}]


def _models() -> dict[str, type[BaseModel]]:
    union = typing.get_args(ResponseStreamEvent)[0]  # Annotated[Union[...], discriminator]
    return {typing.get_args(model.model_fields["type"].annotation)[0]: model
            for model in typing.get_args(union)}


MODELS = _models()


def _validated(raw: list[bytes]) -> list[Any]:
    events = []
    for chunk in raw:
        event_line, data_line = chunk.decode().strip().split("\n")
        data = json.loads(data_line.removeprefix("data: "))
        assert event_line == f"event: {data['type']}"
        events.append(MODELS[data["type"]].model_validate(data, strict=False))
    return events


def test_a_whole_answer_with_reasoning_text_and_a_call_validates() -> None:
    stream = ResponseStream("resp-1", "nanbeige", TOOLS)
    raw = [*stream.start(), *stream.reasoning("Think"), *stream.reasoning("ing."),
           *stream.text("Hello"), *stream.text(" there."),
           *stream.tool_call(ToolCall("get_time", {"timezone": "Asia/Tokyo"})),
           *stream.finish(Done("stop", 12, 4, 9))]
    events = _validated(raw)
    assert [e.sequence_number for e in events] == list(range(len(events)))
    final = events[-1].response
    assert events[-1].type == "response.completed" and final.status == "completed"
    assert [item.type for item in final.output] == ["reasoning", "message", "function_call"]
    assert final.output[0].content[0].text == "Thinking."
    assert final.output_text == "Hello there."
    assert json.loads(final.output[2].arguments) == {"timezone": "Asia/Tokyo"}
    assert final.tools[0].name == "get_time"
    assert final.usage.input_tokens == 12 and final.usage.input_tokens_details.cached_tokens == 4
    added = [e.item.id for e in events if e.type == "response.output_item.added"]
    assert added == [item.id for item in final.output]  # the ids a client tracks stay put


def test_a_failure_mid_answer_validates_as_error_then_failed() -> None:
    stream = ResponseStream("resp-2", "nanbeige", [])
    events = _validated([*stream.start(), *stream.text("Hel"),
                         *stream.fail("engine_failed", "The engine stopped.")])
    kinds = [e.type for e in events]
    assert kinds[-5:] == ["response.output_text.done", "response.content_part.done",
                          "response.output_item.done", "error", "response.failed"]
    assert events[-3].item.status == "incomplete"
    assert events[-2].code == "engine_failed" and events[-2].message == "The engine stopped."
    failed = events[-1].response
    assert failed.status == "failed" and failed.error.message == "The engine stopped."
    assert failed.output_text == "Hel"


def test_running_out_of_output_tokens_validates_as_incomplete() -> None:
    stream = ResponseStream("resp-3", "nanbeige", [])
    events = _validated([*stream.start(), *stream.text("Cut"), *stream.finish(Done("length"))])
    assert events[-1].type == "response.incomplete"
    assert events[-1].response.incomplete_details.reason == "max_output_tokens"


def test_a_whole_response_object_validates() -> None:
    from openai.types.responses import Response

    from app.core.server.generation import Outcome
    from app.core.server.shapes import response_object

    outcome = Outcome(reasoning=["Think."], text=["Hi."], done=Done("stop", 3, 0, 2),
                      tool_calls=[ToolCall("get_time", {"timezone": "UTC"})])
    reply = Response.model_validate(response_object(outcome, "nanbeige", "resp-4", TOOLS))
    assert reply.output_text == "Hi." and reply.status == "completed"
    assert [item.type for item in reply.output] == ["reasoning", "message", "function_call"]
