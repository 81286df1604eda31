"""The turn loop: stream, run the tools the model asks for, feed results back, up to a step limit."""

from __future__ import annotations

import json
import logging
import threading
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace

from app.core.assistant.budget import step_sampling, thinking_budget
from app.core.assistant.compaction import StepPrompt, fit_context
from app.core.assistant.handle import TurnHandle
from app.core.assistant.prefix import system_message, tool_specs
from app.core.assistant.stream import StepResult, stream_step
from app.core.assistant.tools import CANCELLED, CallBudget, CallRecord, ToolCaller
from app.core.assistant.transcript import HistoryLike
from app.core.assistant.turn_mode import ConfirmPolicy, OnEvent, TurnMode
from app.core.events import (
    AssistantEvent,
    OutputCut,
    Queued,
    SourcesFound,
    TextDelta,
    TitleChanged,
    ToolFinished,
    ToolStarted,
    TurnDone,
    TurnFailed,
    TurnStarted,
)
from app.core.oneshot import closing_prefix
from app.core.prompts import local_timezone_name
from app.core.runner import ModelRunner
from app.core.settings import Settings
from app.core.titles import fallback_title, generate_title
from backends.base import GenerateOptions, Message
from backends.errors import FailureKind, kind_of
from backends.events import Done
from skills.base import Skill, SkillContext, Source

log = logging.getLogger(__name__)

OnPrompt = Callable[[list[Message], GenerateOptions], None]
UNREADABLE_CALL = ("Your tool call could not be read: {error} Write the call again in the "
                   "documented XML format, or answer without the tool.")
STEP_LIMIT_TEXT = ("I stopped after {limit} steps: this task needed more tool calls than I may "
                   "make in one turn, so it is not finished. Tell me to continue if you want me "
                   "to go on.")
REPEATED_CALL = ("You already called {name} with exactly these arguments in this turn; its "
                 "result is above. Do not call it again: answer from what you have, or try "
                 "different arguments.")
TOOL_LOOP_TEXT = ("I stopped because I kept repeating the same tool call ({name}) with the same "
                  "arguments; its result is above. Ask again in other words if it did not help.")
REPEATS_ALLOWED = 1  # a call repeated once is answered with a reminder; twice ends the turn
MIN_ANSWER_TOKENS = 64


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
    personal: Callable[[], str] = str  # standing instructions and memories (app.core.memory)
    on_prompt: OnPrompt | None = None
    on_finished: Callable[[], None] = lambda: None
    titles: TitleClaims = field(default_factory=lambda: TitleClaims())


@dataclass
class _Totals:
    prompt_tokens: int = 0
    cached_prompt_tokens: int = 0
    completion_tokens: int = 0
    timings: dict[str, float] = field(default_factory=dict)
    last: tuple[int, int] = (0, 0)  # the last step's prompt and completion tokens

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
        self._queued_at = 0
        self.calls_seen: set[str] = set()
        self.repeated: list[str] = []  # names of calls the model repeated word for word
        self.personal = ""  # standing instructions and memories, as this turn was told them

    def emit(self, event: AssistantEvent) -> None:
        if isinstance(event, Queued):  # the budget's count and the step may wait in turn
            if event.position == self._queued_at:
                return
            self._queued_at = event.position
        try:
            self.s.on_event(event)
        except Exception:  # a broken listener must not break the turn or lose history
            log.exception("assistant event listener failed on %r", event)

    def run(self) -> None:
        handle = self.s.handle
        try:
            self._run()
        except Exception as exc:  # keep the process up and history honest; say what it was
            kind = kind_of(exc)
            if kind is FailureKind.BAD_INPUT:  # an unknown conversation or message
                self._fail(handle.assistant_message_id, str(exc), kind)
            else:
                log.exception("turn failed")
                self._fail(handle.assistant_message_id, f"The turn failed: {exc}", kind)
        finally:
            self.s.on_finished()  # first: a caller woken by wait() may send the next turn
            handle.finish()

    # -- the loop -------------------------------------------------------------------------
    def _run(self) -> None:
        user_id = self.s.prepare()  # stores the user's message; may settle the mode
        handle, mode = self.s.handle, self.s.mode
        skills = [s for s in self.s.skills(handle.stop_flag.is_set) if mode.allows(s.name)]
        # Read once per turn: a memory approved at one step must not change the system
        # message of the next (the conversation's KV would no longer match mid-turn).
        self.personal = self.s.personal()
        context = SkillContext(conversation_id=self.conv, timezone=local_timezone_name(),
                               should_stop=handle.stop_flag.is_set,
                               outside_text=self._read_outside_text())
        settings = self.s.settings
        caller = ToolCaller(skills, self.s.policy, self.emit, handle.stop_flag, context,
                            CallBudget(settings.max_tool_calls_per_step,
                                       settings.max_tool_calls_per_turn))
        message_id = self._new_assistant_message()
        handle.assistant_message_id = message_id
        self.emit(TurnStarted(self.conv, user_id, message_id))
        if handle.cancelled:  # while tool servers started: the model is never asked
            self._end(message_id, StepResult(done=Done("cancelled")), "cancelled", "cancelled")
            return
        limit = max(1, mode.step_limit or self.s.settings.step_limit)
        for step in range(limit):
            handle.assistant_message_id = message_id
            if self._answer_spent():
                self._end(message_id, StepResult(done=Done("length")), "complete", "length")
                return
            result = self._step(skills, used_tools=step > 0, message_id=message_id)
            if result.done.finish_reason == "error":
                self._engine_failed(message_id, result)
                return
            if handle.cancelled or result.done.finish_reason == "cancelled":
                self._end(message_id, result, "cancelled", "cancelled")
                return
            if not result.calls and not result.errors:
                self._end(message_id, result, "complete", result.done.finish_reason)
                self._title(result.content)
                return
            if self._act(message_id, result, caller):
                self._done(message_id, "cancelled")
                return
            message_id = self._new_assistant_message()
            if len(self.repeated) > REPEATS_ALLOWED:
                self._tool_loop(message_id)
                return
        self._step_limit(message_id, limit)

    def _read_outside_text(self) -> bool:
        """The conversation already holds a tool result or an attached file."""
        return any(m.role == "tool" or getattr(m, "attachments", None)
                   for m in self.s.history.messages(self.conv))

    def _step(self, skills: list[Skill], used_tools: bool, message_id: str) -> StepResult:
        prompt = fit_context(self._prompt(skills, used_tools), self.s.runner, self.s.history,
                             self.conv, self.emit, self.s.handle.stop_flag)
        messages, options = prompt.messages, prompt.options
        result = self._stream(messages, options, message_id)
        if (result.reasoning_cut or result.unanswered) and not self.s.handle.cancelled:
            result = self._close_reasoning(messages, options, message_id, result)
        if result.cut == "answer_loop":
            result.notice = "answer_loop"
            self.emit(OutputCut(self.conv, message_id, "answer", "loop",
                                result.done.completion_tokens))
        return result

    def _prompt(self, skills: list[Skill], used_tools: bool) -> StepPrompt:
        """The step's messages and options before the context budget is applied."""
        mode, settings = self.s.mode, self.s.settings
        system = system_message(skills, settings, mode, self.s.notes(), self.personal)
        thinking = settings.thinking_default if mode.thinking is None else mode.thinking
        budget = thinking_budget(settings, "tools" if used_tools else mode.kind)
        sampling = step_sampling(settings, after_tool=used_tools)
        options = GenerateOptions(
            enable_thinking=thinking and budget > 0,
            # The template keeps this turn's reasoning anyway; True also keeps earlier turns'.
            # One value for the whole turn: switched on at its first tool step, it rendered
            # every earlier turn anew and made the engine read them again (~550 tokens).
            preserve_thinking=bool(mode.preserve_thinking),
            tools=tool_specs(skills),
            max_tokens=self._answer_left() or settings.max_tokens,
            temperature=sampling.temperature if mode.temperature is None else mode.temperature,
            top_p=sampling.top_p, top_k=sampling.top_k,
            seed=mode.seed,
            cache_key=self.conv,
            thinking_budget=budget if thinking and budget > 0 else None,
        )
        return StepPrompt([system], options).with_history(
            self.s.history.messages(self.conv))

    def _answer_left(self) -> int:
        """What a turn-wide output limit (`--max-tokens`) leaves for the next step: it bounds
        the whole answer, not each step (0: no such limit, the per-step setting applies)."""
        limit = self.s.mode.max_tokens
        return max(0, limit - self.totals.completion_tokens) if limit else 0

    def _answer_spent(self) -> bool:
        return bool(self.s.mode.max_tokens) and self._answer_left() == 0

    def _stream(self, messages: list[Message], options: GenerateOptions, message_id: str,
                reasoning_so_far: str = "") -> StepResult:
        if self.s.on_prompt is not None:  # every request of the turn, reasoning closes too
            self.s.on_prompt(messages, options)
        result = stream_step(self.s.runner, self.s.history, message_id, messages, options,
                             self.emit, self.s.handle, reasoning_so_far, self.s.mode.priority)
        self._count(result)
        return result

    def _close_reasoning(self, messages: list[Message], options: GenerateOptions,
                         message_id: str, cut: StepResult) -> StepResult:
        """The reasoning hit its budget or looped: close it ourselves and let the model answer."""
        spent = cut.done.completion_tokens
        reason = "loop" if cut.cut else "budget" if cut.reasoning_cut else "no_answer"
        self.emit(OutputCut(self.conv, message_id, "reasoning", reason, spent))
        room = max(MIN_ANSWER_TOKENS, options.max_tokens - spent)
        if self.s.mode.max_tokens:  # the turn-wide limit holds here too
            room = min(room, self._answer_left())
            if room == 0:
                return cut
        answer = replace(options, thinking_budget=None,
                         assistant_prefix=closing_prefix(cut.reasoning), max_tokens=room)
        result = self._stream(messages, answer, message_id, reasoning_so_far=cut.reasoning)
        result.notice = "thinking_cut"
        return result

    def _act(self, message_id: str, result: StepResult, caller: ToolCaller) -> bool:
        """Store the call message, run each call, store each result. True when cancelled."""
        calls: list[CallRecord] = [
            {"id": f"call_{uuid.uuid4().hex[:12]}", "name": c.name, "arguments": c.arguments}
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
            if self._repeats(call):
                text = REPEATED_CALL.format(name=call["name"])
                self.s.history.add_message(self.conv, "tool", text, tool_call_id=call["id"],
                                           tool_name=call["name"], tool_ok=False)
                self.emit(ToolFinished(call["id"], call["name"], False, text))
                continue
            outcome = caller.call(call["id"], call["name"], call["arguments"])
            self.s.history.add_message(self.conv, "tool", outcome.text, tool_call_id=call["id"],
                                       tool_name=call["name"], tool_ok=outcome.ok,
                                       card=outcome.card())
            self.emit(ToolFinished(call["id"], call["name"], outcome.ok, outcome.text,
                                   outcome.data))
            if outcome.sources:
                self.sources += outcome.sources
                self.emit(SourcesFound(list(outcome.sources)))
            if outcome.cancelled:
                self._store_cancelled(calls[index + 1:])
                return True
        return False

    def _repeats(self, call: CallRecord) -> bool:
        """A call made before in this turn with the same arguments (a tool-call loop)."""
        key = json.dumps([call["name"], call["arguments"]], sort_keys=True, ensure_ascii=False,
                         default=str)
        if key in self.calls_seen:
            self.repeated.append(call["name"])
            return True
        self.calls_seen.add(key)
        return False

    def _store_cancelled(self, calls: list[CallRecord]) -> None:
        # Every stored call gets a result, so the history replays cleanly into the template.
        for call in calls:
            self.s.history.add_message(self.conv, "tool", CANCELLED, tool_call_id=call["id"],
                                       tool_name=call["name"], tool_ok=False)

    # -- endings --------------------------------------------------------------------------
    def _step_limit(self, message_id: str, limit: int) -> None:
        text = STEP_LIMIT_TEXT.format(limit=limit)
        self.emit(TextDelta(text))
        self._end(message_id, StepResult(content=text), "complete", "step_limit")
        self._title(text)

    def _tool_loop(self, message_id: str) -> None:
        text = TOOL_LOOP_TEXT.format(name=self.repeated[-1])
        self.emit(OutputCut(self.conv, message_id, "tools", "loop", len(self.repeated)))
        self.emit(TextDelta(text))
        result = StepResult(content=text, notice="tool_loop", done=Done("stop"))
        self._end(message_id, result, "complete", "stop")
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
                           dict(self.totals.timings), *self.totals.last))

    def _name_if_untitled(self) -> None:
        """A first answer that was stopped or failed gets no model-made title; the chat is
        still named after the user's words (not left "New chat" among many)."""
        history = self.s.history
        try:
            conversation = history.get_conversation(self.conv)
            if conversation is None or str(conversation.title).strip():
                return
            first_user = self._first_user()
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
            title = generate_title(self.s.runner, self._first_user(), answer, handle.stop_flag,
                                   thinking_budget=thinking_budget(self.s.settings, "title"))
            history.rename(self.conv, title)
        self.emit(TitleChanged(self.conv, title))

    def _first_user(self) -> str:
        return next((m.content for m in self.s.history.messages(self.conv) if m.role == "user"),
                    "")

    # -- history --------------------------------------------------------------------------
    def _new_assistant_message(self) -> str:
        info = self.s.runner.info
        stored = self.s.history.add_message(
            self.conv, "assistant", "", status="streaming",
            model=(info.model_name or info.model_path) if info else "",
            engine=info.engine if info else "")
        return str(stored.id)

    def _end(self, message_id: str, result: StepResult, status: str, reason: str) -> None:
        """Store the turn's last message (with the turn's sources) and end the turn."""
        self._save(message_id, result, status,
                   sources=[asdict(source) for source in self.sources])
        self._done(message_id, reason)

    def _save(self, message_id: str, result: StepResult, status: str, **extra: object) -> None:
        done = result.done
        self.s.history.update_message(
            message_id, content=result.content, reasoning=result.reasoning, status=status,
            prompt_tokens=done.prompt_tokens, cached_prompt_tokens=done.cached_prompt_tokens,
            completion_tokens=done.completion_tokens, timings=dict(done.timings),
            **({"notice": result.notice} if result.notice else {}), **extra)

    def _count(self, result: StepResult) -> None:
        done = result.done
        self.totals.prompt_tokens += done.prompt_tokens
        self.totals.cached_prompt_tokens += done.cached_prompt_tokens
        self.totals.completion_tokens += done.completion_tokens
        self.totals.last = (done.prompt_tokens, done.completion_tokens)
        first = dict(self.totals.timings)
        # The last step's figures, but time to first token is when the user saw the first one.
        self.totals.timings = dict(done.timings)
        for key, value in first.items():
            if "first" in key or key.startswith("ttft"):
                self.totals.timings[key] = value
