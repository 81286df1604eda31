"""Read OpenAI request bodies into Hearth's messages and options: pydantic models of each
endpoint's fields, a refusal in OpenAI's error shape (the field as `param`, a one-line reason).

Every field OpenAI's API reference defines for the endpoint is known: the ones Hearth honours
are used, the ones it can only honour at their neutral value (n=1, no logprobs) are refused
otherwise, and a field the API does not have is refused, so a typo never passes silently."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, JsonValue, Tag

from app.core.server.errors import bad_request
from app.core.server.request_fields import (
    ROLES,
    Arguments,
    Body,
    Content,
    Count,
    Ignored,
    Lenient,
    Penalty,
    Stops,
    Temperature,
    Unit,
    arguments,
    kinds,
    only,
    reason,
    text_of,
    validate,
)
from app.core.server.response_items import Input, item_message
from app.core.server.turns import conversation
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


def parse_json(body: bytes) -> dict[str, JsonValue]:
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


# -- /v1/chat/completions -----------------------------------------------------------------------

class StreamOptions(Body):
    include_usage: bool | None = None
    include_obfuscation: Ignored = None


class FunctionIn(Lenient):
    name: str
    arguments: Arguments = None


class ToolCallIn(Lenient):
    id: str | None = None
    function: FunctionIn

    def shaped(self, index: int) -> dict[str, JsonValue]:
        return {"id": self.id or f"call_{index}", "type": "function",
                "function": {"name": self.function.name,
                             "arguments": arguments(self.function.arguments)}}


class ChatMessage(Body):
    role: Literal["system", "developer", "user", "assistant", "tool", "function"]
    content: Content | None = None
    name: str | None = None
    tool_calls: list[ToolCallIn] | None = None
    tool_call_id: str | None = None
    reasoning_content: str | None = None
    reasoning: str | None = None  # vLLM's name for it
    refusal: Ignored = None
    audio: Ignored = None
    function_call: Ignored = None

    def message(self) -> Message:
        message: Message = {"role": ROLES[self.role], "content": text_of(self.content)}
        if self.name is not None:
            message["name"] = self.name
        if self.role == "assistant":
            reasoning = self.reasoning_content if self.reasoning_content is not None \
                else self.reasoning
            if reasoning is not None:
                message["reasoning_content"] = reasoning
            if self.tool_calls:
                message["tool_calls"] = [c.shaped(i) for i, c in enumerate(self.tool_calls)]
        if message["role"] == "tool" and self.tool_call_id is not None:
            message["tool_call_id"] = self.tool_call_id
        return message


class FunctionSpec(BaseModel):
    """A tool's function as the client wrote it: passed to the template whole."""

    model_config = ConfigDict(extra="allow", strict=True)
    name: str
    description: str | None = None
    parameters: dict[str, JsonValue] | None = None


class ChatTool(Lenient):
    type: Literal["function"] = "function"
    function: FunctionSpec

    def spec(self) -> dict[str, JsonValue]:
        return {"type": "function", "function": self.function.model_dump(exclude_unset=True)}


class TemplateSwitches(Body):
    enable_thinking: bool | None = None


class _Common(Body):
    model: str | None = None
    stream: bool | None = None
    max_tokens: Count | None = None
    temperature: Temperature | None = None
    top_p: Unit | None = None
    seed: int | None = None
    user: Ignored = None
    metadata: Ignored = None
    store: Ignored = None
    service_tier: Ignored = None
    prompt_cache_key: Ignored = None
    safety_identifier: Ignored = None
    prompt_cache_retention: Ignored = None


class _Sampled(_Common):
    stream_options: StreamOptions | None = None
    max_completion_tokens: Count | None = None
    top_k: Annotated[int, Field(ge=0)] | None = None  # llama.cpp / vLLM extension
    min_p: Unit | None = None
    stop: Stops | None = None
    n: Annotated[int | None, only(1)] = None
    logprobs: Annotated[bool | int | None, only(False)] = None
    top_logprobs: Annotated[int | None, only(0)] = None
    frequency_penalty: Penalty | None = None
    presence_penalty: Penalty | None = None
    logit_bias: Annotated[JsonValue, only({})] = None

    def read_into(self, out: Sampling, default_max_tokens: int) -> None:
        options = out.options
        options.max_tokens = default_max_tokens
        out.model = self.model or ""
        out.stream = bool(self.stream)
        out.include_usage = bool(self.stream_options and self.stream_options.include_usage)
        for given in (self.max_tokens, self.max_completion_tokens):
            if given is not None:
                options.max_tokens, out.max_tokens_given = given, True
        _sampling(self, options)
        options.top_k = options.top_k if self.top_k is None else self.top_k
        options.min_p = options.min_p if self.min_p is None else self.min_p
        out.stop = _stops(self.stop)


def _sampling(body: _Common, options: GenerateOptions) -> None:
    if body.temperature is not None:
        options.temperature = body.temperature
    if body.top_p is not None:
        options.top_p = body.top_p
    if body.seed is not None:
        options.seed = body.seed


def _stops(value: str | list[str] | None) -> list[str]:
    stops = [] if value is None else [value] if isinstance(value, str) else value
    if len(stops) > MAX_STOPS:
        raise bad_request(f"'stop' takes at most {MAX_STOPS} strings, not {len(stops)}.",
                          param="stop")
    return [s for s in stops if s]


class JsonSchemaSpec(Body):
    name: str | None = None
    description: Ignored = None
    schema_: dict[str, JsonValue] | None = Field(default=None, alias="schema")
    strict: bool | None = None


class ResponseFormat(Body):
    """Chat's response_format: plain text, any JSON object, or JSON valid against a schema."""

    type: Literal["text", "json_object", "json_schema"]
    json_schema: JsonSchemaSpec | None = None

    def wanted(self) -> dict[str, JsonValue] | None:
        return _schema(self.type, self.json_schema, "response_format.json_schema")


class TextFormat(JsonSchemaSpec):
    """The Responses API's text.format: the same choice, the schema's fields inline."""

    type: Literal["text", "json_object", "json_schema"]


class TextConfig(Body):
    format: TextFormat | None = None
    verbosity: Ignored = None


def _schema(kind: str, spec: JsonSchemaSpec | None, where: str) -> dict[str, JsonValue] | None:
    if kind == "text":
        return None
    if kind == "json_object":
        return {"type": "object"}
    if spec is None or spec.schema_ is None:
        raise bad_request(f"'{where}' needs a 'schema' for type \"json_schema\".", param=where)
    return spec.schema_


def _structured(options: GenerateOptions, schema: dict[str, JsonValue] | None) -> None:
    """The answer is the JSON itself: thinking is off so the grammar holds from the first
    token (a constrained model cannot write its reasoning first)."""
    if schema is not None:
        options.json_schema = schema
        options.enable_thinking = False


class ChatBody(_Sampled):
    messages: Annotated[list[ChatMessage], Field(min_length=1)]
    tools: list[ChatTool] | None = None
    tool_choice: JsonValue = None
    parallel_tool_calls: Ignored = None
    reasoning_effort: Literal["none", "minimal", "low", "medium", "high", "xhigh"] | None = None
    chat_template_kwargs: TemplateSwitches | None = None
    response_format: ResponseFormat | None = None
    verbosity: Ignored = None
    functions: Ignored = None
    function_call: Ignored = None
    modalities: Annotated[JsonValue, only(["text"])] = None
    audio: Annotated[JsonValue, only(None)] = None
    prediction: Annotated[JsonValue, only(None)] = None
    web_search_options: Annotated[JsonValue, only(None)] = None


def parse_chat(raw: dict[str, JsonValue], default_max_tokens: int) -> ChatRequest:
    """A chat completions body as messages and options (tools, thinking, sampling)."""
    body = validate(ChatBody, raw, "/v1/chat/completions")
    request = ChatRequest()
    body.read_into(request, default_max_tokens)
    request.messages = [m.message() for m in body.messages]
    options = request.options
    options.tools = _apply_choice([t.spec() for t in body.tools or []], body.tool_choice)
    enabled = body.reasoning_effort != "none"
    if body.chat_template_kwargs and body.chat_template_kwargs.enable_thinking is not None:
        enabled = body.chat_template_kwargs.enable_thinking
    options.enable_thinking = enabled
    if body.response_format is not None:
        _structured(options, body.response_format.wanted())
    # Inside a tool-using exchange the template keeps the earlier reasoning (as the app does).
    options.preserve_thinking = bool(options.tools)
    return request


def _apply_choice(tools: list[dict[str, JsonValue]], choice: JsonValue
                  ) -> list[dict[str, JsonValue]]:
    # The model cannot be forced to call: "required" and a named tool narrow what it is offered.
    if choice is None or choice in ("auto", "required"):
        return tools
    if choice == "none":
        return []
    if isinstance(choice, dict):
        function = choice.get("function")
        name = function.get("name") if isinstance(function, dict) else choice.get("name")
        named = [t for t in tools if isinstance(t["function"], dict)
                 and t["function"]["name"] == name]
        if not named:
            raise bad_request(f"'tool_choice' names {json.dumps(name)}, which is not in 'tools'.",
                              param="tool_choice")
        return named
    raise bad_request("'tool_choice' must be \"none\", \"auto\", \"required\" or a named "
                      "function.", param="tool_choice")


# -- /v1/completions ----------------------------------------------------------------------------

def _one_prompt(value: str | list[str]) -> str:
    if isinstance(value, list):
        if len(value) != 1:
            raise reason("must be a string (Hearth answers one prompt per request).")
        value = value[0]
    if not value:
        raise reason("is empty.")
    return value


class CompletionBody(_Sampled):
    prompt: Annotated[Annotated[str, Tag("~str")] | Annotated[list[str], Tag("~list")],
                      kinds("a string"), AfterValidator(_one_prompt)]
    echo: bool | None = None
    suffix: Annotated[JsonValue, only(None)] = None
    best_of: Annotated[int | None, only(1)] = None


def parse_completion(raw: dict[str, JsonValue], default_max_tokens: int) -> CompletionRequest:
    """A raw-prompt completion: the prompt goes to the engine exactly as given."""
    body = validate(CompletionBody, raw, "/v1/completions")
    request = CompletionRequest()
    body.read_into(request, default_max_tokens)
    assert isinstance(body.prompt, str)  # _one_prompt made it one
    request.prompt = body.prompt
    request.echo = bool(body.echo)
    request.options.raw_prompt = request.prompt
    return request


class ResponseTool(Lenient):
    type: Literal["function"]
    name: str
    description: str | None = None
    parameters: dict[str, JsonValue] | None = None

    def spec(self) -> dict[str, JsonValue]:
        return {"type": "function", "function": self.model_dump(
            include={"name", "description", "parameters"}, exclude_unset=True)}


class ReasoningConfig(Body):
    effort: Literal["none", "minimal", "low", "medium", "high", "xhigh"] | None = None
    summary: Ignored = None
    generate_summary: Ignored = None


class ResponsesBody(_Common):
    input: Input
    instructions: str | None = None
    max_output_tokens: Count | None = None
    tools: list[ResponseTool] | None = None
    tool_choice: JsonValue = None
    reasoning: ReasoningConfig | None = None
    parallel_tool_calls: Ignored = None
    text: TextConfig | None = None
    truncation: Ignored = None
    stream_options: Ignored = None
    include: Ignored = None
    max_tool_calls: Ignored = None
    top_logprobs: Annotated[int | None, only(0)] = None
    previous_response_id: Annotated[JsonValue, only(None)] = None
    background: Annotated[JsonValue, only(False)] = None
    conversation: Annotated[JsonValue, only(None)] = None


def parse_responses(raw: dict[str, JsonValue], default_max_tokens: int) -> ChatRequest:
    """The Responses API's input items as chat messages; nothing is stored between calls."""
    body = validate(ResponsesBody, raw, "/v1/responses")
    request = ChatRequest(model=body.model or "", stream=bool(body.stream))
    options = request.options
    options.max_tokens = default_max_tokens
    if body.max_output_tokens is not None:
        options.max_tokens, request.max_tokens_given = body.max_output_tokens, True
    _sampling(body, options)
    messages: list[Message] = []
    if body.instructions is not None:
        messages.append({"role": "system", "content": body.instructions})
    items = body.input
    messages += [{"role": "user", "content": items}] if isinstance(items, str) else \
        conversation([item_message(item) for item in items])
    request.messages = messages
    options.tools = _apply_choice([t.spec() for t in body.tools or []], body.tool_choice)
    if body.reasoning is not None and body.reasoning.effort == "none":
        options.enable_thinking = False
    form = body.text.format if body.text is not None else None
    if form is not None:
        _structured(options, _schema(form.type, form, "text.format"))
    options.preserve_thinking = bool(options.tools)
    return request
