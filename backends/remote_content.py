"""Content sent to a remote server carries no control strings: each is broken by a word joiner.

Why not safe_tokens' sentinels: a remote server renders (or is sent) the prompt as text and
tokenizes it itself with special tokens on, so Hearth cannot tokenize content segments as
plain text, and does not know the server's vocabulary. Decision (issue 18): before a request
is built, every content string (message text, reasoning, tool results and names, tool-call
arguments, tool schemas) has each string that looks like a control token (`<|im_end|>`,
`<think>`, `[INST]`, DeepSeek's `<｜...｜>`, and every tag the model's own template writes)
broken after its first character by U+2060 WORD JOINER. The joiner is invisible (the user's
text reads the same in the prompt view), has no NFC/NFKC mapping (normalizing servers keep
it), and is in no vocabulary's special token, so no server tokenizer can match the string;
the model still reads the characters around it. The template's own markup is never touched:
the chat path sends content only, and the raw path renders the template over defused content.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from backends.base import GenerateOptions, Message

JOINER = "\u2060"

# Shapes of special tokens across the model families a server may serve; a template's own tags
# are added per model (ControlPattern), so a new family is covered by its template alone.
GENERIC = (r"<\|[^<>|\n]{1,64}\|>", "<\uff5c[^<>\uff5c\n]{1,64}\uff5c>",
           r"\[/?(?:INST|SYSTEM_PROMPT|AVAILABLE_TOOLS|TOOL_CALLS|TOOL_RESULTS|TOOL_CONTENT)\]",
           r"</?(?:s|unk|pad|bos|eos|think|tool_call|tool_response|start_of_turn|end_of_turn)>")
_TEMPLATE_TAG = re.compile(r"</?[A-Za-z_][\w.-]{0,40}>")
_CONTENT_FIELDS = ("content", "reasoning_content", "reasoning", "name", "text")


class ControlPattern:
    """What looks like a control token to some server, and how to break it."""

    def __init__(self, template_source: str = "") -> None:
        tags = sorted(set(_TEMPLATE_TAG.findall(template_source)), key=len, reverse=True)
        self._pattern = re.compile("|".join([*GENERIC, *(re.escape(t) for t in tags)]))

    def text(self, value: str) -> str:
        """`value` with a word joiner after the first character of each control string."""
        return self._pattern.sub(lambda m: m.group(0)[0] + JOINER + m.group(0)[1:], value)

    def deep(self, value: Any) -> Any:
        """A copy of a JSON-like value with every string and key broken (tool schemas, tool-call
        arguments); `type` values stay, they are the schema's own words."""
        if isinstance(value, str):
            return self.text(value)
        if isinstance(value, dict):
            return {self.text(k): v if k == "type" else self.deep(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.deep(v) for v in value]
        return value

    def message(self, message: Message) -> Message:
        """A copy of one chat message with its content broken; role and ids stay."""
        out = dict(message)
        for field in _CONTENT_FIELDS:
            if field in out:
                out[field] = self.deep(out[field])  # a string, or a list of content parts
        if out.get("tool_calls"):
            out["tool_calls"] = [self._call(c) for c in out["tool_calls"]]
        return out

    def _call(self, call: Any) -> Any:
        if not isinstance(call, dict):
            return call
        out = dict(call)
        function = out.get("function")
        if isinstance(function, dict):
            out["function"] = {**function, "name": self.deep(function.get("name", "")),
                               "arguments": self.deep(function.get("arguments"))}
        for field in ("name", "arguments"):  # Hearth's flat form
            if field in out:
                out[field] = self.deep(out[field])
        return out

    def request(self, messages: list[Message], options: GenerateOptions
                ) -> tuple[list[Message], GenerateOptions]:
        """The messages and options of one request, content broken, ready to render or send.

        options.assistant_prefix (the model's own reply being continued) stays as it is."""
        return ([self.message(m) for m in messages],
                dataclasses.replace(options, tools=self.deep(options.tools)))
