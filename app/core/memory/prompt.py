"""What every chat, quick ask and routine is told about the person: instructions and memories."""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Sequence
from string import Template

from app.core.memory.store import Memory, MemoryStore
from app.core.memory.tools import memory_tools
from app.core.prompts import prompt_text
from app.core.settings import Settings
from skills.base import Skill

log = logging.getLogger(__name__)

IN_PROMPT = 200  # memories the model is given (the newest, if there are more)


def personal_section(memories: Sequence[Memory], instructions: str) -> str:
    """The system-message part about the person; "" when there is nothing to say. The same
    memories and instructions always give the same text (ordered by id, no dates), so every
    new chat shares one saved prompt prefix until they change."""
    parts = []
    if instructions.strip():
        parts.append(Template(prompt_text("standing_instructions")).substitute(
            instructions=instructions.strip()).strip())
    if memories:
        lines = "\n".join(f"- [{m.id}] {m.text}" for m in memories[-IN_PROMPT:])
        parts.append(Template(prompt_text("memories")).substitute(memories=lines).strip())
    return "\n\n".join(parts)


class PersonalContext:
    """Reads the memory store for each turn: the section for the system message, the memory
    tools, and the "last used" stamp. Memory off (Settings) leaves only the instructions."""

    def __init__(self, store: Callable[[], MemoryStore], settings: Settings) -> None:
        self._store = store  # opened on first use
        self.settings = settings
        # Called (from the turn's thread) after the model's remember / forget_memory changed
        # memory: the window then prepares the new prompt prefix in the background.
        self.on_change: list[Callable[[], None]] = []

    def section(self) -> str:
        """The text for the system message ("" when the store cannot be read: a turn goes on)."""
        try:
            store = self._store()
            return personal_section(self._memories(store), store.instructions())
        except (sqlite3.Error, OSError) as exc:
            log.warning("memory could not be read for this turn: %s", exc)
            return ""

    def skills(self) -> list[Skill]:
        """remember / forget_memory while memory is on; none when it is off."""
        if not self.settings.memory_enabled:
            return []
        try:
            return memory_tools(self._store(),
                                lambda: self.settings.remember_without_asking, self._changed)
        except (sqlite3.Error, OSError) as exc:
            log.warning("memory tools are unavailable: %s", exc)
            return []

    def _changed(self) -> None:
        for listener in list(self.on_change):
            try:
                listener()
            except Exception:  # a broken listener must not fail the tool that changed memory
                log.exception("memory change listener failed")

    def used(self) -> None:
        """A turn was given the memories: stamp them "last used" (a read-only disk skips it)."""
        try:
            store = self._store()
            store.touch(m.id for m in self._memories(store))
        except (sqlite3.Error, OSError) as exc:
            log.info("memory 'last used' not recorded: %s", exc)

    def _memories(self, store: MemoryStore) -> list[Memory]:
        return store.entries()[-IN_PROMPT:] if self.settings.memory_enabled else []
