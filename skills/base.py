"""The skill interface: what a tool tells the model, and what running it gives back."""

from __future__ import annotations

import itertools
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol


@dataclass(frozen=True)
class Source:
    """A citable passage: the UI numbers them [n] and opens the file at its location."""

    citation: int  # the n in [n], unique within a turn
    document: str  # absolute path
    title: str = ""  # display name
    location: str = ""  # "page 3", "sheet Budget", "slide 2", "Introduction > Scope"
    page: int | None = None  # 1-based page for PDFs (to open at)
    text: str = ""  # the passage


@dataclass
class SkillResult:
    """text goes back to the model; data is for the UI's tool card; sources for citations."""

    text: str
    data: Any = None
    sources: list[Source] = field(default_factory=list)
    ok: bool = True


class SkillError(Exception):
    """A readable failure; the loop sends str(error) back to the model as the tool result."""


@dataclass
class SkillContext:
    """What a skill may know about the turn it runs in."""

    conversation_id: str = ""
    allowed_roots: list[Path] = field(default_factory=list)  # folders the user chose
    timezone: str = "UTC"
    should_stop: Callable[[], bool] = lambda: False
    next_citation: Callable[[], int] | None = None  # hands out [n] numbers within a turn
    # A long-running tool reports (done, total, what it works on now); the UI shows it.
    progress: Callable[[int, int, str], None] = lambda _done, _total, _current: None
    # The model has read text the person did not type in this conversation (a tool result, an
    # attached file): a change it proposes now always asks, whatever the person pre-approved.
    outside_text: bool = False

    def allows(self, path: str) -> bool:
        """Whether the file at `path` is inside the chosen folders by what it really is (links
        and `..` resolved), not by how it was named; every file when no folders are set."""
        if not self.allowed_roots:
            return True
        real = Path(os.path.realpath(os.path.expanduser(path)))
        return any(real == root or root in real.parents
                   for root in (Path(os.path.realpath(r)) for r in self.allowed_roots))

    def citations(self) -> Callable[[], int]:
        """Hands out [n] numbers: the turn's own counter, or 1, 2, 3... outside a turn."""
        if self.next_citation is not None:
            return self.next_citation
        numbers = itertools.count(1)
        return lambda: next(numbers)


class Skill(Protocol):
    """A tool the model can call. Registration is an explicit list in the composition root."""

    name: str
    description: str
    parameters: dict[str, Any]  # JSON schema (type: object) of the arguments
    changes_things: bool  # True: the user must approve each call

    def run(self, arguments: dict[str, Any], context: SkillContext) -> SkillResult: ...

    def describe_change(self, arguments: dict[str, Any]) -> str:
        """For skills that change things: exactly what will change, in words, for the user."""
        ...


class ReadOnlyTool:
    """Base for a skill that only reads: nothing for the user to approve, no change to describe."""

    changes_things = False

    def describe_change(self, arguments: dict[str, Any]) -> str:
        return ""


class Previewing(Protocol):
    """Optional, for skills that change things: instead of one describe_change text, the texts
    the user approves in turn (with the turn's context, so paths resolve as in run). A
    SkillError here refuses the call before anyone is asked."""

    def confirmations(self, arguments: dict[str, Any], context: SkillContext) -> list[str]: ...


class ApprovedInAdvance(Protocol):
    """Optional, for a skill that changes things: True when the person's own setting already
    approves this call (e.g. "remember without asking"); the turn then does not ask."""

    def approved_in_advance(self, arguments: dict[str, Any], context: SkillContext) -> bool: ...


class Pausable(Protocol):
    """Optional, for a long-running skill: it keeps the job now running in `job` (None
    between runs) and the UI offers Pause and Resume on its progress."""

    def pause(self) -> None: ...

    def resume(self) -> None: ...


def object_schema(properties: dict[str, Any], required: list[str] | None = None,
                  **more: object) -> dict[str, Any]:
    """A tool's arguments as a JSON schema object: these properties, these required."""
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    return {**schema, **({"required": required} if required else {}), **more}


def tool_spec(skill: Skill) -> dict[str, Any]:
    """The OpenAI-style tool object the chat template renders."""
    return {
        "type": "function",
        "function": {
            "name": skill.name,
            "description": skill.description,
            "parameters": skill.parameters,
        },
    }
