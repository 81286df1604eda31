"""Terminal output that text from models and files cannot take over: control characters shown.

Every CLI command writes through `SafeStream` (installed by `app.main.main`), so a file name, an
event title, a tool argument or an answer carrying escape codes (erase line, cursor up, hidden
text, a bidi override, a bare carriage return) is printed as visible `\\x1b`-style text instead of
being obeyed. Hearth's own codes (progress lines, dim reasoning) go through `control()`. Lone
surrogates (which a model can produce) are shown the same way instead of failing the write.
"""

from __future__ import annotations

import re
from typing import Any, TextIO

# C0 except tab and newline, DEL, C1; the bidi overrides and isolates; lone surrogates.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e"
                     "\u2066-\u2069\ud800-\udfff]")


def _shown(match: re.Match[str]) -> str:
    code = ord(match.group(0))
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """`text` with every character a terminal would obey as a command written out visibly."""
    return _UNSAFE.sub(_shown, text)


def json_safe(line: str) -> str:
    """A JSON text with the same characters escaped as JSON `\\u` escapes (same data)."""
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group(0)):04x}", line)


class SafeStream:
    """A text stream wrapper that makes control characters visible in everything written."""

    def __init__(self, stream: TextIO) -> None:
        self.raw = stream

    def write(self, text: str) -> int:
        return self.raw.write(visible(text))

    def control(self, code: str) -> None:
        """Hearth's own terminal codes, written as they are."""
        self.raw.write(code)

    def __getattr__(self, name: str) -> Any:  # flush, isatty, fileno, encoding, buffer, ...
        return getattr(self.raw, name)


def control(stream: TextIO | SafeStream, code: str) -> None:
    """Write one of Hearth's own terminal codes to `stream`, past its safety wrapper."""
    if isinstance(stream, SafeStream):
        stream.control(code)
    else:
        stream.write(code)


def raw(stream: TextIO | SafeStream) -> TextIO:
    """The stream under the wrapper: for exact data going to a file or pipe, not a person."""
    return stream.raw if isinstance(stream, SafeStream) else stream
