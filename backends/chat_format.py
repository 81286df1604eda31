"""Render the model's own chat template the way Hugging Face does (sandboxed jinja2)."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import Any

from jinja2 import TemplateError
from jinja2.ext import loopcontrols
from jinja2.sandbox import ImmutableSandboxedEnvironment

from backends.base import GenerateOptions, Message
from backends.errors import UnsupportedModel


class TemplateRaised(Exception):
    """The template itself called raise_exception()."""


def _raise_exception(message: str) -> None:
    raise TemplateRaised(message)


def _tojson(value: object, ensure_ascii: bool = False, indent: int | None = None,
            separators: tuple[str, str] | None = None, sort_keys: bool = False) -> str:
    # Hugging Face's tojson keeps non-ASCII text as is, unlike jinja2's default filter.
    return json.dumps(value, ensure_ascii=ensure_ascii, indent=indent,
                      separators=separators, sort_keys=sort_keys)


def _strftime_now(fmt: str) -> str:
    return datetime.now().strftime(fmt)


class ChatTemplate:
    """A compiled chat template; `render` produces the exact prompt text for the engine."""

    def __init__(self, source: str, bos_token: str = "", eos_token: str = "") -> None:
        env = ImmutableSandboxedEnvironment(
            trim_blocks=True, lstrip_blocks=True, extensions=[loopcontrols]
        )
        env.filters["tojson"] = _tojson
        env.globals["raise_exception"] = _raise_exception
        env.globals["strftime_now"] = _strftime_now
        try:
            self._template = env.from_string(source)
        except TemplateError as exc:
            raise UnsupportedModel(f"The model's chat template does not compile: {exc}") from exc
        self.source = source
        self.bos_token = bos_token
        self.eos_token = eos_token

    def render(self, messages: list[Message], options: GenerateOptions,
               add_generation_prompt: bool = True) -> str:
        if options.raw_prompt is not None:
            return options.raw_prompt  # a client's own prompt (/v1/completions): no template
        variables: dict[str, Any] = {
            "messages": messages,
            "add_generation_prompt": add_generation_prompt,
            "enable_thinking": options.enable_thinking,
            "preserve_thinking": options.preserve_thinking,
            "tool_call_format": options.tool_call_format,
            "bos_token": self.bos_token,
            "eos_token": self.eos_token,
        }
        if options.tools:
            variables["tools"] = options.tools
        try:
            prompt = self._template.render(**variables)
        except TemplateRaised as exc:
            raise ValueError(f"The chat template refused these messages: {exc}") from exc
        return prompt + options.assistant_prefix if add_generation_prompt else prompt


def read_template_file(path: str) -> str:
    """The source of a chat template file the person chose, checked to compile."""
    try:
        source = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise UnsupportedModel(f"The chat template file {path} cannot be read: {exc}") from exc
    if not source.strip():
        raise UnsupportedModel(f"The chat template file {path} is empty")
    ChatTemplate(source)  # UnsupportedModel when it does not compile
    return source


def estimate_tokens(text: str) -> int:
    """A cautious token count where no tokenizer is at hand (a remote server that offers
    none): about 3 characters per token, the dense end of English, code and CJK mixes."""
    return (len(text.encode("utf-8")) + 2) // 3
