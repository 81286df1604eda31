"""One incremental parser turning raw Nanbeige output into reasoning, text and tool-call events.

The model's output starts inside `<think>` (the generation prompt opened it), reasoning ends at
`</think>`, and tool calls arrive as `<tool_call>...</tool_call>` blocks in the XML format of
MODEL.md or the JSON variant. Rules, chosen to be lenient with untidy output:

- Whitespace at the edges of a reasoning or text segment is dropped (the template renders
  `<think>\\n{reasoning}\\n</think>\\n\\n{content}\\n\\n<tool_call>`); blank lines before a segment
  go but the indentation of its first line stays.
- A stray `<think>` at the very start of the output is skipped (and, when output was expected
  to start in the answer, it opens reasoning); so is a `</think>` at the very start of output
  expected to start in the answer.
- A text that could still become a tag (`<tool_`) is held back until it is decided, nothing more.
- `<tool_call>` opens a call when a newline, `<function=` or `{` follows it, in the answer or
  in reasoning that never closed (the reasoning ends there); followed on its line by other
  words (not a closer that is dropped, below) it is quoted in prose and stays text. A
  `</tool_call>` or `</think>` in the answer closes nothing and is dropped, unless it is quoted
  as code (right after a backtick).
- Inside `<tool_call>`: every `<function=NAME>` block becomes one ToolCall. A parameter ends at
  a `</parameter>` followed by the next parameter or the end of its function (so a value may
  quote the tags), at the next `<parameter=` or at the end of its function; `</tool_call>` inside
  an unfinished value is part of the value. A string value loses one leading and one trailing
  newline and the spaces and `\r` at its ends; a value that parses as JSON to a non-string
  (number, bool, null, object, array) becomes that value, unless the tool's schema allows a
  string there (`"string"`, `["string", "null"]`, a string branch of anyOf / oneOf).
- Written in the wrong JSON type, a value is converted where its schema leaves no doubt (`"3"`
  for an integer, `True` / `'false'` for a boolean, `3` for a string). A `<tool_call>` inside
  an unfinished value is part of the value. A JSON call with single quotes or trailing commas
  is read as the Python literal it is (and said in the log), not sent back as an error.
- `<|im_end|>` (or `<|endoftext|>`) written out as text ends the answer there: it is never
  shown, nor what the model writes after it (its idea of the next turn), unless quoted as code.
- A call whose `</tool_call>` is missing (end of output, or a new `<tool_call>` begins) still
  counts when its `</function>` arrived (the model was stopped right after it) or its JSON body
  is complete; otherwise it is reported as cut off with a StreamError, never an exception.
"""

from __future__ import annotations

import ast
import io
import json
import logging
import re
import tokenize
from collections.abc import Iterable, Sequence
from typing import Any

from backends.base import GenerateOptions
from backends.events import Event, Paused, ReasoningDelta, StreamError, TextDelta, ToolCall
from backends.nanbeige import STOP_TEXTS, THINK_CLOSE, THINK_OPEN, opens_reasoning

log = logging.getLogger(__name__)

CALL_OPEN = "<tool_call>"
CALL_CLOSE = "</tool_call>"
_FUNCTION_CLOSE = "</function>"

_REASONING, _TEXT, _TOOL = "reasoning", "text", "tool"
_WHITESPACE = " \t\r\n"
_FUNCTION_RE = re.compile(r"<function=([^>\n]*)>")
# A value ends at a `</parameter>` that is followed by the next parameter, the end of the
# function or the end of the call: text like `</parameter>` inside a value stays in the value.
_PARAMETER_RE = re.compile(
    r"<parameter=([^>\n]*)>(.*?)(?:</parameter>(?=\s*(?:<parameter=|</function>|\Z))"
    r"|(?=<parameter=)|\Z)", re.DOTALL
)
_LEADING_RE = re.compile(r"\A[ \t\r]*\n|\A[ \t]+")
_TRAILING_RE = re.compile(r"[ \t\r]*\n?[ \t\r]*\Z")
_UNDECIDED, _MARKUP, _LITERAL = "undecided", "markup", "literal"
_STRAY_CLOSERS = (CALL_CLOSE, THINK_CLOSE)  # in an answer: dropped unless quoted as `code`
_TEXT_TAGS = (CALL_OPEN, *_STRAY_CLOSERS, *STOP_TEXTS)
_REASONING_TAGS = (THINK_CLOSE, CALL_OPEN, *STOP_TEXTS)
_QUOTABLE = (*_STRAY_CLOSERS, *STOP_TEXTS)  # text when quoted as `code` in an answer
_CALL_STARTS = ("<function=", "{", CALL_OPEN)
_SNIPPET = 80


class OutputParser:
    """Feed raw model text in any chunks; get the same events whatever the chunking.

    One parser per generation. `tools` (OpenAI function specs) is optional: with it, parameters
    the schema types as strings stay strings even when they look like JSON ("123")."""

    def __init__(self, tool_call_format: str = "xml", starts_in_reasoning: bool = True,
                 tools: Iterable[dict[str, Any]] | None = None) -> None:
        if tool_call_format not in ("xml", "json"):
            raise ValueError(f"tool_call_format must be 'xml' or 'json', not {tool_call_format!r}")
        # Both formats are always accepted; the setting only records what the prompt asked for.
        self.tool_call_format = tool_call_format
        self._mode = _REASONING if starts_in_reasoning else _TEXT
        self._schemas = _parameter_schemas(tools or [])
        self._buf = ""
        self._scanned = 0  # how far _buf was searched for a closing tag in tool mode
        self._at_output_start = True  # nothing but whitespace seen yet
        self._at_segment_start = True  # strip whitespace until the segment's first character
        self._held_ws = ""  # trailing whitespace, emitted only if the segment goes on
        self._literal_upto = 0  # _buf before this index holds only `<tool_call>`s that are text
        self._finishing = False
        self._last_raw = ""
        self._ended = False  # `<|im_end|>` came as text

    def feed(self, text: str) -> list[Event]:
        """Parse the next piece of output; returns the events it completes."""
        if self._ended:
            return []  # after a spelled-out end of turn: the model is writing the next one
        self._buf += text
        events: list[Event] = []
        while self._step(events):
            pass
        return events

    def finish(self) -> list[Event]:
        """The output ended: flush what is held back, report a cut-off tool call."""
        events: list[Event] = []
        if self._ended:
            return events
        while self._step(events):
            pass
        self._finishing = True  # a `<tool_call>` with nothing after it now counts as a call
        while self._step(events):
            pass
        if self._mode == _TOOL:
            events += self._tool_events(self._buf, closed=False)
        else:
            self._emit(self._buf, events, segment_ends=True)
        self._buf, self._scanned, self._finishing = "", 0, False
        return events

    @property
    def in_reasoning(self) -> bool:
        """Whether the output is still inside the reasoning (for thinking budgets)."""
        return self._mode == _REASONING

    # -- the state machine -------------------------------------------------------------

    def _step(self, events: list[Event]) -> bool:
        """Consume what can be decided now; True when something changed and it is worth going on."""
        if self._at_output_start and self._skip_stray_think():
            return True
        if self._mode == _TOOL:
            return self._step_tool(events)
        tags = _REASONING_TAGS if self._mode == _REASONING else _TEXT_TAGS
        index, tag, verdict = self._next_tag(tags)
        if index < 0:
            keep = _held_prefix(self._buf, self._watched_tags(tags))
            self._emit_upto(len(self._buf) - keep, 0, events, segment_ends=False)
            return False
        if verdict == _UNDECIDED:  # `<tool_call>` seen, but not yet what follows it
            self._emit_upto(index, 0, events, segment_ends=False)
            return False
        if tag in STOP_TEXTS:  # the end of the turn spelled out as text: the answer ends there
            self._emit_upto(index, len(self._buf) - index, events, segment_ends=True)
            self._ended = True
            return False
        if self._mode == _TEXT and tag in _STRAY_CLOSERS:  # closes nothing: not answer text
            self._emit_upto(index, len(tag), events, segment_ends=False)
            return True
        self._emit_upto(index, len(tag), events, segment_ends=True)
        # A call opened inside reasoning that never closed: the reasoning ends there.
        self._mode = _TOOL if tag == CALL_OPEN else _TEXT
        self._start_segment()
        return True

    def _emit_upto(self, index: int, skip: int, events: list[Event], segment_ends: bool) -> None:
        """Emit the buffer before `index`, drop `skip` characters there and keep the rest."""
        self._emit(self._buf[:index], events, segment_ends)
        self._buf = self._buf[index + skip:]
        self._literal_upto = 0

    def _next_tag(self, tags: tuple[str, ...]) -> tuple[int, str, str]:
        """The first tag in the buffer that acts as markup: (index, tag, verdict) or (-1, "", "").

        `<tool_call>` quoted in prose (followed on its line by other words) is plain text."""
        start = self._literal_upto
        while True:
            found = [(i, t) for t in tags if (i := self._buf.find(t, start)) >= 0]
            if not found:
                return -1, "", ""
            index, tag = min(found)
            before = self._buf[index - 1:index] if index else self._last_raw
            if self._mode == _TEXT and tag in _QUOTABLE and before == "`":
                start = index + len(tag)  # quoted as code in the answer: text
                self._literal_upto = start
                continue
            if tag != CALL_OPEN:
                return index, tag, _MARKUP
            dropped = _STRAY_CLOSERS if self._mode == _TEXT else ()
            verdict = _opens_call(self._buf[index + len(CALL_OPEN):], self._finishing, dropped)
            if verdict != _LITERAL:
                return index, tag, verdict
            start = index + len(CALL_OPEN)
            self._literal_upto = start

    def _skip_stray_think(self) -> bool:
        """At the very start, drop a `<think>` the model repeated (or opened when not expected),
        and a `</think>` that closes reasoning which never opened (Non-Think, or a server that
        split the reasoning out already): neither is ever part of an answer."""
        stripped = self._buf.lstrip(_WHITESPACE)
        if stripped.startswith(THINK_OPEN):
            self._buf = stripped[len(THINK_OPEN):]
            self._mode = _REASONING
            self._at_output_start = False
            self._start_segment()
            return True
        stray_close = self._mode == _TEXT
        if stray_close and stripped.startswith(THINK_CLOSE):
            self._buf = stripped[len(THINK_CLOSE):]
            self._at_output_start = False
            self._start_segment()
            return True
        if stripped and not THINK_OPEN.startswith(stripped) and not (
                stray_close and THINK_CLOSE.startswith(stripped)):
            self._at_output_start = False
        return False

    def _watched_tags(self, tags: tuple[str, ...]) -> tuple[str, ...]:
        return (*tags, THINK_OPEN, THINK_CLOSE) if self._at_output_start else tags

    def _step_tool(self, events: list[Event]) -> bool:
        start = max(0, self._scanned - len(CALL_CLOSE))
        close = self._buf.find(CALL_CLOSE, start)
        while close >= 0 and not self._finishing and not _call_complete(self._buf[:close]):
            close = self._buf.find(CALL_CLOSE, close + 1)  # `</tool_call>` inside a value
        reopen = self._buf.find(CALL_OPEN, start)
        while reopen >= 0 and not _call_complete(self._buf[:reopen]):
            reopen = self._buf.find(CALL_OPEN, reopen + 1)  # `<tool_call>` inside a value
        if close < 0 and reopen < 0:
            self._scanned = len(self._buf)
            return False
        if close >= 0 and (reopen < 0 or close < reopen):
            events += self._tool_events(self._buf[:close], closed=True)
            self._buf = self._buf[close + len(CALL_CLOSE):]
            self._mode = _TEXT
            self._start_segment()
        else:  # a new call began before this one was closed
            events += self._tool_events(self._buf[:reopen], closed=False)
            self._buf = self._buf[reopen + len(CALL_OPEN):]
        self._scanned = 0
        return True

    def _start_segment(self) -> None:
        self._at_segment_start = True
        self._held_ws = ""

    def _emit(self, text: str, events: list[Event], segment_ends: bool) -> None:
        """Emit segment text, trimming its edges without ever emitting whitespace too early."""
        if text:
            self._last_raw = text[-1]  # what precedes the buffer (a backtick quotes a tag)
        text = self._held_ws + text
        self._held_ws = ""
        if self._at_segment_start:
            body = text.lstrip(_WHITESPACE)
            if not body:
                self._held_ws = "" if segment_ends else text
                return
            lead = text[: len(text) - len(body)]
            text = lead[lead.rfind("\n") + 1:] + body if "\n" in lead else body
            self._at_segment_start = False
        body = text.rstrip(_WHITESPACE)
        if not segment_ends:
            self._held_ws = text[len(body):]
        if body:
            events.append(ReasoningDelta(body) if self._mode == _REASONING else TextDelta(body))

    # -- tool calls ----------------------------------------------------------------------

    def _tool_events(self, body: str, closed: bool) -> list[Event]:
        raw = CALL_OPEN + body + (CALL_CLOSE if closed else "")
        stripped = body.strip()
        if stripped.startswith("{"):
            return [_json_call(stripped, raw, closed, self._schemas)]
        if _FUNCTION_RE.search(body):
            return self._xml_calls(body, raw, closed)
        if not closed:
            return [StreamError(f"The model's tool call was cut off before it named a function: "
                                f"{_snippet(raw)}")]
        return [StreamError(f"The model wrote a tool call Hearth cannot read (no function name): "
                            f"{_snippet(raw)}")]

    def _xml_calls(self, body: str, raw: str, closed: bool) -> list[Event]:
        starts = list(_FUNCTION_RE.finditer(body))
        events: list[Event] = []
        for number, match in enumerate(starts):
            is_last = number == len(starts) - 1
            end = len(body) if is_last else starts[number + 1].start()
            chunk = body[match.end():end]
            close = chunk.rfind(_FUNCTION_CLOSE)  # the last: a value may quote the tag
            name = match.group(1).strip()
            if close < 0 and is_last and not closed:
                events.append(StreamError(f"The model's call to tool '{name}' was cut off before "
                                          f"it was complete: {_snippet(body[match.start():])}"))
                continue
            if close >= 0:
                chunk = chunk[:close]
            if not name:
                events.append(StreamError(f"The model wrote a tool call with an empty function "
                                          f"name: {_snippet(body[match.start():end])}"))
                continue
            events.append(ToolCall(name, self._xml_arguments(name, chunk), raw=raw))
        tail = body[body.rfind(_FUNCTION_CLOSE) + len(_FUNCTION_CLOSE):].strip(_WHITESPACE)
        if not closed and _FUNCTION_CLOSE in body and tail:
            events.append(TextDelta(tail))  # `</tool_call>` never came: what follows is answer
        return events

    def _xml_arguments(self, name: str, chunk: str) -> dict[str, Any]:
        arguments: dict[str, Any] = {}
        for match in _PARAMETER_RE.finditer(chunk):
            key = match.group(1).strip()
            # Untidy output pads values with spaces and `\r`: they are never part of the value.
            value = _LEADING_RE.sub("", match.group(2), count=1)
            value = _TRAILING_RE.sub("", value, count=1)
            schema = self._schemas.get((name, key), {})
            arguments[key] = value if allows_string(schema) else by_schema(_typed(value), schema)
        return arguments


class Reading:
    """A local generation's output through its parser, token by token: what the engines (llama.cpp
    and MLX, single and batched paths, and the scripted one) count alike, and how they close it."""

    def __init__(self, prompt: str, options: GenerateOptions) -> None:
        self.options = options
        self.parser = OutputParser(options.tool_call_format, tools=options.tools,
                                   starts_in_reasoning=opens_reasoning(prompt))
        self.reasoning = 0  # tokens generated inside the reasoning
        self.saw_call = False

    def feed(self, text: str) -> list[Event]:
        """The text of one generated token: its events."""
        self.reasoning += self.parser.in_reasoning
        events = self.parser.feed(text)
        self.saw_call = self.saw_call or any(isinstance(e, ToolCall) for e in events)
        return events

    def over_budget(self) -> bool:
        """The thinking-budget check: still reasoning, and the budget is spent."""
        budget = self.options.thinking_budget
        return budget is not None and self.parser.in_reasoning and self.reasoning >= budget

    def close(self, finish: str, output: Sequence[int] = (), tail: str = ""
              ) -> tuple[list[Event], str]:
        """What follows the last token, before Done: Paused with the `output` tokens when a stop
        cut it short (the generation may go on from them), then the `tail` text and what the
        parser still held; and the finish reason ("tool_calls" for an answer that called)."""
        cancelled = finish == "cancelled"
        events: list[Event] = [Paused(tuple(output))] if cancelled and output else []
        for event in self.parser.feed(tail) + self.parser.finish():
            if cancelled and isinstance(event, StreamError):
                continue  # a call cut off by the user's own stop is not an error to report
            self.saw_call = self.saw_call or isinstance(event, ToolCall)
            events.append(event)
        return events, "tool_calls" if finish == "stop" and self.saw_call else finish


def _held_prefix(buf: str, tags: tuple[str, ...]) -> int:
    """How many characters at the end of buf could still be the start of one of tags."""
    start = buf.rfind("<")
    if start < 0:
        return 0
    tail = buf[start:]
    return len(tail) if any(tag.startswith(tail) and tag != tail for tag in tags) else 0


def _reject_constant(name: str) -> Any:
    raise ValueError(name)  # NaN / Infinity are strings to us, not floats


def _typed(value: str) -> Any:
    """JSON numbers, booleans, null, objects and arrays become values; everything else a string."""
    try:
        parsed = json.loads(value, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        return value
    return value if isinstance(parsed, str) else parsed


def _json_call(body: str, raw: str, closed: bool,
               schemas: dict[tuple[str, str], dict[str, Any]]) -> Event:
    """The JSON variant: {"name": ..., "arguments": {...}} (arguments may be a JSON string)."""
    try:
        obj = _decoded(body)
    except (ValueError, RecursionError):
        if not closed:
            return StreamError(f"The model's tool call was cut off before it was complete: "
                               f"{_snippet(raw)}")
        return StreamError(f"The model wrote a tool call that is not valid JSON: {_snippet(raw)}")
    name = obj.get("name") if isinstance(obj, dict) else None
    if not isinstance(name, str) or not name.strip():
        return StreamError(f"The model wrote a tool call without a function name: {_snippet(raw)}")
    arguments = obj.get("arguments", obj.get("parameters", {}))
    if isinstance(arguments, str):
        arguments = _typed(arguments) if arguments.strip() else {}
    if not isinstance(arguments, dict):
        return StreamError(f"The model's call to tool '{name}' has arguments that are not an "
                           f"object: {_snippet(raw)}")
    name = name.strip()
    arguments = {key: by_schema(value, schemas.get((name, key), {}))
                 for key, value in arguments.items()}
    return ToolCall(name, arguments, raw=raw)


def _decoded(body: str) -> Any:
    """The JSON call's object; written with a trailing comma or single quotes (Python style),
    repaired and said in the log rather than sent back to the model as an error."""
    try:
        return json.JSONDecoder().raw_decode(body)[0]
    except (ValueError, RecursionError):
        repaired = _python_literal(body)
        if repaired is None:
            raise
        log.info("Repaired a tool call that was not strict JSON: %s", _snippet(body))
        return repaired


def _python_literal(body: str) -> Any:
    """`body` read as a Python literal (single quotes, trailing commas), with JSON's true, false
    and null as names only (never inside a string); None when it is not one."""
    try:
        tokens = [(t.type, _JSON_NAMES.get(t.string, t.string) if t.type == tokenize.NAME
                   else t.string) for t in tokenize.generate_tokens(io.StringIO(body).readline)]
        return ast.literal_eval(tokenize.untokenize(tokens).strip())
    except (SyntaxError, ValueError, tokenize.TokenError, RecursionError, MemoryError):
        return None


_JSON_NAMES = {"true": "True", "false": "False", "null": "None"}


def _parameter_schemas(tools: Iterable[dict[str, Any]]) -> dict[tuple[str, str], dict[str, Any]]:
    """Each (function, parameter)'s schema: a value where it allows a string is never typed,
    and one written in the wrong JSON type is converted where the schema leaves no doubt."""
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for tool in tools:
        function = _mapping(tool.get("function", tool))
        properties = _mapping(_mapping(function.get("parameters")).get("properties"))
        for key, schema in properties.items():
            found[(str(function.get("name", "")), str(key))] = _mapping(schema)
    return found


_INTEGER_RE = re.compile(r"[-+]?\d+")


def by_schema(value: object, schema: dict[str, Any]) -> Any:
    """A string where the schema wants a number or a boolean (`"3"`, `True`, `'false'`), or a
    number where it wants only a string, converted when it can mean only that; anything else
    is left as it is."""
    if isinstance(value, (int, float)) and not isinstance(value, bool) \
            and schema.get("type") == "string":
        return json.dumps(value)
    if not isinstance(value, str) or allows_string(schema):
        return value
    kind = schema.get("type")
    kinds = set(kind) if isinstance(kind, list) else {kind}
    text = value.strip().strip("\"'").strip()
    if "boolean" in kinds and text.lower() in ("true", "false"):
        return text.lower() == "true"
    if kinds & {"integer", "number"} and _INTEGER_RE.fullmatch(text):
        return int(text)
    if "number" in kinds:
        try:
            number = float(text)
        except ValueError:
            return value
        return number if number == number and abs(number) != float("inf") else value
    return value


def allows_string(schema: dict[str, Any]) -> bool:
    """Whether a JSON schema accepts a string: "string" in its type (alone or in a list, the MCP
    shape `["string", "null"]`), a string branch of anyOf / oneOf, or a string enum / const."""
    kind = schema.get("type")
    if kind == "string" or (isinstance(kind, list) and "string" in kind):
        return True
    branches = [b for key in ("anyOf", "oneOf") if isinstance(schema.get(key), list)
                for b in schema[key]]
    if any(allows_string(_mapping(branch)) for branch in branches):
        return True
    choices = schema.get("enum")
    listed = choices if isinstance(choices, list) else []
    return any(isinstance(c, str) for c in listed) or isinstance(schema.get("const"), str)


def _opens_call(after: str, final: bool, dropped: tuple[str, ...] = ()) -> str:
    """Does a `<tool_call>` followed by `after` open a call? Markup, literal or not yet known.

    `dropped` are the tags that would be removed right after it (stray closers in an answer):
    they are not words quoting the tag, so what follows them decides."""
    rest = after.lstrip(" \t")
    while (closer := next((t for t in dropped if rest.startswith(t)), None)) is not None:
        rest = rest[len(closer):].lstrip(" \t")
    if rest[:1] in ("\n", "\r") or rest.startswith(_CALL_STARTS):
        return _MARKUP
    if not rest or any(start.startswith(rest) for start in _CALL_STARTS):
        return _MARKUP if final else _UNDECIDED
    if not final and any(closer.startswith(rest) for closer in dropped):
        return _UNDECIDED  # perhaps a closer still arriving
    return _LITERAL


def _call_complete(body: str) -> bool:
    """A `</tool_call>` after this body really closes it: it is not text inside a parameter
    value (at the end of the output the first close counts anyway)."""
    last = next(reversed(list(_PARAMETER_RE.finditer(body))), None)
    if last is None or last.end() < len(body):
        return True
    return body[last.start():].rstrip(_WHITESPACE).endswith(("</parameter>", _FUNCTION_CLOSE))


def _mapping(value: object) -> dict[str, Any]:
    # Tool specs come from skills and MCP servers: tolerate odd shapes instead of crashing.
    return value if isinstance(value, dict) else {}


def _snippet(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _SNIPPET else text[: _SNIPPET - 1] + "…"
