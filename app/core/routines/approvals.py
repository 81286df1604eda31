"""Deciding what a routine's answer asked to change: approve runs the tool then, deny drops it;
either way the conversation says what happened."""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime
from zoneinfo import ZoneInfo

from app.core.assistant.tools import validate_arguments
from app.core.routines.store import Approval, RoutineNotFound, RoutineStore
from skills.base import Skill, SkillContext, SkillError
from skills.common.clock import local_timezone_name

UTC = ZoneInfo("UTC")
log = logging.getLogger(__name__)
DONE = "Approved: {what}\n\n{result}"
DENIED = "Declined: {what}\n\nNothing was changed."
FAILED = "Approved, but it could not be done: {what}\n\n{result}"

HistoryWriter = Callable[[str, str], object]  # (conversation_id, text): adds an answer


class Approvals:
    """Approve or deny held changes (call off the GUI thread: a tool may write files)."""

    def __init__(self, store: RoutineStore, skills: Callable[[], list[Skill]],
                 say: HistoryWriter,
                 clock: Callable[[], datetime] = lambda: datetime.now(UTC)) -> None:
        self.store, self._skills, self._say, self._clock = store, skills, say, clock

    def pending(self, conversation_id: str | None = None) -> list[Approval]:
        return self.store.approvals(conversation_id)

    def approve(self, approval_id: int) -> Approval:
        held = self.store.approval(approval_id)
        if not self.store.decide(held.id, "approving", "", self._clock()):
            return self._already(held)
        ok, text = self._run(held)
        self.store.decide(held.id, "approved" if ok else "failed", text, self._clock(),
                          expected="approving")
        self._note(held, (DONE if ok else FAILED).format(what=held.description, result=text))
        return self.store.approval(held.id)

    def deny(self, approval_id: int) -> Approval:
        held = self.store.approval(approval_id)
        if not self.store.decide(held.id, "denied", "", self._clock()):
            return self._already(held)
        self._note(held, DENIED.format(what=held.description))
        return self.store.approval(held.id)

    def _already(self, held: Approval) -> Approval:
        now = self.store.approval(held.id)
        raise RoutineNotFound(f"That change was already {now.status}.")

    def _run(self, held: Approval) -> tuple[bool, str]:
        skill = next((s for s in self._skills() if s.name == held.name), None)
        if skill is None:
            return False, f"The tool '{held.name}' is no longer available (switched off?)."
        problem = validate_arguments(skill, held.arguments)
        if problem:
            return False, problem
        context = SkillContext(conversation_id=held.conversation_id,
                               timezone=local_timezone_name())
        try:
            result = skill.run(held.arguments, context)
        except SkillError as exc:
            return False, str(exc)
        except Exception as exc:
            log.exception("approved change %s failed", held.name)
            return False, f"{type(exc).__name__}: {exc}"
        return bool(result.ok), result.text

    def _note(self, held: Approval, text: str) -> None:
        """Say the decision in the conversation; a run left with nothing pending is done."""
        self._say(held.conversation_id, text)
        if not self.store.approvals(held.conversation_id):
            run = self.store.run(held.run_id)
            if run.status == "waiting_approval":
                self.store.update_run(run.id, status="done")

