"""The chat page: messages of one conversation, the live turn, and the composer."""

from __future__ import annotations

import time
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

import shiboken6
from PySide6.QtCore import QT_TRANSLATE_NOOP, Qt, QTimer, Signal
from PySide6.QtGui import QDragEnterEvent, QDropEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.ui import turns
from app.ui.chat import long_paste
from app.ui.chat.composer import Composer
from app.ui.chat.history_view import Group, build_widget, group_messages, remember_card
from app.ui.chat.live_answer import Begin, Figures, LiveAnswer
from app.ui.chat.message import AssistantMessage, SummaryMarker, UserMessage
from app.ui.chat.parts import Banner, EmptyState
from app.ui.chat.text_view import RenderQueue
from app.ui.context import UiContext
from app.ui.failures import Action, Presented, action_label
from app.ui.pending_changes import PendingChanges
from app.ui.skip_reasons import skip_reason
from app.ui.widgets import in_help
from skills.common.formats import is_office_file

if TYPE_CHECKING:  # the core's events load after the window's first frame
    from app.core.events import ContextCompacted, MessageId, TurnStarted

W = TypeVar("W", bound=QWidget)
# What opening a conversation reads off the GUI thread: its message groups, the answers'
# alternatives, the files its messages attached, and the changes its routines hold.
_Read = tuple[list[Group], dict[str, tuple[int, int]], list[str], list[object]]

HISTORY_BUDGET_S = 0.010  # GUI time per event-loop pass spent building a loaded conversation


class ChatView(QWidget):
    """Shows a conversation; each answer being written is a LiveAnswer (live_answer.py)."""

    history_loaded = Signal(str)
    conversation_started = Signal(str)
    title_changed = Signal(str, str)
    turn_finished = Signal(dict)
    files_dropped = Signal(list)
    open_models = Signal()
    open_settings = Signal()
    new_chat_requested = Signal()
    streaming_changed = Signal(bool)

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("chatPage")
        self.ctx = ctx
        self.conversation_id: str | None = None
        self.turn: LiveAnswer | None = None
        self._editing: MessageId | None = None
        self._load_token = 0
        self.attachments: list[str] = []
        self._chat_files: list[str] = []  # what earlier messages of this chat attached
        self._focus: object = None  # a message id to scroll to once shown
        self._finished: list[LiveAnswer] = []
        self.renders = RenderQueue(self)  # one queue: long histories render a bit per pass
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(0)
        layout.addWidget(self._build_scroll(), 1)
        layout.addWidget(self._build_bottom())
        self.setAcceptDrops(True)
        self.empty.setVisible(True)
        # Esc stops an answer from anywhere in the window; only while one streams, so Esc
        # keeps its other uses (leaving an edit, closing menus) the rest of the time.
        self.stop_shortcut = QShortcut(QKeySequence(Qt.Key.Key_Escape), self, self.stop)
        in_help(self.stop_shortcut, QT_TRANSLATE_NOOP("HelpMenu", "Stop an answer"))
        self.stop_shortcut.setEnabled(False)
        self.streaming_changed.connect(self.stop_shortcut.setEnabled)

    # -- layout -------------------------------------------------------------------------------
    def _build_scroll(self) -> QScrollArea:
        self.scroll_area = QScrollArea()
        self.scroll_area.setObjectName("chatScroll")
        self.scroll_area.setWidgetResizable(True)
        self.scroll_area.setFrameShape(QFrame.Shape.NoFrame)
        self.scroll_area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        # Always on: a scroll bar that appears mid-stream would re-wrap every message at once.
        self.scroll_area.setVerticalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOn)
        column = QWidget()
        column.setObjectName("chatColumn")
        outer = QHBoxLayout(column)
        outer.setContentsMargins(24, 16, 24, 16)
        self.messages = QVBoxLayout()
        self.messages.setSpacing(10)
        inner = QWidget()
        inner.setMaximumWidth(860)  # long lines are hard to read; keep a calm column
        box = QVBoxLayout(inner)
        box.setContentsMargins(0, 0, 0, 0)
        self.empty = EmptyState()
        self.empty.suggestion.connect(self._chip)
        box.addWidget(self.empty)
        box.addLayout(self.messages)
        box.addStretch(1)
        outer.addStretch(1)
        outer.addWidget(inner, 100)
        outer.addStretch(1)
        self.scroll_area.setWidget(column)
        self._stick = True
        bar = self.scroll_area.verticalScrollBar()
        bar.rangeChanged.connect(self._follow)
        bar.valueChanged.connect(lambda v: setattr(self, "_stick", v >= bar.maximum() - 40))
        return self.scroll_area


    def _build_bottom(self) -> QWidget:
        bottom = QWidget()
        box = QVBoxLayout(bottom)
        box.setContentsMargins(24, 4, 24, 14)
        box.setSpacing(6)
        self._banner_action = Action.CHOOSE_MODEL
        self.banner = Banner(lambda: action_label(self._banner_action))
        self.banner.action.connect(self._banner_clicked)
        self.banner_text = self.banner.text
        box.addWidget(self.banner)
        self.pending = PendingChanges(self.ctx)  # what a routine's answer waits to change
        self.pending.decided.connect(self._changes_decided)
        box.addWidget(self.pending)
        self.composer = Composer()
        self.composer.think.setChecked(bool(self.ctx.hearth.settings.thinking_default))
        self.composer.submitted.connect(self.send)
        self.composer.stop_requested.connect(self.stop)
        self.composer.files_dropped.connect(self.files_dropped)
        self.composer.edit_cancelled.connect(lambda: setattr(self, "_editing", None))
        box.addWidget(self.composer)
        return bottom

    def show_banner(self, text: str, button: bool = False, progress: int | None = None) -> None:
        """A quiet line above the composer (no model yet, indexing progress); `button` offers
        "Choose a model…"."""
        self._set_banner_action(Action.CHOOSE_MODEL)
        self.banner.show_message(text, button, progress)

    def show_failure(self, failure: Presented) -> None:
        """A failure's line with the button its kind calls for (app/ui/failures.py)."""
        self._set_banner_action(failure.action)
        self.banner.show_message(failure.text, failure.action is not Action.NONE)

    def _set_banner_action(self, action: Action) -> None:
        self._banner_action = action
        self.banner.button.setText(action_label(action))

    def _banner_clicked(self) -> None:
        signals = {Action.CHOOSE_MODEL: self.open_models, Action.OPEN_SETTINGS: self.open_settings,
                   Action.NEW_CHAT: self.new_chat_requested}
        signal = signals.get(self._banner_action)
        if signal is not None:
            signal.emit()

    def _chip(self, text: str) -> None:
        self.composer.input.setPlainText(text)
        self.composer.input.setFocus()

    def _follow(self, _min: int, maximum: int) -> None:
        # Keep the newest text in view while streaming, unless the user scrolled up to read.
        if self._stick:
            self.scroll_area.verticalScrollBar().setValue(maximum)

    def _add(self, widget: QWidget) -> None:
        self.empty.setVisible(False)
        self.messages.addWidget(widget)
        self._stick = True
        self._tab_to_composer_after(widget)

    def _tab_to_composer_after(self, widget: QWidget) -> None:
        """Tab goes sidebar -> messages -> composer. A widget added later joins the end of the
        window's focus chain (after the composer): move the composer's controls behind it."""
        focusable = [w for w in widget.findChildren(QWidget)
                     if w.focusPolicy() & Qt.FocusPolicy.TabFocus]
        if not focusable:
            return
        c = self.composer
        previous = focusable[-1]
        for following in (self.banner.button, c.input, c.attach, c.think, c.send_button):
            QWidget.setTabOrder(previous, following)
            previous = following

    # -- conversations ------------------------------------------------------------------------
    def clear(self) -> None:
        if self.turn is not None:
            self.turn.message = None  # the turn goes on in the background, unseen
        self._remove(self._widgets())
        self.empty.setVisible(True)

    def _changes_decided(self, conversation_id: str) -> None:
        if conversation_id == self.conversation_id:
            self.load_conversation(conversation_id)  # the decision is said in it

    def new_conversation(self) -> None:
        self.pending.show_for(None)
        self.clear()
        self.attachments = []
        self._chat_files = []
        self._update_think_lock()
        self.composer.set_attachments([])
        self.conversation_id = None
        self.composer.input.setFocus()

    def load_conversation(self, conversation_id: str, focus: object = None,
                          live: LiveAnswer | None = None) -> None:
        """Read the messages on a worker, then build the widgets (one render per message).

        `focus`: a message id (a search hit) to scroll to once the conversation is shown.
        `live`: an answer still being written (quick ask's): it goes on below the history."""
        self.clear()
        self.conversation_id = conversation_id
        self._focus = focus
        self._load_token += 1
        token = self._load_token
        history = self.ctx.lazy("history")

        held = self.pending.reader(conversation_id)

        def read() -> _Read:
            stored = history.messages(conversation_id)
            groups = group_messages(stored)
            if live is not None:  # the live turn's own messages are shown by its widget
                users = [i for i, (kind, _m) in enumerate(groups) if kind == "user"]
                groups = groups[:users[-1] + 1] if users else groups
            files = [p for m in stored if m.role == "user" for p in m.attachments or []]
            return groups, history.alternatives(conversation_id), files, held()

        def show(got: _Read) -> None:
            self.pending.show_cards(conversation_id, got[3])
            if token == self._load_token:
                self._chat_files = got[2]
                self._update_think_lock()
            self._show_history(token, got[0], live, got[1])

        self._chat_files = []
        self._update_think_lock()
        self.ctx.ops.run(read, show, title=self.tr("Could not open this conversation"))

    def adopt(self, live: LiveAnswer) -> None:
        """Open in Hearth: quick ask's answer goes on here, the same widget, still streaming."""
        if live.conversation_id is None:
            return
        if self.turn is not None:  # one answer at a time here: the other goes on unseen
            live.message = None
            self._finished.append(live)
            self.load_conversation(live.conversation_id)
            return
        self.load_conversation(live.conversation_id, live=live)

    def _show_history(self, token: int, groups: list[Group], live: LiveAnswer | None = None,
                      alternatives: dict[str, tuple[int, int]] | None = None) -> None:
        """Build the widgets a few at a time: a long conversation must not freeze the window.
        `alternatives`: {user message id: (answer shown, how many)} for the answers' ‹ n / N ›."""
        if token != self._load_token:
            return  # the user already clicked another conversation
        started = time.perf_counter()
        while groups and time.perf_counter() - started < HISTORY_BUDGET_S:
            widget = build_widget(groups.pop(0), self.ctx.dark, self.renders)
            self._wire(widget)
            question = self._last(UserMessage)
            if isinstance(widget, AssistantMessage) and question is not None and alternatives:
                widget.set_alternatives(*alternatives.get(str(question.message_id), (1, 1)))
            self._add(widget)
        if groups:
            QTimer.singleShot(0, self, lambda: self._show_history(token, groups, live,
                                                                  alternatives))
        else:
            if live is not None and live.message is not None:
                self._add(_wired(self, live.message))
                self._host(live)
            self.empty.setVisible(not self._widgets())
            self.history_loaded.emit(self.conversation_id or "")
            if self._focus:  # a title hit has no message to scroll to
                self._stick = False
                self.reveal(self._focus)
                # Messages render a little later and grow: look again once they have.
                QTimer.singleShot(300, self, lambda focus=self._focus: self.reveal(focus))

    def reveal(self, message_id: object) -> QWidget | None:
        """Scroll a message into view (the hit the user picked in search)."""
        widget = next((w for w in self._widgets()
                       if getattr(w, "message_id", None) == message_id), None)
        if widget is not None:
            self.scroll_area.ensureWidgetVisible(widget, 0, 40)
        return widget

    def _wire(self, widget: QWidget) -> None:
        if isinstance(widget, SummaryMarker):
            widget.toggle.toggled.connect(lambda _open, w=widget: self._keep_in_view(w))
        elif isinstance(widget, UserMessage):
            widget.edit_requested.connect(self.begin_edit)
        elif isinstance(widget, AssistantMessage):
            widget.regenerate_requested.connect(lambda w=widget: self.regenerate(w))
            widget.alternative_requested.connect(
                lambda n, w=widget: self.show_alternative(w, n))
            widget.cite_clicked.connect(lambda n, w=widget: self.open_citation(w, n))
            widget.card_changed.connect(self._remember_card)

    def _remember_card(self, call_id: str, state: dict[str, object]) -> None:
        cid, history = self.conversation_id, self.ctx.lazy("history")
        if cid is not None and call_id:
            self.ctx.ops.run(lambda: remember_card(history, cid, call_id, state),
                             title=self.tr("Could not remember what this card shows"), writes=True)

    def _keep_in_view(self, marker: QWidget) -> None:
        """Opening a summary must not scroll it away: reading it, the person stops following
        the newest text, and the marker stays where it was clicked."""
        self._stick = False
        QTimer.singleShot(0, self, lambda: self.scroll_area.ensureWidgetVisible(marker, 0, 40)
                          if shiboken6.isValid(marker) else None)

    # -- turns --------------------------------------------------------------------------------
    @property
    def streaming(self) -> bool:
        return self.turn is not None

    def send(self, text: str, thinking: bool | None = None) -> None:
        if self.turn is not None:
            return
        think = self.composer.think.isChecked() if thinking is None else thinking
        if self._editing is not None:
            self._resend_edit(text, think)
            return
        bubble = _wired(self, UserMessage(text, dark=self.ctx.dark))
        self._add(bubble)
        cid = self.conversation_id
        files, self.attachments = self.attachments, []
        self._chat_files += files
        self.composer.set_attachments([])
        if long_paste.needs_attaching(self.ctx, text):
            self._send_attached(bubble, text, think, files)
            return
        self._start(think, lambda a, post: turns.send(a, cid, text, think, post, files))

    def _send_attached(self, bubble: UserMessage, text: str, think: bool,
                       files: list[str]) -> None:
        """Too long for the model: kept whole as a document of this chat first, then sent; the
        model reads its start and end and searches or reads the rest (app.core.pastes)."""
        bubble.show_attached("")
        self.composer.set_streaming(True)  # nothing else is sent meanwhile

        def sent(got: tuple[str, str]) -> None:
            cid, path = got
            self.composer.set_streaming(False)
            if self.conversation_id is None:
                self.conversation_id = cid
                self.conversation_started.emit(cid)
            bubble.show_attached(Path(path).name)
            self._start(think, lambda a, post: turns.send(a, cid, text, think, post,
                                                          [*files, path]), pasted=True)

        def failed(error: Exception) -> None:
            self.composer.set_streaming(False)
            why = (f"{error.name}: {skip_reason(error.skip)}"
                   if isinstance(error, long_paste.NotIndexed) else str(error))
            self.show_banner(self.tr("Your message was not sent: it is too long for the model "
                                     "and could not be kept as a document (%1).")
                             .replace("%1", why))

        cid = self.conversation_id
        self.ctx.ops.run(lambda: long_paste.attach(self.ctx, cid, text), sent, failed, writes=True)

    def add_attachments(self, paths: list[str]) -> None:
        """Files just indexed for this chat; the next message tells the assistant about them."""
        self.attachments += [p for p in paths if p not in self.attachments]
        self.composer.set_attachments(self.attachments)
        self._update_think_lock()

    def _update_think_lock(self) -> None:
        """The Think toggle tells the truth: a chat about office files always thinks."""
        self.composer.lock_think(any(is_office_file(p) for p in [*self._chat_files, *self.attachments]))

    def regenerate(self, answer: AssistantMessage | None = None) -> None:
        """Answer again (the last answer when none is given); the earlier answer is kept, and
        what followed it goes with it: the new answer's ‹ n / N › switches between them."""
        if self.turn is not None or self.conversation_id is None:
            return
        answer = answer or self._last(AssistantMessage)
        if answer is None:
            return
        widgets = self._widgets()
        shown, total = answer.alternative
        message_id = None if answer.message_id is None else str(answer.message_id)
        self._remove(widgets[widgets.index(answer):] if answer in widgets else [])
        cid = self.conversation_id
        think = self.composer.think.isChecked()
        self._start(think, lambda a, post: turns.regenerate(a, cid, think, post, message_id))
        if self.turn is not None and self.turn.message is not None:
            self.turn.message.set_alternatives(total + 1, total + 1)

    def show_alternative(self, answer: AssistantMessage, position: int) -> None:
        """Show another answer kept for the question above `answer` (with what followed it)."""
        if self.turn is not None or self.conversation_id is None:
            return
        widgets = self._widgets()
        before = widgets[:widgets.index(answer)] if answer in widgets else []
        question = next((w for w in reversed(before) if isinstance(w, UserMessage)), None)
        if question is None or question.message_id is None:
            return
        cid, anchor = self.conversation_id, str(question.message_id)
        assistant = self.ctx.assistant
        self.ctx.ops.run(lambda: assistant().select_answer(cid, anchor, position),
                         lambda _: self._reload_at(cid, anchor),
                         title=self.tr("Could not show that answer"), writes=True)

    def _reload_at(self, conversation_id: str, message_id: str) -> None:
        if self.conversation_id == conversation_id and self.turn is None:
            self.load_conversation(conversation_id, focus=message_id)

    def begin_edit(self, message_id: MessageId, text: str) -> None:
        if self.turn is not None:
            return
        self._editing = message_id
        self.composer.set_editing(text)

    def _resend_edit(self, text: str, think: bool) -> None:
        message_id, self._editing = self._editing, None
        if message_id is None:  # only called while editing
            return
        self.composer.set_editing(None)
        self._drop_from(message_id)
        self._add(_wired(self, UserMessage(text, dark=self.ctx.dark)))
        cid = self.conversation_id
        self._start(think, lambda a, post: turns.edit_and_resend(
            a, str(cid), message_id, text, think, post))

    def _drop_from(self, message_id: object) -> None:
        """Remove the edited message and everything after it from the view."""
        widgets = self._widgets()
        start = next((i for i, w in enumerate(widgets)
                      if isinstance(w, UserMessage) and w.message_id == message_id), None)
        self._remove(widgets[start:] if start is not None else [])

    def _remove(self, widgets: list[QWidget]) -> None:
        for widget in widgets:
            self.messages.removeWidget(widget)
            widget.deleteLater()

    def _widgets(self) -> list[QWidget]:
        items = (self.messages.itemAt(i) for i in range(self.messages.count()))
        return [w for w in (item.widget() for item in items if item is not None) if w]

    def _last(self, kind: type[W]) -> W | None:
        return next((w for w in reversed(self._widgets()) if isinstance(w, kind)), None)

    def _start(self, thinking: bool, begin: Begin, pasted: bool = False) -> None:
        self._prune_finished()
        message = _wired(self, AssistantMessage(dark=self.ctx.dark, renders=self.renders))
        self._add(message)
        live = LiveAnswer(message, self.conversation_id, thinking, self)
        live.pasted = pasted
        self._host(live)
        live.start(self.ctx.ops, self.ctx.assistant, begin)

    def _host(self, live: LiveAnswer) -> None:
        """Show `live` here from now on: a new answer, or one that quick ask hands over."""
        live.setParent(self)
        if live.ended:  # it finished while the conversation loaded
            self._finished.append(live)
            return
        self.turn = live
        live.started.connect(lambda e: self._on_started(live, e))
        live.tool_added.connect(lambda: self._tab_to_composer_after(live.message)
                                if live.message is not None else None)
        live.finished.connect(lambda figures: self._on_finished(live, figures))
        live.failed.connect(self._on_failed)
        live.title_changed.connect(self.title_changed)
        live.summarized.connect(lambda e: self._show_summary(live, e))
        self.composer.set_streaming(True)
        self.streaming_changed.emit(True)

    def _on_started(self, live: LiveAnswer, event: TurnStarted) -> None:
        if live.message is not None:
            user = self._last(UserMessage)
            if user is not None and user.message_id is None:
                user.message_id = event.user_message_id
        if live.new_conversation:
            live.new_conversation = False
            if self.conversation_id is None and live.message is not None:
                self.conversation_id = event.conversation_id
            self.conversation_started.emit(event.conversation_id)

    def _show_summary(self, live: LiveAnswer, event: ContextCompacted) -> None:
        """The marker where the summary applies (as a reopened chat shows it): above the
        first message kept whole, else above this turn's own message."""
        if live.message is None or self.conversation_id != event.conversation_id:
            return
        # The new summary covers what an older one covered.
        self._remove([w for w in self._widgets() if isinstance(w, SummaryMarker)])
        users = [w for w in self._widgets() if isinstance(w, UserMessage)]
        above = next((w for w in users if str(w.message_id) == event.before_message_id),
                     users[-1] if users else live.message)
        marker = _wired(self, SummaryMarker(event.summary))
        self.messages.insertWidget(self.messages.indexOf(above), marker)

    def stop(self) -> None:
        if self.turn is not None:
            self.turn.stop()

    def _on_finished(self, live: LiveAnswer, figures: Figures) -> None:
        self._end(live)
        if figures.get("finish_reason") != "error":  # a failure says so in the banner
            self.turn_finished.emit({**figures, "pasted": float(live.pasted)})

    def _on_failed(self, failure: Presented) -> None:
        if failure.action is not Action.NONE:
            self.show_failure(failure)

    def _end(self, live: LiveAnswer) -> None:
        if self.turn is live:
            self.turn = None
            self.composer.set_streaming(False)
            self.streaming_changed.emit(False)
        # Kept until the turn's thread is done: the title arrives after TurnDone.
        self._finished.append(live)

    def _prune_finished(self) -> None:
        for live in [t for t in self._finished if t.thread_done]:
            self._finished.remove(live)
            live.deleteLater()

    # -- sources and drops --------------------------------------------------------------------
    def open_citation(self, message: AssistantMessage, number: int) -> QWidget | None:
        from app.ui.open_source import open_source  # the PDF viewer: not before the window

        source = next((s for s in message.sources if s.citation == number), None)
        return open_source(source, self) if source is not None else None

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:  # noqa: N802
        self.composer.dragEnterEvent(event)

    def dragLeaveEvent(self, event: object) -> None:  # noqa: N802
        self.composer.dragLeaveEvent(event)

    def dropEvent(self, event: QDropEvent) -> None:  # noqa: N802
        self.composer.dropEvent(event)


def _wired(view: ChatView, widget: W) -> W:
    view._wire(widget)
    return widget
