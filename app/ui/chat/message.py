"""One widget per message: the user's bubble, and the assistant's turn (thinking, tools, answer)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, Qt, QTimer, Signal
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QSizePolicy, QToolButton, QVBoxLayout, QWidget

from app.ui.chat.text_view import COALESCE_MS, MessageText, RenderQueue
from app.ui.chat.tool_card import ToolCard
from app.ui.widgets import dim_label, hbox

if TYPE_CHECKING:  # the core's events load after the window's first frame
    from app.core.events import MessageId
    from skills.base import Source

SEGMENT_CHARS = 1200  # past this, a segment is frozen at the next block boundary
_FENCE = re.compile(r"^(```|~~~)", re.MULTILINE)


def split_point(text: str) -> int:
    """Where a long Markdown segment may end: after a blank line outside any code fence.

    0 when the text is still short or has no such place yet (e.g. inside a long code block)."""
    if len(text) < SEGMENT_CHARS:
        return 0
    cut = 0
    for boundary in re.finditer(r"\n\n(?=\S)", text):
        end = boundary.end()
        if end >= SEGMENT_CHARS and len(_FENCE.findall(text, 0, end)) % 2 == 0:
            cut = end
            break
    # Tables are blocks too, but a blank line never splits one, so they stay whole.
    return cut


class _Retranslated(QFrame):
    """A message part that says its texts again in a language picked later (_retranslate).

    changeEvent, not an event filter: a long chat has many messages, and a filter would run
    Python for every paint of each of them."""

    def _retranslate(self) -> None:
        raise NotImplementedError

    def changeEvent(self, event: QEvent) -> None:  # noqa: N802
        if event.type() == QEvent.Type.LanguageChange:
            self._retranslate()
        super().changeEvent(event)


class UserMessage(_Retranslated):
    """The user's words, right-aligned in a soft bubble, with Edit to change and resend."""

    edit_requested = Signal(object, str)  # (message id, text)

    def __init__(self, text: str, message_id: object = None, parent: QWidget | None = None,
                 dark: bool = False) -> None:
        super().__init__(parent)
        self.message_id = message_id
        self.text = text
        outer = QHBoxLayout(self)
        outer.setContentsMargins(80, 6, 0, 6)
        outer.addStretch(1)
        column = QVBoxLayout()
        column.setSpacing(2)
        bubble = QFrame()
        bubble.setObjectName("userBubble")
        inner = QVBoxLayout(bubble)
        inner.setContentsMargins(14, 8, 14, 8)
        self.body = MessageText(bubble, dark)
        self.body.set_markdown(text, now=True)
        inner.addWidget(self.body)
        self.attached = dim_label()  # the message went to the model as a document (too long)
        self.attached.hide()
        self._attached_name: str | None = None
        inner.addWidget(self.attached)
        column.addWidget(bubble)
        self.edit_button = _action("", "")
        self.edit_button.clicked.connect(lambda: self.edit_requested.emit(self.message_id, text))
        column.addLayout(hbox(None, self.edit_button))
        outer.addLayout(column, 4)
        # A short message keeps a short bubble; a long one wraps at about 80 % of the width.
        self.body.setMinimumWidth(min(520, self.body.fontMetrics().horizontalAdvance(text) + 24))
        self._retranslate()

    def _retranslate(self) -> None:
        _retext(self.edit_button, self.tr("Edit"), self.tr("Edit this message and resend"))
        self.body.setAccessibleName(self.tr("Your message"))
        if self._attached_name is not None:
            self.show_attached(self._attached_name)

    def show_attached(self, name: str) -> None:
        """Say that this message is longer than the model reads at once and went to it as a
        document `name` ("" while it is being kept)."""
        self._attached_name = name
        self.attached.setText(
            self.tr("Too long for the model to read at once: kept whole as “%1”, which it "
                    "searches and reads.").replace("%1", name) if name
            else self.tr("Too long for the model to read at once: keeping it as a document…"))
        self.attached.show()


def _action(text: str, description: str) -> QToolButton:
    button = QToolButton()
    button.setObjectName("dim")
    button.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
    _retext(button, text, description)
    return button


def _retext(button: QToolButton, text: str, description: str) -> None:
    button.setText(text)
    button.setAccessibleName(text)
    button.setAccessibleDescription(description)
    button.setToolTip(description)


def disclosure_button() -> QToolButton:
    """A collapsed section's toggle: an arrow that points right when closed, down when open."""
    button = QToolButton()
    button.setCheckable(True)
    button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
    button.setArrowType(Qt.ArrowType.RightArrow)
    button.toggled.connect(lambda open_: button.setArrowType(
        Qt.ArrowType.DownArrow if open_ else Qt.ArrowType.RightArrow))
    return button


def model_text(text: str = "") -> QLabel:
    """Text the model wrote aside from its answer (reasoning, a summary): plain, selectable."""
    label = QLabel(text)
    label.setObjectName("thinkingText")
    label.setWordWrap(True)
    label.setTextFormat(Qt.TextFormat.PlainText)
    label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse
                                  | Qt.TextInteractionFlag.TextSelectableByKeyboard)
    return label


class ThinkingSection(_Retranslated):
    """The model's reasoning, collapsed by default behind a "Thinking" toggle."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(2)
        self.toggle = disclosure_button()
        self.toggle.toggled.connect(self._toggled)
        layout.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignLeft)
        self.frame = QFrame()
        self.frame.setObjectName("thinking")
        inner = QVBoxLayout(self.frame)
        inner.setContentsMargins(12, 2, 4, 4)
        self.body = model_text()
        inner.addWidget(self.body)
        self.frame.hide()
        layout.addWidget(self.frame)
        self.text = ""
        self.finished = False
        self._retranslate()

    def append(self, text: str) -> None:
        self.text += text

    def refresh(self) -> None:
        if not self.frame.isHidden():  # collapsed reasoning costs nothing to stream
            self.body.setText(self.text.strip())
        self._update_label()

    def finish(self) -> None:
        self.finished = True
        self.refresh()

    def _toggled(self, open_: bool) -> None:
        self.frame.setVisible(open_)
        self.refresh()

    def _retranslate(self) -> None:
        self.toggle.setAccessibleName(self.tr("Show thinking"))
        self.body.setAccessibleName(self.tr("Thinking"))
        self._update_label()

    def _update_label(self) -> None:
        words = len(self.text.split())
        label = self.tr("Thought") if self.finished else self.tr("Thinking…")
        self.toggle.setText(f"{label}  ·  {words} " + self.tr("words") if words else label)


class SummaryMarker(_Retranslated):
    """Where older messages were summarized for the model: a collapsed "Earlier messages
    summarized" toggle over the summary it wrote (the messages above stay as they were)."""

    def __init__(self, summary: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("summaryMarker")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 40, 4)
        layout.setSpacing(2)
        self.toggle = disclosure_button()
        self.toggle.toggled.connect(self._toggled)
        layout.addWidget(self.toggle, 0, Qt.AlignmentFlag.AlignLeft)
        self.body = model_text(summary)
        self.body.hide()
        layout.addWidget(self.body)
        self.summary = summary
        self._retranslate()

    def _toggled(self, open_: bool) -> None:
        self.body.setVisible(open_)

    def _retranslate(self) -> None:
        self.toggle.setText(self.tr("Earlier messages summarized"))
        self.toggle.setAccessibleName(self.tr("Show the summary of earlier messages"))
        self.toggle.setToolTip(self.tr("The messages above no longer fit the model's context; "
                                       "it reads this summary of them instead."))
        self.body.setAccessibleName(self.tr("Summary of earlier messages"))


class AssistantMessage(_Retranslated):
    """A whole assistant turn, streamed: thinking, tool cards and answer segments in order.

    Deltas only touch Python strings; a single-shot timer renders them ~16 times a second."""

    regenerate_requested = Signal()
    alternative_requested = Signal(int)  # the answer to show instead (1, 2...)
    cite_clicked = Signal(int)
    card_changed = Signal(str, dict)  # a tool card's call id and state to store (undone)

    def __init__(self, parent: QWidget | None = None, dark: bool = False,
                 renders: RenderQueue | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("assistantMessage")
        self._renders = renders or RenderQueue(self)
        self.message_id: MessageId | None = None
        self.dark = dark
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 6, 40, 6)
        self._layout.setSpacing(6)
        self.thinking: ThinkingSection | None = None
        self.segment: MessageText | None = None
        self.segments: list[MessageText] = []
        self.cards: dict[str, ToolCard] = {}
        self._segment_text = ""
        self.sources: list[Source] = []
        self._answer = ""
        self._notices: list[str] = []  # Hearth cut the model short ("Thinking was cut short")
        self._footer = self._build_footer()
        self._layout.addWidget(self._footer)
        self._timer = QTimer(self, singleShot=True)
        self._timer.timeout.connect(self._render_thinking)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Minimum)

    # -- streaming ----------------------------------------------------------------------------
    def add_reasoning(self, text: str) -> None:
        if self.thinking is None:
            self.thinking = ThinkingSection()
            self._insert(self.thinking)
            self.segment = None
        self.thinking.append(text)
        if not self._timer.isActive():
            self._timer.start(COALESCE_MS)

    def add_text(self, text: str) -> None:
        if self.thinking is not None and not self.thinking.finished:
            self.thinking.finish()
        self._answer += text
        pending = text
        while pending:
            if self.segment is None:
                if not pending.strip():
                    return  # the blank line after </think> must not open an empty segment
                self._open_segment()
            self._segment_text += pending
            pending = ""
            cut = split_point(self._segment_text)
            if cut:
                # A long segment is frozen at a block boundary and rendered for the last time;
                # only the short tail keeps re-rendering while the answer streams.
                pending = self._segment_text[cut:]
                self._segment_text = self._segment_text[:cut]
                assert self.segment is not None
                self._freeze(self.segment, self._segment_text.strip("\n"))
                self.segment = None
        if self.segment is not None:
            self.segment.set_markdown(self._segment_text.lstrip("\n"))

    def _freeze(self, segment: MessageText, text: str) -> None:
        """A finished segment renders once, one per event-loop pass: a burst of text that
        completes several segments at once must not render them all in one go."""
        segment.set_markdown(text, later=True)
        self._renders.add(segment)

    def _open_segment(self) -> None:
        self.segment = MessageText(self, self.dark)
        self.segment.setAccessibleName(self.tr("Answer"))
        self.segment.cite_clicked.connect(self.cite_clicked)
        self.segments.append(self.segment)
        self._insert(self.segment)
        self._segment_text = ""

    def add_tool(self, call_id: str, name: str, arguments: dict[str, object]) -> ToolCard:
        self._close_open_parts()
        card = ToolCard(call_id, name, arguments)
        card.state_changed.connect(lambda state, c=card: self.card_changed.emit(c.call_id, state))
        self.cards[call_id or name] = card
        self._insert(card)
        return card

    def card_for(self, call_id: str, name: str) -> ToolCard:
        card = self.cards.get(call_id or name) or next(
            (c for c in reversed(list(self.cards.values())) if c.name == name), None)
        return card if card is not None else self.add_tool(call_id, name, {})

    def finish_tool(self, call_id: str, name: str, ok: bool, text: str, data: object,
                    state: dict[str, object] | None = None) -> None:
        self.card_for(call_id, name).finish(ok, text, data, state)

    def set_sources(self, sources: list[Source]) -> None:
        self.sources = sorted(sources, key=lambda s: getattr(s, "citation", 0))
        self._sources_label.setText(_sources_html(self.sources))
        self._sources_label.setVisible(bool(self.sources))

    def finish(self, stats: str = "", note: str = "", deferred: bool = False) -> None:
        """End of turn: render the live tail now (or in the render queue when `deferred`, as
        for a stored conversation) and show the footer; frozen parts finish in the queue."""
        if deferred and self.segment is not None:
            self._freeze(self.segment, self._segment_text.strip("\n"))
            self.segment = None
        self._close_open_parts()
        self._stats.setText(stats)
        self.copy_button.show()
        self.regenerate_button.show()
        if note or self._notices:
            self._note.setText(" ".join([*self._notices, note]).strip())
            self._note.show()
        self._footer.show()

    def show_status(self, text: str) -> None:
        """What happens before the answer (waiting, loading, reading, thinking); "" clears it."""
        self._stats.setText(text)
        self._footer.setVisible(bool(text) or bool(self._notices))

    @property
    def status_shown(self) -> bool:
        return bool(self._stats.text()) and not self._footer.isHidden()

    def add_notice(self, text: str) -> None:
        """A short notice under the answer, shown at once (while the answer still streams)."""
        if text and text not in self._notices:
            self._notices.append(text)
            self._note.setText(" ".join(self._notices))
            self._note.show()
            self._footer.show()

    @property
    def notices(self) -> list[str]:
        return list(self._notices)

    @property
    def answer(self) -> str:
        return self._answer

    @property
    def busy(self) -> bool:
        return any(s.pending for s in self.segments) or self._timer.isActive()

    # -- parts --------------------------------------------------------------------------------
    def _close_open_parts(self) -> None:
        if self.thinking is not None and not self.thinking.finished:
            self.thinking.finish()
        self._timer.stop()
        if self.segment is not None:
            self.segment.flush()
        self.thinking = None if self.thinking is None or self.thinking.finished else self.thinking
        self.segment = None

    def _render_thinking(self) -> None:
        if self.thinking is not None:
            self.thinking.refresh()

    def _insert(self, widget: QWidget) -> None:
        # Parts go above the footer (sources, stats and actions always stay last).
        self._layout.insertWidget(self._layout.count() - 1, widget)

    def _build_footer(self) -> QWidget:
        footer = QWidget()
        column = QVBoxLayout(footer)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(4)
        self._note = dim_label()
        self._note.hide()
        column.addWidget(self._note)
        self._sources_label = QLabel()
        self._sources_label.setObjectName("sources")
        self._sources_label.setWordWrap(True)
        self._sources_label.setTextFormat(Qt.TextFormat.RichText)
        self._sources_label.setTextInteractionFlags(
            Qt.TextInteractionFlag.LinksAccessibleByMouse
            | Qt.TextInteractionFlag.LinksAccessibleByKeyboard)
        self._sources_label.linkActivated.connect(
            lambda link: self.cite_clicked.emit(int(link.split(":", 1)[1])))
        self._sources_label.hide()
        column.addWidget(self._sources_label)
        row = QHBoxLayout()
        row.setSpacing(2)
        self.copy_button = _action("", "")
        self.copy_button.clicked.connect(
            lambda: QGuiApplication.clipboard().setText(self._answer.strip()))
        self.regenerate_button = _action("", "")
        self.regenerate_button.clicked.connect(self.regenerate_requested)
        self._stats = dim_label(wrap=False)
        row.addWidget(self._build_switcher())
        row.addWidget(self.copy_button)
        row.addWidget(self.regenerate_button)
        # Only a finished answer can be copied or written again (finish shows them).
        self.copy_button.hide()
        self.regenerate_button.hide()
        row.addSpacing(8)
        row.addWidget(self._stats)
        row.addStretch(1)
        column.addLayout(row)
        self._retranslate()
        footer.hide()
        return footer

    def _build_switcher(self) -> QWidget:
        """‹ 2 / 3 ›: the answers kept by regenerate; shown only when there are several."""
        self.alternative = (1, 1)  # (shown, how many)
        self.switcher = QWidget()
        row = QHBoxLayout(self.switcher)
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(0)
        self.previous_button = _action("‹", "")
        self.alternative_label = dim_label(wrap=False)
        self.next_button = _action("›", "")
        self.previous_button.clicked.connect(lambda: self._step(-1))
        self.next_button.clicked.connect(lambda: self._step(1))
        for widget in (self.previous_button, self.alternative_label, self.next_button):
            row.addWidget(widget)
        self.switcher.hide()
        return self.switcher

    def set_alternatives(self, shown: int, total: int) -> None:
        """Answer `shown` of `total` (1-based); one answer hides the switcher."""
        self.alternative = (shown, total)
        self.alternative_label.setText(f"{shown} / {total}")
        self.previous_button.setEnabled(shown > 1)
        self.next_button.setEnabled(shown < total)
        self.switcher.setVisible(total > 1)

    def _step(self, delta: int) -> None:
        shown, total = self.alternative
        wanted = shown + delta
        if 1 <= wanted <= total:
            self.alternative_requested.emit(wanted)

    def _retranslate(self) -> None:
        _retext(self.copy_button, self.tr("Copy"), self.tr("Copy the answer"))
        _retext(self.regenerate_button, self.tr("Regenerate"), self.tr("Answer this again"))
        for button, name, description in (
                (self.previous_button, self.tr("Previous answer"),
                 self.tr("Show the previous answer to this message")),
                (self.next_button, self.tr("Next answer"),
                 self.tr("Show the next answer to this message"))):
            button.setAccessibleName(name)
            button.setAccessibleDescription(description)
            button.setToolTip(description)
        self.alternative_label.setAccessibleName(self.tr("Answer shown"))
        self._sources_label.setAccessibleName(self.tr("Sources"))


def _sources_html(sources: list[Source]) -> str:
    import html

    items = []
    for s in sources:
        title = getattr(s, "title", "") or Path(str(getattr(s, "document", ""))).name
        location = getattr(s, "location", "") or (
            f"page {s.page}" if getattr(s, "page", None) else "")
        suffix = f" — {html.escape(location)}" if location else ""
        items.append(f'<a href="cite:{s.citation}">[{s.citation}] {html.escape(title)}</a>'
                     f"{suffix}")
    return "<br/>".join(items)
