"""The turn loop: stream, run the tools the model asks for, feed results back, up to a step limit."""

from __future__ import annotations

import logging
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any

from app.core.assistant.mode import ConfirmPolicy, OnEvent, TurnHandle, TurnMode
from app.core.assistant.prefix import system_message, tool_specs
from app.core.assistant.store import HistoryLike, to_engine_messages
from app.core.assistant.stream import StepResult, stream_step
from app.core.assistant.tools import CANCELLED, CallBudget, ToolCaller
from app.core.events import (
    AssistantEvent,
    SourcesFound,
    TextDelta,
    TitleChanged,
    ToolFinished,
    ToolStarted,
    TurnDone,
    TurnFailed,
    TurnStarted,
)
from app.core.prompts import local_timezone_name
from app.core.runner import ModelRunner
from app.core.settings import Settings
from app.core.titles import fallback_title, generate_title
from backends.base import GenerateOptions, Message
from backends.errors import FailureKind
from backends.events import Done
from skills.base import Skill, SkillContext, Source

log = logging.getLogger(__name__)

OnPrompt = Callable[[list[Message], GenerateOptions], None]
UNREADABLE_CALL = ("Your tool call could not be read: {error} Write the call again in the "
                   "documented XML format, or answer without the tool.")
STEP_LIMIT_TEXT = ("I stopped after {limit} steps: this task needed more tool calls than I may "
                   "make in one turn, so it is not finished. Tell me to continue if you want me "
                   "to go on.")


class TitleClaims:
    """Conversations whose title is being written right now (shared by an Assistant's turns)."""

    def __init__(self) -> None:
        self._busy: set[str] = set()
        self._lock = threading.Lock()

    @contextmanager
    def claim(self, conversation_id: str) -> Iterator[bool]:
        with self._lock:
            mine = conversation_id not in self._busy
            self._busy.add(conversation_id)
        try:
            yield mine
        finally:
            if mine:
                with self._lock:
                    self._busy.discard(conversation_id)


@dataclass
class TurnSetup:
    """Everything one turn needs; built by Assistant, run on the turn's own thread."""

    runner: ModelRunner
    history: HistoryLike
    settings: Settings
    handle: TurnHandle
    mode: TurnMode
    policy: ConfirmPolicy
    on_event: OnEvent
    prepare: Callable[[], str | None]  # the stored user message's id
    # Resolved on the turn thread (MCP servers may start); given the turn's cancel flag.
    skills: Callable[[Callable[[], bool]], list[Skill]]
    notes: Callable[[], list[str]] = list  # extra system-prompt lines (e.g. a server is down)
    on_prompt: OnPrompt | None = None
    on_finished: Callable[[], None] = lambda: None
    titles: TitleClaims = field(default_factory=lambda: TitleClaims())


@dataclass
class _Totals:
    prompt_tokens: int = 0
    cached_prompt_tokens: int = 0
    completion_tokens: int = 0
    timings: dict[str, float] = field(default_factory=dict)

    def usage(self) -> dict[str, int]:
        return {"prompt_tokens": self.prompt_tokens,
                "cached_prompt_tokens": self.cached_prompt_tokens,
                "completion_tokens": self.completion_tokens}


class Turn:
    """One user turn. Only cancellation ends it early; every other problem becomes text."""

    def __init__(self, setup: TurnSetup) -> None:
        self.s = setup
        self.conv = setup.handle.conversation_id
        self.totals = _Totals()
        self.sources: list[Source] = []

    def emit(self, event: AssistantEvent) -> None:
        try:
            self.s.on_event(event)
        except Exception:  # a broken listener must not break the turn or lose history
            log.exception("assistant event listener failed on %r", event)

    def run(self) -> None:
        handle = self.s.handle
        try:
            self._run()
        except Exception as exc:  # a bug: say so, keep the process up, keep history honest
            log.exception("turn failed")
            self._fail(handle.assistant_message_id, f"The turn failed: {exc}")
        finally:
            self.s.on_finished()  # first: a caller woken by wait() may send the next turn
            handle._done.set()

    # -- the loop -------------------------------------------------------------------------
    def _run(self) -> None:
        handle, mode = self.s.handle, self.s.mode
        user_id = self.s.prepare()
        skills = [s for s in self.s.skills(handle._cancel.is_set) if mode.allows(s.name)]
        context = SkillContext(conversation_id=self.conv, timezone=local_timezone_name(),
                               should_stop=handle._cancel.is_set)
        settings = self.s.settings
        caller = ToolCaller(skills, self.s.policy, self.emit, handle._cancel, context,
                            CallBudget(settings.max_tool_calls_per_step,
                                       settings.max_tool_calls_per_turn))
        message_id = self._new_assistant_message()
        handle.assistant_message_id = message_id
        self.emit(TurnStarted(self.conv, user_id, message_id))
        if handle.cancelled:  # while tool servers started: the model is never asked
            self._save_final(message_id, StepResult(done=Done("cancelled")), "cancelled")
            self._done(message_id, "cancelled")
            return
        limit = max(1, mode.step_limit or self.s.settings.step_limit)
        for step in range(limit):
            handle.assistant_message_id = message_id
            result = self._step(skills, used_tools=step > 0, message_id=message_id)
            if result.done.finish_reason == "error":
                self._engine_failed(message_id, result)
                return
            if handle.cancelled or result.done.finish_reason == "cancelled":
                self._save_final(message_id, result, "cancelled")
                self._done(message_id, "cancelled")
                return
            if not result.calls and not result.errors:
                self._save_final(message_id, result, "complete")
                self._done(message_id, result.done.finish_reason)
                self._title(result.content)
                return
            if self._act(message_id, result, caller):
                self._done(message_id, "cancelled")
                return
            message_id = self._new_assistant_message()
        self._step_limit(message_id, limit)

    def _step(self, skills: list[Skill], used_tools: bool, message_id: str) -> StepResult:
        mode, settings = self.s.mode, self.s.settings
        messages: list[Message] = [system_message(skills, settings, mode, self.s.notes())]
        messages += to_engine_messages(self.s.history.messages(self.conv))
        options = GenerateOptions(
            enable_thinking=settings.thinking_default if mode.thinking is None else mode.thinking,
            # The template keeps this turn's reasoning anyway; True also keeps earlier turns'
            # reasoning, which MODEL.md recommends once the model works through tool steps.
            preserve_thinking=used_tools if mode.preserve_thinking is None
            else mode.preserve_thinking,
            tools=tool_specs(skills),
            max_tokens=mode.max_tokens or settings.max_tokens,
            temperature=mode.temperature,
            seed=mode.seed,
            cache_key=self.conv,
        )
        if self.s.on_prompt is not None:
            self.s.on_prompt(messages, options)
        result = stream_step(self.s.runner, self.s.history, message_id, messages, options,
                             self.emit, self.s.handle._cancel, self.s.handle._on_cancel)
        self._count(result)
        return result

    def _act(self, message_id: str, result: StepResult, caller: ToolCaller) -> bool:
        """Store the call message, run each call, store each result. True when cancelled."""
        calls: list[dict[str, Any]] = [{"id": f"call_{uuid.uuid4().hex[:12]}", "name": c.name, "arguments": c.arguments}
                 for c in result.calls]
        calls, refused = caller.budget.admit(calls)
        self._save(message_id, result, "complete", tool_calls=calls)
        notes = [UNREADABLE_CALL.format(error=error) for error in result.errors]
        for text in notes + ([refused] if refused else []):
            self.s.history.add_message(self.conv, "tool", text, tool_ok=False)
            self.emit(ToolFinished("", "", False, text))
        for index, call in enumerate(calls):
            if self.s.handle.cancelled:
                self._store_cancelled(calls[index:])
                return True
            self.emit(ToolStarted(call["id"], call["name"], call["arguments"]))
            outcome = caller.call(call["id"], call["name"], call["arguments"])
            self.s.history.add_message(self.conv, "tool", outcome.text, tool_call_id=call["id"],
                                       tool_name=call["name"], tool_ok=outcome.ok)
            self.emit(ToolFinished(call["id"], call["name"], outcome.ok, outcome.text,
                                   outcome.data))
            if outcome.sources:
                self.sources += outcome.sources
                self.emit(SourcesFound(list(outcome.sources)))
            if outcome.cancelled:
                self._store_cancelled(calls[index + 1:])
                return True
        return False

    def _store_cancelled(self, calls: list[dict[str, Any]]) -> None:
        # Every stored call gets a result, so the history replays cleanly into the template.
        for call in calls:
            self.s.history.add_message(self.conv, "tool", CANCELLED, tool_call_id=call["id"],
                                       tool_name=call["name"], tool_ok=False)

    # -- endings --------------------------------------------------------------------------
    def _step_limit(self, message_id: str, limit: int) -> None:
        text = STEP_LIMIT_TEXT.format(limit=limit)
        self.emit(TextDelta(text))
        self._save_final(message_id, StepResult(content=text), "complete")
        self._done(message_id, "step_limit")
        self._title(text)

    def _engine_failed(self, message_id: str, result: StepResult) -> None:
        self._save(message_id, result, "error")
        self._fail(message_id, " ".join(result.errors) or "The model stopped with an error.",
                   result.failure or FailureKind.ENGINE_FAILED)

    def _fail(self, message_id: str | None, text: str,
              kind: FailureKind = FailureKind.INTERNAL) -> None:
        self.s.handle.finish_reason = "error"
        if message_id is not None:
            try:
                self.s.history.update_message(message_id, status="error")
            except Exception:  # the history itself may be the problem; the event still goes out
                log.exception("could not mark message %s as failed", message_id)
        self._name_if_untitled()
        self.emit(TurnFailed(self.conv, text, kind))

    def _done(self, message_id: str, reason: str) -> None:
        self.s.handle.finish_reason = reason
        # Free the conversation first: a listener may send the next message at TurnDone, while
        # the title is still being written (its request just queues behind the title's).
        self.s.on_finished()
        if reason == "cancelled":
            self._name_if_untitled()
        self.emit(TurnDone(self.conv, message_id, reason, self.totals.usage(),
                           dict(self.totals.timings)))

    def _name_if_untitled(self) -> None:
        """A first answer that was stopped or failed gets no model-made title; the chat is
        still named after the user's words (not left "New chat" among many)."""
        history = self.s.history
        try:
            conversation = history.get_conversation(self.conv)
            if conversation is None or str(conversation.title).strip():
                return
            first_user = next(
                (m.content for m in history.messages(self.conv) if m.role == "user"), "")
            if not first_user.strip():
                return
            title = fallback_title(first_user)
            history.rename(self.conv, title)
        except Exception:  # naming is a nicety: the turn's own ending must still go out
            log.exception("could not name conversation %s", self.conv)
            return
        self.emit(TitleChanged(self.conv, title))

    def _title(self, answer: str) -> None:
        history, handle = self.s.history, self.s.handle
        with self.s.titles.claim(self.conv) as mine:
            # A next turn may end while this one still writes the title: only one writes it.
            if not mine or handle.cancelled or not history.needs_title(self.conv):
                return
            first_user = next(
                (m.content for m in history.messages(self.conv) if m.role == "user"), "")
            title = generate_title(self.s.runner, first_user, answer, handle._cancel)
            history.rename(self.conv, title)
        self.emit(TitleChanged(self.conv, title))

    # -- history --------------------------------------------------------------------------
    def _new_assistant_message(self) -> str:
        info = self.s.runner.info
        stored = self.s.history.add_message(
            self.conv, "assistant", "", status="streaming",
            model=(info.model_name or info.model_path) if info else "",
            engine=info.engine if info else "")
        return str(stored.id)

    def _save_final(self, message_id: str, result: StepResult, status: str) -> None:
        self._save(message_id, result, status,
                   sources=[asdict(source) for source in self.sources])

    def _save(self, message_id: str, result: StepResult, status: str, **extra: Any) -> None:
        done = result.done
        self.s.history.update_message(
            message_id, content=result.content, reasoning=result.reasoning, status=status,
            prompt_tokens=done.prompt_tokens, cached_prompt_tokens=done.cached_prompt_tokens,
            completion_tokens=done.completion_tokens, timings=dict(done.timings), **extra)

    def _count(self, result: StepResult) -> None:
        done = result.done
        self.totals.prompt_tokens += done.prompt_tokens
        self.totals.cached_prompt_tokens += done.cached_prompt_tokens
        self.totals.completion_tokens += done.completion_tokens
        first = dict(self.totals.timings)
        # The last step's figures, but time to first token is when the user saw the first one.
        self.totals.timings = dict(done.timings)
        for key, value in first.items():
            if "first" in key or key.startswith("ttft"):
                self.totals.timings[key] = value
