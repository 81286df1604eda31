"""Drafts of a tool call's frame from which of its parameters are already written.

A call in the XML format (`<function=NAME>`, then `<parameter=KEY>` + value + `</parameter>`
for each argument, then `</function>`) has a frame the offered tool's schema fixes: once a
value's `</parameter>` is coming, what follows is the next parameter not yet written or, when
all are, the call's end. Earlier text cannot tell which: a one-shot example, the frame and the
answer itself go on with `<parameter=title>` after one value and `</function>` after another,
so prompt lookup (backends/prompt_lookup.py) stops its draft where they part. Knowing the
call so far, this module can say which way the frame goes.

Token sequences only: each tool's frame pieces are tokenized once per prompt by the model's
tokenizer and the call's state is read by finding them among the tokens. Only ever drafts:
the model checks every drafted token."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from backends.token_search import occurrences

MIN_SEEN = 2  # tokens of a value's end (`\n`, `</`) the answer must have written first
VALUE_END = "\n</parameter>\n"
CALL_END = "</function>\n</tool_call>\n"


@dataclass(frozen=True)
class _Tool:
    head: tuple[int, ...]  # `<function=NAME>`
    markers: tuple[tuple[int, ...], ...]  # `<parameter=KEY>` of each parameter it expects
    # After a value: `\n</parameter>\n` then the i-th expected parameter's `<parameter=KEY>\n`,
    # the last one `\n</parameter>\n</function>\n</tool_call>\n`.
    nexts: tuple[tuple[int, ...], ...]


class FrameDrafts:
    """The rest of a call's frame after a value's end, for the tools a prompt offers."""

    def __init__(self, tools: Sequence[dict[str, Any]], tokenize: Callable[[str], list[int]]
                 ) -> None:
        self._tools = [_tool(tool, tokenize) for tool in tools]
        self._tools = [tool for tool in self._tools if tool.head]
        self._opening = _shared_start([tool.head for tool in self._tools])  # `<function=`
        self._close = tuple(tokenize("</function>"))

    def __bool__(self) -> bool:
        return bool(self._tools)

    def after(self, history: np.ndarray, draft: Sequence[int], room: int
              ) -> tuple[int, list[int]]:
        """Where in `draft` (tokens that would follow `history`) the frame takes over, and the
        frame's tokens from there, at most `room` in all: (len(draft), []) when the answer is at
        no value's end of an open call. The frame overrides the draft from the first place it
        knows: a draft past a value's end is an earlier call's way, not this one's."""
        found = self._open_call(history)
        if found is None:
            return len(draft), []
        tool, call = found
        window = max(len(frame) for frame in tool.nexts)
        for at in range(min(len(draft), room - 1) + 1):
            tail = [*call[-window:], *draft[:at]]
            if max(_overlap(tail, frame) for frame in tool.nexts) < MIN_SEEN:
                continue  # no value's end here: spare the search for written parameters
            frame = tool.nexts[_written(tool, [*call, *draft[:at]])]
            seen = _overlap(tail, frame)
            if seen >= MIN_SEEN:
                return at, list(frame[seen:seen + room - at])
        return len(draft), []

    def _open_call(self, history: np.ndarray) -> tuple[_Tool, list[int]] | None:
        """The tool whose call the history's end is inside, and the call's tokens so far: the
        last call begun (one search, for the start all the tools' heads share), if it is to
        one of these tools and not over."""
        start = _last(history, self._opening)
        if start < 0:
            return None
        call = history[start:].tolist()
        tool = next((tool for tool in self._tools if call[:len(tool.head)] == list(tool.head)),
                    None)
        if tool is None or _last(np.asarray(call, dtype=np.int64), self._close) >= 0:
            return None  # a call to another function, or that call is over
        return tool, call


def _tool(tool: dict[str, Any], tokenize: Callable[[str], list[int]]) -> _Tool:
    function = tool.get("function", tool)
    schema = function.get("parameters") or {}
    names = list(schema.get("properties") or {})
    required = [name for name in names if name in (schema.get("required") or [])]
    # A schema that marks none required: a call writes them all (the common case).
    expected = required or names
    name = function.get("name", "")
    if not name:
        return _Tool((), (), ())
    nexts = [tuple(tokenize(f"{VALUE_END}<parameter={key}>\n")) for key in expected]
    nexts.append(tuple(tokenize(VALUE_END + CALL_END)))
    return _Tool(tuple(tokenize(f"<function={name}>")),
                 tuple(tuple(tokenize(f"<parameter={key}>")) for key in expected), tuple(nexts))


def _shared_start(heads: list[tuple[int, ...]]) -> tuple[int, ...]:
    """The tokens all the heads start with (`<function=`; a lone tool's whole head)."""
    shared = heads[0] if heads else ()
    for head in heads[1:]:
        size = next((i for i, (a, b) in enumerate(zip(shared, head, strict=False))
                     if a != b),
                    min(len(shared), len(head)))
        shared = shared[:size]
    return shared


def _written(tool: _Tool, call: list[int]) -> int:
    """The index of the first expected parameter the call has not written (len: all are)."""
    tokens = np.asarray(call, dtype=np.int64)
    for index, marker in enumerate(tool.markers):
        if _last(tokens, marker) < 0:
            return index
    return len(tool.markers)


def _overlap(tail: list[int], frame: tuple[int, ...]) -> int:
    """The most tokens at the end of `tail` that start `frame` (short of all of it)."""
    for seen in range(min(len(tail), len(frame) - 1), 0, -1):
        if tail[-seen:] == list(frame[:seen]):
            return seen
    return 0


def _last(tokens: np.ndarray, pattern: tuple[int, ...]) -> int:
    """Where the last occurrence of `pattern` in `tokens` starts, -1 if none."""
    hits = occurrences(tokens, pattern)
    return int(hits[-1]) if hits.size else -1
