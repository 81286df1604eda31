"""Changes other programs propose (calendar edits over MCP): the user approves each one in the
running Hearth, which then makes it; a headless or absent Hearth refuses them."""

from __future__ import annotations

import http.client
import json
import secrets
import threading
from collections.abc import Callable

import jsonschema

from app.core.events import ConfirmationRequest
from skills.base import Skill, SkillContext, SkillError

CHANGE_TOOLS = ("add_event", "update_event", "delete_event")
ANSWER_WAIT_S = 600.0  # how long a proposal waits for the person before it counts as refused
PATH = "/hearth/v1/proposals"
NOT_RUNNING = ("Hearth is not running with 'Let other apps use Hearth' on, so nobody can "
               "approve this calendar change. Nothing was changed: open Hearth, turn the "
               "switch on in Settings, and try again.")


class ProposalDesk:
    """Turns a proposed change into a confirmation the app shows, and makes it if approved.

    `ask` shows the request to the person (from a worker thread; it must not block)."""

    def __init__(self, skills: list[Skill], ask: Callable[[ConfirmationRequest], None],
                 timezone: str) -> None:
        self.skills = {s.name: s for s in skills if s.name in CHANGE_TOOLS}
        self.ask = ask
        self.timezone = timezone
        self._pending: set[ConfirmationRequest] = set()
        self._closed = False
        self._lock = threading.Lock()

    def close(self) -> None:
        """Hearth is stopping: every proposal still waiting is refused now (its program hears
        so at once) and new ones are refused, so no worker waits out ANSWER_WAIT_S."""
        with self._lock:
            self._closed = True
            pending, self._pending = self._pending, set()
        for request in pending:
            request.deny()

    def propose(self, tool: str, arguments: dict[str, object]) -> str:
        """Blocks until the person answers; the outcome text, or SkillError when refused."""
        skill = self.skills.get(tool)
        if skill is None:
            raise SkillError(f"{tool!r} is not a change Hearth accepts from other programs.")
        try:
            jsonschema.validate(arguments, skill.parameters)
        except jsonschema.ValidationError as exc:
            raise SkillError(f"{tool}: {exc.message}") from None
        context = SkillContext(conversation_id="", timezone=self.timezone)
        request = ConfirmationRequest("proposal-" + secrets.token_hex(6), tool, arguments,
                                      "Another program asks: " + skill.describe_change(arguments))
        with self._lock:
            if self._closed:
                raise SkillError("Hearth is shutting down; nothing was changed.")
            self._pending.add(request)
        try:
            self.ask(request)
            if not request.wait(ANSWER_WAIT_S):
                request.deny()
        finally:
            with self._lock:
                self._pending.discard(request)
        if not request.approved:
            raise SkillError("The user refused this change in Hearth; nothing was changed.")
        return skill.run(arguments, context).text


def propose_to_app(host: str, port: int, key: str) -> Callable[[str, dict[str, object]], str]:
    """For `hearth mcp serve`: send a change to the running Hearth's local server."""

    def propose(tool: str, arguments: dict[str, object]) -> str:
        body = json.dumps({"tool": tool, "arguments": arguments})
        conn = http.client.HTTPConnection(host, port, timeout=ANSWER_WAIT_S + 30)
        try:
            conn.request("POST", PATH, body=body, headers={
                "Authorization": f"Bearer {key}", "Content-Type": "application/json"})
            response = conn.getresponse()
            answer = json.loads(response.read() or b"{}")
        except (OSError, ValueError):
            raise SkillError(NOT_RUNNING) from None
        finally:
            conn.close()
        if response.status != 200 or not isinstance(answer, dict):
            raise SkillError(NOT_RUNNING if response.status in (401, 404, 409) else
                             f"Hearth could not take the proposal (HTTP {response.status}).")
        if not answer.get("approved"):
            raise SkillError(str(answer.get("message") or "The user refused this change."))
        return str(answer.get("message") or "Done.")

    return propose
