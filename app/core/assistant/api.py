"""Assistant: the public entry point; starts each turn on its own worker thread."""

from __future__ import annotations

import threading
import uuid
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from app.core.assistant.handle import TurnHandle
from app.core.assistant.prefix import system_message, tool_specs
from app.core.assistant.transcript import HistoryLike
from app.core.assistant.turn import OnPrompt, TitleClaims, Turn, TurnSetup
from app.core.assistant.turn_mode import (
    ConfirmPolicy,
    OnEvent,
    TurnMode,
    _ignore,
    is_office_turn,
)
from app.core.events import TurnFailed
from app.core.mcp import servers_for
from app.core.runner import ModelRunner
from app.core.settings import McpServer, Settings
from app.core.skill_switches import switched_on
from backends.base import GenerateOptions, Message
from backends.errors import FailureKind
from skills.base import Skill

if TYPE_CHECKING:
    from app.core.history.records import StoredMessage


__all__ = ["Assistant", "ConfirmPolicy", "TurnHandle", "TurnMode"]

BUSY = "An answer in this conversation is still being written: stop it or wait for it first."


class Personal(Protocol):
    """What the assistant needs from app.core.memory.PersonalContext (tests may fake it)."""

    def section(self) -> str: ...

    def skills(self) -> list[Skill]: ...

    def used(self) -> None: ...

    @property
    def on_change(self) -> list[Callable[[], None]]:
        """Called after the model's memory tools changed memory (the prefix is new)."""
        ...


class Assistant:
    """send / regenerate / edit_and_resend return a TurnHandle at once, without touching the
    disk (so the GUI thread may call them); the turn's own thread stores the user's message,
    the runner thread runs the model, and tools run on the turn thread. An empty message
    raises ValueError at once; an unknown conversation or message ends the turn with
    TurnFailed(kind=bad_input)."""

    def __init__(self, runner: ModelRunner, history: HistoryLike, skills: Sequence[Skill],
                 settings: Settings, mcp_servers: Sequence[McpServer] = (),
                 personal: Personal | None = None) -> None:
        self.runner = runner
        self.personal = personal
        self.history = history
        self.settings = settings
        self._skills = list(skills)
        self.mcp = servers_for(mcp_servers)
        self._active: dict[str, TurnHandle] = {}
        self._titles = TitleClaims()
        self._lock = threading.Lock()

    # -- skills ---------------------------------------------------------------------------
    def skills(self, should_stop: Callable[[], bool] | None = None) -> list[Skill]:
        """The registered skills switched on in Settings (read now: a change applies from the
        next turn) plus the tools of the MCP servers (started on demand; should_stop, a turn's
        cancel flag, ends the wait for their first start early)."""
        on = switched_on(self._skills, self.settings.enabled_skills)
        mine = self.personal.skills() if self.personal is not None else []
        return [*on, *mine, *self.mcp.skills(should_stop)]

    def personal_section(self) -> str:
        """Standing instructions and memories for the system message (read at each step)."""
        return self.personal.section() if self.personal is not None else ""

    @property
    def registered(self) -> list[Skill]:
        """Every registered skill, switched on or off (Settings lists them)."""
        return list(self._skills)

    def prefix_request(self, should_stop: Callable[[], bool] | None = None
                       ) -> tuple[list[Message], GenerateOptions]:
        """The system message and tools a new conversation's turn will send (for the warm-up):
        built exactly as Turn builds them, so the engine finds the same prefix."""
        mode = TurnMode()
        skills = [s for s in self.skills(should_stop) if mode.allows(s.name)]
        messages = [system_message(skills, self.settings, mode, self.mcp.notes(),
                                   self.personal_section())]
        return messages, GenerateOptions(tools=tool_specs(skills))

    # -- turns ----------------------------------------------------------------------------
    def send(self, conversation_id: str | None, text: str, attachments: list[str] | None = None,
             mode: TurnMode | None = None, on_event: OnEvent = _ignore,
             confirm: ConfirmPolicy | None = None, on_prompt: OnPrompt | None = None
             ) -> TurnHandle:
        """Add the user's message (a new conversation when conversation_id is None) and answer."""
        if not text.strip() and not attachments:
            raise ValueError("The message is empty: type a question first.")
        conv = conversation_id or uuid.uuid4().hex  # the handle carries the id before it exists
        files = list(attachments or [])

        def prepare() -> str | None:
            if conversation_id is None:
                self.history.create_conversation(conversation_id=conv)
            else:
                self._require(conv)
            stored = self.history.add_message(conv, "user", text, attachments=files)
            return str(stored.id)

        return self._start(conv, prepare, mode, on_event, confirm, on_prompt)

    def regenerate(self, conversation_id: str, mode: TurnMode | None = None,
                   on_event: OnEvent = _ignore, confirm: ConfirmPolicy | None = None,
                   message_id: str | None = None) -> TurnHandle:
        """Answer a user message again, keeping the earlier answer as an alternative (see
        select_answer): the question `message_id` answers (an assistant message), or the last
        one. What came after that answer stays with it."""

        def prepare() -> str | None:
            self._require(conversation_id)
            user = self._question_of(conversation_id, message_id)
            self.history.keep_alternative(conversation_id, str(user.id))
            return str(user.id)

        return self._start(conversation_id, prepare, mode, on_event, confirm, None)

    def select_answer(self, conversation_id: str, user_message_id: str, position: int) -> None:
        """Show answer `position` (from 1) to a user message; the model then reads that one.
        Blocks on the disk: call it from a worker. Refused while the chat is answering."""
        if self.active(conversation_id) is not None:
            raise ValueError(BUSY)
        self.history.select_alternative(conversation_id, user_message_id, position)

    def edit_and_resend(self, conversation_id: str, message_id: str, new_text: str,
                        mode: TurnMode | None = None, on_event: OnEvent = _ignore,
                        confirm: ConfirmPolicy | None = None) -> TurnHandle:
        """Replace a user message's text, drop what came after it, and answer again."""

        def prepare() -> str | None:
            self._require(conversation_id)
            stored = self._find(conversation_id, message_id)
            if stored.role != "user":
                raise ValueError("Only your own messages can be edited.")
            self.history.delete_messages_after(conversation_id, stored.seq)
            self.history.update_message(message_id, content=new_text)
            return message_id

        return self._start(conversation_id, prepare, mode, on_event, confirm, None)

    def active(self, conversation_id: str) -> TurnHandle | None:
        with self._lock:
            return self._active.get(conversation_id)

    def close(self) -> None:
        """Cancel running turns and stop MCP servers (the runner is closed by its owner)."""
        with self._lock:
            handles = list(self._active.values())
        for handle in handles:
            handle.cancel()
        for handle in handles:
            handle.wait(5)
        self.mcp.close()

    # -- internals ------------------------------------------------------------------------
    def _start(self, conv: str, prepare: Callable[[], str | None], mode: TurnMode | None,
               on_event: OnEvent, confirm: ConfirmPolicy | None,
               on_prompt: OnPrompt | None) -> TurnHandle:
        handle = TurnHandle(conv)
        with self._lock:
            busy = conv in self._active
            if not busy:
                self._active[conv] = handle
        if busy:
            handle.finish_reason = "error"
            on_event(TurnFailed(conv, BUSY, FailureKind.BUSY))
            handle.finish()
            return handle

        def prepare_turn() -> str | None:  # on the turn thread: the caller never waits on disk
            user_id = prepare()
            if self.personal is not None:
                self.personal.used()
            if self._about_office_files(conv):
                setup.mode = setup.mode.as_office()
            return user_id

        setup = TurnSetup(
            runner=self.runner, history=self.history, settings=self.settings, handle=handle,
            mode=mode or TurnMode(), policy=confirm or "ask", on_event=on_event,
            prepare=prepare_turn,
            skills=self.skills, notes=self.mcp.notes, personal=self.personal_section,
            on_prompt=on_prompt,
            on_finished=lambda: self._finished(conv, handle), titles=self._titles)
        thread = threading.Thread(target=Turn(setup).run, name=f"hearth-turn-{conv[:8]}",
                                  daemon=True)
        thread.start()
        return handle

    def _about_office_files(self, conv: str) -> bool:
        try:
            dropped = [p for m in self.history.messages(conv) if m.role == "user"
                       for p in (getattr(m, "attachments", None) or [])]
        except Exception:  # noqa: BLE001 - a plain turn is the safe fallback
            return False
        return is_office_turn(dropped)

    def _finished(self, conv: str, handle: TurnHandle) -> None:
        with self._lock:
            if self._active.get(conv) is handle:
                del self._active[conv]

    def _require(self, conversation_id: str) -> None:
        if self.history.get_conversation(conversation_id) is None:
            raise ValueError(f"There is no conversation with id {conversation_id}.")

    def _question_of(self, conversation_id: str, message_id: str | None) -> StoredMessage:
        """The user message an answer (message_id; None: the last answer) replied to."""
        stored = self.history.messages(conversation_id)
        if message_id is not None:
            answer = next((m for m in stored if str(m.id) == str(message_id)), None)
            if answer is None:
                raise ValueError(f"No message {message_id} in this conversation.")
            stored = [m for m in stored if m.seq < answer.seq]
        users = [m for m in stored if m.role == "user"]
        if not users:
            raise ValueError("This conversation has no message to answer again.")
        return users[-1]

    def _find(self, conversation_id: str, message_id: str) -> StoredMessage:
        for message in self.history.messages(conversation_id):
            if str(message.id) == str(message_id):
                return message
        raise ValueError(f"No message {message_id} in this conversation.")

