"""One tool call: look the skill up, validate, ask the user if needed, run it off the model thread."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TypedDict, TypeVar

import jsonschema

from app.core.assistant.turn_mode import ConfirmPolicy
from app.core.events import (
    AssistantEvent,
    ConfirmationNeeded,
    ConfirmationRequest,
    ToolProgress,
)
from app.core.settings import Settings
from skills.base import Skill, SkillContext, SkillError, SkillResult, Source
from skills.common.limits import LIMITS, cut_text

POLL_S = 0.05  # how often a waiting turn looks at its cancel flag
DECLINED = ("The user declined this action, so it was not carried out. Do not try it again "
            "unless the user asks; tell them it was not done.")
CANCELLED = "Cancelled by the user before it finished."
HELD = ("This change has NOT been made: it waits for the user's approval, which they give "
        "later in this conversation. Tell them what you asked to change and that it needs "
        "their approval; do not call it again.")


class CallRecord(TypedDict):
    """A tool call as the turn stores it with the assistant message."""

    id: str
    name: str
    arguments: dict[str, object]


C = TypeVar("C")


class CallBudget:
    """Caps the tool calls of one turn, per step and in all (settings), whatever the policy:
    with --yes a model asking for a thousand calls at once must not get a thousand runs."""

    def __init__(self, per_step: int, per_turn: int) -> None:
        self.per_step = max(1, per_step)
        self.per_turn = max(1, per_turn)
        self.used = 0

    def admit(self, calls: list[C]) -> tuple[list[C], str]:
        """The calls of this step that may run, and a note for the model on the rest ("")."""
        room = min(self.per_step, self.per_turn - self.used)
        allowed = calls[:max(0, room)]
        self.used += len(allowed)
        left = len(calls) - len(allowed)
        if not left:
            return allowed, ""
        if room < len(calls) and room == self.per_step and self.used < self.per_turn:
            why = f"at most {self.per_step} tool calls run in one step"
        else:
            why = f"this turn has used all {self.per_turn} of its tool calls"
        return allowed, (f"{left} more tool call{'s' if left != 1 else ''} were not run: {why}. "
                         "Answer with what you have, or ask for fewer calls at a time.")


@dataclass
class ToolOutcome:
    """What a call produced: text for the model, data for the UI card, numbered sources."""

    ok: bool
    text: str
    data: object = None
    sources: list[Source] = field(default_factory=list)
    cancelled: bool = False
    denied: bool = False  # the person said no: nothing was done, and nothing failed

    def card(self) -> dict[str, object]:
        """What the card showed, to be stored with the result (JSON-safe)."""
        state: dict[str, object] = {"denied": True} if self.denied else {}
        if self.data is not None:
            state["data"] = json.loads(json.dumps(self.data, ensure_ascii=False, default=str))
        return state


class ToolCaller:
    """Runs the tool calls of one turn; `cancelled` is the turn's cancel flag."""

    def __init__(self, skills: list[Skill], policy: ConfirmPolicy,
                 emit: Callable[[AssistantEvent], None], cancelled: threading.Event,
                 context: SkillContext, budget: CallBudget | None = None) -> None:
        self.skills = {skill.name: skill for skill in skills}
        defaults = Settings()
        self.budget = budget or CallBudget(defaults.max_tool_calls_per_step,
                                           defaults.max_tool_calls_per_turn)
        self.policy = policy
        self.emit = emit
        self.cancelled = cancelled
        self.context = context
        self._citations = 0
        self._cited: set[int] = set()
        context.next_citation = self.next_citation

    def next_citation(self) -> int:
        self._citations += 1
        return self._citations

    def call(self, call_id: str, name: str, arguments: dict[str, object]) -> ToolOutcome:
        skill = self.skills.get(name)
        if skill is None:
            known = ", ".join(sorted(self.skills)) or "none"
            return ToolOutcome(False, f"There is no tool named '{name}'. "
                                      f"The tools you can use are: {known}.")
        problem = validate_arguments(skill, arguments)
        if problem:
            return ToolOutcome(False, problem)
        if skill.changes_things and not self._approved_in_advance(skill, arguments):
            try:
                asks = self._asks(skill, arguments)
            except Exception as exc:  # noqa: BLE001 - refused before anyone is asked (a bad path)
                return ToolOutcome(False, _error_text(skill.name, exc))
            if self.policy == "hold":  # nobody is there to answer: kept for later, not run
                for description in asks:
                    self.emit(ConfirmationNeeded(ConfirmationRequest(
                        call_id, skill.name, arguments, description)))
                return ToolOutcome(False, HELD, data={"held": True})
            for description in asks:
                if not self._confirmed(call_id, skill, arguments, description):
                    if self.cancelled.is_set():
                        return ToolOutcome(False, CANCELLED, cancelled=True)
                    return ToolOutcome(False, DECLINED, denied=True)
        outcome = self._run(call_id, skill, arguments)
        self.context.outside_text = True  # the model reads this result from now on
        return outcome

    # -- confirmation ---------------------------------------------------------------------
    def _approved_in_advance(self, skill: Skill, arguments: dict[str, object]) -> bool:
        """See skills.base.ApprovedInAdvance; any failure there means: ask."""
        check = getattr(skill, "approved_in_advance", None)
        try:
            return check is not None and bool(check(arguments, self.context))
        except Exception:  # noqa: BLE001 - asking is always the safe answer
            return False

    def _asks(self, skill: Skill, arguments: dict[str, object]) -> list[str]:
        """One description per approval needed: a skill with `confirmations(arguments,
        context)` (see skills.base.Previewing) can show a preview and ask twice (overwrites)."""
        confirmations = getattr(skill, "confirmations", None)
        if confirmations is None:
            return [_describe(skill, arguments)]
        return [str(text) for text in confirmations(arguments, self.context)] or [
            _describe(skill, arguments)]

    def _confirmed(self, call_id: str, skill: Skill, arguments: dict[str, object],
                   description: str) -> bool:
        request = ConfirmationRequest(call_id, skill.name, arguments, description)
        if self.policy == "approve":
            request.approve()
        elif self.policy == "deny":
            request.deny()
        self.emit(ConfirmationNeeded(request))
        while not request.wait(POLL_S):
            if self.cancelled.is_set():
                request.deny()  # releases the wait; the turn then ends as cancelled
        return request.approved and not self.cancelled.is_set()

    # -- running --------------------------------------------------------------------------
    def _run(self, call_id: str, skill: Skill, arguments: dict[str, object]) -> ToolOutcome:
        box: dict[str, object] = {}
        finished = threading.Event()
        # A skill that can pause keeps its running job in `job` (see skills.base.Pausable).
        context = replace(self.context, progress=lambda done, total, current: self.emit(
            ToolProgress(call_id, skill.name, done, total, current, getattr(skill, "job", None))))

        def work() -> None:
            try:
                box["result"] = skill.run(arguments, context)
            except BaseException as exc:  # noqa: BLE001 - reported to the model as text
                box["error"] = exc
            finally:
                finished.set()

        # A skill may block (a hung MCP server, a slow disk): the turn must still stop at once.
        worker = threading.Thread(target=work, name=f"hearth-skill-{skill.name}", daemon=True)
        worker.start()
        while not finished.wait(POLL_S):
            if self.cancelled.is_set():
                return ToolOutcome(False, CANCELLED, cancelled=True)
        error = box.get("error")
        if isinstance(error, BaseException):
            return ToolOutcome(False, _error_text(skill.name, error))
        return self._outcome(box.get("result"), skill.name)

    def _outcome(self, result: object, name: str) -> ToolOutcome:
        if not isinstance(result, SkillResult):
            return ToolOutcome(False, f"The tool '{name}' returned nothing usable.")
        sources = [self._numbered(source) for source in result.sources]
        return ToolOutcome(result.ok, kept_result(result.text), result.data, sources)

    def _numbered(self, source: Source) -> Source:
        """Keep numbers the skill took from next_citation; renumber clashes and zeros."""
        number = source.citation
        if number <= 0 or number in self._cited or number > self._citations:
            number = self.next_citation()
        self._cited.add(number)
        return source if number == source.citation else replace(source, citation=number)


def kept_result(text: str) -> str:
    """A tool's text as the chat keeps it: within tool_result_bytes, with a note the model can
    act on (the context budget may cut it further for a small window, but the history never
    holds a 50 MB result)."""
    limit = LIMITS.tool_result_bytes
    size = len(text.encode("utf-8", "replace"))
    if size <= limit:
        return text
    return (cut_text(text, limit) + f"\n\n[Hearth kept the first {limit // 1024} KB of this "
            f"{size / 2**20:.1f} MB result (its tool_result_bytes limit). Call the tool again "
            "for a narrower part: a filter, a page or row range, or fewer results.]")


def validate_arguments(skill: Skill, arguments: object) -> str:
    """An explanation the model can act on, or "" when the arguments fit the schema."""
    if not isinstance(arguments, dict):
        return f"The arguments for '{skill.name}' must be an object with named parameters."
    schema = skill.parameters or {"type": "object"}
    try:
        validator_cls = jsonschema.validators.validator_for(schema)
        validator_cls.check_schema(schema)
        errors = sorted(validator_cls(schema).iter_errors(arguments), key=lambda e: e.path)
    except jsonschema.SchemaError as exc:
        return f"The tool '{skill.name}' has a broken parameter schema ({exc.message}); do not use it."
    if not errors:
        return ""
    details = "; ".join(_error_line(error) for error in errors[:5])
    expected = json.dumps(schema.get("properties", {}), ensure_ascii=False)
    return (f"The arguments for '{skill.name}' are not valid: {details}. "
            f"Call it again with arguments that match its parameters: {expected}")


def _error_line(error: jsonschema.ValidationError) -> str:
    where = "/".join(str(part) for part in error.path)
    return f"{where}: {error.message}" if where else error.message


def _describe(skill: Skill, arguments: dict[str, object]) -> str:
    try:
        text = skill.describe_change(arguments)
    except Exception:  # noqa: BLE001 - the user still gets the raw call to judge
        text = ""
    if text:
        return str(text)
    return f"Run {skill.name} with {json.dumps(arguments, ensure_ascii=False)}"


def _error_text(name: str, exc: BaseException) -> str:
    if isinstance(exc, SkillError):
        return f"Error from '{name}': {exc}"
    detail = str(exc) or type(exc).__name__
    return f"The tool '{name}' failed: {type(exc).__name__}: {detail}"
