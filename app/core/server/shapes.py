"""OpenAI response shapes: chat completions (whole and chunked), completions, responses."""

from __future__ import annotations

import json
import secrets
import time
from typing import NotRequired, TypedDict

from app.core.server.generation import Outcome
from backends.events import Done, ToolCall

FINISH = {"stop": "stop", "length": "length", "tool_calls": "tool_calls",
          "cancelled": "stop", "error": "stop"}


def new_id(prefix: str) -> str:
    return f"{prefix}-{secrets.token_hex(12)}"


def item_id(prefix: str) -> str:
    """A Responses API id as OpenAI writes them: resp_…, msg_…, rs_…, fc_…."""
    return f"{prefix}_{secrets.token_hex(12)}"


def usage(done: Done | None) -> dict[str, object]:
    if done is None:
        return {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0,
                "prompt_tokens_details": {"cached_tokens": 0}}
    return {"prompt_tokens": done.prompt_tokens, "completion_tokens": done.completion_tokens,
            "total_tokens": done.prompt_tokens + done.completion_tokens,
            "prompt_tokens_details": {"cached_tokens": done.cached_prompt_tokens}}


class FunctionShape(TypedDict):
    name: str
    arguments: str  # JSON text


class ToolCallShape(TypedDict):
    """An OpenAI tool call as a response carries it."""

    index: NotRequired[int]  # in a streamed delta
    id: str
    type: str
    function: FunctionShape


def tool_call(call: ToolCall, index: int | None = None) -> ToolCallShape:
    """An OpenAI tool call: arguments as a JSON string (the OpenAI convention)."""
    function: FunctionShape = {"name": call.name,
                               "arguments": json.dumps(call.arguments, ensure_ascii=False)}
    shaped: ToolCallShape = {"id": "call_" + secrets.token_hex(8), "type": "function",
                             "function": function}
    return shaped if index is None else {"index": index, **shaped}


def finish_reason(done: Done | None, outcome_calls: int = 0) -> str:
    reason = FINISH.get(done.finish_reason if done else "stop", "stop")
    return "tool_calls" if outcome_calls and reason == "stop" else reason


def chat_completion(outcome: Outcome, model: str, request_id: str) -> dict[str, object]:
    message: dict[str, object] = {"role": "assistant", "content": "".join(outcome.text) or (
        None if outcome.tool_calls else ""), "refusal": None}
    if outcome.reasoning:
        message["reasoning_content"] = "".join(outcome.reasoning)
    if outcome.tool_calls:
        message["tool_calls"] = [tool_call(c) for c in outcome.tool_calls]
    return {
        "id": request_id, "object": "chat.completion", "created": int(time.time()),
        "model": model, "system_fingerprint": "hearth",
        "choices": [{"index": 0, "message": message, "logprobs": None,
                     "finish_reason": finish_reason(outcome.done, len(outcome.tool_calls))}],
        "usage": usage(outcome.done),
    }


def chat_chunk(request_id: str, model: str, created: int, delta: dict[str, object] | None,
               finish: str | None = None, with_usage: dict[str, object] | None = None,
               usage_field: bool = False) -> dict[str, object]:
    chunk: dict[str, object] = {"id": request_id, "object": "chat.completion.chunk",
                             "created": created, "model": model, "system_fingerprint": "hearth",
                             "choices": [] if delta is None else [
                                 {"index": 0, "delta": delta, "logprobs": None,
                                  "finish_reason": finish}]}
    if usage_field:  # with include_usage every chunk carries usage: null until the last one
        chunk["usage"] = with_usage
    return chunk


def completion(outcome: Outcome, model: str, request_id: str, prompt: str,
               echo: bool) -> dict[str, object]:
    text = completion_text(outcome)
    return {"id": request_id, "object": "text_completion", "created": int(time.time()),
            "model": model, "system_fingerprint": "hearth",
            "choices": [{"index": 0, "text": (prompt if echo else "") + text, "logprobs": None,
                         "finish_reason": finish_reason(outcome.done)}],
            "usage": usage(outcome.done)}


def completion_text(outcome: Outcome) -> str:
    """A raw completion is the output as the model wrote it: reasoning, text and calls."""
    return "".join(outcome.reasoning) + "".join(outcome.text) + "".join(
        c.raw for c in outcome.tool_calls)


def reasoning_item(item_id: str, text: str, status: str = "completed") -> dict[str, object]:
    """A Responses reasoning item (the model's thinking as reasoning_text)."""
    content = [{"type": "reasoning_text", "text": text}] if text or status == "completed" else []
    return {"type": "reasoning", "id": item_id, "summary": [], "content": content,
            "status": status}


def message_item(item_id: str, text: str | None, status: str = "completed") -> dict[str, object]:
    """A Responses assistant message; `text` None while it has no content part yet."""
    content = [] if text is None else [output_text(text)]
    return {"type": "message", "id": item_id, "role": "assistant", "status": status,
            "content": content}


def output_text(text: str) -> dict[str, object]:
    return {"type": "output_text", "text": text, "annotations": [], "logprobs": []}


def function_call_item(item_id: str, call: ToolCall, call_id: str, arguments: str,
                       status: str = "completed") -> dict[str, object]:
    return {"type": "function_call", "id": item_id, "call_id": call_id, "name": call.name,
            "arguments": arguments, "status": status}


def response_usage(done: Done | None) -> dict[str, object]:
    return {"input_tokens": done.prompt_tokens if done else 0,
            "input_tokens_details": {"cached_tokens": done.cached_prompt_tokens if done else 0,
                                     "cache_write_tokens": 0},
            "output_tokens": done.completion_tokens if done else 0,
            "output_tokens_details": {"reasoning_tokens": 0},
            "total_tokens": (done.prompt_tokens + done.completion_tokens) if done else 0}


def response_tools(tools: list[dict[str, object]]) -> list[dict[str, object]]:
    """The request's tools as the Responses API echoes them (flat function tools)."""
    return [{"type": "function", "strict": False, "description": None, "parameters": None,
             **_dict(tool.get("function"))} for tool in tools]


def response_body(request_id: str, model: str, created: int, status: str,
                  output: list[dict[str, object]], done: Done | None,
                  tools: list[dict[str, object]], error: dict[str, object] | None = None
                  ) -> dict[str, object]:
    """A Response object; `status` in_progress, completed, incomplete or failed."""
    text = "".join(str(part.get("text", "")) for item in output if item["type"] == "message"
                   for part in _dicts(item["content"]))
    return {"id": request_id, "object": "response", "created_at": created, "model": model,
            "status": status, "error": error,
            "incomplete_details": {"reason": "max_output_tokens"} if status == "incomplete"
            else None,
            "output": output, "output_text": text, "store": False, "instructions": None,
            "tools": response_tools(tools), "tool_choice": "auto", "parallel_tool_calls": True,
            "usage": response_usage(done) if status != "in_progress" else None}


def response_status(done: Done | None) -> str:
    return "incomplete" if done is not None and done.finish_reason == "length" else "completed"


def response_object(outcome: Outcome, model: str, request_id: str,
                    tools: list[dict[str, object]]) -> dict[str, object]:
    output: list[dict[str, object]] = []
    if outcome.reasoning:
        output.append(reasoning_item(item_id("rs"), "".join(outcome.reasoning)))
    text = "".join(outcome.text)
    if text or not outcome.tool_calls:
        output.append(message_item(item_id("msg"), text))
    for call in outcome.tool_calls:
        shaped = tool_call(call)
        output.append(function_call_item(item_id("fc"), call, shaped["id"],
                                         shaped["function"]["arguments"]))
    return response_body(request_id, model, int(time.time()), response_status(outcome.done),
                         output, outcome.done, tools)


class DeltaChunks:
    """SSE chunks for one streamed text delta, the JSON around it written once per stream
    (json.dumps of the whole chunk for every token was most of the server's per-token work)."""

    def __init__(self, template: dict[str, object]) -> None:
        marker = "\u0000delta\u0000"  # where the delta object goes; no model name holds it
        text = json.dumps(_with_delta(template, marker), ensure_ascii=False)
        self._head, _, self._tail = text.partition(json.dumps(marker))

    def chunk(self, key: str, value: str) -> bytes:
        delta = json.dumps(key) + ": " + json.dumps(value, ensure_ascii=False)
        return f"data: {self._head}{{{delta}}}{self._tail}\n\n".encode()


def _with_delta(chunk: dict[str, object], marker: str) -> dict[str, object]:
    return {**chunk, "choices": [{**_dicts(chunk["choices"])[0], "delta": marker}]}


def _dict(value: object) -> dict[str, object]:
    return value if isinstance(value, dict) else {}


def _dicts(value: object) -> list[dict[str, object]]:
    """The objects of a JSON array this module built (a response's parts, a chunk's choices)."""
    return [item for item in value if isinstance(item, dict)] if isinstance(value, list) else []


def sse(data: dict[str, object] | str) -> bytes:
    text = data if isinstance(data, str) else json.dumps(data, ensure_ascii=False)
    return f"data: {text}\n\n".encode()
