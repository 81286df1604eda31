"""Reading OpenAI request bodies: what is honoured, what is refused, and how it reaches the
model's own template."""

from __future__ import annotations

import pytest

from app.core.server.errors import ApiError
from app.core.server.generation import StopFilter
from app.core.server.protocol import parse_chat, parse_json
from backends.chat_format import ChatTemplate
from tests.support.tiny_model import CHAT_TEMPLATE

CALL = {"role": "assistant", "content": None, "tool_calls": [{
    "id": "call_1", "type": "function",
    "function": {"name": "get_time", "arguments": "{\"timezone\": \"Asia/Tokyo\", \"n\": 2}"}}]}


def chat(**fields: object) -> dict[str, object]:
    return {"messages": [{"role": "user", "content": "hi"}], **fields}


def test_tool_call_arguments_json_strings_reach_the_template_as_mappings() -> None:
    request = parse_chat({"messages": [{"role": "user", "content": "time?"}, CALL,
                                       {"role": "tool", "tool_call_id": "call_1",
                                        "content": "21:04"}]}, 512)
    arguments = request.messages[1]["tool_calls"][0]["function"]["arguments"]
    assert arguments == {"timezone": "Asia/Tokyo", "n": 2}
    prompt = ChatTemplate(CHAT_TEMPLATE).render(request.messages, request.options)
    assert "<parameter=timezone>\nAsia/Tokyo\n</parameter>" in prompt
    assert "<parameter=n>\n2\n</parameter>" in prompt


def test_thinking_switches_and_sampling() -> None:
    assert parse_chat(chat(), 512).options.enable_thinking is True
    assert parse_chat(chat(reasoning_effort="none"), 512).options.enable_thinking is False
    off = parse_chat(chat(chat_template_kwargs={"enable_thinking": False}), 512)
    assert off.options.enable_thinking is False
    sampled = parse_chat(chat(temperature=0.2, top_p=0.5, seed=7, max_completion_tokens=9,
                              stop="END"), 512)
    options = sampled.options
    assert (options.temperature, options.top_p, options.seed, options.max_tokens) == (
        0.2, 0.5, 7, 9)
    assert sampled.stop == ["END"]
    assert parse_chat(chat(), 512).options.max_tokens == 512


@pytest.mark.parametrize(("body", "reason"), [
    (chat(temperature="hot"), "'temperature' must be a number, not a string."),
    (chat(stream=1), "'stream' must be a boolean, not an integer."),
    (chat(max_tokens=True), "'max_tokens' must be an integer, not a boolean."),
    (chat(frobnicate=1), "Unknown field 'frobnicate' for /v1/chat/completions."),
    (chat(n=3), "'n' is not supported by Hearth's server (only 1)."),
    (chat(temperature=2.5), "'temperature' must be at most 2, not 2.5."),
    (chat(max_tokens=0), "'max_tokens' must be at least 1, not 0."),
    (chat(presence_penalty=0.5), "'presence_penalty' is not supported by Hearth's server (only 0)."),
    ({"messages": [{"role": "wizard", "content": "x"}]}, "'messages[0].role' must be one of"),
    ({"messages": [CALL | {"tool_calls": [{"function": {"name": "f", "arguments": "{oops"}}]}]},
     "'messages[0].tool_calls[0].function.arguments' is not valid JSON"),
    ({"messages": [{"role": "user", "content": [{"type": "image_url"}]}]}, "text only"),
    (chat(tool_choice={"type": "function", "function": {"name": "nope"}}), "not in 'tools'"),
])
def test_bad_requests_get_one_line_reasons(body: dict[str, object], reason: str) -> None:
    with pytest.raises(ApiError) as caught:
        parse_chat(body, 512)
    assert caught.value.status == 400 and reason in caught.value.message


def test_malformed_json_is_named() -> None:
    with pytest.raises(ApiError, match="not valid JSON"):
        parse_json(b"{")
    with pytest.raises(ApiError, match="must be a JSON object"):
        parse_json(b"[1]")


def test_stop_sequences_are_cut_even_across_pieces() -> None:
    stops = StopFilter(["</end>"])
    out = stops.push("Hello </e") + stops.push("nd> more")
    assert out == "Hello " and stops.hit
    keeps = StopFilter(["</end>"])
    assert keeps.push("a </e") + keeps.push("x") + keeps.flush() == "a </ex"


def test_streamed_delta_chunks_are_the_chunks_json_would_write() -> None:
    import json

    from app.core.server import shapes

    template = shapes.chat_chunk("chatcmpl-1", "odd{}\"name", 7, {}, None, None, True)
    fast = shapes.DeltaChunks(template).chunk("reasoning_content", "中文 \"quoted\"\n")
    assert fast.startswith(b"data: ") and fast.endswith(b"\n\n")
    assert json.loads(fast[6:]) == shapes.chat_chunk(
        "chatcmpl-1", "odd{}\"name", 7, {"reasoning_content": "中文 \"quoted\"\n"}, None, None,
        True)


@pytest.mark.parametrize(("body", "param"), [
    (chat(temperature="hot"), "temperature"),
    ({"messages": [{"role": "wizard", "content": "x"}]}, "messages[0].role"),
    (chat(stream_options={"include_usage": "yes"}), "stream_options.include_usage"),
    (chat(stop=["a", 3]), "stop[1]"),
    (chat(frobnicate=1), "frobnicate"),
])
def test_refusals_name_the_field_as_openai_does(body: dict[str, object], param: str) -> None:
    """OpenAI's error shape: the field in `param`, the reason in one line that starts with it."""
    with pytest.raises(ApiError) as caught:
        parse_chat(body, 512)
    error = caught.value.body()["error"]
    assert error["param"] == param and error["type"] == "invalid_request_error"
    assert f"'{param}'" in error["message"] and "\n" not in error["message"]
