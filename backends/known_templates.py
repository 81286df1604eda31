"""Chat templates Hearth knows by GGUF architecture, offered for a file that carries none."""

from __future__ import annotations

from dataclasses import dataclass
from importlib import resources

# general.architecture -> (the template's name as the user reads it, its file in templates/).
# Only architectures whose chat format Hearth's tool-call parser reads (backends/parser.py):
# another format would chat, but its tool calls would come out as plain text.
_KNOWN = {"nanbeige": ("Nanbeige4.2", "nanbeige.jinja")}


@dataclass(frozen=True)
class KnownTemplate:
    name: str  # "Nanbeige4.2"
    source: str  # the Jinja template


def known_template(architecture: str) -> KnownTemplate | None:
    """The well-known chat template of this architecture, or None."""
    entry = _KNOWN.get(architecture.strip().lower())
    if entry is None:
        return None
    name, filename = entry
    source = resources.files("backends").joinpath("templates", filename).read_text("utf-8")
    return KnownTemplate(name, source)
