"""Cards for the changes a routine's answer asked for: what would change, Approve and Deny.
Shown above a routine conversation's composer and on the Routines page; nothing changes until
the person approves, and the decision runs off the GUI thread."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QVBoxLayout, QWidget

from app.ui.banner_frame import BannerFrame
from app.ui.context import UiContext
from app.ui.widgets import tr_button


class PendingCard(BannerFrame):
    """One held change: its description in words, and the two answers."""

    def __init__(self, held: Any, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.held = held
        self.setObjectName("pendingChange")
        self._tr(lambda: self.text.setText(
            self.tr("A routine asks to make this change:") + "\n" + str(held.description)))
        self.approve = tr_button(self._tr, lambda: self.tr("Approve"))
        self.approve.setObjectName("primary")
        self.deny = tr_button(self._tr, lambda: self.tr("Deny"))
        self.add(self.approve)
        self.add(self.deny)


class PendingChanges(QWidget):
    """The held changes of one conversation (or of every routine run when `conversation` is
    None); `decided(conversation_id)` after an answer, so the view can show what happened."""

    decided = Signal(str)
    shown = Signal()  # the cards are up to date (tests)

    def __init__(self, ctx: UiContext, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ctx = ctx
        self.conversation: str | None = None
        self.cards: list[PendingCard] = []
        self._column = QVBoxLayout(self)
        self._column.setContentsMargins(0, 0, 0, 0)
        self._token = 0
        self.hide()

    def show_for(self, conversation: str | None, every: bool = False) -> None:
        """Read the held changes off the GUI thread and show them (`every`: all of them)."""
        self.conversation = conversation
        self._token += 1
        token = self._token
        if conversation is None and not every:
            self._show(token, [])
            return
        approvals = self.ctx.lazy("approvals")
        self.ctx.ops.run(lambda: approvals.pending(conversation),
                         lambda found: self._show(token, found), lambda _e: None)

    def reader(self, conversation: str) -> Callable[[], list[Any]]:
        """What reads a conversation's held changes in another view's background read (the
        chat reads them with its messages); [] where routines cannot be read."""
        approvals = self.ctx.lazy("approvals")

        def read() -> list[Any]:
            try:
                return list(approvals.pending(conversation))
            except Exception:  # noqa: BLE001 - the conversation still opens; no cards
                return []

        return read

    def show_cards(self, conversation: str, held: list[Any]) -> None:
        """Show what `reader` found, for the conversation now open."""
        self.conversation = conversation
        self._token += 1
        self._show(self._token, held)

    def _show(self, token: int, held: list[Any]) -> None:
        if token != self._token:
            return  # another conversation was opened meanwhile
        for card in self.cards:
            self._column.removeWidget(card)
            card.deleteLater()
        self.cards = [PendingCard(item, self) for item in held]
        for card in self.cards:
            card.approve.clicked.connect(lambda _=False, c=card: self._decide(c, True))
            card.deny.clicked.connect(lambda _=False, c=card: self._decide(c, False))
            self._column.addWidget(card)
        self.setVisible(bool(self.cards))
        self.shown.emit()

    def _decide(self, card: PendingCard, approve: bool) -> None:
        card.approve.setEnabled(False)
        card.deny.setEnabled(False)
        approvals = self.ctx.lazy("approvals")
        held = card.held

        def work() -> Any:
            return approvals.approve(held.id) if approve else approvals.deny(held.id)

        def done(_result: Any) -> None:
            self.decided.emit(str(held.conversation_id))
            self.show_for(self.conversation, every=self.conversation is None)

        self.ctx.ops.run(work, done, lambda _e: done(None), writes=True)
