"""/v1/responses with stream: true, read by the official `openai` SDK from a real `hearth serve`
process: the Responses API's typed events in order, numbered, whole items, usage, a function
call with JSON arguments, an error event on shutdown, and a disconnect that cancels."""

from __future__ import annotations

import http.client
import json
import socket
from typing import Any

from tests.server.test_openai_contract import ANSWER, TIME_TOOL, TOOL_CALL, client, serve

__all__ = ["serve"]  # the fixture, shared with the chat contract tests

RESPONSES_TOOL = {"type": "function", **TIME_TOOL["function"]}
LIFECYCLE = ["response.created", "response.in_progress"]
ITEM = ["response.output_item.added", "response.content_part.added"]
ITEM_END = ["response.content_part.done", "response.output_item.done"]


def _types(events: list[Any]) -> list[str]:
    return [e.type for e in events]


def test_streamed_text_and_reasoning_arrive_as_typed_events(serve: Any) -> None:
    served = serve(ANSWER)
    events = list(client(served).responses.create(model="x", input="hi", stream=True))
    kinds = _types(events)
    reasoning = [e for e in events if e.type == "response.reasoning_text.delta"]
    text = [e for e in events if e.type == "response.output_text.delta"]
    assert "".join(e.delta for e in reasoning) == "The user greets me."
    assert "".join(e.delta for e in text) == "Hello from Hearth."
    # The OpenAI order: created, in progress, then each item opened, streamed and closed.
    squeezed = [k for i, k in enumerate(kinds) if i == 0 or k != kinds[i - 1]]
    assert squeezed == [
        *LIFECYCLE, *ITEM, "response.reasoning_text.delta", "response.reasoning_text.done",
        *ITEM_END, *ITEM, "response.output_text.delta", "response.output_text.done", *ITEM_END,
        "response.completed"]
    assert [e.sequence_number for e in events] == list(range(len(events)))
    done = next(e for e in events if e.type == "response.output_text.done")
    assert done.text == "Hello from Hearth." and done.output_index == 1
    final = events[-1].response
    assert final.status == "completed" and final.output_text == "Hello from Hearth."
    assert [item.type for item in final.output] == ["reasoning", "message"]
    assert final.id == events[0].response.id and final.id.startswith("resp_")
    assert final.output[0].id.startswith("rs_") and final.output[1].id.startswith("msg_")
    assert final.usage is not None and final.usage.input_tokens > 0
    assert final.usage.output_tokens > 0


def test_stream_helper_gets_a_function_call_with_json_arguments(serve: Any) -> None:
    served = serve(TOOL_CALL)
    with client(served).responses.stream(model="x", input="What time is it in Tokyo?",
                                         tools=[RESPONSES_TOOL]) as stream:
        kinds = [event.type for event in stream]
        final = stream.get_final_response()
    assert "response.function_call_arguments.delta" in kinds
    assert "<tool_call>" not in final.output_text
    calls = [item for item in final.output if item.type == "function_call"]
    assert len(calls) == 1 and calls[0].name == "get_time"
    assert json.loads(calls[0].arguments) == {"timezone": "Asia/Tokyo"}
    assert calls[0].call_id.startswith("call_") and calls[0].status == "completed"
    assert final.usage is not None and final.usage.total_tokens > 0
    line = served.wait_for("request")
    assert line["path"] == "/v1/responses" and line["tool_calls"] == ["get_time"]
    assert "Tokyo" not in json.dumps(line)


def test_stream_helper_text_joins_to_the_answer(serve: Any) -> None:
    served = serve(ANSWER)
    with client(served).responses.stream(model="x", input="hi",
                                         instructions="Be brief.") as stream:
        deltas = [event.delta for event in stream if event.type == "response.output_text.delta"]
        final = stream.get_final_response()
    assert "".join(deltas) == final.output_text == "Hello from Hearth."


def test_max_output_tokens_ends_the_stream_incomplete(serve: Any) -> None:
    served = serve(ANSWER)
    events = list(client(served).responses.create(model="x", input="hi", stream=True,
                                                  max_output_tokens=3))
    assert events[-1].type == "response.incomplete"
    assert events[-1].response.incomplete_details.reason == "max_output_tokens"


def test_shutdown_mid_stream_sends_an_error_event_and_a_failed_response(serve: Any) -> None:
    served = serve(" ".join(["tick"] * 3000), args=("--script-delay", "0.02"))
    conn = http.client.HTTPConnection(served.host, served.port, timeout=60)
    conn.request("POST", "/v1/responses", body=json.dumps({"input": "go", "stream": True}),
                 headers={"Authorization": f"Bearer {served.key}",
                          "Content-Type": "application/json"})
    response = conn.getresponse()
    assert response.status == 200
    line = response.readline()
    while b"response.reasoning_text.delta" not in line:  # until generation is running
        assert line, "the stream ended before any reasoning arrived"
        line = response.readline()
    code = served.stop()
    events = [json.loads(line.removeprefix("data: ")) for line in
              response.read().decode().splitlines() if line.startswith("data: ")]
    conn.close()
    error = next(e for e in events if e["type"] == "error")
    assert error["code"] == "server_shutdown"
    assert events[-1]["type"] == "response.failed"
    assert events[-1]["response"]["error"]["code"] == "server_error"
    assert code == 0


def test_disconnect_cancels_a_streamed_response(serve: Any) -> None:
    served = serve(" ".join(["tick"] * 3000) + "\n</think>\n\ndone",
                   args=("--script-delay", "0.02"))
    body = json.dumps({"input": "go", "stream": True})
    sock = socket.create_connection((served.host, served.port))
    sock.sendall((f"POST /v1/responses HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  f"Authorization: Bearer {served.key}\r\nContent-Type: application/json\r\n"
                  f"Content-Length: {len(body)}\r\n\r\n{body}").encode())
    received = b""
    while received.count(b"response.reasoning_text.delta") < 3:
        piece = sock.recv(4096)
        assert piece, "the server closed the stream first"
        received += piece
    sock.close()
    line = served.wait_for("request")
    assert line["path"] == "/v1/responses"
    assert line["status"] == 499 and line["finish_reason"] == "cancelled"
    assert line["completion_tokens"] < 3000
