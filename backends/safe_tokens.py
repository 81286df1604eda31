"""Text from outside never becomes control tokens: only the chat template's markup does.

Decision (issue 18): mark, render, tokenize in segments. Before the template renders, every
string the messages and tool schemas carry (user text, tool results, file names, calendar
fields, MCP results and descriptions, documents, history, tool-call arguments, dict keys) has
each occurrence of a vocabulary special string (`<|im_end|>`, `<think>`, ...) wrapped in two
private-use sentinels. The template renders as usual, so string tests it makes on content still
work; the rendered prompt is then cut at the sentinels: the template's own text is tokenized
with special tokens on, each wrapped string as plain text. The model therefore reads the
user's exact characters (nothing is rewritten or escaped visibly, so a pasted `<|im_end|>`
stays legible to it), but can only ever see the template's control tokens as control.
Placeholders for whole contents were rejected: templates strip, split and `tojson` content,
which a placeholder cannot survive. Visible escaping was rejected: it changes what the user
wrote, and needs a per-model list of look-alikes anyway.

Sentinel characters already present in content are left alone: the regex only matches a
sentinel pair around a known special string, and such a pair in content is itself wrapped.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from backends.base import GenerateOptions, Message
from backends.chat_format import ChatTemplate

OPEN, CLOSE = "\ue000", "\ue001"

Tokenize = Callable[[str], list[int]]


class ControlStrings:
    """The special strings of one vocabulary and how to keep them out of content."""

    def __init__(self, texts: Iterable[str]) -> None:
        # Longest first, so `<|im_end|>` wins over any shorter special it starts with.
        self.texts = tuple(sorted({t for t in texts if t.strip()}, key=len, reverse=True))
        alternatives = "|".join(re.escape(t) for t in self.texts)
        self._bare = re.compile(alternatives) if self.texts else None
        self._marked = re.compile(f"{OPEN}({alternatives}){CLOSE}") if self.texts else None

    def mark(self, value: object) -> Any:
        """A copy of `value` (str, list, dict) with every special string wrapped in sentinels."""
        if isinstance(value, str):
            if self._bare is None:
                return value
            return self._bare.sub(lambda m: OPEN + m.group(0) + CLOSE, value)
        if isinstance(value, dict):
            return {self.mark(k): self.mark(v) for k, v in value.items()}
        if isinstance(value, (list, tuple)):
            return [self.mark(v) for v in value]
        return value

    def segments(self, rendered: str) -> list[tuple[str, bool]]:
        """(text, is_markup) pieces of a prompt rendered from marked messages."""
        if self._marked is None:
            return [(rendered, True)]
        pieces: list[tuple[str, bool]] = []
        at = 0
        for match in self._marked.finditer(rendered):
            if match.start() > at:
                pieces.append((rendered[at:match.start()], True))
            pieces.append((match.group(1), False))
            at = match.end()
        if at < len(rendered) or not pieces:
            pieces.append((rendered[at:], True))
        return pieces

    def first(self, text: str) -> re.Match[str] | None:
        return self._bare.search(text) if self._bare is not None else None


@dataclass(frozen=True)
class EncodedPrompt:
    """The prompt exactly as the user would read it, and the token ids the engine is fed."""

    text: str
    tokens: list[int]


def render_marked(template: ChatTemplate, controls: ControlStrings, messages: list[Message],
                  options: GenerateOptions,
                  add_generation_prompt: bool = True) -> list[tuple[str, bool]]:
    """Render the template over marked content; returns its (text, is_markup) segments."""
    marked = dataclasses.replace(options, tools=controls.mark(options.tools))
    if THINK_END in template.source:
        messages = [_reasoning_apart(m) for m in messages]
    return controls.segments(template.render(controls.mark(messages), marked,
                                             add_generation_prompt=add_generation_prompt))


THINK_START, THINK_END = "<think>", "</think>"


def _reasoning_apart(message: Message) -> Message:
    """An assistant turn whose text still holds its `<think>` block, split the way the
    template itself splits it. Marked, the template would split at the marked `</think>` and
    leave half a sentinel pair on each side: private-use characters the model would read."""
    content = message.get("content")
    if message.get("role") != "assistant" or not isinstance(content, str) \
            or THINK_END not in content or isinstance(message.get("reasoning_content"), str):
        return message
    parts = content.split(THINK_END)
    reasoning = parts[0].rstrip("\n").split(THINK_START)[-1].lstrip("\n")
    return {**message, "reasoning_content": reasoning,
            "content": parts[-1].lstrip("\n").rstrip("\n")}


def encode(template: ChatTemplate, controls: ControlStrings, messages: list[Message],
           options: GenerateOptions, markup: Tokenize, plain: Tokenize,
           add_generation_prompt: bool = True) -> EncodedPrompt:
    """Tokenize markup with special tokens (`markup`) and each quoted special as text (`plain`).

    add_generation_prompt=False encodes a prompt prefix (the saved system part) alone."""
    segments = render_marked(template, controls, messages, options, add_generation_prompt)
    tokens: list[int] = []
    for text, is_markup in segments:
        tokens += markup(text) if is_markup else plain(text)
    return EncodedPrompt("".join(text for text, _ in segments), tokens)


def plain_by_pieces(controls: ControlStrings, tokenize: Tokenize) -> Tokenize:
    """Plain-text tokenizing for tokenizers that always match added tokens (Hugging Face, and
    llama.cpp's user-defined tokens even with special=False).

    A special string is fed in two pieces split after its first character, so no piece is a
    special string any more; pieces that still hold one are split again."""
    def plain(text: str) -> list[int]:
        found = controls.first(text)
        if found is None:
            return tokenize(text) if text else []
        cut = found.start() + 1
        return tokenize(text[:cut]) + plain(text[cut:])
    return plain


def llama_controls(llama_cpp: Any, llm: Any) -> ControlStrings:
    """Control and user-defined tokens of a llama.cpp vocabulary (what special=True parses)."""
    vocab = llama_cpp.llama_model_get_vocab(llm.model)
    wanted = llama_cpp.LLAMA_TOKEN_ATTR_CONTROL | llama_cpp.LLAMA_TOKEN_ATTR_USER_DEFINED
    return ControlStrings([bytes(llm.detokenize([token], special=True)).decode("utf-8", "replace")
                           for token in range(llm.n_vocab())
                           if llama_cpp.llama_vocab_get_attr(vocab, token) & wanted])


def hf_controls(tokenizer: object) -> ControlStrings:
    """Added tokens of a Hugging Face tokenizer: it matches every one of them in any text."""
    decoder = getattr(tokenizer, "added_tokens_decoder", {}) or {}
    return ControlStrings(str(getattr(t, "content", t)) for t in decoder.values())
