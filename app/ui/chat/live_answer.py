"""LiveAnswer: one answer being written, the same in the chat view and in quick ask.

It owns the turn's bridge and handle and fills an AssistantMessage: what happens before the
first token (preparing, waiting, loading the model, reading the prompt with a percentage,
thinking), the text, tool cards, notices, the final figures, and what screen readers are told.
Its widget can move to another window mid-answer ("Open in Hearth" takes it over)."""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QObject, Signal
from PySide6.QtWidgets import QWidget

from app.ui.chat.history_view import notice_text
from app.ui.chat.message import AssistantMessage
from app.ui.failures import Presented, present, present_error

if TYPE_CHECKING:
    # The core's events (and the bridge that sorts them) load after the window's first frame
    # (Desktop.build_after_first_frame), before any answer starts.
    from app.core.assistant import Assistant, TurnHandle
    from app.core.events import (
        AssistantEvent,
        ConfirmationNeeded,
        ContextCompacted,
        OutputCut,
        Progress,
        ToolFinished,
        ToolProgress,
        ToolStarted,
        TurnDone,
        TurnFailed,
        TurnStarted,
    )
    from app.ui.ops import Ops
    from skills.base import Pausable, Source

Figures = dict[str, float | str]  # a finished turn's speed and counts, and how it ended

Begin = Callable[["Assistant", Callable[["AssistantEvent"], None]], "TurnHandle"]
CONTEXT = "LiveAnswer"
MIN_SPEED_SPAN_S = 0.25  # an answer shown over less time gives no meaningful speed


def _tr(text: str) -> str:
    return QCoreApplication.translate(CONTEXT, text)


class LiveAnswer(QObject):
    """Start it with start(); its host (chat view, quick ask) listens to the signals below."""

    started = Signal(object)  # TurnStarted: the conversation and message ids exist
    tool_added = Signal()  # a tool card appeared (its buttons join the focus chain)
    finished = Signal(dict)  # figures: tps, tokens, prompt_tokens, finish_reason, compacted
    failed = Signal(object)  # Presented (after `finished`)
    title_changed = Signal(str, str)
    summarized = Signal(object)  # ContextCompacted: the host shows its marker at once

    def __init__(self, message: AssistantMessage | None, conversation_id: str | None,
                 thinking: bool, parent: QObject | None = None) -> None:
        super().__init__(parent)
        from app.ui.bridge import TurnBridge

        self.bridge = TurnBridge(self)
        self.message = message
        self.conversation_id = conversation_id
        self.new_conversation = conversation_id is None  # the host lists it once it exists
        self.thinking = thinking
        self.handle: TurnHandle | None = None
        self.stop_asked = False
        self.ended = False
        self.started_at = time.perf_counter()
        self.first_token = 0.0
        self.deltas = 0
        self.compacted = False
        self.pasted = False  # its question went as a document (too long for the model)
        self._ops: Ops | None = None
        self._pausable: set[str] = set()  # cards whose Pause / Resume are wired
        self._connect()

    # -- running ------------------------------------------------------------------------------
    def start(self, ops: Ops, assistant: Callable[[], Assistant], begin: Begin) -> None:
        """Says "Preparing…" at once; the assistant is fetched off the GUI thread (it is built
        on first use), then begin() starts the turn, which returns its handle at once."""
        self._status(_tr("Preparing…"))
        self._ops = ops
        ops.run(assistant, self._begin(begin), lambda e: self._fail(present_error(e)))

    def _begin(self, begin: Begin) -> Callable[[Assistant], None]:
        def run(assistant: Assistant) -> None:
            if self.stop_asked:  # stopped before it began: nothing was sent
                self._done_with({"finish_reason": "cancelled"}, _tr("Stopped."))
                return
            try:
                self.handle = begin(assistant, self.bridge.post)
            except ValueError as exc:  # an empty message
                self._fail(present_error(exc))
                return
            self.conversation_id = self.handle.conversation_id
        return run

    def stop(self) -> None:
        self.stop_asked = True
        if self.handle is not None:
            self.handle.cancel()

    @property
    def thread_done(self) -> bool:
        """The turn's thread has ended (it may post the title after the answer is done)."""
        return self.handle is None or self.handle.done

    # -- events -------------------------------------------------------------------------------
    def _connect(self) -> None:
        b = self.bridge
        b.started.connect(self._on_started)
        b.queued.connect(self._on_queued)
        b.progress.connect(self._on_progress)
        b.reasoning.connect(lambda t: self._on_delta(t, True))
        b.text.connect(lambda t: self._on_delta(t, False))
        b.tool_started.connect(self._on_tool)
        b.confirmation.connect(self._on_confirm)
        b.tool_finished.connect(self._on_tool_finished)
        b.tool_progress.connect(self._on_tool_progress)
        b.sources.connect(self._on_sources)
        b.cut.connect(self._on_cut)
        b.compacted.connect(self._on_compacted)
        b.done.connect(self._on_done)
        b.failed.connect(self._on_failed)
        b.title_changed.connect(self.title_changed)

    def _on_failed(self, event: TurnFailed) -> None:
        self._fail(present(event.kind, event.message))

    def _on_started(self, event: TurnStarted) -> None:
        self.conversation_id = event.conversation_id
        if self.message is not None:
            self.message.message_id = event.assistant_message_id
        self.started.emit(event)

    def _on_queued(self, position: int) -> None:
        self._status(_tr("Waiting for the model (%1 ahead)…").replace("%1", str(position)))

    def _on_progress(self, event: Progress) -> None:
        if self.first_token:
            return
        if event.stage == "loading":
            self._status(_tr("Loading the model…"))
        elif event.total:
            percent = min(100, event.done * 100 // event.total)
            self._status(_tr("Reading %1 tokens (%2%)…").replace("%1", f"{event.total:,}")
                         .replace("%2", str(percent)))
        else:
            self._status(_tr("Reading your message…"))

    def _on_delta(self, text: str, reasoning: bool) -> None:
        if not self.first_token:
            self.first_token = time.perf_counter()
            self._status(_tr("Thinking…") if reasoning else "")
        elif not reasoning and self.message is not None and self.message.status_shown:
            self._status("")  # the thinking is over: the answer speaks for itself
        self.deltas += 1
        if self.message is None:
            return
        if reasoning:
            self.message.add_reasoning(text)
        else:
            self.message.add_text(text)

    def _on_tool(self, event: ToolStarted) -> None:
        if self.message is not None:
            self.message.add_tool(event.call_id, event.name, event.arguments)
            self.tool_added.emit()

    def _on_tool_finished(self, event: ToolFinished) -> None:
        if self.message is not None:
            self.message.finish_tool(event.call_id, event.name, event.ok, event.text, event.data)

    def _on_tool_progress(self, event: ToolProgress) -> None:
        if self.message is None:
            return
        card = self.message.card_for(event.call_id, event.name)
        card.show_progress(event.done, event.total, event.current)
        if event.control is not None and card.call_id not in self._pausable:
            self._pausable.add(card.call_id)
            card.offer_pause()
            card.pause_asked.connect(lambda paused, job=event.control: self._pause(job, paused))

    def _pause(self, job: Pausable, paused: bool) -> None:
        """Pause / Resume a running tool's job (off the GUI thread, like every core call)."""
        if self._ops is not None:
            self._ops.run(job.pause if paused else job.resume)

    def _on_confirm(self, event: ConfirmationNeeded) -> None:
        request = event.request
        if self.message is None:
            request.deny()  # nobody can see the question: never approve unseen changes
            return
        self.message.card_for(request.call_id, request.name).ask(request)

    def _on_sources(self, sources: list[Source]) -> None:
        if self.message is not None:
            self.message.set_sources(self.message.sources + list(sources))

    def _on_cut(self, event: OutputCut) -> None:
        # The words a reopened chat shows for the notice stored with the answer.
        stored = {"reasoning": "thinking_cut", "answer": "answer_loop", "tools": "tool_loop"}
        if self.message is not None:
            self.message.add_notice(notice_text(stored.get(event.part, "")))

    def _on_compacted(self, event: ContextCompacted) -> None:
        self.compacted = True
        if self.message is not None:
            self.message.add_notice(_tr("Earlier messages were summarized to fit the context."))
            self.summarized.emit(event)

    def _on_done(self, event: TurnDone) -> None:
        stats, figures = self._figures(event)
        notes = {"cancelled": _tr("Stopped."),
                 "length": _tr("The answer reached the length limit."),
                 "step_limit": _tr("Stopped after too many tool steps.")}
        self._done_with(figures, notes.get(event.finish_reason, ""), stats)

    def _done_with(self, figures: Figures, note: str, stats: str = "", said: str = "") -> bool:
        """End the answer once (False when it had ended); screen readers hear `said`, else
        the note, else that the answer is ready."""
        if self.ended:
            return False
        self.ended = True
        figures.setdefault("compacted", float(self.compacted))
        self._withdraw_pause()
        if self.message is not None:
            self.message.finish(stats, note)
            announce(self.message, said or note or _tr("The answer is ready."))
        self.finished.emit(figures)
        return True

    def _fail(self, failure: Presented) -> None:
        if self._done_with({"finish_reason": "error"}, "⚠ " + failure.text, said=failure.text):
            self.failed.emit(failure)

    def _withdraw_pause(self) -> None:
        if self.message is not None:
            for card in self.message.cards.values():
                card.withdraw_pause()

    def _status(self, text: str) -> None:
        if self.message is not None:
            self.message.show_status(text)

    def _figures(self, done: TurnDone) -> tuple[str, Figures]:
        """'12.3 tok/s · 256 tokens' from the engine's figures, else from what was counted."""
        usage, timings = dict(done.usage or {}), dict(done.timings or {})
        tokens = int(usage.get("completion_tokens", 0)) or self.deltas
        # The engine's decode time is the last step's: its speed is that step's tokens over it.
        step = done.last_completion_tokens or tokens
        decode_ms = float(timings.get("decode_ms", 0) or 0)
        tps = step * 1000 / decode_ms if decode_ms > 0 and step > 1 else 0.0
        elapsed = time.perf_counter() - self.first_token if self.first_token else 0.0
        if not tps and tokens > 1 and elapsed >= MIN_SPEED_SPAN_S:
            # Counted here: an answer that arrived in one burst (a server that does not
            # stream) took no measurable time, and has no speed to show.
            tps = tokens / elapsed
        figures: Figures = {"tps": tps, "tokens": float(tokens),
                                   "prompt_tokens": float(usage.get("prompt_tokens", 0)),
                                   "context_tokens": float(
                                       done.last_prompt_tokens + done.last_completion_tokens),
                                   "finish_reason": done.finish_reason}
        count = "1 token" if tokens == 1 else f"{tokens} tokens"
        return (f"{tps:.1f} tok/s · {count}" if tps else count) if tokens else "", figures

    def release(self) -> None:
        """Drop the current host's connections (the answer moves to another window)."""
        with warnings.catch_warnings():  # a signal nobody listened to warns; nothing is lost
            warnings.simplefilter("ignore", RuntimeWarning)
            for signal in (self.started, self.tool_added, self.finished, self.failed,
                           self.title_changed, self.summarized):
                try:
                    signal.disconnect()
                except (RuntimeError, TypeError):
                    pass


def announce(widget: QWidget, text: str) -> None:
    """Tell screen readers once, when an answer is complete (never per token)."""
    from PySide6.QtGui import QAccessible, QAccessibleAnnouncementEvent  # not before the window

    if QAccessible.isActive():
        event = QAccessibleAnnouncementEvent(widget, text)
        event.setPoliteness(QAccessible.AnnouncementPoliteness.Polite)
        QAccessible.updateAccessibility(event)
