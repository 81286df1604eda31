"""Typed events the Assistant delivers to its caller (UI bridge, CLI) while a turn runs."""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from typing import Any

from backends.errors import FailureKind

# The engines' own delta records reach the caller unchanged: one definition of each.
from backends.events import ReasoningDelta as ReasoningDelta
from backends.events import TextDelta as TextDelta
from backends.events import merge_deltas as merge_deltas
from skills.base import Source

MessageId = str
"""The history store's message id (opaque to the assistant)."""


class ConfirmationRequest:
    """A skill that changes things asks the user first; approve()/deny() work from any thread.

    The turn thread blocks in `wait()`; cancelling the turn releases it (as a denial)."""

    def __init__(self, call_id: str, name: str, arguments: dict[str, Any],
                 description: str) -> None:
        self.call_id = call_id
        self.name = name
        self.arguments = arguments
        self.description = description
        self._answered = threading.Event()
        self._approved = False

    def approve(self) -> None:
        self._answer(True)

    def deny(self) -> None:
        self._answer(False)

    def _answer(self, approved: bool) -> None:
        # First answer wins: a late click after a cancel must not flip the decision.
        if not self._answered.is_set():
            self._approved = approved
            self._answered.set()

    @property
    def answered(self) -> bool:
        return self._answered.is_set()

    @property
    def approved(self) -> bool:
        return self._answered.is_set() and self._approved

    def wait(self, timeout: float | None = None) -> bool:
        """True once answered (approved or denied); False on timeout."""
        return self._answered.wait(timeout)

    def __repr__(self) -> str:
        return f"ConfirmationRequest({self.name!r}, {self.arguments!r})"


@dataclass(frozen=True)
class TurnStarted:
    """The user message is stored and the assistant message exists (status streaming)."""

    conversation_id: str
    user_message_id: MessageId | None
    assistant_message_id: MessageId


@dataclass(frozen=True)
class Queued:
    """The turn waits behind `position` other requests on the model runner."""

    position: int


@dataclass(frozen=True)
class Progress:
    """What the model is doing before its first token: "loading" (the model loads first) or
    "reading" (the prompt: `done` of `total` tokens, where the engine reports them)."""

    stage: str  # "loading" | "reading"
    done: int = 0
    total: int = 0


@dataclass(frozen=True)
class ToolStarted:
    call_id: str
    name: str
    arguments: dict[str, Any]


@dataclass(frozen=True)
class ConfirmationNeeded:
    """Show request.description and call request.approve() or request.deny()."""

    request: ConfirmationRequest


@dataclass(frozen=True)
class ToolFinished:
    call_id: str
    name: str
    ok: bool
    text: str
    data: Any = None


@dataclass(frozen=True)
class ToolProgress:
    """A long tool (a folder digest) reports how far it is: done of total, working on current.
    `control`, where the tool offers it, is its running job: pause() and resume() from any
    thread (skills.base.Pausable)."""

    call_id: str
    name: str
    done: int
    total: int
    current: str = ""
    control: Any = None


@dataclass(frozen=True)
class SourcesFound:
    """Citable passages found by a tool, numbered [n] uniquely within the turn."""

    sources: list[Source]


@dataclass(frozen=True)
class OutputCut:
    """Hearth cut the model short: part "reasoning" (its thinking budget was spent, or it
    looped; the reasoning is closed and the model answers) or "answer" (it repeated itself)."""

    conversation_id: str
    message_id: MessageId
    part: str  # "reasoning" | "answer" | "tools"
    reason: str  # "budget" | "loop" | "no_answer" (it stopped after reasoning, unanswered)
    tokens: int  # tokens the model spent on that part before the cut


@dataclass(frozen=True)
class ContextCompacted:
    """Older messages no longer fit the context window: the model summarized them. The
    history keeps every original message; only what the model is sent changes."""

    conversation_id: str
    summary_message_id: MessageId
    summarized: int  # how many messages the summary stands for
    tokens_before: int  # prompt tokens without the summary
    tokens_after: int  # prompt tokens with it
    summary: str = ""  # what the model wrote (the chat shows it in its marker at once)
    before_message_id: MessageId = ""  # the first message kept whole: the marker goes above it


@dataclass(frozen=True)
class TurnDone:
    """The turn ended (finish_reason "stop", "length", "cancelled", "step_limit")."""

    conversation_id: str
    assistant_message_id: MessageId
    finish_reason: str
    usage: dict[str, int] = field(default_factory=dict)  # summed over the turn's steps
    timings: dict[str, float] = field(default_factory=dict)  # the last step's
    # The last step alone: what its prompt and answer took of the window, and how many tokens
    # its decode time (timings) is for. Sums over several steps say neither.
    last_prompt_tokens: int = 0
    last_completion_tokens: int = 0


@dataclass(frozen=True)
class TurnFailed:
    """The turn could not run. `kind` is what callers act on (the UI translates it; the CLI
    picks its exit code from it); `message` is the English detail for logs and the CLI."""

    conversation_id: str
    message: str
    kind: FailureKind = FailureKind.INTERNAL


@dataclass(frozen=True)
class TitleChanged:
    conversation_id: str
    title: str


AssistantEvent = (
    TurnStarted | Queued | Progress | ReasoningDelta | TextDelta | ToolStarted | ConfirmationNeeded
    | ToolFinished | ToolProgress | SourcesFound | TurnDone | TurnFailed | TitleChanged | OutputCut
    | ContextCompacted
)
