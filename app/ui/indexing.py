"""Dropped files and folders -> the document index (scoped to the chat), with progress."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, Signal

from app.ui.context import UiContext
from app.ui.i18n import plural
from app.ui.skip_reasons import skip_reason

if TYPE_CHECKING:
    from app.ui.chat.chat_view import ChatView
    from skills.documents.models import IndexReport


class DropIndexer(QObject):
    """Indexes dropped paths on a worker; progress shows above the composer as it goes."""

    progress = Signal(object)
    finished = Signal(object)

    def __init__(self, ctx: UiContext, chat: ChatView) -> None:
        super().__init__(chat)
        self.ctx = ctx
        self.chat = chat
        self.progress.connect(self._show_progress)
        self.running = 0
        self.banner_chat: str | None = None  # the chat the indexing banner is about

    def index(self, paths: list[str]) -> None:
        if not paths:
            return
        cid = self.chat.conversation_id
        if cid is None:
            # Dropped files belong to this chat, so the chat must exist before indexing.
            history = self.ctx.lazy("history")
            self.ctx.ops.run(lambda: _new_id(history.create_conversation()),
                             lambda new_id: self._start(paths, new_id),
                             title=self.tr("Could not start a chat for these files"), writes=True)
        else:
            self._start(paths, cid)

    def _start(self, paths: list[str], cid: str) -> None:
        if self.chat.conversation_id is None:
            self.chat.conversation_id = cid
            self.chat.conversation_started.emit(cid)
        names = ", ".join(Path(p).name for p in paths[:3]) + ("…" if len(paths) > 3 else "")
        self.banner_chat = cid
        self.chat.show_banner(self.tr("Adding %1…").replace("%1", names), progress=0)
        self.running += 1
        relay, last = self.progress, [0.0]

        def report(p: object) -> None:
            now = time.monotonic()
            if now - last[0] >= 0.1:  # ~10 GUI updates a second, whatever the file count
                last[0] = now
                relay.emit(p)

        def work() -> Any:
            return self.ctx.lazy("documents").add_paths(paths, scope=cid, progress=report)

        self.ctx.ops.run(work, lambda r: self._done(paths, r, cid),
                         lambda e: self._failed(e, cid))

    def _show(self, text: str, progress: int | None = None, cid: str | None = None) -> None:
        """Progress and results speak of one chat: shown only while that chat is on screen."""
        target = cid or self.banner_chat
        if target is not None and self.chat.conversation_id == target:
            self.banner_chat = target
            self.chat.show_banner(text, progress=progress)

    def leave(self, cid: str | None) -> None:
        """The window shows another chat: an indexing banner about this one goes."""
        if self.banner_chat is not None and cid != self.banner_chat:
            self.banner_chat = None
            self.chat.show_banner("")

    def _show_progress(self, p: object) -> None:
        total = max(int(getattr(p, "total", 0)), 1)
        done = int(getattr(p, "done", 0))
        current = Path(str(getattr(p, "current", "") or "")).name
        self._show(self.tr("Reading %1 (%2 of %3)…").replace("%1", current)
                   .replace("%2", str(done)).replace("%3", str(total)),
                   progress=int(done * 100 / total))

    def _done(self, paths: list[str], report: IndexReport, cid: str) -> None:
        self.running -= 1
        added = int(getattr(report, "added", 0)) + int(getattr(report, "updated", 0)) + int(
            getattr(report, "unchanged", 0))
        failures = list(getattr(report, "failures", []))
        text = plural(added, self.tr("1 file ready: ask about it in this chat."),
                      self.tr("%1 files ready: ask about them in this chat.")) if added else ""
        if failures:
            unread = plural(len(failures), self.tr("1 could not be read"),
                            self.tr("%1 could not be read")) if added else self.tr(
                "Nothing could be read")
            # Every file that failed, each with its reason: the person must know which.
            named = "; ".join(f"{Path(f.path).name}: {skip_reason(f.skip)}" for f in failures)
            text = (text + " " if text else "") + unread + f" ({named})"
        elif not added:
            text = self.tr("No readable documents in what you dropped.")
        self._show(text, cid=cid)
        if self.chat.conversation_id == cid:
            self.chat.add_attachments(paths)
        self.finished.emit(report)

    def _failed(self, error: Exception, cid: str) -> None:
        self.running -= 1
        message = self.tr("Could not add these files: %1").replace("%1", str(error))
        self._show(message, cid=cid)
        self.finished.emit(error)


def _new_id(created: object) -> str:
    return created if isinstance(created, str) else str(getattr(created, "id", ""))
