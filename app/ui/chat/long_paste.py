"""Sending a message longer than the model can read: kept whole as a document of the chat."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from app.core.pastes import save_paste, too_long
from app.ui.context import UiContext

if TYPE_CHECKING:
    from skills.documents.skips import Skip



class NotIndexed(OSError):
    """The message was written to a file but could not be indexed: which file, and why (a code
    the window words in its language)."""

    def __init__(self, name: str, skip: Skip) -> None:
        super().__init__(f"{name}: {skip.words}")
        self.name, self.skip = name, skip


def needs_attaching(ctx: UiContext, text: str) -> bool:
    """True when the loaded model's window is too small for the message (in memory: the
    runner's info, no wait)."""
    info = ctx.hearth.runner.info
    return info is not None and too_long(text, info.context_length)


def attach(ctx: UiContext, conversation_id: str | None, text: str) -> tuple[str, str]:
    """(conversation id, file) once the message is written and indexed for its chat (a new
    chat is made first). Blocks on the disk: run it on a worker."""
    history, documents = ctx.lazy("history"), ctx.lazy("documents")
    cid = conversation_id
    if cid is None:
        created = history.create_conversation()
        cid = created if isinstance(created, str) else str(created.id)
    path = save_paste(Path(ctx.hearth.paths.data), cid, text)
    report = documents.add_paths([str(path)], scope=cid)
    if getattr(report, "failures", None):
        raise NotIndexed(path.name, report.failures[0].skip)
    return cid, str(path)
