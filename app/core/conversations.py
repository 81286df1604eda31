"""Conversations: the one owner of a chat's lifecycle; deleting one forgets it everywhere."""

from __future__ import annotations

import logging
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from app.core.history import Conversation, HistoryStore, NotFound
from app.core.runner import ModelRunner
from backends.kv_cache import forget_saved

log = logging.getLogger(__name__)
FORGET_WAIT_S = 30.0  # a turn being cancelled ends between tokens; loading a model can take long


class ScopedDocuments(Protocol):
    """What deleting needs from the document index: files dropped into one chat."""

    def forget_scope(self, scope: str) -> int: ...


class Cancellable(Protocol):
    def cancel(self) -> None: ...

    def wait(self, timeout: float | None = None) -> bool: ...


class ActiveTurns(Protocol):
    """What deleting needs from the assistant: the turn still answering in a chat."""

    def active(self, conversation_id: str) -> Cancellable | None: ...


@dataclass(frozen=True)
class Forgotten:
    """What one delete removed, for the CLI's --json and the tests."""

    conversation_id: str
    title: str
    documents: int  # documents only this chat held


class Conversations:
    """Create, delete and delete-all, fanned out to every place a chat leaves a trace: the
    history (messages and their search index), the documents dropped into it (index.db), the
    engine's KV for it in memory (on the model thread) and its saved KV files on disk.

    Parts that were never opened in this process are not opened here except where a trace may
    exist on disk (index.db, the KV folder). Call from a worker thread, never the GUI thread."""

    def __init__(self, history: HistoryStore, kv_cache_dir: Path,
                 documents: Callable[[], ScopedDocuments | None] = lambda: None,
                 runner: Callable[[], ModelRunner | None] = lambda: None,
                 turns: Callable[[], ActiveTurns | None] = lambda: None) -> None:
        self.history = history
        self.kv_cache_dir = kv_cache_dir
        self._documents = documents
        self._runner = runner
        self._turns = turns

    def create(self, title: str = "", model: str = "") -> Conversation:
        return self.history.create_conversation(title=title, model=model)

    def delete(self, conversation_id: str) -> Forgotten:
        """Forget one conversation for good. Raises history's NotFound for an unknown id."""
        conversation = self.history.get_conversation(conversation_id)
        if conversation is None:
            raise NotFound(f"no conversation with id {conversation_id!r}")
        forgetting = self._forget_in_engine(conversation_id)  # first: nothing queued runs now
        self._stop_turn(conversation_id)
        _wait(forgetting, conversation_id)
        self.history.delete_conversation(conversation_id)
        documents = self._documents()
        dropped = documents.forget_scope(conversation_id) if documents is not None else 0
        forget_saved(self.kv_cache_dir, conversation_id)  # every model's, loaded or not
        return Forgotten(conversation_id, conversation.title, dropped)

    def forget_empty(self, keep: str | None = None) -> list[Forgotten]:
        """Chats started and never used (no message) are not kept: forget them (with any files
        dropped into them), except `keep`, the one on screen."""
        return [self.delete(cid) for cid in self.history.empty_conversations() if cid != keep]

    def delete_all(self) -> list[Forgotten]:
        """Forget every conversation, archived ones too."""
        return [self.delete(c.id) for c in self.history.list_conversations(include_archived=True)]

    def _stop_turn(self, conversation_id: str) -> None:
        turns = self._turns()
        handle = turns.active(conversation_id) if turns is not None else None
        if handle is not None:
            handle.cancel()
            handle.wait(FORGET_WAIT_S)

    def _forget_in_engine(self, conversation_id: str) -> Future[None] | None:
        """The runner refuses every request for it from now on (those queued too, so none parks
        its KV again) and drops its KV from the engine right after the job running now."""
        runner = self._runner()
        return runner.forget(conversation_id) if runner is not None else None


def _wait(forgetting: Future[None] | None, conversation_id: str) -> None:
    if forgetting is None:
        return
    try:
        forgetting.result(FORGET_WAIT_S)
    except Exception as exc:  # noqa: BLE001 - the files on disk still go below
        log.warning("Could not drop the engine's memory of %s: %s", conversation_id, exc)
