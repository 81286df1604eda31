"""Read OpenAI request bodies into Hearth's messages and options, with one-line reasons.

Every field OpenAI's API reference defines for the endpoint is known: the ones Hearth honours
are used, the ones it can only honour at their neutral value (n=1, no logprobs) are refused
otherwise, and a field the API does not have is refused, so a typo never passes silently."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from app.core.server.errors import bad_request
from backends.base import GenerateOptions, Message

MAX_STOPS = 4  # OpenAI's limit


@dataclass
class Sampling:
    """What every generation endpoint shares."""

    model: str = ""
    stream: bool = False
    include_usage: bool = False
    stop: list[str] = field(default_factory=list)
    options: GenerateOptions = field(default_factory=GenerateOptions)
    max_tokens_given: bool = False


@dataclass
class ChatRequest(Sampling):
    messages: list[Message] = field(default_factory=list)


@dataclass
class CompletionRequest(Sampling):
    prompt: str = ""
    echo: bool = False


def parse_json(body: bytes) -> dict[str, Any]:
    """The request body as a JSON object, or a 400 saying why not."""
    if not body.strip():
        raise bad_request("The request body is empty: send a JSON object.")
    try:
        value = json.loads(body)
    except UnicodeDecodeError:
        raise bad_request("The request body is not UTF-8 text.") from None
    except json.JSONDecodeError as exc:
        raise bad_request(f"The request body is not valid JSON: {exc.msg} at line {exc.lineno} "
                          f"column {exc.colno}.") from None
    if not isinstance(value, dict):
        raise bad_request("The request body must be a JSON object.")
    return value


# -- small typed readers ----------------------------------------------------------------------

def _type_name(value: Any) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
            type(None): "null", int: "an integer", float: "a number"}.get(type(value), "a value")


def _want(value: Any, kind: type | tuple[type, ...], name: str, what: str) -> Any:
    if isinstance(value, bool) and bool not in (kind if isinstance(kind, tuple) else (kind,)):
        raise bad_request(f"'{name}' must be {what}, not a boolean.", param=name)
    if not isinstance(value, kind):
        raise bad_request(f"'{name}' must be {what}, not {_type_name(value)}.", param=name)
    return value


def _number(value: Any, name: str, low: float, high: float) -> float:
    number = float(_want(value, (int, float), name, "a number"))
    if not low <= number <= high:
        raise bad_request(f"'{name}' must be between {low:g} and {high:g}, not {number:g}.",
                          param=name)
    return number


def _count(value: Any, name: str, low: int = 1) -> int:
    count = int(_want(value, int, name, "an integer"))
    if count < low:
        raise bad_request(f"'{name}' must be at least {low}, not {count}.", param=name)
    return count


def _neutral(expected: Any) -> Callable[[Any, str], None]:
    """A field Hearth accepts only at its neutral value."""
    def check(value: Any, name: str) -> None:
        if value is not None and value != expected and not (expected is False and value == 0):
            raise bad_request(f"'{name}' is not supported by Hearth's server (only "
                              f"{json.dumps(expected)}).", param=name)
    return check


def _ignored(value: Any, name: str) -> None:
    """A field that changes nothing about the answer (metadata, caching hints, user ids)."""


def _penalty(value: Any, name: str) -> None:
    if value is not None and _number(value, name, -2.0, 2.0) != 0.0:
        raise bad_request(f"'{name}' is not supported by Hearth's server (only 0).", param=name)


# -- shared sampling fields -------------------------------------------------------------------

def _read_sampling(raw: Mapping[str, Any], out: Sampling, default_max_tokens: int) -> None:
    options = out.options
    options.max_tokens = default_max_tokens
    if raw.get("model") is not None:
        out.model = str(_want(raw["model"], str, "model", "a string"))
    if raw.get("stream") is not None:
        out.stream = bool(_want(raw["stream"], bool, "stream", "a boolean"))
    usage = raw.get("stream_options")
    if usage is not None:
        _want(usage, dict, "stream_options", "an object")
        extra = set(usage) - {"include_usage", "include_obfuscation"}
        if extra:
            raise bad_request(f"Unknown field 'stream_options.{sorted(extra)[0]}'.",
                              param="stream_options")
        if usage.get("include_usage") is not None:
            out.include_usage = bool(_want(usage["include_usage"], bool,
                                           "stream_options.include_usage", "a boolean"))
    for name in ("max_tokens", "max_completion_tokens", "max_output_tokens"):
        if raw.get(name) is not None:
            options.max_tokens = _count(raw[name], name)
            out.max_tokens_given = True
    if raw.get("temperature") is not None:
        options.temperature = _number(raw["temperature"], "temperature", 0.0, 2.0)
    if raw.get("top_p") is not None:
        options.top_p = _number(raw["top_p"], "top_p", 0.0, 1.0)
    if raw.get("top_k") is not None:  # llama.cpp / vLLM extension
        options.top_k = _count(raw["top_k"], "top_k", 0)
    if raw.get("min_p") is not None:
        options.min_p = _number(raw["min_p"], "min_p", 0.0, 1.0)
    if raw.get("seed") is not None:
        options.seed = int(_want(raw["seed"], int, "seed", "an integer"))
    out.stop = _stops(raw.get("stop"))


def _stops(value: Any) -> list[str]:
    if value is None:
        return []
    stops = [value] if isinstance(value, str) else _want(value, list, "stop",
                                                         "a string or an array of strings")
    if len(stops) > MAX_STOPS:
        raise bad_request(f"'stop' takes at most {MAX_STOPS} strings, not {len(stops)}.",
                          param="stop")
    for index, stop in enumerate(stops):
        _want(stop, str, f"stop[{index}]", "a string")
    return [s for s in stops if s]


COMMON_FIELDS: dict[str, Callable[[Any, str], None]] = {
    name: _ignored for name in (
        "model", "stream", "stream_options", "max_tokens", "max_completion_tokens", "temperature",
        "top_p", "top_k", "min_p", "seed", "stop", "user", "metadata", "store", "service_tier",
        "prompt_cache_key", "safety_identifier", "prompt_cache_retention")
} | {
    "n": _neutral(1), "logprobs": _neutral(False), "top_logprobs": _neutral(0),
    "frequency_penalty": _penalty, "presence_penalty": _penalty, "logit_bias": _neutral({}),
}


def _check_fields(raw: Mapping[str, Any], known: Mapping[str, Callable[[Any, str], None]],
                  where: str) -> None:
    for name, value in raw.items():
        check = known.get(name)
        if check is None:
            raise bad_request(f"Unknown field '{name}' for {where}.", param=name)
        check(value, name)


# -- /v1/chat/completions ---------------------------------------------------------------------

CHAT_FIELDS = COMMON_FIELDS | {
    name: _ignored for name in ("messages", "tools", "tool_choice", "parallel_tool_calls",
                                "reasoning_effort", "chat_template_kwargs", "response_format",
                                "verbosity", "functions", "function_call")
} | {"modalities": _neutral(["text"]), "audio": _neutral(None), "prediction": _neutral(None),
     "web_search_options": _neutral(None)}


def parse_chat(raw: Mapping[str, Any], default_max_tokens: int) -> ChatRequest:
    """A chat completions body as messages and options (tools, thinking, sampling)."""
    _check_fields(raw, CHAT_FIELDS, "/v1/chat/completions")
    request = ChatRequest()
    _read_sampling(raw, request, default_max_tokens)
    if "messages" not in raw:
        raise bad_request("'messages' is required.", param="messages")
    request.messages = read_messages(raw["messages"])
    request.options.tools = _tools(raw.get("tools"), raw.get("tool_choice"))
    request.options.enable_thinking = _thinking(raw)
    # Inside a tool-using exchange the template keeps the earlier reasoning (as the app does).
    request.options.preserve_thinking = bool(request.options.tools)
    _response_format(raw.get("response_format"))
    return request


def read_messages(value: Any, name: str = "messages") -> list[Message]:
    messages = _want(value, list, name, "an array of messages")
    if not messages:
        raise bad_request(f"'{name}' must hold at least one message.", param=name)
    return [_message(m, f"{name}[{i}]") for i, m in enumerate(messages)]


_ROLES = {"system": "system", "developer": "system", "user": "user", "assistant": "assistant",
          "tool": "tool", "function": "tool"}
_MESSAGE_FIELDS = {"role", "content", "name", "tool_calls", "tool_call_id", "reasoning_content",
                   "reasoning", "refusal", "audio", "function_call"}


def _message(value: Any, where: str) -> Message:
    raw = _want(value, dict, where, "an object")
    extra = set(raw) - _MESSAGE_FIELDS
    if extra:
        raise bad_request(f"Unknown field '{where}.{sorted(extra)[0]}'.", param=where)
    role = raw.get("role")
    if role not in _ROLES:
        raise bad_request(f"'{where}.role' must be one of system, developer, user, assistant, "
                          f"tool, not {json.dumps(role)}.", param=f"{where}.role")
    message: Message = {"role": _ROLES[role], "content": _content(raw.get("content"), where)}
    if raw.get("name") is not None:
        message["name"] = str(_want(raw["name"], str, f"{where}.name", "a string"))
    if role == "assistant":
        reasoning = raw.get("reasoning_content", raw.get("reasoning"))
        if reasoning is not None:
            message["reasoning_content"] = _want(reasoning, str, f"{where}.reasoning_content",
                                                 "a string")
        if raw.get("tool_calls"):
            message["tool_calls"] = _tool_calls(raw["tool_calls"], f"{where}.tool_calls")
    if message["role"] == "tool" and raw.get("tool_call_id") is not None:
        message["tool_call_id"] = str(_want(raw["tool_call_id"], str, f"{where}.tool_call_id",
                                            "a string"))
    return message


def _content(value: Any, where: str) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    parts = _want(value, list, f"{where}.content", "a string or an array of parts")
    texts: list[str] = []
    for index, part in enumerate(parts):
        at = f"{where}.content[{index}]"
        _want(part, dict, at, "an object")
        kind = part.get("type")
        if kind in ("text", "input_text", "output_text"):
            texts.append(str(_want(part.get("text"), str, f"{at}.text", "a string")))
        elif kind == "refusal":
            texts.append(str(part.get("refusal") or ""))
        else:
            raise bad_request(f"'{at}' is a {json.dumps(kind)} part; Hearth's model reads text "
                              "only.", param=at)
    return "".join(texts)


def _tool_calls(value: Any, where: str) -> list[dict[str, Any]]:
    calls = _want(value, list, where, "an array")
    out: list[dict[str, Any]] = []
    for index, call in enumerate(calls):
        at = f"{where}[{index}]"
        _want(call, dict, at, "an object")
        function = _want(call.get("function"), dict, f"{at}.function", "an object")
        name = _want(function.get("name"), str, f"{at}.function.name", "a string")
        out.append({"id": str(call.get("id") or f"call_{index}"), "type": "function",
                    "function": {"name": name, "arguments": _arguments(
                        function.get("arguments"), f"{at}.function.arguments")}})
    return out


def _arguments(value: Any, where: str) -> dict[str, Any]:
    """OpenAI sends arguments as a JSON string; the template needs a mapping."""
    if value is None or value == "":
        return {}
    if isinstance(value, dict):
        return value
    text = _want(value, str, where, "a JSON string")
    try:
        parsed = json.loads(text)
    except json.JSONDecodeError as exc:
        raise bad_request(f"'{where}' is not valid JSON: {exc.msg}.", param=where) from None
    if not isinstance(parsed, dict):
        raise bad_request(f"'{where}' must be a JSON object.", param=where)
    return parsed


def _tools(value: Any, choice: Any) -> list[dict[str, Any]]:
    tools = [] if value is None else _want(value, list, "tools", "an array")
    specs: list[dict[str, Any]] = []
    for index, tool in enumerate(tools):
        at = f"tools[{index}]"
        _want(tool, dict, at, "an object")
        if tool.get("type", "function") != "function":
            raise bad_request(f"'{at}.type' must be \"function\".", param=at)
        function = _want(tool.get("function"), dict, f"{at}.function", "an object")
        _want(function.get("name"), str, f"{at}.function.name", "a string")
        if function.get("parameters") is not None:
            _want(function["parameters"], dict, f"{at}.function.parameters", "a JSON schema")
        specs.append({"type": "function", "function": dict(function)})
    return _apply_choice(specs, choice)


def _apply_choice(tools: list[dict[str, Any]], choice: Any) -> list[dict[str, Any]]:
    # The model cannot be forced to call: "required" and a named tool narrow what it is offered.
    if choice is None or choice in ("auto", "required"):
        return tools
    if choice == "none":
        return []
    if isinstance(choice, dict):
        name = (choice.get("function") or {}).get("name") if isinstance(
            choice.get("function"), dict) else None
        named = [t for t in tools if t["function"]["name"] == name]
        if not named:
            raise bad_request(f"'tool_choice' names {json.dumps(name)}, which is not in 'tools'.",
                              param="tool_choice")
        return named
    raise bad_request("'tool_choice' must be \"none\", \"auto\", \"required\" or a named "
                      "function.", param="tool_choice")


def _thinking(raw: Mapping[str, Any]) -> bool:
    """Thinking is on (the template's default) unless the client turns it off."""
    enabled = True
    effort = raw.get("reasoning_effort")
    if effort is not None:
        if effort not in ("none", "minimal", "low", "medium", "high", "xhigh"):
            raise bad_request("'reasoning_effort' must be none, minimal, low, medium or high.",
                              param="reasoning_effort")
        enabled = effort != "none"
    kwargs = raw.get("chat_template_kwargs")
    if kwargs is not None:
        _want(kwargs, dict, "chat_template_kwargs", "an object")
        extra = set(kwargs) - {"enable_thinking"}
        if extra:
            raise bad_request(f"'chat_template_kwargs.{sorted(extra)[0]}' is not a variable "
                              "Hearth passes to the template (only enable_thinking).",
                              param="chat_template_kwargs")
        if kwargs.get("enable_thinking") is not None:
            enabled = bool(_want(kwargs["enable_thinking"], bool,
                                 "chat_template_kwargs.enable_thinking", "a boolean"))
    return enabled


def _response_format(value: Any) -> None:
    if value is None:
        return
    _want(value, dict, "response_format", "an object")
    if value.get("type") not in (None, "text"):
        raise bad_request(f"'response_format' {json.dumps(value.get('type'))} is not supported "
                          "by Hearth's server (only \"text\").", param="response_format")


# -- /v1/completions --------------------------------------------------------------------------

COMPLETION_FIELDS = COMMON_FIELDS | {"prompt": _ignored, "echo": _ignored,
                                     "suffix": _neutral(None), "best_of": _neutral(1)}


def parse_completion(raw: Mapping[str, Any], default_max_tokens: int) -> CompletionRequest:
    """A raw-prompt completion: the prompt goes to the engine exactly as given."""
    _check_fields(raw, COMPLETION_FIELDS, "/v1/completions")
    request = CompletionRequest()
    _read_sampling(raw, request, default_max_tokens)
    prompt = raw.get("prompt")
    if isinstance(prompt, list) and len(prompt) == 1 and isinstance(prompt[0], str):
        prompt = prompt[0]
    request.prompt = _want(prompt, str, "prompt", "a string")
    if not request.prompt:
        raise bad_request("'prompt' is empty.", param="prompt")
    if raw.get("echo") is not None:
        request.echo = bool(_want(raw["echo"], bool, "echo", "a boolean"))
    request.options.raw_prompt = request.prompt
    return request


# -- /v1/responses (minimal, stateless) -------------------------------------------------------

RESPONSES_FIELDS = {
    name: _ignored for name in (
        "model", "input", "instructions", "stream", "max_output_tokens", "temperature", "top_p",
        "tools", "tool_choice", "reasoning", "user", "metadata", "store", "parallel_tool_calls",
        "service_tier", "prompt_cache_key", "safety_identifier", "text", "truncation", "seed",
        "stream_options")
} | {"previous_response_id": _neutral(None), "background": _neutral(False),
     "conversation": _neutral(None), "include": _ignored}


def parse_responses(raw: Mapping[str, Any], default_max_tokens: int) -> ChatRequest:
    """The Responses API's input items as chat messages; nothing is stored between calls."""
    _check_fields(raw, RESPONSES_FIELDS, "/v1/responses")
    request = ChatRequest()
    _read_sampling({k: raw[k] for k in ("model", "stream", "max_output_tokens", "temperature",
                                        "top_p", "seed") if k in raw}, request, default_max_tokens)
    messages: list[Message] = []
    if raw.get("instructions") is not None:
        messages.append({"role": "system", "content": _want(raw["instructions"], str,
                                                            "instructions", "a string")})
    messages += _response_input(raw.get("input"))
    request.messages = messages
    request.options.tools = _response_tools(raw.get("tools"))
    reasoning = raw.get("reasoning")
    if isinstance(reasoning, dict) and reasoning.get("effort") == "none":
        request.options.enable_thinking = False
    request.options.preserve_thinking = bool(request.options.tools)
    return request


def _response_input(value: Any) -> list[Message]:
    if isinstance(value, str):
        return [{"role": "user", "content": value}]
    items = _want(value, list, "input", "a string or an array of items")
    messages: list[Message] = []
    for index, item in enumerate(items):
        at = f"input[{index}]"
        _want(item, dict, at, "an object")
        kind = item.get("type", "message")
        if kind == "message":
            messages.append(_message({k: v for k, v in item.items() if k != "type"}, at))
        elif kind == "function_call":
            messages.append({"role": "assistant", "content": "", "tool_calls": [{
                "id": str(item.get("call_id") or f"call_{index}"), "type": "function",
                "function": {"name": _want(item.get("name"), str, f"{at}.name", "a string"),
                             "arguments": _arguments(item.get("arguments"), f"{at}.arguments")},
            }]})
        elif kind == "function_call_output":
            messages.append({"role": "tool", "tool_call_id": str(item.get("call_id") or ""),
                             "content": _content(item.get("output"), at)})
        else:
            raise bad_request(f"'{at}.type' {json.dumps(kind)} is not supported (message, "
                              "function_call, function_call_output).", param=at)
    if not messages:
        raise bad_request("'input' must hold at least one item.", param="input")
    return messages


def _response_tools(value: Any) -> list[dict[str, Any]]:
    if value is None:
        return []
    tools = _want(value, list, "tools", "an array")
    specs = []
    for index, tool in enumerate(tools):
        _want(tool, dict, f"tools[{index}]", "an object")
        if tool.get("type") != "function":
            raise bad_request(f"'tools[{index}].type' must be \"function\" (Hearth has no "
                              "built-in hosted tools).", param="tools")
        specs.append({"type": "function", "function": {
            k: tool[k] for k in ("name", "description", "parameters") if k in tool}})
    return specs

