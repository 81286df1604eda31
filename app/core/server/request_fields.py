"""What OpenAI request models are made of: exact JSON field types, text content parts, tool
call arguments, and pydantic's errors as OpenAI's refusals (the field as `param`, one line)."""

from __future__ import annotations

import json
from typing import Annotated, Literal, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Discriminator,
    Field,
    JsonValue,
    Tag,
    ValidationError,
    model_validator,
)
from pydantic_core import ErrorDetails, PydanticCustomError

from app.core.server.errors import ApiError, bad_request

ROLES = {"system": "system", "developer": "system", "user": "user", "assistant": "assistant",
         "tool": "tool", "function": "tool"}

# -- refusals in OpenAI's shape ---------------------------------------------------------------

_KINDS = {"string_type": "a string", "int_type": "an integer", "float_type": "a number",
          "bool_type": "a boolean", "list_type": "an array", "dict_type": "an object",
          "model_type": "an object", "model_attributes_type": "an object",
          "union_tag_not_found": "an object"}


def _type_name(value: object) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
            type(None): "null", int: "an integer", float: "a number"}.get(type(value), "a value")


def _param(loc: tuple[int | str, ...]) -> str:
    """`messages[0].content` from pydantic's location (union tags, written ~x, left out)."""
    text = ""
    for part in loc:
        if isinstance(part, int):
            text += f"[{part}]"
        elif not part.startswith("~"):
            text += f".{part}" if text else part
    return text


def _refusal(error: ErrorDetails, endpoint: str) -> ApiError:
    """One validation error as the 400 a client reads: the field first, then what is wrong."""
    param, kind, given = _param(error["loc"]), error["type"], error.get("input")
    ctx = error.get("ctx") or {}
    if kind == "extra_forbidden":
        where = f" for {endpoint}" if "." not in param and "[" not in param else ""
        return bad_request(f"Unknown field '{param}'{where}.", param=param)
    if kind == "missing":
        return bad_request(f"'{param}' is required.", param=param)
    if kind in _KINDS:
        reason = f"must be {_KINDS[kind]}, not {_type_name(given)}."
    elif kind == "literal_error":
        expected = str(ctx.get("expected", "")).replace("'", "")
        choices = f"one of {expected}" if " or " in expected else json.dumps(expected)
        reason = f"must be {choices}, not {json.dumps(given)}."
    elif kind in ("greater_than_equal", "less_than_equal"):
        least = kind == "greater_than_equal"
        reason = f"must be at {'least' if least else 'most'} {ctx['ge' if least else 'le']:g}, not {given}."
    elif kind == "too_short":
        reason = "must hold at least one item."
    elif kind == "kind":  # a field that takes one of several JSON types
        reason = f"must be {error['msg']}, not {_type_name(given)}."
    else:  # Hearth's own reasons are phrased to follow the field's name
        reason = error["msg"]
    return bad_request(f"'{param}' {reason}", param=param or None)


_M = TypeVar("_M", bound=BaseModel)


def validate(model: type[_M], raw: dict[str, JsonValue], endpoint: str) -> _M:
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        raise _refusal(exc.errors()[0], endpoint) from None


def reason(text: str) -> PydanticCustomError:
    return PydanticCustomError("hearth", "{reason}", {"reason": text})


# -- field types --------------------------------------------------------------------------------

def only(expected: JsonValue) -> AfterValidator:
    """A field Hearth accepts only at its neutral value."""
    def check(value: JsonValue) -> JsonValue:
        if value is not None and value != expected and not (expected is False and value == 0):
            raise reason(f"is not supported by Hearth's server (only {json.dumps(expected)}).")
        return value
    return AfterValidator(check)


def _json_kind(value: object) -> str | None:
    """The union tag for a field that takes a string, an array or an object."""
    kinds: dict[type, str] = {str: "~str", list: "~list", dict: "~dict"}
    return kinds.get(type(value))


def kinds(what: str) -> Discriminator:
    return Discriminator(_json_kind, custom_error_type="kind", custom_error_message=what)


def arguments(value: JsonValue) -> dict[str, JsonValue]:
    """OpenAI sends arguments as a JSON string; the template needs a mapping."""
    if value is None or value == "":
        return {}
    if isinstance(value, dict):
        return value
    if not isinstance(value, str):
        raise reason(f"must be a JSON string, not {_type_name(value)}.")
    try:
        parsed = json.loads(value)
    except json.JSONDecodeError as exc:
        raise reason(f"is not valid JSON: {exc.msg}.") from None
    if not isinstance(parsed, dict):
        raise reason("must be a JSON object.")
    return parsed


Ignored = JsonValue  # changes nothing about the answer (metadata, caching hints, user ids)
Count = Annotated[int, Field(ge=1)]
Unit = Annotated[float, Field(ge=0, le=1)]
Temperature = Annotated[float, Field(ge=0, le=2)]
Penalty = Annotated[float, only(0)]
Arguments = Annotated[JsonValue, AfterValidator(arguments)]
Stops = Annotated[Annotated[str, Tag("~str")] | Annotated[list[str], Tag("~list")],
                  kinds("a string or an array of strings")]


class Body(BaseModel):
    """Every field named, JSON types exact: a typo or a wrong type is refused by name."""

    model_config = ConfigDict(extra="forbid", strict=True)


class Lenient(BaseModel):
    """A part OpenAI's SDKs fill with fields that change nothing here (tool call bookkeeping)."""

    model_config = ConfigDict(extra="ignore", strict=True)


# -- message content ----------------------------------------------------------------------------

_TEXT_PARTS = ("text", "input_text", "output_text", "summary_text", "reasoning_text")


class TextPart(Body):
    type: Literal["text", "input_text", "output_text", "summary_text", "reasoning_text"]
    text: str
    annotations: Ignored = None
    logprobs: Ignored = None
    parsed: Ignored = None  # the SDK's parse helpers add it to what they return


class RefusalPart(Body):
    type: Literal["refusal"]
    refusal: str = ""


class UnreadablePart(BaseModel):
    """An image, audio or file part: refused, the model reads text only."""

    @model_validator(mode="before")
    @classmethod
    def refuse(cls, value: dict[str, JsonValue]) -> None:
        raise reason(f"is a {json.dumps(value.get('type'))} part; Hearth's model reads text "
                      "only.")


def _part_kind(value: object) -> str | None:
    if not isinstance(value, dict):
        return None
    kind = value.get("type")
    if kind == "refusal":
        return "~refusal"
    return "~text" if kind in _TEXT_PARTS else "~other"


Part = Annotated[Annotated[TextPart, Tag("~text")] | Annotated[RefusalPart, Tag("~refusal")]
                 | Annotated[UnreadablePart, Tag("~other")], Discriminator(_part_kind)]
Content = Annotated[Annotated[str, Tag("~str")] | Annotated[list[Part], Tag("~list")],
                    kinds("a string or an array of parts")]


def text_of(content: str | list[TextPart | RefusalPart | UnreadablePart] | None) -> str:
    if content is None or isinstance(content, str):
        return content or ""
    return "".join(p.text if isinstance(p, TextPart) else
                   p.refusal if isinstance(p, RefusalPart) else "" for p in content)
